/** PostToolUse hook entry (bundled to `dist/post-tool-use.impl.cjs`, run by the cached loader `dist/post-tool-use.cjs`): records artifacts, touches and conflicts. */
import "./stdout-guard.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runPostToolUse } from "../guard/post-tool-use.ts";

let raw = "";
try {
  raw = readFileSync(0, "utf8");
} catch {
  raw = "";
}
const outcome = runPostToolUse(raw, { env: process.env, now: () => new Date(), defaultPolicyPath: join(__dirname, "policy.default.json") });
for (const line of outcome.stderr) process.stderr.write(`${line}\n`);
if (outcome.stdout !== "") process.stdout.write(outcome.stdout);

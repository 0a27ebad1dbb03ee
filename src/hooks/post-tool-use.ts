/** PostToolUse hook entry (bundled to `dist/post-tool-use.mjs`): records artifacts, touches and conflicts. */
import "./stdout-guard.ts";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runPostToolUse } from "../guard/post-tool-use.ts";

let raw = "";
try {
  raw = readFileSync(0, "utf8");
} catch {
  raw = "";
}
const outcome = runPostToolUse(raw, { env: process.env, now: () => new Date(), defaultPolicyPath: fileURLToPath(new URL("./policy.default.json", import.meta.url)) });
for (const line of outcome.stderr) process.stderr.write(`${line}\n`);
if (outcome.stdout !== "") process.stdout.write(outcome.stdout);

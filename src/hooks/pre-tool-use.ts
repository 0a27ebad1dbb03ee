/**
 * PreToolUse hook entry (bundled to `dist/pre-tool-use.impl.cjs`, run by the cached loader `dist/pre-tool-use.cjs`): read stdin once, judge, print one
 * JSON object or nothing. A crash before printing exits non-zero, which the wiring's
 * `onFailure: "block"` turns into a block.
 */
import "./stdout-guard.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runPreToolUse } from "../guard/pre-tool-use.ts";

let raw = "";
try {
  raw = readFileSync(0, "utf8");
} catch {
  raw = "";
}
const outcome = runPreToolUse(raw, {
  env: process.env,
  now: () => new Date(),
  defaultPolicyPath: join(__dirname, "policy.default.json"),
  distDir: __dirname,
});
for (const line of outcome.stderr) process.stderr.write(`${line}\n`);
if (outcome.stdout !== "") process.stdout.write(outcome.stdout);

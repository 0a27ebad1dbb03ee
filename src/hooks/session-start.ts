/** SessionStart hook entry (bundled to `dist/session-start.mjs`): compiles a stale policy, injects the resume summary. */
import "./stdout-guard.ts";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runSessionStart } from "../guard/session-start.ts";
import { LANES_VERSION } from "../version.ts";

let raw = "";
try {
  raw = readFileSync(0, "utf8");
} catch {
  raw = "";
}
// plugin installs carry the pack's definitions next to dist/; project installs have their own
const packAgents = fileURLToPath(new URL("../definitions/agents", import.meta.url));
const outcome = runSessionStart(raw, {
  env: process.env,
  now: () => new Date(),
  defaultPolicyPath: fileURLToPath(new URL("./policy.default.json", import.meta.url)),
  lanesVersion: LANES_VERSION,
  fallbackAgentsDir: existsSync(packAgents) ? packAgents : undefined,
});
for (const line of outcome.stderr) process.stderr.write(`${line}\n`);
if (outcome.stdout !== "") process.stdout.write(outcome.stdout);

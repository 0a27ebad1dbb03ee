/** SessionStart hook entry (bundled to `dist/session-start.cjs`): compiles a stale policy, injects the resume summary. */
import "./stdout-guard.ts";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliCommandFor, findProjectDir } from "../guard/environment.ts";
import { runSessionStart } from "../guard/session-start.ts";
import { LANES_VERSION } from "../version.ts";

let raw = "";
try {
  raw = readFileSync(0, "utf8");
} catch {
  raw = "";
}
// plugin installs carry the pack's definitions next to dist/; project installs have their own
const packAgents = join(__dirname, "..", "definitions", "agents");
const outcome = runSessionStart(raw, {
  env: process.env,
  now: () => new Date(),
  defaultPolicyPath: join(__dirname, "policy.default.json"),
  lanesVersion: LANES_VERSION,
  cli: cliCommandFor(__dirname, findProjectDir(process.cwd(), process.env)),
  fallbackAgentsDir: existsSync(packAgents) ? packAgents : undefined,
});
for (const line of outcome.stderr) process.stderr.write(`${line}\n`);
if (outcome.stdout !== "") process.stdout.write(outcome.stdout);

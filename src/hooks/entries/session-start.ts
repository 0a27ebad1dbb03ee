/** SessionStart hook entry (bundled to `dist/session-start.cjs`): compiles a stale policy, injects the resume summary. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cliCommandFor, findProjectDir } from "../../host/env.ts";
import { runSessionStart } from "../events/session-start.ts";
import { LANES_VERSION } from "../../host/version.ts";
import { runHookEntry } from "./entry.ts";

runHookEntry((raw, deps) => {
  // plugin installs carry the pack's definitions next to dist/; project installs have their own
  const packAgents = join(__dirname, "..", "definitions", "agents");
  return runSessionStart(raw, {
    ...deps,
    lanesVersion: LANES_VERSION,
    cli: cliCommandFor(__dirname, findProjectDir(process.cwd(), process.env)),
    fallbackAgentsDir: existsSync(packAgents) ? packAgents : undefined,
  });
});

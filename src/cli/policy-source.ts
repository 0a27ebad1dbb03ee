/**
 * The policy a CLI command judges with: the compiled file when it is fresh, else a compile in
 * memory (with a note saying the file is stale), else the built-in defaults.
 */
import { loadPolicy } from "../config/load.ts";
import { readCompiledPolicy } from "../config/policy-file.ts";
import { projectPaths } from "../host/layout.ts";
import type { CompiledPolicy } from "../policy/compiled.ts";
import { cliCommandFor } from "../host/env.ts";
import { cliDir, packAgentsDir } from "./pack.ts";
import { LANES_VERSION } from "../host/version.ts";
import { CliError } from "./types.ts";

export interface PolicyForCli {
  readonly policy: CompiledPolicy;
  /** Where it came from, for humans. */
  readonly origin: string;
  /** A warning to show (stale compiled file), if any. */
  readonly note: string | undefined;
}

/** How to run `lanes build` with the CLI that is running now. */
function buildCommand(projectDir: string): string {
  const dir = cliDir();
  return `${dir === undefined ? "lanes" : cliCommandFor(dir, projectDir)} build`;
}

export function policyForCli(projectDir: string, home: string): PolicyForCli {
  const file = projectPaths(projectDir).compiledPolicy;
  const compiled = readCompiledPolicy(file);
  if (compiled.ok) return { policy: compiled.policy, origin: file, note: undefined };
  const fallbackAgentsDir = packAgentsDir();
  const loaded = loadPolicy({
    projectDir,
    home,
    lanesVersion: LANES_VERSION,
    ...(fallbackAgentsDir !== undefined && { fallbackAgentsDir }),
  });
  if (!loaded.ok) {
    const first = loaded.issues[0]!;
    throw new CliError(
      `the policy does not compile: ${first.message.startsWith(first.file) ? first.message : `${first.file}: ${first.message}`}`,
      1,
      loaded.issues.length > 1
        ? `(${loaded.issues.length - 1} more problem(s): run \`lanes build\` to see them all)`
        : undefined,
    );
  }
  const note =
    compiled.kind === "missing"
      ? undefined
      : `note: \`${compiled.file}\`: ${compiled.message}; judged with a fresh compile; the hooks recompile it on their next tool call (or run \`${buildCommand(projectDir)}\` now)`;
  return {
    policy: loaded.policy,
    origin: compiled.kind === "missing" ? "compiled in memory (no compiled policy file)" : "compiled in memory",
    note,
  };
}

/**
 * The policy a CLI command judges with: the compiled file when it is fresh, else a compile in
 * memory (with a note saying the file is stale). When the sources do not compile, a command that
 * judges calls (`lanes check`) may judge with the last good compiled policy, as the guard does,
 * with a note saying so; the others stop with the compile error.
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

/** How a command wants a policy whose sources do not compile handled. */
export interface PolicyForCliOptions {
  /** Judge with the last good compiled policy (as the guard does) instead of failing, when there is one. */
  readonly lastGood?: boolean;
}

export function policyForCli(projectDir: string, home: string, options: PolicyForCliOptions = {}): PolicyForCli {
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
    const where = firstLine(first.message.startsWith(first.file) ? first.message : `${first.file}: ${first.message}`);
    const lastGood = options.lastGood === true ? readCompiledPolicy(file, { allowStale: true }) : undefined;
    if (lastGood?.ok === true)
      return {
        policy: lastGood.policy,
        origin: `${file} (the last good compile: the policy files do not compile)`,
        note: `warning: the policy does not compile: ${where}${loaded.issues.length > 1 ? ` (and ${loaded.issues.length - 1} more)` : ""}; judged with the last good compiled policy, as the guard does until that line is fixed`,
      };
    throw new CliError(
      `the policy does not compile: ${where}`,
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

/** The first line of a compile error (YAML errors add the source lines after it). */
function firstLine(message: string): string {
  const at = message.indexOf("\n");
  return at < 0 ? message : message.slice(0, at);
}

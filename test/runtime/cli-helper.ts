/** Runs the real CLI (`runCli`, the whole command table) in-process with a captured context. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli/run.ts";
import type { CliContext } from "../../src/cli/types.ts";

/** The exit code and what the command printed. */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** An empty home directory of its own, so no user config leaks in and it is no ancestor of a project. */
const HOME = mkdtempSync(join(tmpdir(), "lanes-cli-home-"));

/** Runs `lanes <argv>` in `cwd` with an empty HOME; `stdin` feeds `-`. */
export async function cli(argv: readonly string[], cwd: string, stdin = ""): Promise<CliRun> {
  let out = "";
  let err = "";
  const ctx: CliContext = {
    cwd,
    env: { HOME },
    out: (t) => (out += t),
    err: (t) => (err += t),
    stdin: async () => stdin,
  };
  const code = await runCli(argv, ctx);
  return { code, out, err };
}

/**
 * `lanes doctor [dir]`: is the guard fully active here? (see src/install/doctor.ts)
 */
import { resolve } from "node:path";
import { findProjectDir, homeOf } from "../../host/env.ts";
import { runDoctor } from "../../install/doctor.ts";
import { LANES_VERSION } from "../../host/version.ts";
import { parseCommandArgs } from "../args.ts";
import { CliError, type Command } from "../types.ts";

const usage = `usage: lanes doctor [dir] [options]

check that lanes' guard is fully active in dir (default: the project of the current directory):
node on PATH, settings files, hook files and wiring, tracked by git, the compiled policy, a plugin
or user-level install next to the project's, the Claude Code version

options:
  --json   one JSON object: {"ok": boolean, "checks": [{id, status, message, fix?}]}

exit codes: 0 the guard is fully active (warnings allowed), 1 at least one check failed`;

export const doctorCommand: Command = {
  name: "doctor",
  summary: "check that the guard is fully active (exit 1 if not)",
  usage,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: "boolean" } }, usage);
    if (positionals.length > 1) throw new CliError("give at most one directory", 64, usage);
    const projectDir =
      positionals[0] === undefined ? findProjectDir(ctx.cwd, ctx.env) : resolve(ctx.cwd, positionals[0]);
    const checks = runDoctor({ projectDir, home: homeOf(ctx.env), env: ctx.env, lanesVersion: LANES_VERSION });
    const ok = checks.every((c) => c.status !== "fail");
    if (values.json === true) ctx.out(`${JSON.stringify({ ok, checks })}\n`);
    else {
      for (const c of checks)
        ctx.out(
          `${c.status.padEnd(4)}  ${c.id}: ${c.message}${c.status === "ok" || c.fix === undefined ? "" : `; ${c.fix}`}\n`,
        );
      ctx.out(ok ? "the guard is active\n" : "the guard is NOT fully active: fix the failures above\n");
    }
    return ok ? 0 : 1;
  },
};

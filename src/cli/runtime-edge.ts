/**
 * The edge between runtime results and the CLI, shared by `lanes progress|memory|checkpoint|phase`:
 * a failed {@link Result} becomes a {@link CliError} with an exit code by issue kind, option values
 * are checked in the house message style, and subcommands are dispatched from a table.
 */
import { resolve } from "node:path";
import { CliError, type CliContext } from "./types.ts";
import { findProjectDir } from "../host/env.ts";
import type { IssueCode, Result } from "../io/result.ts";

/** Exit code per issue kind: usage 64, data 65, I/O 74, temporary failure 75, otherwise 1. */
const EXIT: Record<IssueCode, number> = {
  "invalid-input": 64,
  corrupt: 65,
  io: 74,
  locked: 75,
  missing: 1,
  refused: 1,
  "verify-failed": 1,
};

/** The value of a successful result; otherwise throws its first issue as a {@link CliError}. */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  const issue = result.issues[0];
  if (issue === undefined) throw new CliError("failed without a reason: please report it with the command you ran", 70);
  throw new CliError(issue.message, EXIT[issue.code], issue.help);
}

/** The project directory: `--project` (relative to the cwd), else `CLAUDE_PROJECT_DIR`, else the nearest ancestor with `.claude/`, else the cwd. */
export function projectDirOf(option: string | undefined, ctx: CliContext): string {
  return option === undefined ? findProjectDir(ctx.cwd, ctx.env) : resolve(ctx.cwd, option);
}

/** A required string option. */
export function required(value: string | undefined, flag: string, usage: string): string {
  if (value === undefined || value.trim() === "") throw new CliError(`\`--${flag}\` is required`, 64, usage.trimEnd());
  return value;
}

/** A whole-number option at least `min`. */
export function wholeNumber(value: string | undefined, flag: string, usage: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new CliError(`\`--${flag} ${value}\` must be a whole number, at least ${min}`, 64, usage.trimEnd());
  return n;
}

/** A JSON object option (`--result '{"k": 1}'`). */
export function jsonObject(value: string | undefined, flag: string, usage: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new CliError(`\`--${flag}\` must be a JSON object, received \`${value}\``, 64, `example: --${flag} '{"notes": "pattern added at line 245"}'`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new CliError(`\`--${flag}\` must be a JSON object, received \`${value}\``, 64, usage.trimEnd());
  }
  return parsed as Record<string, unknown>;
}

/** One of a fixed set of values. */
export function oneOf<T extends string>(value: string | undefined, flag: string, allowed: readonly T[], usage: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new CliError(`\`--${flag}\` is ${allowed.join(", ")}, received \`${value}\``, 64, usage.trimEnd());
  return value as T;
}

/** Prints one JSON document. */
export function printJson(ctx: CliContext, value: unknown): void {
  ctx.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** A subcommand: its runner receives the arguments after its name. */
export type Subcommand = (args: readonly string[], ctx: CliContext) => Promise<number | void> | number | void;

/** Runs `args[0]` from `table`, or throws a usage error naming the known subcommands. */
export async function dispatch(command: string, args: readonly string[], ctx: CliContext, table: Record<string, Subcommand>, usage: string): Promise<number | void> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h") {
    ctx.out(`${usage.trimEnd()}\n`);
    return name === undefined ? 64 : 0;
  }
  const run = table[name];
  if (run === undefined) {
    throw new CliError(`unknown subcommand \`${name}\`: \`lanes ${command}\` has ${Object.keys(table).map((k) => `\`${k}\``).join(", ")}`, 64, usage.trimEnd());
  }
  return run(rest, ctx);
}

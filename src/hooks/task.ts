/**
 * Task constraints from the progress file (`next_step.expert` and `next_step.constraints`), read on
 * the hot path with JSON.parse and a structural check. A missing progress file means no task
 * constraints; a progress file that cannot be read or parsed, or whose constraints have the wrong
 * shape, is a problem: the guard fails closed for subagents' mutating calls (constraints it cannot
 * read might narrow them), see {@link readTaskConstraintsChecked}.
 */
import { readFileSync } from "node:fs";
import { compilePathGlob } from "../globs/compile.ts";
import type { TaskConstraints } from "../policy/lanes.ts";

const strings = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : undefined);

/** The task constraints, or the problem that keeps them from being read. */
export interface CheckedTaskConstraints {
  readonly task?: TaskConstraints;
  /** Why the progress file's constraints cannot be read (one clause naming the file). */
  readonly problem?: string;
}

export function readTaskConstraints(progressPath: string, caseInsensitive: boolean): TaskConstraints | undefined {
  return readTaskConstraintsChecked(progressPath, caseInsensitive).task;
}

/** {@link readTaskConstraints} that also says when the file exists but cannot be used. */
export function readTaskConstraintsChecked(progressPath: string, caseInsensitive: boolean): CheckedTaskConstraints {
  let text: string;
  try {
    text = readFileSync(progressPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    return { problem: `\`${progressPath}\` cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: `\`${progressPath}\` is not valid JSON` };
  }
  const c = (data as { next_step?: { constraints?: Record<string, unknown> } | null } | null)?.next_step?.constraints;
  if (c !== null && c !== undefined && typeof c === "object") {
    const bad = (["write_paths", "tools"] as const).find((k) => c[k] !== undefined && strings(c[k]) === undefined);
    if (bad !== undefined) return { problem: `\`${progressPath}\` has \`next_step.constraints.${bad}\` that is not a list of strings` };
  }
  const task = constraintsOf(data, caseInsensitive);
  return task === undefined ? {} : { task };
}

function constraintsOf(data: unknown, caseInsensitive: boolean): TaskConstraints | undefined {
  const progress = data as { status?: unknown; next_step?: { step?: unknown; expert?: unknown; constraints?: Record<string, unknown> } | null } | null;
  if (progress === null || typeof progress !== "object" || progress.status === "completed" || progress.status === "failed") return undefined;
  const next = progress.next_step;
  if (next === null || next === undefined || typeof next.expert !== "string") return undefined;
  const c = next.constraints;
  if (c === null || c === undefined || typeof c !== "object") return undefined;
  const writePaths = strings(c["write_paths"]);
  const tools = strings(c["tools"]);
  const readOnly = c["read_only"] === true;
  if (writePaths === undefined && tools === undefined && !readOnly) return undefined;
  return {
    agent: next.expert.slice(next.expert.lastIndexOf(":") + 1),
    step: typeof next.step === "number" ? next.step : undefined,
    writePaths: writePaths?.map((g) => compilePathGlob(g, { caseInsensitive })),
    tools,
    readOnly,
  };
}

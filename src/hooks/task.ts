/**
 * Task constraints from the progress file (`next_step.expert` and `next_step.constraints`), checked
 * structurally on the hot path. No progress file (or an unusable one, see progressForHooks) means
 * no task constraints.
 */
import { compilePathGlob } from "../globs/compile.ts";
import type { TaskConstraints } from "../policy/lanes.ts";
import type { RawProgress } from "../runtime/progress-hot.ts";

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : undefined;

/** The task constraints of the current step of `raw` (from progressForHooks). */
export function taskConstraintsOf(raw: RawProgress | undefined, caseInsensitive: boolean): TaskConstraints | undefined {
  if (raw === undefined) return undefined;
  const progress = raw as {
    status?: unknown;
    next_step?: { step?: unknown; expert?: unknown; constraints?: Record<string, unknown> } | null;
  };
  if (progress.status === "completed" || progress.status === "failed") return undefined;
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

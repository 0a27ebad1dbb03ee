/**
 * Task constraints from the progress file (`next_step.expert` and `next_step.constraints`), read on
 * the hot path with JSON.parse and a structural check. A missing or unreadable progress file means
 * no task constraints (the runtime reports corrupt files; the guard does not block on them).
 */
import { readFileSync } from "node:fs";
import { compilePathGlob } from "../globs/compile.ts";
import type { TaskConstraints } from "../policy/lanes.ts";

const strings = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : undefined);

export function readTaskConstraints(progressPath: string, caseInsensitive: boolean): TaskConstraints | undefined {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(progressPath, "utf8"));
  } catch {
    return undefined;
  }
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

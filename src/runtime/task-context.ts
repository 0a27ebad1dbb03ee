/**
 * The inter-skill task context: pure functions over the progress file's `task_context` (nesting
 * rules of nested skills, the full TaskContext for checkpoints). Zod-free (type imports only), so the
 * PreCompact checkpoint can use it.
 */
import type { Nesting, ProgressFile, TaskContext, TaskContextState } from "./progress-schema.ts";
import { fail, ok, type Result } from "../io/result.ts";

/** The default maximum nesting depth of the inter-skill protocol. */
export const DEFAULT_MAX_DEPTH = 3;

/** A fresh task context state: no history, no artifacts, depth 0. */
export function emptyTaskContextState(maxDepth = DEFAULT_MAX_DEPTH): TaskContextState {
  return {
    current_phase: "init",
    history: [],
    artifacts: {},
    nesting: { current_depth: 0, max_depth: maxDepth, path: [], entered_at: [] },
  };
}

/** Whether `skill` may be entered from `nesting`: refused at the maximum depth and when it is already in the path (a cycle). */
export function checkNesting(nesting: Nesting, skill: string): Result<void> {
  const path = nesting.path.length === 0 ? "(top level)" : nesting.path.join(" → ");
  if (nesting.current_depth >= nesting.max_depth) {
    return fail(
      "refused",
      `cannot enter \`${skill}\`: the maximum nesting depth ${nesting.max_depth} is reached: current path ${path}`,
      {
        help: "finish the current skill first, or do the work in this one",
      },
    );
  }
  if (nesting.path.includes(skill)) {
    return fail("refused", `cannot enter \`${skill}\`: it is already in the path ${path}, which would be a cycle`, {
      help: "hand the work back to the running `" + skill + "` instead",
    });
  }
  return ok(undefined);
}

/** The nesting after entering `skill` at `at` (call {@link checkNesting} first). */
export function enterNesting(nesting: Nesting, skill: string, at: string): Nesting {
  return {
    ...nesting,
    current_depth: nesting.current_depth + 1,
    path: [...nesting.path, skill],
    entered_at: [...(nesting.entered_at ?? nesting.path.map(() => at)), at],
  };
}

/** The nesting after leaving the innermost skill, which must be `skill`; also when it was entered. */
export function leaveNesting(
  nesting: Nesting,
  skill: string,
): Result<{ nesting: Nesting; enteredAt: string | undefined }> {
  const innermost = nesting.path.at(-1);
  if (innermost !== skill) {
    const now = innermost === undefined ? "no skill is entered" : `the innermost skill is \`${innermost}\``;
    return fail("refused", `cannot leave \`${skill}\`: ${now}`, {
      help: "leave skills in the reverse order they were entered",
    });
  }
  const enteredAt = nesting.entered_at?.at(-1);
  return ok({
    nesting: {
      ...nesting,
      current_depth: Math.max(0, nesting.current_depth - 1),
      path: nesting.path.slice(0, -1),
      entered_at: (nesting.entered_at ?? []).slice(0, nesting.path.length - 1),
    },
    enteredAt,
  });
}

/** The full TaskContext of a progress file (the workflow id is the task id). */
export function taskContextOf(progress: ProgressFile): TaskContext {
  const state = progress.task_context ?? emptyTaskContextState();
  const duration = progress.completed_steps.reduce((sum, s) => sum + s.duration_ms, 0);
  return {
    task_id: progress.workflow_id,
    original_request: progress.task.original_request,
    current_phase: state.current_phase,
    history: state.history,
    artifacts: state.artifacts,
    metadata: { created_at: progress.created_at, last_updated: progress.updated_at, total_duration_ms: duration },
    nesting: state.nesting,
  };
}

/** The artifact type of a file, by extension: code, document (markdown, text), data (JSON, YAML, CSV, ...). */
export function artifactTypeOf(path: string): "code" | "document" | "data" {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  if (["md", "mdx", "txt", "rst", "adoc", "html"].includes(ext)) return "document";
  if (["json", "jsonl", "yaml", "yml", "toml", "csv", "tsv", "xml", "sql", "lock"].includes(ext)) return "data";
  return "code";
}

/**
 * Keeps the progress file's `next_step` in step with the task channel: when a task is assigned
 * (`TaskUpdate` with `owner`) while a workflow runs, `next_step` names that agent and action and
 * carries the task id and description as context, so `lanes progress resume`, the task constraints
 * of the guard and the task list agree. Nothing happens without a running workflow.
 */
import { projectPaths } from "../../host/layout.ts";
import { atomicWriteFile } from "../../io/atomic.ts";
import { withLockSync } from "../../io/lock.ts";
import { readProgressRaw } from "../../runtime/progress-hot.ts";
import { renderJson } from "../../runtime/state-file.ts";
import type { TaskRecord } from "./task-store.ts";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The `next_step` for an assigned task, keeping the step number and constraints of a step for the same agent. */
export function nextStepFor(current: unknown, currentStep: unknown, task: TaskRecord): Record<string, unknown> {
  const prev = isRecord(current) ? current : undefined;
  const sameAgent = prev !== undefined && prev["expert"] === task.assignee;
  const step =
    sameAgent && typeof prev["step"] === "number"
      ? prev["step"]
      : (typeof currentStep === "number" ? currentStep : 0) + 1;
  const context = {
    ...(sameAgent && isRecord(prev["context"]) ? prev["context"] : {}),
    task_id: task.id,
    ...(task.description !== undefined && { task: task.description }),
  };
  return {
    ...(sameAgent ? prev : {}),
    step,
    expert: task.assignee,
    action: task.subject || `task #${task.id}`,
    context,
  };
}

/** Updates `next_step` for an assigned task; a problem message, or undefined. */
export function syncNextStep(projectDir: string, task: TaskRecord): string | undefined {
  if (task.assignee === undefined) return undefined;
  const file = projectPaths(projectDir).progress;
  const peek = readProgressRaw(projectDir);
  if (!peek.ok || peek.value === undefined || peek.value.status === "completed" || peek.value.status === "failed")
    return undefined;
  const locked = withLockSync(file, () => {
    const current = readProgressRaw(projectDir);
    if (!current.ok || current.value === undefined) return;
    const doc = current.value as Record<string, unknown>;
    doc["next_step"] = nextStepFor(doc["next_step"], doc["current_step"], task);
    atomicWriteFile(file, renderJson(doc));
  });
  return locked.ok
    ? undefined
    : `lanes: next_step not updated for task #${task.id}: ${locked.issues.map((i) => i.message).join("; ")}`;
}

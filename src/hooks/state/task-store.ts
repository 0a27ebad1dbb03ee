/**
 * What lanes keeps about the task channel, under `.claude/state/` (git-ignored):
 *
 * - `tasks.json`: the tasks created in Claude Code's task system, as lanes saw them (id, subject,
 *   description, assignee from `TaskUpdate` `owner`, status, the validation outcome of its
 *   completion, the agent it must be reassigned to after a VIOLATION). Read by the PreToolUse guard
 *   (rules `tasks.*`) for `TaskUpdate`/`TaskGet` calls only.
 * - `runs/<agent_id>.json`: one subagent run: when it started, the work-tree snapshot taken then,
 *   and the last validation of its output (with whether the undo chance was used and whether the
 *   orchestrator was told).
 * - `hold.json`: present while a DANGEROUS outcome waits for a human decision; task creation and
 *   completion are refused until `lanes decide` clears it.
 *
 * Small files, no schema library (the guard reads `tasks.json` on the hot path).
 */
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { readState } from "../../io/read.ts";
import { join } from "node:path";
import { atomicWriteFile, ensurePrivateDir } from "../../io/atomic.ts";
import { safeId } from "../../host/ids.ts";
import { updateBookkeeping } from "./bookkeeping.ts";
import type { ValidationResult } from "../validation/validation.ts";
import type { WorktreeSnapshot } from "../validation/worktree-snapshot.ts";
import type { AuditMark } from "./audit.ts";
import { isoTime } from "../../io/time.ts";

/** One task as lanes saw it. */
export interface TaskRecord {
  readonly id: string;
  readonly session: string;
  readonly subject: string;
  readonly description?: string;
  /** `TaskUpdate` `owner`: the agent the task is assigned to. */
  readonly assignee?: string;
  /** Who created it: an agent type, or `main`. */
  readonly creator?: string;
  readonly status: "pending" | "in_progress" | "completed" | "refused";
  /** `VALID, SAFE` and so on, from the last completion attempt. */
  readonly outcome?: string;
  /** After a VIOLATION: the agents the work belongs to. */
  readonly reassign_to?: readonly string[];
  readonly updated: string;
}

export interface TasksFile {
  readonly version: 1;
  readonly tasks: Readonly<Record<string, TaskRecord>>;
}

/** One subagent run. */
export interface RunRecord {
  readonly version: 1;
  readonly session: string;
  readonly agent_id: string;
  readonly agent: string;
  readonly started: string;
  /** Where the audit log stood at the start (`null`: there was none); absent in records of older lanes. */
  readonly audit_mark?: AuditMark | null;
  readonly snapshot?: WorktreeSnapshot;
  /** Why there is no snapshot (not a git repository, git failed). */
  readonly snapshot_error?: string;
  readonly stopped?: string;
  readonly validation?: ValidationResult;
  /** The one chance to undo a VIOLATION at SubagentStop was given. */
  readonly undo_asked?: boolean;
  /** The validation was given to the orchestrator. */
  readonly delivered?: boolean;
}

/** A DANGEROUS outcome waiting for a human. */
export interface Hold {
  readonly since: string;
  readonly agent: string;
  readonly agent_id?: string;
  readonly task_id?: string;
  readonly reason: string;
}

const EMPTY_TASKS: TasksFile = { version: 1, tasks: {} };
/** How long tasks and run records are kept. */
const KEEP_MS = 14 * 24 * 60 * 60 * 1000;

export const tasksPath = (stateDir: string): string => join(stateDir, "tasks.json");
export const runPath = (stateDir: string, agentId: string): string => join(stateDir, "runs", `${safeId(agentId)}.json`);
export const holdPath = (stateDir: string): string => join(stateDir, "hold.json");

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readState(path)) as T;
  } catch {
    return undefined;
  }
}

export function readTasks(stateDir: string): TasksFile {
  return readTasksFile(tasksPath(stateDir));
}

function readTasksFile(path: string): TasksFile {
  const data = readJson<TasksFile>(path);
  return data?.version === 1 && typeof data.tasks === "object" && data.tasks !== null ? data : EMPTY_TASKS;
}

/** The task key: task ids restart per task list, so they are kept per session. */
export const taskKey = (session: string, id: string): string => `${session}/${id}`;

export function findTask(stateDir: string, session: string, id: string): TaskRecord | undefined {
  return readTasks(stateDir).tasks[taskKey(session, id)];
}

/** The assignee of the most recently updated task with this id in any session (for `lanes check`, which has no session). */
export function latestAssignee(stateDir: string, id: string): string | undefined {
  const matches = Object.values(readTasks(stateDir).tasks).filter((t) => t.id === id);
  return matches.sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0))[0]?.assignee;
}

/** Creates or changes one task; returns a problem message, if any. */
export function updateTask(
  stateDir: string,
  session: string,
  id: string,
  change: (current: TaskRecord | undefined) => TaskRecord,
  now: Date,
): string | undefined {
  const path = tasksPath(stateDir);
  const cutoff = isoTime(new Date(now.getTime() - KEEP_MS));
  return updateBookkeeping(path, stateDir, readTasksFile, (file): TasksFile => {
    // tasks of old sessions go (task ids restart per task list, so they would only confuse `lanes check`)
    const kept = Object.fromEntries(
      Object.entries(file.tasks).filter(([, t]) => typeof t.updated !== "string" || t.updated >= cutoff),
    );
    return { version: 1, tasks: { ...kept, [taskKey(session, id)]: change(file.tasks[taskKey(session, id)]) } };
  });
}

/** Removes run records older than the retention, at most `max` files per call (best effort). */
export function pruneRuns(stateDir: string, now: Date, max = 200): void {
  const dir = join(stateDir, "runs");
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith(".json"))
      .slice(0, max);
  } catch {
    return;
  }
  for (const name of names) {
    try {
      if (now.getTime() - lstatSync(join(dir, name)).mtimeMs > KEEP_MS) rmSync(join(dir, name), { force: true });
    } catch {
      // another hook removed it first
    }
  }
}

export function readRun(stateDir: string, agentId: string): RunRecord | undefined {
  const data = readJson<RunRecord>(runPath(stateDir, agentId));
  return data?.version === 1 ? data : undefined;
}

/**
 * Writes the record of a run that starts, whole and without the lock {@link updateRun} takes: no
 * other hook writes the record of an agent before its start is recorded (its id is new), and the
 * write is atomic (readers see no record or the whole one). Returns a problem message, if any.
 */
export function startRun(stateDir: string, run: RunRecord): string | undefined {
  try {
    ensurePrivateDir(join(stateDir, "runs"));
    atomicWriteFile(runPath(stateDir, run.agent_id), `${JSON.stringify(run)}\n`, { durable: false });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export function updateRun(
  stateDir: string,
  agentId: string,
  change: (current: RunRecord | undefined) => RunRecord,
): string | undefined {
  ensurePrivateDir(join(stateDir, "runs"));
  return updateBookkeeping(
    runPath(stateDir, agentId),
    stateDir,
    (p) => {
      const data = readJson<RunRecord>(p);
      return data?.version === 1 ? data : undefined;
    },
    change,
  );
}

export function readHold(stateDir: string): Hold | undefined {
  return readJson<Hold>(holdPath(stateDir));
}

export function setHold(stateDir: string, hold: Hold): string | undefined {
  return updateBookkeeping(
    holdPath(stateDir),
    stateDir,
    () => undefined,
    () => hold,
  );
}

/** Removes the hold; true when there was one. */
export function clearHold(stateDir: string): boolean {
  const had = readHold(stateDir) !== undefined;
  rmSync(holdPath(stateDir), { force: true });
  return had;
}

/**
 * Which agent touched which file, per workflow (`.claude/state/touches.json`), and conflict
 * detection: when a second agent is about to modify a file another agent modified in the same
 * workflow, the guard keeps a copy of the earlier version under `.claude/state/conflicts/` before
 * the write happens; after the write, the PostToolUse hook records the conflict and tells the
 * model and the human that a person must choose. Neither output is ever lost.
 *
 * A workflow is the progress file's `workflow_id` when one is running, else the session.
 */
import { constants, copyFileSync, existsSync } from "node:fs";
import { readState } from "../../io/read.ts";
import { basename, join } from "node:path";
import { ensurePrivateDir } from "../../io/atomic.ts";
import { safeId } from "../../host/ids.ts";
import type { RawProgress } from "../../runtime/progress-hot.ts";
import { updateBookkeeping } from "./bookkeeping.ts";
import { isoTime } from "../../io/time.ts";

/** The last modification of one file. */
export interface Touch {
  readonly agent: string;
  readonly agent_id: string | undefined;
  readonly tool: string;
  readonly at: string;
  /**
   * Every agent that modified the file in this workflow, in the order they first did (absent in
   * files written before it existed: then only `agent` is known). A stray write that the owner
   * overwrote later stays on record here (`lanes independence --after`).
   */
  readonly writers?: readonly string[];
}

/** A copy kept before a second agent overwrote a file. */
export interface PendingConflict {
  readonly file: string;
  readonly earlier: Touch;
  /** The agent about to write. */
  readonly later: string;
  /** Where the earlier version was copied (absent when the file did not exist any more). */
  readonly copy: string | undefined;
  readonly at: string;
}

export interface TouchesFile {
  readonly version: 1;
  readonly workflows: Readonly<
    Record<
      string,
      {
        /** By absolute path (as the hooks see it; readers make it project-relative themselves). */
        readonly files: Readonly<Record<string, Touch>>;
        readonly pending: readonly PendingConflict[];
        readonly updated: string;
      }
    >
  >;
}

const EMPTY: TouchesFile = { version: 1, workflows: {} };
const WORKFLOW_TTL_MS = 7 * 24 * 60 * 60 * 1000;

function read(path: string): TouchesFile {
  try {
    const data = JSON.parse(readState(path)) as TouchesFile;
    return data?.version === 1 && typeof data.workflows === "object" ? data : EMPTY;
  } catch {
    return EMPTY;
  }
}

export interface TouchPaths {
  readonly touches: string;
  readonly state: string;
  readonly conflicts: string;
}

/** The workflow key: the running workflow's id (`progress` from progressForHooks), else the session. */
export function workflowKey(progress: RawProgress | undefined, session: string): string {
  if (progress !== undefined && progress.status !== "completed" && progress.status !== "failed")
    return progress.workflow_id;
  return `session-${session}`;
}

type Workflow = TouchesFile["workflows"][string];

/** Changes one workflow's entry under the lock (pruning old workflows); returns a problem message, if any. */
function updateWorkflow(
  paths: TouchPaths,
  workflow: string,
  now: Date,
  change: (wf: Workflow) => Workflow,
): string | undefined {
  return updateBookkeeping(paths.touches, paths.state, read, (file) => {
    const wf = file.workflows[workflow] ?? { files: {}, pending: [], updated: isoTime(now) };
    return prune(
      { ...file, workflows: { ...file.workflows, [workflow]: { ...change(wf), updated: isoTime(now) } } },
      now,
    );
  });
}

/**
 * Before `agent` writes `files` (absolute paths): for each file last modified by another agent in
 * this workflow, copy its current content aside and remember the pending conflict. Cheap when no
 * other agent touched the files: one read of touches.json, no write.
 */
export function protectEarlierVersions(
  paths: TouchPaths,
  workflow: string,
  agent: string,
  files: readonly string[],
  now: Date,
): PendingConflict[] {
  const current = read(paths.touches).workflows[workflow];
  const contested = files.filter((f) => {
    const t = current?.files[f];
    return t !== undefined && t.agent !== agent;
  });
  if (contested.length === 0) return [];
  const created: PendingConflict[] = [];
  updateWorkflow(paths, workflow, now, (wf) => {
    const pending = [...wf.pending];
    for (const f of contested) {
      const earlier = wf.files[f];
      if (earlier === undefined || earlier.agent === agent || pending.some((p) => p.file === f && p.later === agent))
        continue;
      let copy: string | undefined;
      if (existsSync(f)) {
        const dir = join(paths.conflicts, safeId(workflow));
        ensurePrivateDir(dir);
        copy = join(dir, `${isoTime(now).replace(/[:.]/g, "-")}-${safeId(earlier.agent)}-${safeId(basename(f))}`);
        // exclusive: a name a link holds is refused, never written through
        copyFileSync(f, copy, constants.COPYFILE_EXCL);
      }
      const conflict = { file: f, earlier, later: agent, copy, at: isoTime(now) };
      pending.push(conflict);
      created.push(conflict);
    }
    return { ...wf, pending };
  });
  return created;
}

/**
 * After `agent` modified `files`: records the touches and returns the conflicts that this write
 * completed (their pending entries are cleared).
 */
export function recordTouches(
  paths: TouchPaths,
  workflow: string,
  touch: Touch,
  files: readonly string[],
  now: Date,
): PendingConflict[] {
  if (files.length === 0) return [];
  let confirmed: PendingConflict[] = [];
  updateWorkflow(paths, workflow, now, (wf) => {
    const touched = { ...wf.files };
    for (const f of files) {
      const before = touched[f];
      const writers = before === undefined ? [] : [...(before.writers ?? [before.agent])];
      if (!writers.includes(touch.agent)) writers.push(touch.agent);
      touched[f] = { ...touch, writers };
    }
    confirmed = wf.pending.filter((p) => files.includes(p.file) && p.later === touch.agent);
    return { ...wf, files: touched, pending: wf.pending.filter((p) => !confirmed.includes(p)) };
  });
  return confirmed;
}

function prune(file: TouchesFile, now: Date): TouchesFile {
  const workflows = Object.fromEntries(
    Object.entries(file.workflows).filter(([, wf]) => now.getTime() - Date.parse(wf.updated) < WORKFLOW_TTL_MS),
  );
  return { version: 1, workflows };
}

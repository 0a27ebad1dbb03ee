/**
 * The progress functions that hooks call on every tool call (PostToolUse: {@link recordArtifacts})
 * and session start (SessionStart: {@link resumeSummary}). Hot path: no zod, no YAML, no
 * gray-matter. The file is checked structurally (JSON, version "2.0", the artifact lists), edited
 * as plain JSON so fields lanes does not know survive, and written atomically under the lock.
 *
 * A missing file means there is no workflow: nothing happens. A corrupt file is never written:
 * the caller gets an error value (the CLI's `lanes progress show` explains it and keeps a backup).
 */
import { existsSync, readdirSync } from "node:fs";
import { readState } from "../io/read.ts";
import { isAbsolute, join, normalize, sep } from "node:path";
import { projectPaths } from "../host/layout.ts";
import { shownPath } from "../host/paths.ts";
import { atomicWriteFile } from "../io/atomic.ts";
import { joinKeys } from "../host/ids.ts";
import { withLockSync, type LockOptions } from "../io/lock.ts";
import { renderJson } from "./state-file.ts";
import { artifactTypeOf } from "./task-context.ts";
import { describeError, fail, nowOf, ok, propagate, type Result, type RuntimeDeps } from "../io/result.ts";
import { isoTime } from "../io/time.ts";

/** Options of the hot-path functions. */
export interface HotOptions extends RuntimeDeps {
  /** Lock options (tests shorten the timeout). */
  readonly lock?: LockOptions;
}

/** Files a tool call created or modified (absolute, or relative to the project). */
export interface FileChanges {
  /** Files that did not exist before the call. */
  readonly created?: readonly string[];
  /** Files that existed and were changed. */
  readonly modified?: readonly string[];
}

/** What {@link recordArtifacts} did. */
export type RecordOutcome =
  /** The progress file was updated. */
  | "recorded"
  /** Every file was already listed: nothing written. */
  | "unchanged"
  /** There is no progress file: nothing to record into. */
  | "no-workflow"
  /** The workflow is completed or failed: later files are not part of it. */
  | "finished";

/** The progress file as the hot path sees it: structurally checked JSON. */
export interface RawProgress {
  readonly [key: string]: unknown;
  readonly version: "2.0";
  readonly workflow_id: string;
  readonly status: string;
  readonly artifacts: { files_created: string[]; files_modified: string[]; [key: string]: unknown };
}

const REPAIR =
  "run `lanes progress show` to see the problem and keep a backup, then `lanes progress init --force` to start over or fix the file by hand";

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The first structural problem of a parsed progress file, or undefined when the hot path can use it. */
export function progressStructureProblem(data: unknown): string | undefined {
  if (!isRecord(data)) return "expected a JSON object";
  if (data.version !== "2.0") return `version: expected "2.0", found ${JSON.stringify(data.version) ?? "nothing"}`;
  if (typeof data.workflow_id !== "string") return "workflow_id: expected string";
  if (typeof data.status !== "string") return "status: expected string";
  if (!isRecord(data.artifacts)) return "artifacts: expected object";
  if (!isStringArray(data.artifacts.files_created)) return "artifacts.files_created: expected an array of strings";
  if (!isStringArray(data.artifacts.files_modified)) return "artifacts.files_modified: expected an array of strings";
  return undefined;
}

/** Reads the progress file structurally: undefined when it does not exist, a `corrupt` issue (no backup, no write) when unusable. */
export function readProgressRaw(projectDir: string): Result<RawProgress | undefined> {
  const file = projectPaths(projectDir).progress;
  const display = displayOf(projectDir, file);
  let text: string;
  try {
    text = readState(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return ok(undefined);
    return fail("io", `cannot read \`${display}\`: ${describeError(error)}`, { file });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return fail("corrupt", `\`${display}\` is not usable: not valid JSON: ${describeError(error)}`, {
      help: REPAIR,
      file,
    });
  }
  const problem = progressStructureProblem(data);
  if (problem !== undefined) return fail("corrupt", `\`${display}\` is not usable: ${problem}`, { help: REPAIR, file });
  return ok(data as RawProgress);
}

/**
 * The progress file as the hooks read it: the structurally checked document, or `undefined` when
 * there is none or it is unusable (the CLI reports a corrupt file; the guard never blocks on it).
 * The one reader of `progress.json` for the hooks' decisions (task constraints, the workflow key).
 */
export function progressForHooks(projectDir: string): RawProgress | undefined {
  const read = readProgressRaw(projectDir);
  return read.ok ? read.value : undefined;
}

/** A path as the user sees it: relative to the project when inside it, with `/` separators. */
export function displayOf(projectDir: string, file: string): string {
  return shownPath(file, projectDir);
}

/** Normalises a reported file: relative to the project (with `/`) when inside it, else as given. */
export function artifactPath(projectDir: string, file: string): string {
  return isAbsolute(file) ? displayOf(projectDir, file) : normalize(file).split(sep).join("/");
}

const isFinished = (status: string): boolean => status === "completed" || status === "failed";

/**
 * Applies file changes (already normalised by {@link artifactPath}) to a progress document in
 * place; returns whether anything changed. Shared by the hot path and `lanes progress step`.
 * Created files go to `files_created`; modified files go to `files_modified` unless the workflow
 * created them. Files registered in `task_context.artifacts` get their version bumped; created
 * files are registered there (typed by extension, `created_by` the agent or `main`).
 */
export function applyFileChanges(
  doc: RawProgress,
  created: readonly string[],
  modified: readonly string[],
  agent: string | undefined,
): boolean {
  const lists = doc.artifacts;
  const registry =
    isRecord(doc.task_context) && isRecord(doc.task_context.artifacts) ? doc.task_context.artifacts : undefined;
  let changed = false;
  const bump = (file: string, create: boolean): void => {
    if (registry === undefined) return;
    const entry = registry[file];
    if (isRecord(entry) && typeof entry.version === "number") {
      entry.version = entry.version + 1;
      changed = true;
    } else if (create) {
      registry[file] = { type: artifactTypeOf(file), content: file, created_by: agent ?? "main", version: 1 };
      changed = true;
    }
  };
  for (const file of created) {
    if (!lists.files_created.includes(file)) {
      lists.files_created.push(file);
      changed = true;
    }
    bump(file, true);
  }
  for (const file of modified) {
    if (!lists.files_created.includes(file) && !lists.files_modified.includes(file)) {
      lists.files_modified.push(file);
      changed = true;
    }
    bump(file, false);
  }
  return changed;
}

/** True when applying the changes would change nothing (so the lock and the write can be skipped). */
function alreadyRecorded(doc: RawProgress, created: readonly string[], modified: readonly string[]): boolean {
  const registry =
    isRecord(doc.task_context) && isRecord(doc.task_context.artifacts) ? doc.task_context.artifacts : undefined;
  // with a task-context registry, a created file is registered or its version bumped: always a change
  if (registry !== undefined && created.length > 0) return false;
  const lists = doc.artifacts;
  return (
    created.every((f) => lists.files_created.includes(f)) &&
    modified.every(
      (f) => (lists.files_created.includes(f) || lists.files_modified.includes(f)) && registry?.[f] === undefined,
    )
  );
}

/**
 * PostToolUse: adds the files a tool call created or modified to the progress file's artifacts.
 * Does nothing when there is no progress file or the workflow is finished; never writes a corrupt
 * file. Paths inside the project are stored relative to it. `agent` (the subagent type, if any)
 * is recorded as `created_by` of new task-context artifacts.
 */
export function recordArtifacts(
  projectDir: string,
  files: FileChanges,
  agent?: string,
  options: HotOptions = {},
): Result<RecordOutcome> {
  const created = [...new Set((files.created ?? []).map((f) => artifactPath(projectDir, f)))];
  const modified = [...new Set((files.modified ?? []).map((f) => artifactPath(projectDir, f)))].filter(
    (f) => !created.includes(f),
  );
  const file = projectPaths(projectDir).progress;
  if (created.length + modified.length === 0 || !existsSync(file))
    return ok(created.length + modified.length === 0 ? "unchanged" : "no-workflow");

  // Unlocked look first: the rename in atomicWriteFile makes any read consistent, and artifact
  // lists only grow, so "already listed" seen here stays true.
  const peek = readProgressRaw(projectDir);
  if (!peek.ok) return propagate(peek);
  if (peek.value === undefined) return ok("no-workflow");
  if (isFinished(peek.value.status)) return ok("finished");
  if (alreadyRecorded(peek.value, created, modified)) return ok("unchanged");

  const locked = withLockSync(
    file,
    (): Result<RecordOutcome> => {
      const current = readProgressRaw(projectDir);
      if (!current.ok) return propagate(current);
      const doc = current.value;
      if (doc === undefined) return ok("no-workflow");
      if (isFinished(doc.status)) return ok("finished");
      if (!applyFileChanges(doc, created, modified, agent)) return ok("unchanged");
      (doc as Record<string, unknown>).updated_at = isoTime(nowOf(options));
      try {
        atomicWriteFile(file, renderJson(doc));
      } catch (error) {
        return fail("io", `cannot write \`${displayOf(projectDir, file)}\`: ${describeError(error)}`, { file });
      }
      return ok("recorded");
    },
    options.lock,
  );
  return locked.ok ? locked.value : propagate(locked);
}

/** Where the state of composite skill `skill` for task `taskId` lives: `{skill}--{task}.json`, injectively encoded (see `joinKeys`). */
export function phaseStatePath(projectDir: string, skill: string, taskId: string): string {
  return join(projectPaths(projectDir).phases, `${joinKeys(skill, taskId)}.json`);
}

/** A composite skill run that is not finished, as the hot path sees its state file. */
export interface RawPhaseState {
  /** The skill. */
  readonly skill: string;
  /** The task. */
  readonly task_id: string;
  /** `in_progress` or `awaiting_completion`. */
  readonly status: string;
  /** The phase running; null when all are done. */
  readonly current_phase: string | null;
  /** The whole file, unvalidated. */
  readonly data: Record<string, unknown>;
}

/** Unfinished composite-skill runs under `.claude/state/phases/` (unreadable files are reported by name). */
export function activePhaseStates(projectDir: string): { active: RawPhaseState[]; unreadable: string[] } {
  const dir = projectPaths(projectDir).phases;
  const active: RawPhaseState[] = [];
  const unreadable: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith(".json"))
      .sort();
  } catch {
    return { active, unreadable };
  }
  for (const name of names) {
    try {
      const data: unknown = JSON.parse(readState(join(dir, name)));
      if (
        !isRecord(data) ||
        typeof data.skill !== "string" ||
        typeof data.task_id !== "string" ||
        typeof data.status !== "string"
      ) {
        unreadable.push(name);
        continue;
      }
      const current = typeof data.current_phase === "string" ? data.current_phase : null;
      if (data.status === "in_progress" || data.status === "awaiting_completion") {
        active.push({ skill: data.skill, task_id: data.task_id, status: data.status, current_phase: current, data });
      }
    } catch {
      unreadable.push(name);
    }
  }
  return { active, unreadable };
}

/**
 * SessionStart: a short summary of unfinished work (the workflow in progress.json and composite
 * skills mid-way), or undefined when there is none. A corrupt progress file is an error value.
 */
export function resumeSummary(projectDir: string, cli = "lanes"): Result<string | undefined> {
  const raw = readProgressRaw(projectDir);
  if (!raw.ok) return propagate(raw);
  const lines: string[] = [];
  const doc = raw.value;
  if (doc !== undefined && !isFinished(doc.status)) {
    const task = isRecord(doc.task) ? doc.task : {};
    const about =
      typeof task.summary === "string" && task.summary !== ""
        ? task.summary
        : typeof task.original_request === "string"
          ? task.original_request
          : "";
    const step = typeof doc.current_step === "number" ? doc.current_step : undefined;
    const total = typeof doc.total_steps === "number" ? doc.total_steps : undefined;
    const at = step === undefined ? "" : `, step ${step}${total === undefined ? "" : ` of ${total}`}`;
    lines.push(
      `lanes: unfinished workflow \`${doc.workflow_id}\` (${doc.status}${at})${about === "" ? "" : `: ${oneLine(about)}`}`,
    );
    const next = isRecord(doc.next_step) ? doc.next_step : undefined;
    if (next !== undefined && typeof next.expert === "string" && typeof next.action === "string") {
      lines.push(`next: \`${next.expert}\` does \`${next.action}\``);
    }
    lines.push(`run \`${cli} progress resume\` for the history, the handoff context and the artifacts`);
  }
  const phases = activePhaseStates(projectDir);
  for (const s of phases.active) {
    const where = s.current_phase === null ? "all phases done, not completed" : `at phase ${s.current_phase}`;
    lines.push(
      `lanes: composite skill \`${s.skill}\` for task \`${s.task_id}\` is ${where}: run \`${cli} phase status ${s.skill} --task ${s.task_id}\` for its directive`,
    );
  }
  for (const name of phases.unreadable)
    lines.push(`lanes: phase state \`${name}\` is unreadable: fix it by hand or delete it`);
  return ok(lines.length === 0 ? undefined : lines.join("\n"));
}

const oneLine = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
};

/**
 * Saving checkpoints without zod, so the PreCompact hook stays cheap: the task context is built
 * from the structurally checked progress file and the composite-skill state files are copied as
 * they are. Validation happens when a checkpoint is resumed (checkpoints.ts).
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { projectPaths } from "../host/layout.ts";
import { ensureIgnoredDir } from "../io/atomic.ts";
import type { Checkpoint } from "./checkpoint-schema.ts";
import { newId, safeId } from "../host/ids.ts";
import { activePhaseStates, displayOf, readProgressRaw, type RawProgress } from "./progress-hot.ts";
import type { ProgressFile, TaskArtifact, TaskContext } from "./progress-schema.ts";
import { createStateFile } from "./state-file.ts";
import { artifactTypeOf, emptyTaskContextState, taskContextOf } from "./task-context.ts";
import { fail, nowOf, ok, propagate, randomOf, type Result, type RuntimeDeps } from "../io/result.ts";
import { isoTime } from "../io/time.ts";

/** How many PreCompact checkpoints are kept; older ones are removed. */
export const KEEP_PRECOMPACT = 10;

/** Where checkpoint `id` lives. */
export function checkpointPath(projectDir: string, id: string): string {
  return join(projectPaths(projectDir).checkpoints, `${safeId(id)}.json`);
}

/** Input of {@link saveCheckpoint}. */
export interface CheckpointInput {
  /** The id (default `cp-{timestamp}-{random}`); refused if a checkpoint with it exists. */
  readonly id?: string;
  /** The running skill (default: the innermost entered skill, else an active composite skill, else `main`). */
  readonly skill?: string;
  /** Skill-specific state (default: the workflow position and the active composite-skill states). */
  readonly state?: Record<string, unknown>;
  /** Default true. */
  readonly resumable?: boolean;
  /** Why it is taken (default `manual`). */
  readonly reason?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The task context of a raw progress file; its optional parts are filled in when a hand edit left them out. */
function contextOfRaw(raw: RawProgress, now: string): TaskContext {
  const doc = raw as unknown as ProgressFile;
  const steps = Array.isArray(doc.completed_steps) ? doc.completed_steps : [];
  const task = isRecord(doc.task)
    ? doc.task
    : { original_request: "", summary: "", project_context: { name: "", root: "" } };
  return taskContextOf({
    ...doc,
    created_at: typeof doc.created_at === "string" ? doc.created_at : now,
    updated_at: typeof doc.updated_at === "string" ? doc.updated_at : now,
    task: { ...task, original_request: typeof task.original_request === "string" ? task.original_request : "" },
    completed_steps: steps.filter((s) => isRecord(s) && typeof s.duration_ms === "number"),
    task_context: isRecord(doc.task_context) ? doc.task_context : emptyTaskContextState(),
  });
}

/** Every artifact: the typed ones of the task context, then listed files not registered there. */
function artifactsOf(raw: RawProgress | undefined, context: TaskContext): TaskArtifact[] {
  const out = Object.values(context.artifacts);
  const known = new Set(out.map((a) => a.content).filter((c) => typeof c === "string"));
  for (const file of [...(raw?.artifacts.files_created ?? []), ...(raw?.artifacts.files_modified ?? [])]) {
    if (!known.has(file)) out.push({ type: artifactTypeOf(file), content: file, created_by: "unknown", version: 1 });
  }
  return out;
}

/** The active composite-skill state files, whole, for the snapshot. */
const phaseSnapshots = (projectDir: string): unknown[] => activePhaseStates(projectDir).active.map((s) => s.data);

/**
 * Saves a checkpoint of the current task (inter-skill protocol `saveCheckpoint`). Works without a
 * progress file (the task context is then empty); fails when the progress file is corrupt.
 */
export function saveCheckpoint(
  projectDir: string,
  input: CheckpointInput = {},
  deps: RuntimeDeps = {},
): Result<Checkpoint> {
  const raw = readProgressRaw(projectDir);
  if (!raw.ok) return propagate(raw);
  const now = isoTime(nowOf(deps));
  const id = input.id ?? newId("cp", nowOf(deps), randomOf(deps));
  const file = checkpointPath(projectDir, id);
  if (existsSync(file)) {
    return fail("refused", `checkpoint \`${id}\` already exists`, {
      help: "pick another id, or omit `--id` to get a fresh one",
      file,
    });
  }
  const phases = activePhaseStates(projectDir).active;
  const context: TaskContext =
    raw.value === undefined
      ? {
          task_id: phases[0]?.task_id ?? id,
          original_request: "",
          current_phase: phases[0]?.skill ?? "init",
          history: [],
          artifacts: {},
          metadata: { created_at: now, last_updated: now, total_duration_ms: 0 },
          nesting: emptyTaskContextState().nesting,
        }
      : contextOfRaw(raw.value, now);
  const skill = input.skill ?? context.nesting.path.at(-1) ?? phases[0]?.skill ?? "main";
  const doc = raw.value;
  const state =
    input.state ??
    (doc === undefined
      ? { phases: phaseSnapshots(projectDir) }
      : {
          workflow: {
            workflow_id: doc.workflow_id,
            status: doc.status,
            current_step: doc.current_step,
            total_steps: doc.total_steps,
            next_step: doc.next_step ?? null,
          },
          phases: phaseSnapshots(projectDir),
        });
  const checkpoint: Checkpoint = {
    checkpoint_id: safeId(id),
    task_context: context,
    current_skill: skill,
    state_snapshot: state,
    artifacts_so_far: artifactsOf(doc, context),
    timestamp: now,
    resumable: input.resumable ?? true,
    reason: input.reason ?? "manual",
  };
  ensureIgnoredDir(projectPaths(projectDir).workState, "lanes runtime state");
  // exclusive: of several saves with the same id at once, exactly one succeeds
  const written = createStateFile(
    file,
    checkpoint,
    displayOf(projectDir, file),
    `checkpoint \`${id}\` already exists`,
    "pick another id, or omit `--id` to get a fresh one",
  );
  return written.ok ? ok(checkpoint) : propagate(written);
}

/**
 * PreCompact: saves a checkpoint when there is unfinished work (a workflow in progress or a
 * composite skill mid-way), else does nothing (`undefined`). Keeps the newest
 * {@link KEEP_PRECOMPACT} PreCompact checkpoints.
 */
export function saveCompactCheckpoint(
  projectDir: string,
  trigger: string,
  deps: RuntimeDeps = {},
): Result<Checkpoint | undefined> {
  const raw = readProgressRaw(projectDir);
  if (!raw.ok) return propagate(raw);
  const unfinished = raw.value !== undefined && raw.value.status !== "completed" && raw.value.status !== "failed";
  if (!unfinished && activePhaseStates(projectDir).active.length === 0) return ok(undefined);
  const saved = saveCheckpoint(
    projectDir,
    { id: newId("precompact", nowOf(deps), randomOf(deps)), reason: `precompact-${safeId(trigger)}` },
    deps,
  );
  if (saved.ok) prunePrecompact(projectDir);
  return saved;
}

/** Removes all but the newest PreCompact checkpoints (ids sort by time). */
function prunePrecompact(projectDir: string): void {
  const dir = projectPaths(projectDir).checkpoints;
  try {
    const names = readdirSync(dir)
      .filter((n) => n.startsWith("precompact-") && n.endsWith(".json"))
      .sort();
    for (const name of names.slice(0, Math.max(0, names.length - KEEP_PRECOMPACT)))
      rmSync(join(dir, name), { force: true });
  } catch {
    // pruning is housekeeping; the checkpoint itself was saved
  }
}

/**
 * Checkpoints of a workflow: save, resume by id, list. Saving is zod-free
 * (checkpoints-hot.ts, shared with PreCompact); resuming and listing validate each file.
 */
import { join } from "node:path";
import { projectPaths } from "../host/layout.ts";
import { Checkpoint } from "./checkpoint-schema.ts";
import { checkpointPath } from "./checkpoints-hot.ts";
import { displayOf } from "./progress-hot.ts";
import { listStateFiles, readStateFile } from "./state-file.ts";
import { fail, ok, propagate, type Result, type RuntimeDeps } from "../io/result.ts";
import { validatorOf } from "./zod-problem.ts";

export {
  checkpointPath,
  KEEP_PRECOMPACT,
  saveCheckpoint,
  saveCompactCheckpoint,
  type CheckpointInput,
} from "./checkpoints-hot.ts";

const validate = validatorOf(Checkpoint);

/** Reads and validates checkpoint `id`; a corrupt file is kept as a backup and reported. */
export function readCheckpoint(projectDir: string, id: string, deps: RuntimeDeps = {}): Result<Checkpoint> {
  const file = checkpointPath(projectDir, id);
  const display = displayOf(projectDir, file);
  const read = readStateFile(file, validate, {
    display,
    repair: "delete it, or resume another one from `lanes checkpoint list`",
    ...deps,
  });
  if (!read.ok) return propagate(read);
  if (read.value === undefined)
    return fail("missing", `there is no checkpoint \`${id}\``, {
      help: "run `lanes checkpoint list` to see the saved ones",
    });
  return ok(read.value);
}

/**
 * Resumes from a checkpoint (inter-skill protocol `resumeFromCheckpoint`): its task context and
 * skill state. Refused for checkpoints saved as not resumable.
 */
export function resumeCheckpoint(projectDir: string, id: string, deps: RuntimeDeps = {}): Result<Checkpoint> {
  const read = readCheckpoint(projectDir, id, deps);
  if (!read.ok) return read;
  if (!read.value.resumable) {
    return fail("refused", `checkpoint \`${id}\` was saved as not resumable`, {
      help: "resume another one from `lanes checkpoint list`, or start the task again",
    });
  }
  return read;
}

/** One entry of {@link listCheckpoints}: a valid checkpoint, or a file with its problem. */
export type CheckpointListing =
  | { readonly id: string; readonly ok: true; readonly checkpoint: Checkpoint }
  | { readonly id: string; readonly ok: false; readonly problem: string };

/** Every checkpoint, oldest first (invalid files are listed with their problem, not backed up). */
export function listCheckpoints(projectDir: string): Result<CheckpointListing[]> {
  const dir = projectPaths(projectDir).checkpoints;
  const listed = listStateFiles(dir, displayOf(projectDir, dir));
  if (!listed.ok) return propagate(listed);
  const names = listed.value;
  const out: CheckpointListing[] = names.map((name) => {
    const id = name.slice(0, -".json".length);
    const read = readStateFile(join(dir, name), validate, { display: name, repair: "", backup: false });
    if (!read.ok) return { id, ok: false, problem: read.issues[0]!.message };
    if (read.value === undefined) return { id, ok: false, problem: "removed while listing" };
    return { id, ok: true, checkpoint: read.value };
  });
  const time = (c: CheckpointListing): string => (c.ok ? c.checkpoint.timestamp : "");
  return ok(out.sort((a, b) => time(a).localeCompare(time(b)) || a.id.localeCompare(b.id)));
}

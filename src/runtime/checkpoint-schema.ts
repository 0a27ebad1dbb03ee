/**
 * A checkpoint of a workflow: `.claude/state/checkpoints/<id>.json`, a snapshot of
 * the task context and the running skill's state that a later session can resume from.
 */
import { z } from "zod";
import { IsoDateTime, TaskArtifact, TaskContext } from "./progress-schema.ts";

/** The checkpoint file. */
export const Checkpoint = z.looseObject({
  checkpoint_id: z.string().min(1).describe("The id, also the file name (sanitised)."),
  task_context: TaskContext.describe("The task context when the checkpoint was taken."),
  current_skill: z.string().min(1).describe("The skill that was executing (`main` when none)."),
  state_snapshot: z
    .record(z.string(), z.unknown())
    .describe("Skill-specific state: for PreCompact, the workflow position and the composite-skill states."),
  artifacts_so_far: z.array(TaskArtifact).describe("Outputs produced so far."),
  timestamp: IsoDateTime.describe("When it was taken."),
  resumable: z.boolean().describe("Whether work can continue from it."),
  reason: z.string().optional().describe("Why it was taken: `manual`, `precompact-auto`, `precompact-manual`."),
});
export type Checkpoint = z.infer<typeof Checkpoint>;

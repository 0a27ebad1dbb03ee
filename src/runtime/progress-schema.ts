/**
 * The progress file, `.claude/state/progress.json`, version "2.0" of the core protocols, plus the
 * task context of the inter-skill protocol (phase history, typed artifacts, nesting). One zod
 * schema is the source of truth; the types are `z.infer`.
 *
 * Objects are loose: agents following the protocol edit this file by hand and may add fields, and
 * lanes must not drop them when it rewrites the file. Used on CLI paths only; the hot path
 * (progress-hot.ts) checks the structure without zod.
 */
import { z } from "zod";

/** The protocol version this schema describes. */
export const PROGRESS_VERSION = "2.0";

/** An ISO 8601 date-time, e.g. `2025-01-02T03:04:05.000Z`. */
export const IsoDateTime = z.iso
  .datetime({ offset: true })
  .describe("ISO 8601 date-time, e.g. `2025-01-02T03:04:05.000Z`.");

/** A free-form JSON object (step results, handoff context). */
export const JsonObject = z.record(z.string(), z.unknown());

/** What lanes detected about the project (CLAUDE.md, package.json, pyproject.toml, Cargo.toml, go.mod, docker-compose). */
export const ProjectContext = z
  .looseObject({
    name: z
      .string()
      .min(1)
      .describe("Project name: the first heading of CLAUDE.md, else a manifest's name, else the directory name."),
    root: z.string().min(1).describe("Absolute path of the project directory."),
    detected_from: z
      .array(z.string())
      .optional()
      .describe("The files the context was read from, e.g. `CLAUDE.md`, `package.json`."),
    languages: z
      .array(z.string())
      .optional()
      .describe("Languages implied by the manifests found, e.g. `javascript`, `python`, `rust`, `go`."),
    scripts: z.array(z.string()).optional().describe("Script names from package.json, e.g. `test`, `build`."),
    services: z.array(z.string()).optional().describe("Service names from docker-compose."),
  })
  .describe("Project context, detected at `init`.");
export type ProjectContext = z.infer<typeof ProjectContext>;

/** The task being worked on. */
export const Task = z.looseObject({
  original_request: z.string().min(1).describe("The user's request, verbatim."),
  summary: z.string().describe("A one-line summary of the task."),
  project_context: ProjectContext,
});
export type Task = z.infer<typeof Task>;

/** How the work is split between experts. */
export const Strategy = z
  .enum(["sequential", "parallel", "single"])
  .describe("sequential: one expert after another; parallel: independent experts at once; single: one expert");
export type Strategy = z.infer<typeof Strategy>;

/** Which experts do the work and how. */
export const Classification = z.looseObject({
  primary_expert: z.string().min(1).describe("The expert (agent) that leads the task."),
  supporting_experts: z.array(z.string().min(1)).describe("Other experts involved."),
  strategy: Strategy,
  estimated_steps: z.number().int().min(0).describe("The number of steps expected when the task was classified."),
});
export type Classification = z.infer<typeof Classification>;

/** Workflow status. */
export const ProgressStatus = z
  .enum(["initialized", "in_progress", "completed", "failed"])
  .describe("initialized: no step recorded yet; in_progress: steps recorded; completed / failed: finished");
export type ProgressStatus = z.infer<typeof ProgressStatus>;

/** One finished step. */
export const CompletedStep = z.looseObject({
  step: z.number().int().min(1).describe("Step number, from 1."),
  expert: z.string().min(1).describe("The expert that did the step."),
  action: z.string().min(1).describe("What it did, as a short snake_case verb phrase, e.g. `analyze_workflow`."),
  result: z
    .union([JsonObject, z.string()])
    .describe("What it produced: an object (conventionally with `summary`), or text."),
  artifacts: z.array(z.string()).describe("Files this step created or modified."),
  duration_ms: z.number().int().min(0).describe("How long the step took."),
  timestamp: IsoDateTime.describe("When the step was recorded."),
});
export type CompletedStep = z.infer<typeof CompletedStep>;

/**
 * Task constraints for the next step. The guard reads them as restrictions that can only narrow
 * the lane of the agent doing the step, never widen it.
 */
export const StepConstraints = z.looseObject({
  write_paths: z
    .array(z.string().min(1))
    .optional()
    .describe("Globs (relative to the project) the step may write; the agent's own lane still applies."),
  tools: z
    .array(z.string().min(1))
    .optional()
    .describe("The only tools the step may use, within the agent's own tools."),
  read_only: z.boolean().optional().describe("When true the step writes nothing."),
});
export type StepConstraints = z.infer<typeof StepConstraints>;

/** The step to do next, with the handoff context for the incoming expert. */
export const NextStep = z.looseObject({
  step: z.number().int().min(1).describe("Step number."),
  expert: z.string().min(1).describe("The expert to do it."),
  action: z.string().min(1).describe("What to do."),
  context: JsonObject.describe("Handoff context: decisions made, relevant files, notes."),
  constraints: StepConstraints.optional(),
});
export type NextStep = z.infer<typeof NextStep>;

/** Files touched and documentation read during the workflow. */
export const Artifacts = z.looseObject({
  files_created: z
    .array(z.string())
    .describe("Files created during the workflow, relative to the project when inside it."),
  files_modified: z.array(z.string()).describe("Pre-existing files modified during the workflow."),
  documentation_consulted: z.array(z.string()).describe("Documentation URLs read."),
});
export type Artifacts = z.infer<typeof Artifacts>;

/** A way to recover from an error (`RecoveryOption`). */
export const RecoveryOption = z.looseObject({
  action: z
    .enum(["retry", "skip", "fallback", "escalate"])
    .describe("retry the step, skip it, fall back to another skill or approach, or escalate to the human"),
  description: z.string().min(1).describe("What exactly to do."),
  auto_execute: z.boolean().describe("Whether the workflow may do it without asking."),
  requires_user_input: z.boolean().describe("Whether the human must decide or supply something."),
});
export type RecoveryOption = z.infer<typeof RecoveryOption>;

/** An error logged during the workflow, with the ways to recover from it. */
export const ProgressError = z.looseObject({
  message: z.string().min(1).describe("What went wrong."),
  step: z.number().int().min(1).optional().describe("The step it happened in."),
  expert: z.string().optional().describe("The expert that hit it."),
  action: z.string().optional().describe("The action being attempted."),
  error_type: z.enum(["validation", "execution", "timeout", "resource"]).optional().describe("Kind of error."),
  severity: z
    .enum(["critical", "recoverable", "warning"])
    .optional()
    .describe("critical stops the workflow; recoverable can be retried; warning is informational"),
  attempted: z.string().optional().describe("What was tried."),
  suggestion: z.string().optional().describe("How to proceed."),
  skill: z.string().optional().describe("The skill that hit it (inter-skill protocol `SkillError.skill`)."),
  context: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("What the skill was working on: inputs, files, the failing command."),
  recovery_options: z.array(RecoveryOption).optional().describe("The ways to recover, most preferred first."),
  timestamp: IsoDateTime.describe("When it was logged."),
});
export type ProgressError = z.infer<typeof ProgressError>;

/** The record of one skill execution in the task context's history. */
export const PhaseRecord = z.looseObject({
  skill: z.string().min(1).describe("Which skill executed."),
  input: z.unknown().optional().describe("What it received."),
  output: z.unknown().optional().describe("What it produced."),
  duration_ms: z.number().int().min(0).describe("How long it ran."),
  status: z.enum(["success", "partial", "failed"]).describe("How it ended."),
  timestamp: IsoDateTime.optional().describe("When it ended."),
});
export type PhaseRecord = z.infer<typeof PhaseRecord>;

/** An output of the task, keyed by name in the task context. */
export const TaskArtifact = z.looseObject({
  type: z.enum(["code", "document", "data", "report"]).describe("What kind of output it is."),
  content: z.union([z.string(), JsonObject]).describe("The output: for files, the path; else the content itself."),
  created_by: z.string().min(1).describe("The skill or agent that created it (`main` for the main thread)."),
  version: z.number().int().min(1).describe("Bumped each time it is modified."),
});
export type TaskArtifact = z.infer<typeof TaskArtifact>;

/** Nesting of skills within skills (a bounded depth, no cycles). */
export const Nesting = z.looseObject({
  current_depth: z.number().int().min(0).describe("How many skills deep the task is now (0 at the top)."),
  max_depth: z.number().int().min(1).describe("The deepest nesting allowed (default 3)."),
  path: z.array(z.string().min(1)).describe("The skills entered, outermost first, e.g. `orchestrator`, `parallel`."),
  entered_at: z
    .array(IsoDateTime)
    .optional()
    .describe("When each skill in `path` was entered (same length as `path`)."),
});
export type Nesting = z.infer<typeof Nesting>;

/** The inter-skill protocol's task context, as far as progress v2.0 does not already carry it. */
export const TaskContextState = z.looseObject({
  current_phase: z.string().min(1).describe("The skill executing now (`init` before any)."),
  history: z.array(PhaseRecord).describe("Skill executions, oldest first."),
  artifacts: z.record(z.string(), TaskArtifact).describe("Outputs by name (files by path)."),
  nesting: Nesting,
});
export type TaskContextState = z.infer<typeof TaskContextState>;

/** How the workflow ended, for the completion report. */
export const Completion = z.looseObject({
  summary: z.string().describe("What was accomplished."),
  suggestions: z.array(z.string()).describe("Next steps suggested to the user."),
});
export type Completion = z.infer<typeof Completion>;

/** The progress file. */
export const ProgressFile = z.looseObject({
  version: z.literal(PROGRESS_VERSION).describe("Always `2.0`."),
  workflow_id: z.string().min(1).describe("`wf-{timestamp}-{random}`."),
  created_at: IsoDateTime.describe("When the workflow was initialised."),
  updated_at: IsoDateTime.describe("When the file was last changed."),
  task: Task,
  classification: Classification,
  status: ProgressStatus,
  current_step: z.number().int().min(1).describe("The step being worked on (one past the last completed step)."),
  total_steps: z.number().int().min(0).describe("Steps planned; grows when more are recorded."),
  completed_steps: z.array(CompletedStep).describe("Finished steps, in the order recorded."),
  next_step: NextStep.nullable().describe("The step to do next and its handoff context; null when none is planned."),
  artifacts: Artifacts,
  errors: z
    .array(z.union([z.string().min(1), ProgressError]))
    .describe("Errors logged, oldest first (plain strings are accepted from hand edits)."),
  task_context: TaskContextState.optional().describe(
    "The inter-skill protocol's task context (history, typed artifacts, nesting).",
  ),
  completion: Completion.optional().describe("Set by `complete`."),
});
export type ProgressFile = z.infer<typeof ProgressFile>;

/**
 * The full task context a skill hands on (workflow, step, nesting), assembled from a progress file.
 * Checkpoints store it.
 */
export const TaskContext = z.looseObject({
  task_id: z.string().min(1).describe("The workflow id."),
  original_request: z.string().describe("The user's request."),
  current_phase: z.string().describe("The skill executing."),
  history: z.array(PhaseRecord).describe("Skill executions."),
  artifacts: z.record(z.string(), TaskArtifact).describe("Outputs by name."),
  metadata: z.looseObject({
    created_at: z.string().describe("When the task started (ISO 8601)."),
    last_updated: z.string().describe("When it last changed (ISO 8601)."),
    total_duration_ms: z.number().int().min(0).describe("Sum of the recorded step durations."),
  }),
  nesting: Nesting,
});
export type TaskContext = z.infer<typeof TaskContext>;

/**
 * The progress file library behind `lanes progress` (the workflow, its steps, errors and handoffs): every function
 * takes the project directory, validates the whole file with the zod schema, edits it under the
 * lock and writes it atomically, and returns a {@link Result}.
 *
 * A file that does not parse or validate is never overwritten: the call fails with an issue that
 * names the file and its first problem, a copy is kept as `progress.json.corrupt-<timestamp>`,
 * and the help points at `lanes progress init --force` (start over) or a fix by hand.
 */
import { projectPaths } from "../host/layout.ts";
import { ensureIgnoredDir } from "../io/atomic.ts";
import { newWorkflowId } from "../host/ids.ts";
import { withLockSync, type LockOptions } from "../io/lock.ts";
import { detectProjectContext } from "./project-context.ts";
import { applyFileChanges, artifactPath, displayOf, type RawProgress } from "./progress-hot.ts";
import {
  ProgressFile,
  type CompletedStep,
  type NextStep,
  type PhaseRecord,
  type ProgressError,
  type RecoveryOption,
  type ProjectContext,
  type StepConstraints,
  type Strategy,
} from "./progress-schema.ts";
import { readStateFile, updateStateFile, writeStateFile, type StateFileOptions } from "./state-file.ts";
import { checkNesting, DEFAULT_MAX_DEPTH, emptyTaskContextState, enterNesting, leaveNesting } from "./task-context.ts";
import { fail, nowOf, ok, propagate, randomOf, type Result, type RuntimeDeps } from "../io/result.ts";
import { validatorOf } from "./zod-problem.ts";
import { isoTime } from "../io/time.ts";

/** Dependencies of the progress functions: clock, randomness, lock options, project detection. */
export interface ProgressDeps extends RuntimeDeps {
  /** Lock options (tests shorten timeouts). */
  readonly lock?: LockOptions;
  /** Project context detection (default: read the project's files). */
  readonly detect?: (root: string) => ProjectContext;
}

const validate = validatorOf(ProgressFile);

/** The command that starts over, for help lines. */
export const START_OVER = "run `lanes progress init --force` to start over, or fix the file by hand";

function fileOptions(projectDir: string, deps: ProgressDeps): StateFileOptions & { file: string } {
  const file = projectPaths(projectDir).progress;
  return {
    file,
    display: displayOf(projectDir, file),
    repair: START_OVER,
    now: deps.now,
    random: deps.random,
    lock: deps.lock,
  };
}

/** The handoff to the next step. */
export interface NextStepInput {
  /** The expert to do it. */
  readonly expert: string;
  /** What to do. */
  readonly action: string;
  /** Handoff context (decisions, relevant files, notes). */
  readonly context?: Record<string, unknown>;
  /** Task constraints that narrow the next agent's lane. */
  readonly constraints?: StepConstraints;
}

/** Input of {@link initProgress}. */
export interface InitInput {
  /** The user's request, verbatim. */
  readonly request: string;
  /** One-line summary (default: the request's first line). */
  readonly summary?: string;
  /** The lead expert. */
  readonly primaryExpert: string;
  /** Other experts. */
  readonly supportingExperts?: readonly string[];
  /** Default: `single` without supporting experts, else `sequential`. */
  readonly strategy?: Strategy;
  /** Planned steps (default 1). */
  readonly estimatedSteps?: number;
  /** The first step's handoff, if known. */
  readonly next?: NextStepInput;
  /** Maximum skill nesting depth (default 3). */
  readonly maxDepth?: number;
  /** Replace an unfinished or corrupt workflow. */
  readonly force?: boolean;
}

/** Checks a document against the schema before it is written, so bad input never reaches the disk. */
function checked(doc: unknown): Result<ProgressFile> {
  const v = validate(doc);
  return v.ok
    ? ok(v.value)
    : fail("invalid-input", `the update would make an invalid progress file: ${v.problem}`, {
        help: "check the values passed",
      });
}

const noWorkflow = (display: string): Result<never> =>
  fail("missing", `there is no workflow: \`${display}\` does not exist`, {
    help: 'run `lanes progress init "<request>" --primary <expert>` first',
  });

const isFinished = (doc: ProgressFile): boolean => doc.status === "completed" || doc.status === "failed";

/**
 * Starts a workflow: a new progress file with a fresh `wf-…` id, the detected project context
 * and status `initialized`. Refuses to replace an unfinished workflow (or a corrupt file, which is
 * kept as a backup) unless `force`.
 */
export function initProgress(projectDir: string, input: InitInput, deps: ProgressDeps = {}): Result<ProgressFile> {
  const o = fileOptions(projectDir, deps);
  const locked = withLockSync(
    o.file,
    (): Result<ProgressFile> => {
      const current = readStateFile(o.file, validate, o);
      if (!current.ok && !(input.force === true && current.issues[0]?.code === "corrupt")) return propagate(current);
      const existing = current.ok ? current.value : undefined;
      if (existing !== undefined && !isFinished(existing) && input.force !== true) {
        return fail(
          "refused",
          `workflow \`${existing.workflow_id}\` is ${existing.status} at step ${existing.current_step} of ${existing.total_steps}: init would discard it`,
          {
            help: "run `lanes progress resume` to continue it, `lanes progress complete` or `fail` to close it, or `lanes progress init --force` to start over",
            file: o.file,
          },
        );
      }
      const at = nowOf(deps);
      const now = isoTime(at);
      const supporting = [...(input.supportingExperts ?? [])];
      const doc = checked({
        version: "2.0",
        workflow_id: newWorkflowId(at, randomOf(deps)),
        created_at: now,
        updated_at: now,
        task: {
          original_request: input.request,
          summary: input.summary ?? input.request.split("\n")[0]!.trim(),
          project_context: (deps.detect ?? detectProjectContext)(projectDir),
        },
        classification: {
          primary_expert: input.primaryExpert,
          supporting_experts: supporting,
          strategy: input.strategy ?? (supporting.length === 0 ? "single" : "sequential"),
          estimated_steps: input.estimatedSteps ?? 1,
        },
        status: "initialized",
        current_step: 1,
        total_steps: input.estimatedSteps ?? 1,
        completed_steps: [],
        next_step: input.next === undefined ? null : nextStepOf(input.next, 1),
        artifacts: { files_created: [], files_modified: [], documentation_consulted: [] },
        errors: [],
        task_context: emptyTaskContextState(input.maxDepth ?? DEFAULT_MAX_DEPTH),
      });
      if (!doc.ok) return doc;
      ensureIgnoredDir(projectPaths(projectDir).workState, "lanes runtime state");
      const written = writeStateFile(o.file, doc.value, o.display);
      return written.ok ? doc : propagate(written);
    },
    deps.lock,
  );
  return locked.ok ? locked.value : propagate(locked);
}

function nextStepOf(next: NextStepInput, step: number): NextStep {
  return {
    step,
    expert: next.expert,
    action: next.action,
    context: { ...(next.context ?? {}) },
    ...(next.constraints === undefined ? {} : { constraints: next.constraints }),
  };
}

/** Reads and validates the progress file; undefined when there is none. */
export function readProgress(projectDir: string, deps: ProgressDeps = {}): Result<ProgressFile | undefined> {
  const o = fileOptions(projectDir, deps);
  return readStateFile(o.file, validate, o);
}

/** Runs `edit` on the current document under the lock; refuses when there is no workflow. */
function update(
  projectDir: string,
  deps: ProgressDeps,
  edit: (doc: ProgressFile, now: string) => Result<unknown>,
): Result<ProgressFile> {
  const o = fileOptions(projectDir, deps);
  return updateStateFile(
    o.file,
    validate,
    (current) => {
      if (current === undefined) return noWorkflow(o.display);
      const doc = current; // freshly parsed for this update: no one else holds it
      const now = isoTime(nowOf(deps));
      const edited = edit(doc, now);
      if (!edited.ok) return propagate(edited);
      doc.updated_at = now;
      return checked(doc);
    },
    o,
  );
}

const refuseFinished = (doc: ProgressFile, what: string): Result<never> =>
  fail("refused", `workflow \`${doc.workflow_id}\` is ${doc.status}: ${what}`, {
    help: 'start a new one with `lanes progress init "<request>" --primary <expert>`',
  });

/** Input of {@link recordStep}. */
export interface StepInput {
  /** The expert that did the step. */
  readonly expert: string;
  /** What it did. */
  readonly action: string;
  /** Short summary of the result (stored as `result.summary`). */
  readonly summary?: string;
  /** Structured result, merged with `summary`. */
  readonly result?: Record<string, unknown>;
  /** Files created (absolute or relative to the project). */
  readonly created?: readonly string[];
  /** Files modified. */
  readonly modified?: readonly string[];
  /** Documentation URLs consulted. */
  readonly documentation?: readonly string[];
  /** Duration; default: the time since the previous step (or since init). */
  readonly durationMs?: number;
  /** Step number; default: the current step. */
  readonly step?: number;
  /** The handoff to the next step. Without it, a planned next step that this step did is cleared. */
  readonly next?: NextStepInput;
  /** This was the last step: the workflow becomes completed. */
  readonly final?: boolean;
}

/**
 * Records a completed step (core protocols "Updating Progress"): appends it to `completed_steps`,
 * advances `current_step`, sets `next_step` with its handoff context, merges the artifacts, and
 * sets the status to `in_progress` (or `completed` when `final`).
 */
export function recordStep(projectDir: string, input: StepInput, deps: ProgressDeps = {}): Result<ProgressFile> {
  return update(projectDir, deps, (doc, now) => {
    if (isFinished(doc)) return refuseFinished(doc, "no more steps can be recorded");
    const step = input.step ?? doc.current_step;
    const created = (input.created ?? []).map((f) => artifactPath(projectDir, f));
    const modified = (input.modified ?? []).map((f) => artifactPath(projectDir, f));
    const previous = doc.completed_steps.at(-1)?.timestamp ?? doc.created_at;
    const duration = input.durationMs ?? Math.max(0, Date.parse(now) - Date.parse(previous));
    const result = { ...(input.result ?? {}), ...(input.summary === undefined ? {} : { summary: input.summary }) };
    const record: CompletedStep = {
      step,
      expert: input.expert,
      action: input.action,
      result,
      artifacts: [...new Set([...created, ...modified])],
      duration_ms: Math.round(duration),
      timestamp: now,
    };
    doc.completed_steps.push(record);
    doc.current_step = Math.max(doc.current_step, step + 1);
    doc.total_steps = Math.max(doc.total_steps, step);
    applyFileChanges(doc as unknown as RawProgress, created, modified, input.expert);
    for (const url of input.documentation ?? [])
      if (!doc.artifacts.documentation_consulted.includes(url)) doc.artifacts.documentation_consulted.push(url);
    if (input.next !== undefined) {
      doc.next_step = nextStepOf(input.next, doc.current_step);
      doc.total_steps = Math.max(doc.total_steps, doc.current_step);
    } else if (doc.next_step !== null && doc.next_step.step <= step) {
      doc.next_step = null;
    }
    doc.status = input.final === true ? "completed" : "in_progress";
    if (input.final === true) {
      doc.next_step = null;
      doc.completion = { summary: input.summary ?? doc.task.summary, suggestions: [] };
    }
    return ok(undefined);
  });
}

/** Input of {@link recordError}. */
export interface ErrorInput {
  /** What went wrong. */
  readonly message: string;
  /** The step (default: the current step). */
  readonly step?: number;
  /** The expert that hit it. */
  readonly expert?: string;
  /** The action being attempted. */
  readonly action?: string;
  /** Kind of error. */
  readonly errorType?: ProgressError["error_type"];
  /** How bad it is. */
  readonly severity?: ProgressError["severity"];
  /** What was tried. */
  readonly attempted?: string;
  /** How to proceed. */
  readonly suggestion?: string;
  /** The skill that hit it. */
  readonly skill?: string;
  /** What it was working on. */
  readonly context?: Record<string, unknown>;
  /** Ways to recover, most preferred first. */
  readonly recoveryOptions?: readonly RecoveryOption[];
}

/**
 * Parses `--recovery` words: `<action>[!|?]:<description>`, where `!` marks an option the
 * workflow may execute by itself and `?` one that needs the human (e.g. `retry!:rerun the
 * migration`, `escalate?:ask which schema wins`). Pure.
 */
export function parseRecovery(word: string): Result<RecoveryOption> {
  const at = word.indexOf(":");
  const head = at < 0 ? word : word.slice(0, at);
  const description = at < 0 ? "" : word.slice(at + 1).trim();
  const mark = head.endsWith("!") || head.endsWith("?") ? head.slice(-1) : "";
  const action = mark === "" ? head : head.slice(0, -1);
  if (!["retry", "skip", "fallback", "escalate"].includes(action))
    return fail(
      "invalid-input",
      `\`--recovery ${word}\`: the action is retry, skip, fallback or escalate, e.g. \`retry!:rerun the migration\``,
    );
  if (description === "")
    return fail("invalid-input", `\`--recovery ${word}\` has no description: write \`${action}:<what to do>\``);
  return ok({
    action: action as RecoveryOption["action"],
    description,
    auto_execute: mark === "!",
    requires_user_input: mark === "?" || action === "escalate",
  });
}

function errorOf(input: ErrorInput, step: number, now: string): ProgressError {
  const e: ProgressError = { message: input.message, step: input.step ?? step, timestamp: now };
  if (input.expert !== undefined) e.expert = input.expert;
  if (input.action !== undefined) e.action = input.action;
  if (input.errorType !== undefined) e.error_type = input.errorType;
  if (input.severity !== undefined) e.severity = input.severity;
  if (input.attempted !== undefined) e.attempted = input.attempted;
  if (input.suggestion !== undefined) e.suggestion = input.suggestion;
  if (input.skill !== undefined) e.skill = input.skill;
  if (input.context !== undefined) e.context = { ...input.context };
  if (input.recoveryOptions !== undefined && input.recoveryOptions.length > 0)
    e.recovery_options = input.recoveryOptions.map((o) => ({ ...o }));
  return e;
}

/** Logs an error in the `errors` array. The status does not change; see {@link failProgress}. */
export function recordError(projectDir: string, input: ErrorInput, deps: ProgressDeps = {}): Result<ProgressFile> {
  return update(projectDir, deps, (doc, now) => {
    doc.errors.push(errorOf(input, doc.current_step, now));
    return ok(undefined);
  });
}

/** Input of {@link completeProgress}. */
export interface CompleteInput {
  /** What was accomplished (default: the task summary). */
  readonly summary?: string;
  /** Next steps to suggest to the user. */
  readonly suggestions?: readonly string[];
  /** Complete even with steps still open (fewer steps recorded than planned). */
  readonly force?: boolean;
}

/** Marks the workflow completed, clears the next step and records the completion summary. */
export function completeProgress(
  projectDir: string,
  input: CompleteInput = {},
  deps: ProgressDeps = {},
): Result<ProgressFile> {
  return update(projectDir, deps, (doc) => {
    if (isFinished(doc)) return refuseFinished(doc, "it cannot be completed again");
    // planned steps not recorded; a lingering next_step alone is no sign (task assignments set it)
    const open = doc.total_steps - doc.completed_steps.length;
    if (open > 0 && input.force !== true)
      return fail(
        "refused",
        `workflow \`${doc.workflow_id}\` has ${open} step(s) still open (${doc.completed_steps.length} of ${doc.total_steps} recorded${doc.next_step === null ? "" : `; next: step ${doc.next_step.step}, ${doc.next_step.expert}: ${doc.next_step.action}`}): record them with \`lanes progress step\`, or pass \`--force\` to complete it anyway`,
      );
    doc.status = "completed";
    doc.next_step = null;
    doc.completion = { summary: input.summary ?? doc.task.summary, suggestions: [...(input.suggestions ?? [])] };
    return ok(undefined);
  });
}

/** Marks the workflow failed and logs the reason as a critical error. */
export function failProgress(projectDir: string, input: ErrorInput, deps: ProgressDeps = {}): Result<ProgressFile> {
  return update(projectDir, deps, (doc, now) => {
    if (isFinished(doc)) return refuseFinished(doc, "it cannot fail now");
    doc.errors.push(errorOf({ severity: "critical", ...input }, doc.current_step, now));
    doc.status = "failed";
    return ok(undefined);
  });
}

/** Input of {@link addArtifacts}. */
export interface ArtifactsInput {
  /** Files created. */
  readonly created?: readonly string[];
  /** Files modified. */
  readonly modified?: readonly string[];
  /** Documentation URLs consulted. */
  readonly documentation?: readonly string[];
}

/** Adds artifacts with full validation (the CLI form of the hot path's `recordArtifacts`). */
export function addArtifacts(
  projectDir: string,
  input: ArtifactsInput,
  agent?: string,
  deps: ProgressDeps = {},
): Result<ProgressFile> {
  return update(projectDir, deps, (doc) => {
    const created = (input.created ?? []).map((f) => artifactPath(projectDir, f));
    const modified = (input.modified ?? []).map((f) => artifactPath(projectDir, f)).filter((f) => !created.includes(f));
    applyFileChanges(doc as unknown as RawProgress, created, modified, agent);
    for (const url of input.documentation ?? [])
      if (!doc.artifacts.documentation_consulted.includes(url)) doc.artifacts.documentation_consulted.push(url);
    return ok(undefined);
  });
}

/** What an incoming expert needs (the agent that takes over the next step). */
export interface ResumeInfo {
  /** The whole validated file, for `--json`. */
  readonly progress: ProgressFile;
  /** Whether work remains. */
  readonly unfinished: boolean;
}

/** The handoff for an incoming expert: history, next step and artifacts. Fails when there is no workflow. */
export function resumeProgress(projectDir: string, deps: ProgressDeps = {}): Result<ResumeInfo> {
  const o = fileOptions(projectDir, deps);
  const read = readStateFile(o.file, validate, o);
  if (!read.ok) return propagate(read);
  if (read.value === undefined) return noWorkflow(o.display);
  return ok({ progress: read.value, unfinished: !isFinished(read.value) });
}

/** Enters a nested skill (a skill started from within a skill): refused at the maximum depth or on a cycle. */
export function enterSkill(projectDir: string, skill: string, deps: ProgressDeps = {}): Result<ProgressFile> {
  return update(projectDir, deps, (doc, now) => {
    const state = doc.task_context ?? emptyTaskContextState();
    const allowed = checkNesting(state.nesting, skill);
    if (!allowed.ok) return allowed;
    state.nesting = enterNesting(state.nesting, skill, now);
    state.current_phase = skill;
    doc.task_context = state;
    return ok(undefined);
  });
}

/** Input of {@link leaveSkill}: the phase record of the skill that ends. */
export interface LeaveInput {
  /** How it ended. */
  readonly status: PhaseRecord["status"];
  /** What it received. */
  readonly input?: unknown;
  /** What it produced. */
  readonly output?: unknown;
  /** Duration; default: since it was entered. */
  readonly durationMs?: number;
}

/** Leaves the innermost skill, which must be `skill`, and records its phase record in the history. */
export function leaveSkill(
  projectDir: string,
  skill: string,
  input: LeaveInput,
  deps: ProgressDeps = {},
): Result<ProgressFile> {
  return update(projectDir, deps, (doc, now) => {
    const state = doc.task_context ?? emptyTaskContextState();
    const left = leaveNesting(state.nesting, skill);
    if (!left.ok) return left;
    const since = left.value.enteredAt === undefined ? 0 : Date.parse(now) - Date.parse(left.value.enteredAt);
    const record: PhaseRecord = {
      skill,
      duration_ms: Math.max(0, Math.round(input.durationMs ?? since)),
      status: input.status,
      timestamp: now,
    };
    if (input.input !== undefined) record.input = input.input;
    if (input.output !== undefined) record.output = input.output;
    state.history.push(record);
    state.nesting = left.value.nesting;
    state.current_phase = state.nesting.path.at(-1) ?? "init";
    doc.task_context = state;
    return ok(undefined);
  });
}

/**
 * `lanes progress`: the workflow's progress file (`.claude/state/progress.json`, core protocols
 * v2.0) for skills, agents and people. A thin adapter over src/runtime/progress.ts.
 */
import { parseCommandArgs } from "../args.ts";
import { activePhaseStates } from "../../runtime/progress-hot.ts";
import { CliError, type CliContext, type Command } from "../types.ts";
import {
  dispatch,
  jsonObject,
  oneOf,
  printJson,
  projectDirOf,
  required,
  unwrap,
  wholeNumber,
} from "../runtime-edge.ts";
import {
  addArtifacts,
  completeProgress,
  enterSkill,
  failProgress,
  parseRecovery,
  initProgress,
  leaveSkill,
  readProgress,
  recordError,
  recordStep,
  resumeProgress,
  type NextStepInput,
} from "../../runtime/progress.ts";
import { renderProgressReport, renderResume } from "../../runtime/progress-render.ts";
import type { ProgressFile, StepConstraints } from "../../runtime/progress-schema.ts";
import type { Result } from "../../io/result.ts";

const usage = `usage: lanes progress <subcommand> [options]

track a multi-step workflow in .claude/state/progress.json (version 2.0)

subcommands:
  init "<request>" --primary <expert>   start a workflow; refuses to replace an unfinished one
        [--summary <text>] [--supporting <expert>]... [--strategy sequential|parallel|single]
        [--steps <n>] [--next-action <action> [--next-expert <expert>]] [--max-depth <n>] [--force]
  show                                  the progress report
  step --expert <expert> --action <action>
                                        record a completed step and the handoff to the next one
        [--summary <text>] [--result <json>] [--created <file>]... [--modified <file>]...
        [--doc <url>]... [--duration-ms <n>] [--step <n>] [--final]
        [--next-expert <expert> --next-action <action>] [--next-context <json>]
        [--next-notes <text>] [--next-file <file>]... [--next-write-path <glob>]...
        [--next-tool <tool>]... [--next-read-only]
  error "<message>"                     log an error [--expert <e>] [--action <a>] [--step <n>]
        [--type validation|execution|timeout|resource] [--severity critical|recoverable|warning]
        [--attempted <text>] [--suggestion <text>] [--skill <name>] [--context <json object>]
        [--recovery <retry|skip|fallback|escalate>[!|?]:<what to do>]...   (! runs without asking, ? needs the human)
  complete                              mark the workflow completed [--summary <text>] [--suggestion <text>]...
                                        [--force] (refused while steps are still open, unless forced)
  fail "<reason>"                       mark the workflow failed [--expert <e>] [--action <a>]
  resume                                what an incoming expert needs: history, next step, artifacts
  artifacts                             record files and docs [--created <file>]... [--modified <file>]...
        [--doc <url>]... [--agent <name>]
  enter <skill>                         enter a nested skill (bounded depth, no cycles); without a
                                        workflow it says so and exits 0
  leave <skill>                         leave it and record it in the history (exit 0 without a workflow)
        [--status success|partial|failed] [--output <json>] [--duration-ms <n>]

options:
  --project <dir>   project root (default: nearest ancestor with .claude/)
  --json            print one JSON document (the progress file)`;

const common = { project: { type: "string" }, json: { type: "boolean" } } as const;

function positional(positionals: readonly string[], what: string): string {
  const text = positionals.join(" ").trim();
  if (text === "") throw new CliError(`${what} is required`, 64, usage);
  return text;
}

/** Prints the file as JSON, or `line` for people. */
function report(ctx: CliContext, json: boolean | undefined, doc: ProgressFile, line: string): void {
  if (json === true) printJson(ctx, doc);
  else ctx.out(`${line}\n`);
}

const nextLine = (doc: ProgressFile): string =>
  doc.status === "completed"
    ? "workflow completed"
    : doc.next_step === null
      ? "no next step planned"
      : `next: step ${doc.next_step.step}, \`${doc.next_step.expert}\` does \`${doc.next_step.action}\``;

async function init(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      ...common,
      primary: { type: "string" },
      summary: { type: "string" },
      supporting: { type: "string", multiple: true },
      strategy: { type: "string" },
      steps: { type: "string" },
      "next-action": { type: "string" },
      "next-expert": { type: "string" },
      "max-depth": { type: "string" },
      force: { type: "boolean" },
    },
    usage,
  );
  const request = positional(positionals, 'the request (`lanes progress init "<request>" --primary <expert>`)');
  const primary = required(values.primary, "primary", usage);
  const nextAction = values["next-action"];
  const doc = unwrap(
    initProgress(projectDirOf(values.project, ctx), {
      request,
      primaryExpert: primary,
      ...(values.summary === undefined ? {} : { summary: values.summary }),
      supportingExperts: values.supporting ?? [],
      ...(values.strategy === undefined
        ? {}
        : { strategy: oneOf(values.strategy, "strategy", ["sequential", "parallel", "single"] as const, usage)! }),
      ...(values.steps === undefined ? {} : { estimatedSteps: wholeNumber(values.steps, "steps", usage, 1)! }),
      ...(nextAction === undefined ? {} : { next: { expert: values["next-expert"] ?? primary, action: nextAction } }),
      ...(values["max-depth"] === undefined
        ? {}
        : { maxDepth: wholeNumber(values["max-depth"], "max-depth", usage, 1)! }),
      force: values.force === true,
    }),
  );
  report(
    ctx,
    values.json,
    doc,
    `started workflow ${doc.workflow_id} for ${doc.task.project_context.name}: ${doc.total_steps} step${doc.total_steps === 1 ? "" : "s"} planned, ${doc.classification.primary_expert} leads`,
  );
}

async function show(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values } = parseCommandArgs(args, common, usage, false);
  const projectDir = projectDirOf(values.project, ctx);
  const doc = unwrap(readProgress(projectDir));
  if (values.json === true) {
    printJson(ctx, doc ?? null);
    return;
  }
  ctx.out(
    doc === undefined
      ? 'no workflow: run `lanes progress init "<request>" --primary <expert>` to start one\n'
      : renderProgressReport(doc),
  );
  // composite skills run next to (or without) a workflow: show the unfinished ones
  const running = activePhaseStates(projectDir).active;
  if (running.length > 0) {
    ctx.out(
      `\ncomposite skills running:\n${running.map((r) => `- ${r.skill} for task ${r.task_id}: ${r.current_phase === null ? "all phases done, `phase complete` not run yet" : `at phase ${r.current_phase}`}`).join("\n")}\n`,
    );
  }
}

function constraintsOf(values: {
  "next-write-path"?: string[];
  "next-tool"?: string[];
  "next-read-only"?: boolean;
}): StepConstraints | undefined {
  const c: StepConstraints = {};
  if (values["next-write-path"] !== undefined) c.write_paths = values["next-write-path"];
  if (values["next-tool"] !== undefined) c.tools = values["next-tool"];
  if (values["next-read-only"] === true) c.read_only = true;
  return Object.keys(c).length === 0 ? undefined : c;
}

async function step(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values } = parseCommandArgs(
    args,
    {
      ...common,
      expert: { type: "string" },
      action: { type: "string" },
      summary: { type: "string" },
      result: { type: "string" },
      created: { type: "string", multiple: true },
      modified: { type: "string", multiple: true },
      doc: { type: "string", multiple: true },
      "duration-ms": { type: "string" },
      step: { type: "string" },
      final: { type: "boolean" },
      "next-expert": { type: "string" },
      "next-action": { type: "string" },
      "next-context": { type: "string" },
      "next-notes": { type: "string" },
      "next-file": { type: "string", multiple: true },
      "next-write-path": { type: "string", multiple: true },
      "next-tool": { type: "string", multiple: true },
      "next-read-only": { type: "boolean" },
    },
    usage,
    false,
  );
  const nextGiven = [
    "next-expert",
    "next-action",
    "next-context",
    "next-notes",
    "next-file",
    "next-write-path",
    "next-tool",
    "next-read-only",
  ].some((k) => values[k as keyof typeof values] !== undefined);
  let next: NextStepInput | undefined;
  if (nextGiven) {
    if (values.final === true)
      throw new CliError("`--final` and `--next-*` contradict each other: a final step has no next step", 64, usage);
    const context = { ...(jsonObject(values["next-context"], "next-context", usage) ?? {}) };
    if (values["next-notes"] !== undefined) context.notes = values["next-notes"];
    if (values["next-file"] !== undefined) context.relevant_files = values["next-file"];
    const constraints = constraintsOf(values);
    next = {
      expert: required(values["next-expert"], "next-expert", usage),
      action: required(values["next-action"], "next-action", usage),
      context,
      ...(constraints === undefined ? {} : { constraints }),
    };
  }
  const result = jsonObject(values.result, "result", usage);
  const duration = wholeNumber(values["duration-ms"], "duration-ms", usage);
  const stepNumber = wholeNumber(values.step, "step", usage, 1);
  const doc = unwrap(
    recordStep(projectDirOf(values.project, ctx), {
      expert: required(values.expert, "expert", usage),
      action: required(values.action, "action", usage),
      ...(values.summary === undefined ? {} : { summary: values.summary }),
      ...(result === undefined ? {} : { result }),
      created: values.created ?? [],
      modified: values.modified ?? [],
      documentation: values.doc ?? [],
      ...(duration === undefined ? {} : { durationMs: duration }),
      ...(stepNumber === undefined ? {} : { step: stepNumber }),
      ...(next === undefined ? {} : { next }),
      final: values.final === true,
    }),
  );
  const last = doc.completed_steps.at(-1)!;
  report(
    ctx,
    values.json,
    doc,
    `recorded step ${last.step}: \`${last.expert}\` did \`${last.action}\`; ${nextLine(doc)}`,
  );
}

const ERROR_TYPES = ["validation", "execution", "timeout", "resource"] as const;
const SEVERITIES = ["critical", "recoverable", "warning"] as const;

async function error(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      ...common,
      expert: { type: "string" },
      action: { type: "string" },
      step: { type: "string" },
      type: { type: "string" },
      severity: { type: "string" },
      attempted: { type: "string" },
      suggestion: { type: "string" },
      skill: { type: "string" },
      context: { type: "string" },
      recovery: { type: "string", multiple: true },
    },
    usage,
  );
  const message = positional(positionals, 'the error message (`lanes progress error "<message>"`)');
  const recoveryOptions = (values.recovery ?? []).map((w) => {
    const parsed = parseRecovery(w);
    if (!parsed.ok) throw new CliError(parsed.issues[0]!.message, 64, usage);
    return parsed.value;
  });
  let errorContext: Record<string, unknown> | undefined;
  if (values.context !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(values.context);
    } catch {
      throw new CliError('`--context` must be a JSON object, e.g. `{"file":"db/schema.sql"}`', 64, usage);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new CliError('`--context` must be a JSON object, e.g. `{"file":"db/schema.sql"}`', 64, usage);
    errorContext = parsed as Record<string, unknown>;
  }
  const stepNumber = wholeNumber(values.step, "step", usage, 1);
  const errorType = oneOf(values.type, "type", ERROR_TYPES, usage);
  const severity = oneOf(values.severity, "severity", SEVERITIES, usage);
  const doc = unwrap(
    recordError(projectDirOf(values.project, ctx), {
      message,
      ...(stepNumber === undefined ? {} : { step: stepNumber }),
      ...(values.expert === undefined ? {} : { expert: values.expert }),
      ...(values.action === undefined ? {} : { action: values.action }),
      ...(errorType === undefined ? {} : { errorType }),
      ...(severity === undefined ? {} : { severity }),
      ...(values.attempted === undefined ? {} : { attempted: values.attempted }),
      ...(values.suggestion === undefined ? {} : { suggestion: values.suggestion }),
      ...(values.skill === undefined ? {} : { skill: values.skill }),
      ...(errorContext === undefined ? {} : { context: errorContext }),
      recoveryOptions,
    }),
  );
  report(
    ctx,
    values.json,
    doc,
    `logged error ${doc.errors.length} in workflow ${doc.workflow_id}: the status stays ${doc.status}; run \`lanes progress fail\` if it cannot go on`,
  );
}

async function complete(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values } = parseCommandArgs(
    args,
    {
      ...common,
      summary: { type: "string" },
      suggestion: { type: "string", multiple: true },
      force: { type: "boolean" },
    },
    usage,
    false,
  );
  const doc = unwrap(
    completeProgress(projectDirOf(values.project, ctx), {
      ...(values.summary === undefined ? {} : { summary: values.summary }),
      suggestions: values.suggestion ?? [],
      force: values.force === true,
    }),
  );
  if (values.json === true) printJson(ctx, doc);
  else ctx.out(renderProgressReport(doc));
}

async function failCommand(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    { ...common, expert: { type: "string" }, action: { type: "string" } },
    usage,
  );
  const reason = positional(positionals, 'the reason (`lanes progress fail "<reason>"`)');
  const doc = unwrap(
    failProgress(projectDirOf(values.project, ctx), {
      message: reason,
      ...(values.expert === undefined ? {} : { expert: values.expert }),
      ...(values.action === undefined ? {} : { action: values.action }),
    }),
  );
  report(ctx, values.json, doc, `workflow ${doc.workflow_id} failed: ${reason}`);
}

async function resume(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values } = parseCommandArgs(args, common, usage, false);
  const info = unwrap(resumeProgress(projectDirOf(values.project, ctx)));
  if (values.json === true) printJson(ctx, info.progress);
  else ctx.out(renderResume(info.progress));
}

async function artifacts(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values } = parseCommandArgs(
    args,
    {
      ...common,
      created: { type: "string", multiple: true },
      modified: { type: "string", multiple: true },
      doc: { type: "string", multiple: true },
      agent: { type: "string" },
    },
    usage,
    false,
  );
  const count = (values.created?.length ?? 0) + (values.modified?.length ?? 0) + (values.doc?.length ?? 0);
  if (count === 0) throw new CliError("nothing to record: pass `--created`, `--modified` or `--doc`", 64, usage);
  const doc = unwrap(
    addArtifacts(
      projectDirOf(values.project, ctx),
      { created: values.created ?? [], modified: values.modified ?? [], documentation: values.doc ?? [] },
      values.agent,
    ),
  );
  const a = doc.artifacts;
  report(
    ctx,
    values.json,
    doc,
    `artifacts of ${doc.workflow_id}: ${a.files_created.length} created, ${a.files_modified.length} modified, ${a.documentation_consulted.length} documentation`,
  );
}

/** Skills enter and leave whether or not a workflow runs: without one there is nothing to record, and that is not an error. */
function noWorkflowToRecord(result: Result<ProgressFile>, ctx: CliContext, skill: string, json: boolean | undefined) {
  if (result.ok || result.issues[0]?.code !== "missing") return false;
  if (json === true) printJson(ctx, null);
  else
    ctx.out(
      `no workflow: \`${skill}\` is not recorded in a task context (nothing to skip; \`lanes progress init\` starts a workflow that tracks nesting)\n`,
    );
  return true;
}

async function enter(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, common, usage);
  const skill = positional(positionals, "the skill (`lanes progress enter <skill>`)");
  const entered = enterSkill(projectDirOf(values.project, ctx), skill);
  if (noWorkflowToRecord(entered, ctx, skill, values.json)) return;
  const doc = unwrap(entered);
  const n = doc.task_context!.nesting;
  report(
    ctx,
    values.json,
    doc,
    `entered \`${n.path.at(-1)}\`: depth ${n.current_depth} of ${n.max_depth} (${n.path.join(" → ")})`,
  );
}

async function leave(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    { ...common, status: { type: "string" }, output: { type: "string" }, "duration-ms": { type: "string" } },
    usage,
  );
  const skill = positional(positionals, "the skill (`lanes progress leave <skill>`)");
  const output = jsonObject(values.output, "output", usage);
  const duration = wholeNumber(values["duration-ms"], "duration-ms", usage);
  const left = leaveSkill(projectDirOf(values.project, ctx), skill, {
    status: oneOf(values.status, "status", ["success", "partial", "failed"] as const, usage) ?? "success",
    ...(output === undefined ? {} : { output }),
    ...(duration === undefined ? {} : { durationMs: duration }),
  });
  if (noWorkflowToRecord(left, ctx, skill, values.json)) return;
  const doc = unwrap(left);
  const n = doc.task_context!.nesting;
  report(
    ctx,
    values.json,
    doc,
    `left \`${skill}\`: depth ${n.current_depth} of ${n.max_depth}${n.path.length === 0 ? "" : ` (${n.path.join(" → ")})`}`,
  );
}

/** `lanes progress`. */
export const progressCommand: Command = {
  name: "progress",
  summary: "track a multi-step workflow: init, show, step, error, complete, fail, resume",
  usage,
  run: (args, ctx) =>
    dispatch(
      "progress",
      args,
      ctx,
      { init, show, step, error, complete, fail: failCommand, resume, artifacts, enter, leave },
      usage,
    ),
};

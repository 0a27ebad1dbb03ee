/**
 * The composite-skill state machine (composite skills: entry, advance, complete), as pure
 * functions over the state file's contents. I/O (locking, memory-file checks, archiving, saving
 * before printing) lives in phases.ts.
 *
 * Phase types: LINEAR runs then moves along `next`; OPTIONAL runs when its trigger holds, else
 * is skipped (`--skip`); ITERATIVE runs again on `--retry` up to `max_iterations` runs;
 * REMEDIATION goes back to `remediation_target` on `--retry` up to `max_remediation` times; AUTO
 * has no agent and is completed by the runtime as soon as it is entered; PARALLEL waits for the
 * memory file of every branch agent.
 */
import { z } from "zod";
import { PhaseList, runsInMain, type Phase, type PhaseType } from "../definitions/phases.ts";
import { assertNever } from "../host/assert-never.ts";
import { IsoDateTime } from "./progress-schema.ts";
import { fail, ok, type Result } from "../io/result.ts";
import { firstProblem } from "./zod-problem.ts";

/** Default bound of an ITERATIVE phase without `max_iterations` (runs, including the first). */
export const DEFAULT_MAX_ITERATIONS = 3;
/** Default bound of a REMEDIATION phase without `max_remediation`. */
export const DEFAULT_MAX_REMEDIATION = 2;

/** What a finished phase produced (composite skills invariant 7: phase outputs live in the state). */
export const PhaseOutput = z.looseObject({
  status: z
    .enum(["completed", "skipped", "auto"])
    .describe(
      "completed: its agents' memory files passed; skipped: OPTIONAL and not triggered; auto: done by the runtime",
    ),
  agents: z.array(z.string()).describe("The agents whose memory files were verified."),
  memory_files: z.array(z.string()).describe("Those memory files, relative to the project."),
  summaries: z.record(z.string(), z.string()).describe("Each agent's memory summary, by agent."),
  artifacts: z.array(z.string()).describe("Files the agents reported."),
  written_by: z
    .record(z.string(), z.string())
    .optional()
    .describe(
      "Agents whose memory file someone else wrote from their report (agents without a tool to write files), with the writer: `main` or the agent that started them.",
    ),
  inputs: z.array(z.string()).optional().describe("AUTO phases: the phases whose outputs this one recorded, in order."),
  completed_at: IsoDateTime.describe("When the phase was completed."),
});
export type PhaseOutput = z.infer<typeof PhaseOutput>;

/** One event in a run's history. */
export const PhaseEvent = z.looseObject({
  phase: z.string().describe("The phase id."),
  event: z.enum(["started", "completed", "skipped", "auto", "retried", "remediated"]).describe("What happened."),
  at: IsoDateTime.describe("When."),
});
export type PhaseEvent = z.infer<typeof PhaseEvent>;

/** The state file `.claude/state/phases/<skill>-<task_id>.json`. */
export const PhaseState = z.looseObject({
  version: z.literal(1).describe("Always 1."),
  skill: z.string().min(1).describe("The composite skill."),
  task_id: z.string().min(1).describe("The task it runs for."),
  run_id: z
    .string()
    .min(1)
    .optional()
    .describe(
      "This run, e.g. `run-20250102T030405Z-k3x9q1`: memory files name it, so a file of an earlier run never passes a gate (absent in state files written before run ids existed: those runs are not bound to a run).",
    ),
  arguments: z
    .record(z.string(), z.string())
    .optional()
    .describe("The skill's extra arguments for this run (`--arg name=value`, defaults filled in)."),
  status: z
    .enum(["in_progress", "awaiting_completion", "completed"])
    .describe(
      "in_progress: a phase is running; awaiting_completion: all phases done, `complete` not run yet; completed",
    ),
  current_phase: z.string().nullable().describe("The phase running now; null once all are done."),
  completed_phases: z.array(z.string()).describe("Phases completed (or auto-completed), in order."),
  skipped_phases: z.array(z.string()).describe("OPTIONAL phases skipped."),
  phase_outputs: z.record(z.string(), PhaseOutput).describe("What each finished phase produced, by phase id."),
  iterations: z.record(z.string(), z.number().int().min(0)).describe("Retries done so far, by ITERATIVE phase id."),
  remediations: z
    .record(z.string(), z.number().int().min(0))
    .describe("Remediations done so far, by REMEDIATION phase id."),
  history: z.array(PhaseEvent).describe("Every transition, oldest first."),
  started_at: IsoDateTime.describe("When the run started."),
  updated_at: IsoDateTime.describe("When the state last changed."),
  completed_at: IsoDateTime.optional().describe("When `complete` ran."),
});
export type PhaseState = z.infer<typeof PhaseState>;

/** A passed memory-file check for one agent. */
export interface VerifiedMemory {
  /** Memory file, relative to the project. */
  readonly display: string;
  /** Its summary. */
  readonly summary: string;
  /** Its artifacts. */
  readonly artifacts: readonly string[];
  /** Who wrote it, when not the agent itself. */
  readonly writtenBy?: string;
}

/**
 * Checks the memory file of one agent for `phase` (I/O, injected): it must name this phase and
 * run and be written at or after `since`, when the phase (this run of it) started.
 */
export type VerifyAgent = (agent: string, phase: Phase, since: string) => Result<VerifiedMemory>;

/** When the current run of phase `id` started: its latest `started` event. */
export function phaseStartedAt(state: PhaseState, id: string): string {
  for (let i = state.history.length - 1; i >= 0; i--) {
    const e = state.history[i]!;
    if (e.phase === id && e.event === "started") return e.at;
  }
  return state.started_at;
}

/** Validates a phase list (the invariants of src/definitions/phases.ts: phase 0 LINEAR, `next` chain, ...). */
export function checkPhases(skill: string, phases: unknown): Result<PhaseList> {
  const parsed = PhaseList.safeParse(phases);
  return parsed.success
    ? ok(parsed.data)
    : fail("invalid-input", `the phases of skill \`${skill}\` are invalid: ${firstProblem(parsed.error)}`, {
        help: "fix the skill definition's `phases`",
      });
}

/** Phase ids in execution order (following `next` from phase 0). */
export function phaseOrder(phases: PhaseList): string[] {
  const byId = new Map(phases.map((p) => [p.id, p]));
  const out: string[] = [];
  for (let id: string | null = "0"; id !== null && !out.includes(id); id = byId.get(id)?.next ?? null) out.push(id);
  return out;
}

/** What a phase type does. */
export interface PhaseBehaviour {
  /** Who works in the phase: one agent, every branch at once, or nobody (the runtime completes it on entry). */
  readonly agents: "one" | "branches" | "none";
  /** `advance --skip` is allowed (its trigger does not hold). */
  readonly skippable: boolean;
  /** What `advance --retry` does: run the phase again, or go back to its remediation target. */
  readonly retry: "iterate" | "remediate" | undefined;
}

/** The behaviour of each phase type, in one place: a new type fails the type check here until it is described. */
export function phaseBehaviour(type: PhaseType): PhaseBehaviour {
  switch (type) {
    case "LINEAR":
      return { agents: "one", skippable: false, retry: undefined };
    case "OPTIONAL":
      return { agents: "one", skippable: true, retry: undefined };
    case "ITERATIVE":
      return { agents: "one", skippable: false, retry: "iterate" };
    case "REMEDIATION":
      return { agents: "one", skippable: false, retry: "remediate" };
    case "AUTO":
      return { agents: "none", skippable: false, retry: undefined };
    case "PARALLEL":
      return { agents: "branches", skippable: false, retry: undefined };
    default:
      return assertNever(type, "phase type");
  }
}

/** The agents whose memory files gate a phase. */
export function phaseAgents(phase: Phase): string[] {
  const agents = phaseBehaviour(phase.type).agents;
  if (agents === "branches") return [...(phase.branches ?? [])];
  return agents === "none" || phase.agent === undefined ? [] : [phase.agent];
}

const label = (p: Phase): string => `phase \`${p.id}\` (\`${p.name}\`)`;

/** A new run: phase 0 is current (it is LINEAR, never AUTO). */
export function startState(
  skill: string,
  taskId: string,
  now: string,
  runId?: string,
  args?: Readonly<Record<string, string>>,
): PhaseState {
  return {
    version: 1,
    skill,
    task_id: taskId,
    ...(runId === undefined ? {} : { run_id: runId }),
    ...(args === undefined || Object.keys(args).length === 0 ? {} : { arguments: { ...args } }),
    status: "in_progress",
    current_phase: "0",
    completed_phases: [],
    skipped_phases: [],
    phase_outputs: {},
    iterations: {},
    remediations: {},
    history: [{ phase: "0", event: "started", at: now }],
    started_at: now,
    updated_at: now,
  };
}

/** A declared extra argument of a composite skill (see `SkillArgument`). */
export interface ArgumentSpec {
  readonly name: string;
  readonly default?: string | undefined;
  readonly choices?: readonly string[] | undefined;
}

/**
 * The run's arguments from `--arg name=value` words: each must be declared, a value must be one
 * of its choices, and defaults fill in the rest (pure).
 */
export function resolveArguments(
  skill: string,
  specs: readonly ArgumentSpec[],
  given: readonly string[],
): Result<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const word of given) {
    const at = word.indexOf("=");
    const name = at < 0 ? word : word.slice(0, at);
    const spec = specs.find((s) => s.name === name);
    if (at < 0) return fail("invalid-input", `\`--arg ${word}\` has no value: write \`--arg ${name}=<value>\``);
    if (spec === undefined) {
      const known = specs.length === 0 ? "it takes none" : `it takes ${specs.map((s) => `\`${s.name}\``).join(", ")}`;
      return fail("invalid-input", `skill \`${skill}\` has no argument \`${name}\`: ${known}`);
    }
    const value = word.slice(at + 1);
    if (spec.choices !== undefined && !spec.choices.includes(value))
      return fail("invalid-input", `\`${name}\` is one of ${spec.choices.join(", ")}, received \`${value}\``);
    out[name] = value;
  }
  for (const spec of specs)
    if (out[spec.name] === undefined && spec.default !== undefined) out[spec.name] = spec.default;
  return ok(out);
}

/** Options of {@link advanceState}. */
export interface AdvanceOptions {
  /** Skip the current OPTIONAL phase (its trigger does not hold). */
  readonly skip?: boolean;
  /** Run the current ITERATIVE phase again, or remediate from the current REMEDIATION phase. */
  readonly retry?: boolean;
}

/** The result of a transition: the new state, the phases it entered (AUTO ones included), and memory files to move aside. */
export interface Transition {
  /** The state to save. */
  readonly state: PhaseState;
  /** Phases entered, in order: AUTO phases that completed themselves, then the phase now running (if any). */
  readonly entered: readonly Phase[];
  /** Agents whose memory files must be moved aside before the state is saved, with the suffix to use. */
  readonly archive: readonly { readonly agent: string; readonly suffix: string }[];
}

/**
 * What an AUTO phase records: the outputs of the phases completed before it in this run (their
 * agents, memory files, summaries by `<phase>:<agent>`, artifacts and writers), so the phases after
 * it read them in one place (`lanes phase status <skill> --task <id> --json`).
 */
function autoOutput(state: PhaseState, phases: PhaseList, id: string, now: string): PhaseOutput {
  const order = phaseOrder(phases);
  const before = order.slice(0, order.indexOf(id)).filter((p) => state.phase_outputs[p]?.status === "completed");
  const outs = before.map((p) => [p, state.phase_outputs[p]!] as const);
  const writers = Object.fromEntries(
    outs.flatMap(([p, o]) => Object.entries(o.written_by ?? {}).map(([a, w]) => [`${p}:${a}`, w])),
  );
  return {
    status: "auto",
    agents: [...new Set(outs.flatMap(([, o]) => o.agents))],
    memory_files: [...new Set(outs.flatMap(([, o]) => o.memory_files))],
    summaries: Object.fromEntries(
      outs.flatMap(([p, o]) => Object.entries(o.summaries).map(([a, text]) => [`${p}:${a}`, text])),
    ),
    artifacts: [...new Set(outs.flatMap(([, o]) => o.artifacts))],
    ...(Object.keys(writers).length === 0 ? {} : { written_by: writers }),
    inputs: before,
    completed_at: now,
  };
}

/** Enters `id` and every AUTO phase after it, until a phase that needs an agent or the end. */
function enter(state: PhaseState, phases: PhaseList, id: string | null, now: string, entered: Phase[]): void {
  const byId = new Map(phases.map((p) => [p.id, p]));
  for (let next = id; ;) {
    const phase = next === null ? undefined : byId.get(next);
    if (phase === undefined) {
      state.current_phase = null;
      state.status = "awaiting_completion";
      return;
    }
    entered.push(phase);
    if (phaseBehaviour(phase.type).agents !== "none") {
      state.current_phase = phase.id;
      state.history.push({ phase: phase.id, event: "started", at: now });
      return;
    }
    state.phase_outputs[phase.id] = autoOutput(state, phases, phase.id, now);
    if (!state.completed_phases.includes(phase.id)) state.completed_phases.push(phase.id);
    state.history.push({ phase: phase.id, event: "auto", at: now });
    next = phase.next;
  }
}

/**
 * `advance`: completes the current phase (its memory files must verify: blocking), skips it
 * (`skip`, OPTIONAL only) or runs it again (`retry`, ITERATIVE and REMEDIATION only, bounded), and
 * enters the next phase. Bad transitions are refused with the reason.
 */
export function advanceState(
  current: PhaseState,
  phases: PhaseList,
  options: AdvanceOptions,
  verify: VerifyAgent,
  now: string,
): Result<Transition> {
  const where = `skill \`${current.skill}\` for task \`${current.task_id}\``;
  if (current.status === "completed")
    return fail("refused", `${where} is already completed`, {
      help: `start a new run with \`lanes phase start ${current.skill} --task <new id>\``,
    });
  if (current.current_phase === null) {
    return fail("refused", `all phases of ${where} are done`, {
      help: `run \`lanes phase complete ${current.skill} --task ${current.task_id}\``,
    });
  }
  const phase = phases.find((p) => p.id === current.current_phase);
  if (phase === undefined) {
    return fail("refused", `${where} is at phase \`${current.current_phase}\`, which the skill no longer defines`, {
      help: `start over with \`lanes phase start ${current.skill} --task ${current.task_id} --force\``,
    });
  }
  if (options.skip === true && options.retry === true)
    return fail("invalid-input", "`--skip` and `--retry` cannot be used together");
  const state: PhaseState = structuredClone(current);
  state.updated_at = now;
  const entered: Phase[] = [];

  if (options.skip === true) {
    if (!phaseBehaviour(phase.type).skippable)
      return fail("refused", `${label(phase)} is ${phase.type}: only OPTIONAL phases can be skipped`, {
        help: "run the phase, then advance",
      });
    state.skipped_phases.push(phase.id);
    state.phase_outputs[phase.id] = {
      status: "skipped",
      agents: [],
      memory_files: [],
      summaries: {},
      artifacts: [],
      completed_at: now,
    };
    state.history.push({ phase: phase.id, event: "skipped", at: now });
    enter(state, phases, phase.next, now, entered);
    return ok({ state, entered, archive: [] });
  }

  if (options.retry === true) {
    const retry = phaseBehaviour(phase.type).retry;
    if (retry === "iterate") {
      const done = state.iterations[phase.id] ?? 0;
      const max = phase.max_iterations ?? DEFAULT_MAX_ITERATIONS;
      if (done + 1 >= max) {
        return fail(
          "refused",
          `${label(phase)} already ran ${done + 1} time${done + 1 === 1 ? "" : "s"}, its bound of ${max}`,
          {
            help: "advance once its memory file passes, or stop and report to the user",
          },
        );
      }
      state.iterations[phase.id] = done + 1;
      state.history.push({ phase: phase.id, event: "retried", at: now });
      enter(state, phases, phase.id, now, entered);
      return ok({
        state,
        entered,
        archive: phaseAgents(phase).map((agent) => ({ agent, suffix: `iteration-${done + 1}` })),
      });
    }
    if (retry === "remediate") {
      const done = state.remediations[phase.id] ?? 0;
      const max = phase.max_remediation ?? DEFAULT_MAX_REMEDIATION;
      if (done >= max) {
        return fail(
          "refused",
          `${label(phase)} already remediated ${done} time${done === 1 ? "" : "s"}, its bound of ${max}`,
          {
            help: "advance once its memory file passes, or stop and report to the user",
          },
        );
      }
      const order = phaseOrder(phases);
      const target = phase.remediation_target!;
      const span = order.slice(order.indexOf(target), order.indexOf(phase.id) + 1);
      state.completed_phases = state.completed_phases.filter((id) => !span.includes(id));
      state.skipped_phases = state.skipped_phases.filter((id) => !span.includes(id));
      for (const id of span) delete state.phase_outputs[id];
      state.remediations[phase.id] = done + 1;
      state.history.push({ phase: phase.id, event: "remediated", at: now });
      const agents = [...new Set(span.flatMap((id) => phaseAgents(phases.find((p) => p.id === id)!)))];
      enter(state, phases, target, now, entered);
      return ok({ state, entered, archive: agents.map((agent) => ({ agent, suffix: `remediation-${done + 1}` })) });
    }
    return fail(
      "refused",
      `\`--retry\` applies to ITERATIVE and REMEDIATION phases: ${label(phase)} is ${phase.type}`,
      { help: "advance once its memory file passes" },
    );
  }

  const agents = phaseAgents(phase);
  const since = phaseStartedAt(current, phase.id);
  const checks = agents.map((agent) => ({ agent, result: verify(agent, phase, since) }));
  const failed = checks.filter((c) => !c.result.ok);
  if (failed.length > 0) {
    const reasons = failed.map((c) => (c.result.ok ? "" : c.result.issues[0]!.message));
    const which = agents.length > 1 ? `${failed.length} of ${agents.length} branches are not done: ` : "";
    const first = failed[0]!.result;
    return fail("verify-failed", `${label(phase)} cannot advance: ${which}${reasons.join("; ")}`, {
      help: gateHelp(current, phase, first.ok ? undefined : first.issues[0]!.help),
    });
  }
  const verified = checks
    .map((c) => (c.result.ok ? c.result.value : undefined))
    .filter((v): v is VerifiedMemory => v !== undefined);
  state.phase_outputs[phase.id] = {
    status: "completed",
    agents,
    memory_files: verified.map((v) => v.display),
    summaries: Object.fromEntries(agents.map((a, i) => [a, verified[i]!.summary])),
    artifacts: [...new Set(verified.flatMap((v) => v.artifacts))],
    ...(verified.some((v) => v.writtenBy !== undefined)
      ? {
          written_by: Object.fromEntries(
            agents.flatMap((a, i) => (verified[i]!.writtenBy === undefined ? [] : [[a, verified[i]!.writtenBy!]])),
          ),
        }
      : {}),
    completed_at: now,
  };
  if (!state.completed_phases.includes(phase.id)) state.completed_phases.push(phase.id);
  state.history.push({ phase: phase.id, event: "completed", at: now });
  enter(state, phases, phase.next, now, entered);
  return ok({ state, entered, archive: [] });
}

/** Runs of an ITERATIVE phase still allowed after the current one. */
const iterationsLeft = (state: PhaseState, phase: Phase): number =>
  (phase.max_iterations ?? DEFAULT_MAX_ITERATIONS) - ((state.iterations[phase.id] ?? 0) + 1);

/** Remediations of a REMEDIATION phase still allowed. */
const remediationsLeft = (state: PhaseState, phase: Phase): number =>
  (phase.max_remediation ?? DEFAULT_MAX_REMEDIATION) - (state.remediations[phase.id] ?? 0);

/**
 * What a failed gate suggests: the agent's fix, and for phases that may run again, `--retry`
 * (ITERATIVE: run it again; REMEDIATION: go back to its target).
 */
function gateHelp(state: PhaseState, phase: Phase, help: string | undefined): string {
  const cmd = `\`lanes phase advance ${state.skill} --task ${state.task_id}`;
  const parts = [help ?? "have the phase's agent finish with `lanes memory write`"];
  if (phase.type === "ITERATIVE" && iterationsLeft(state, phase) > 0)
    parts.push(`or run the phase again with ${cmd} --retry\``);
  else if (phase.type === "REMEDIATION" && remediationsLeft(state, phase) > 0)
    parts.push(`or send the work back to phase ${phase.remediation_target} with ${cmd} --retry\``);
  else if (phase.type === "ITERATIVE" || phase.type === "REMEDIATION")
    parts.push(`then run ${cmd}\` again; its retries are used up, so if it cannot pass, stop and report to the human`);
  else parts.push(`then run ${cmd}\` again (a subagent still running in the background must finish first)`);
  return parts.join("; ");
}

/** `complete`: every phase must be completed or skipped; returns the completed state and the aggregated outputs. */
export function completeState(
  current: PhaseState,
  phases: PhaseList,
  now: string,
): Result<{ state: PhaseState; summary: string }> {
  const where = `skill \`${current.skill}\` for task \`${current.task_id}\``;
  if (current.status === "completed") return fail("refused", `${where} is already completed`);
  if (current.current_phase !== null) {
    const phase = phases.find((p) => p.id === current.current_phase);
    return fail(
      "refused",
      `${where} cannot complete: ${phase === undefined ? `phase \`${current.current_phase}\`` : label(phase)} is still running`,
      {
        help: `finish it, then run \`lanes phase advance ${current.skill} --task ${current.task_id}\``,
      },
    );
  }
  const order = phaseOrder(phases);
  const missing = order.filter((id) => !current.completed_phases.includes(id) && !current.skipped_phases.includes(id));
  if (missing.length > 0) {
    return fail(
      "refused",
      `${where} cannot complete: phases ${missing.map((m) => `\`${m}\``).join(", ")} were neither completed nor skipped`,
      {
        help: `start over with \`lanes phase start ${current.skill} --task ${current.task_id} --force\``,
      },
    );
  }
  const state: PhaseState = { ...structuredClone(current), status: "completed", updated_at: now, completed_at: now };
  const lines = order.map((id) => {
    const p = phases.find((x) => x.id === id)!;
    const out = current.phase_outputs[id];
    if (out === undefined || out.status === "skipped") return `- phase ${id} ${p.title}: skipped`;
    if (out.status === "auto") return `- phase ${id} ${p.title}: done by lanes`;
    const said = out.agents
      .map((a) => {
        const by = out.written_by?.[a];
        return `${a}${by === undefined ? "" : ` (written by ${by} from its report)`}: ${out.summaries[a] ?? ""}`;
      })
      .join("; ");
    return `- phase ${id} ${p.title}: ${said}`;
  });
  const artifacts = [...new Set(order.flatMap((id) => current.phase_outputs[id]?.artifacts ?? []))];
  if (artifacts.length > 0) lines.push("", `artifacts: ${artifacts.join(", ")}`);
  return ok({ state, summary: lines.join("\n") });
}

/** `DEVELOP_SKILL_COMPLETE` for `develop-skill`: the completion marker the skill prints. */
export const completionMarker = (skill: string): string =>
  `${skill.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_COMPLETE`;

/**
 * How directives name things for the install they run in: the command that runs the lanes CLI
 * (`node .claude/lanes/dist/cli.mjs`, or a plugin's absolute path) and an agent's `subagent_type`
 * (`backend`, or `lanes:backend` for the plugin's agents).
 */
export interface PhaseRender {
  readonly cli: string;
  readonly agentRef: (name: string) => string;
  /**
   * Whether an agent can write its own memory file (it has Bash or Write; `laneWritesOwnMemory` of
   * src/policy/memory-lane.ts); one that cannot ends with its report and the spawner writes the file
   * with `--written-by`. Default: every agent writes its own.
   */
  readonly writesOwnMemory?: (name: string) => boolean;
}

export const DEFAULT_RENDER: PhaseRender = { cli: "lanes", agentRef: (name) => name };

/** The directive printed after a phase's content: what the model does next (pure). */
export function renderDirective(
  skill: string,
  taskId: string,
  phase: Phase,
  state: PhaseState,
  render: PhaseRender = DEFAULT_RENDER,
): string {
  const cmd = (verb: string, extra = ""): string => `\`${render.cli} phase ${verb} ${skill} --task ${taskId}${extra}\``;
  const advance = cmd("advance");
  const run = state.run_id === undefined ? "" : ` --run ${state.run_id}`;
  const write = (agent: string, by?: string): string =>
    `\`${render.cli} memory write --task ${taskId} --agent ${agent}${by === undefined ? "" : ` --written-by ${by}`} --phase ${phase.id}${run} --summary "<one or two sentences>" --body-file -\``;
  const own = (agent: string): boolean => render.writesOwnMemory?.(agent) ?? true;
  /** How an agent's memory file gets written: by the agent, or by the main session from its report. */
  const memoryOf = (agent: string): string =>
    own(agent)
      ? `It must finish by writing its memory file with ${write(agent)}.`
      : `\`${agent}\` has no tool to write files: it ends with its report, and you write its memory file from that report (its findings as the body, the writer recorded) with ${write(agent, "main")}; the gate accepts a file written for it only because it cannot write one.`;
  const parts: string[] = [];
  // the type's own guidance, before and after the agent instructions
  let before: string | undefined;
  let after: string | undefined;
  switch (phase.type) {
    case "OPTIONAL":
      before = `This phase is optional: run it only when ${phase.trigger}. If that does not hold, run ${cmd("advance", " --skip")} instead.`;
      break;
    case "ITERATIVE": {
      const run = (state.iterations[phase.id] ?? 0) + 1;
      const max = phase.max_iterations ?? DEFAULT_MAX_ITERATIONS;
      after =
        iterationsLeft(state, phase) > 0
          ? `This is run ${run} of at most ${max}: if the result does not pass, run ${cmd("advance", " --retry")} to run it again.`
          : `This is run ${run} of at most ${max}, the last: if the result does not pass, do not retry; stop and report to the human what still fails.`;
      break;
    }
    case "REMEDIATION": {
      const left = remediationsLeft(state, phase);
      after =
        left > 0
          ? `If the check fails, run ${cmd("advance", " --retry")} to go back to phase ${phase.remediation_target} (${left} remediation${left === 1 ? "" : "s"} left).`
          : `Its remediations are used up: if the check fails, do not retry; stop and report to the human what still fails.`;
      break;
    }
    case "LINEAR":
    case "AUTO":
    case "PARALLEL":
      break;
    default:
      assertNever(phase.type, "phase type");
  }
  if (before !== undefined) parts.push(before);
  if (phase.script !== undefined)
    parts.push(
      `First run the phase script \`${phase.script}\` from the skill's \`resources/\` folder and use its output.`,
    );
  if (phaseBehaviour(phase.type).agents === "branches") {
    const branches = phaseAgents(phase);
    const indep = `${render.cli} independence ${branches.map((b) => `--branch ${b}`).join(" ")}`;
    parts.push(
      `First check that their lanes do not overlap: \`${indep}\` (if it exits 1, stop and report the conflicts it names).`,
      `Use the Agent tool once for each of ${branches.map((b) => `\`${render.agentRef(b)}\``).join(", ")} (as subagent_type), all in the same message, passing each the instructions above for task \`${taskId}\`.`,
      branches.every(own)
        ? `Each must finish by writing its memory file with ${write("<its name>")}.`
        : branches.map(memoryOf).join(" "),
      `Wait until every one has finished (for agents started in the background, their completion notices), run \`${indep} --after\` and report any overlap it finds, then run ${advance}.`,
    );
  } else if (runsInMain(phase)) {
    const agent = phase.agent!;
    parts.push(
      `Do this phase yourself, in this conversation: do not start a subagent for it (a subagent cannot ask the human).`,
      `When it is done, write its memory file as \`${agent}\` with ${write(agent)}, then run ${advance}.`,
    );
  } else {
    const agent = phase.agent!;
    parts.push(
      `Use the Agent tool with subagent_type \`${render.agentRef(agent)}\` to do this phase for task \`${taskId}\`, passing it the instructions above.`,
      memoryOf(agent),
      `Wait until it has finished (if it runs in the background, for its completion notice), then run ${advance}.`,
    );
  }
  if (after !== undefined) parts.push(after);
  parts.push(
    `If ${advance} refuses, do what it says (the memory file must be written for phase ${phase.id} of this run, after the phase started) and run it again.`,
  );
  return parts.join(" ");
}

/** What `start`, `advance` and `status` print: the content of every phase entered, then the directive (pure). */
export function renderTransition(
  skill: string,
  taskId: string,
  phases: PhaseList,
  entered: readonly Phase[],
  state: PhaseState,
  render: PhaseRender = DEFAULT_RENDER,
): string {
  const count = phases.length;
  const out: string[] = [];
  const args = Object.entries(state.arguments ?? {});
  if (args.length > 0) out.push(`Arguments of this run: ${args.map(([k, v]) => `${k}=${v}`).join(", ")}`, "");
  for (const phase of entered) {
    out.push(
      `# ${skill}: phase ${phase.id} of ${count}: ${phase.title} (${phase.type}${runsInMain(phase) ? ", main session" : ""})`,
      "",
      phase.content.trim(),
      "",
    );
    if (phase.configuration !== undefined) out.push(`Configuration: ${JSON.stringify(phase.configuration)}`, "");
    if (phaseBehaviour(phase.type).agents === "none") {
      const recorded = state.phase_outputs[phase.id];
      const inputs = recorded?.inputs ?? [];
      out.push(
        inputs.length === 0
          ? "lanes completed this AUTO phase."
          : `lanes completed this AUTO phase: it recorded the outputs of phases ${inputs.join(", ")} (${recorded!.memory_files.length} memory file${recorded!.memory_files.length === 1 ? "" : "s"}${recorded!.artifacts.length === 0 ? "" : `; artifacts: ${recorded!.artifacts.join(", ")}`}); \`${render.cli} phase status ${skill} --task ${taskId} --json\` shows them.`,
        "",
      );
    }
  }
  if (state.current_phase === null) {
    out.push(
      `All phases of \`${skill}\` are done for task \`${taskId}\`: run \`${render.cli} phase complete ${skill} --task ${taskId}\`.`,
    );
  } else {
    const current = phases.find((p) => p.id === state.current_phase)!;
    out.push("---", `DIRECTIVE: ${renderDirective(skill, taskId, current, state, render)}`);
  }
  return `${out.join("\n")}\n`;
}

/**
 * `lanes phase`: runs a composite skill's phases (start, advance, complete, status). The skill's
 * `phases` are read from its definition; the state is saved before any directive is printed.
 * A thin adapter over src/runtime/phases.ts.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cliCommandFor, homeOf } from "../../host/env.ts";
import { projectPaths } from "../../host/layout.ts";
import { phaseAgents, type PhaseRender } from "../../runtime/phase-state.ts";
import type { CompiledPolicy } from "../../policy/compiled.ts";
import { laneWritesOwnMemory, writerProblem } from "../../policy/memory-lane.ts";
import { policyForCli } from "../policy-source.ts";
import { parseCommandArgs } from "../args.ts";
import { cliDir, packRoot } from "../pack.ts";
import { CliError, type CliContext, type Command } from "../types.ts";
import { dispatch, printJson, projectDirOf, required, unwrap } from "../runtime-edge.ts";
import { newId } from "../../host/ids.ts";
import { shippedSkills } from "../../generate/generate.ts";
import { auditLog } from "../../hooks/state/audit.ts";
import { isoTime } from "../../io/time.ts";
import {
  advancePhase,
  completePhases,
  listRuns,
  loadComposite,
  loadSkillPhases,
  offersLearnings,
  phaseStatus,
  renderRuns,
  startPhases,
  type PhaseStep,
} from "../../runtime/phases.ts";

const usage = `usage: lanes phase <subcommand> <skill> [options]

run a composite skill phase by phase; each phase's agent must leave a complete memory file
(\`lanes memory write\`) before the skill can advance

subcommands:
  start <skill> [--task <id>] [--force]     start at phase 0 and print its instructions and directive
        [--arg <name>=<value>]...           the skill's extra arguments
  advance <skill> --task <id>               verify the phase's memory files, then print the next phase
        [--skip]                            skip an OPTIONAL phase whose trigger does not hold
        [--retry]                           run an ITERATIVE phase again, or go back from a REMEDIATION phase
  complete <skill> --task <id>              check every phase is done and print <SKILL>_COMPLETE
  status <skill> --task <id>                where the run stands, with the current directive again
  list                                      every run: skill, task, current phase, last event

options:
  --project <dir>   project root (default: nearest ancestor with .claude/)
  --json            print one JSON document ({ state, text })`;

const common = { project: { type: "string" }, json: { type: "boolean" }, task: { type: "string" } } as const;

function skillOf(positionals: readonly string[], verb: string): string {
  const skill = positionals[0];
  if (skill === undefined || positionals.length > 1)
    throw new CliError(`pass one skill: \`lanes phase ${verb} <skill> --task <id>\``, 64, usage);
  return skill;
}

function print(ctx: CliContext, json: boolean | undefined, step: PhaseStep): void {
  if (json === true) printJson(ctx, step);
  else ctx.out(step.text);
}

/**
 * How directives name the CLI and the agents in this install: the CLI as the user runs it, and an
 * agent by its bare name when the project has it in `.claude/agents/`, else namespaced `lanes:`
 * (the plugin's agents).
 */
function renderFor(projectDir: string, policy: CompiledPolicy | undefined): PhaseRender {
  const dir = cliDir();
  return {
    cli: dir === undefined ? "lanes" : cliCommandFor(dir, projectDir),
    writesOwnMemory: (name) => {
      const agent = policy?.agents.find((a) => a.name === name);
      return agent === undefined || laneWritesOwnMemory(agent, policy!);
    },
    agentRef: (name) =>
      existsSync(join(projectPaths(projectDir).agents, `${name}.md`)) ||
      dir === undefined ||
      dir.startsWith(`${projectDir}/`)
        ? name
        : `lanes:${name}`,
  };
}

/** The policy the gate and the directives read the agents' tools from; undefined when it does not compile. */
function policyOf(projectDir: string, ctx: CliContext): CompiledPolicy | undefined {
  try {
    return policyForCli(projectDir, homeOf(ctx.env)).policy;
  } catch {
    return undefined;
  }
}

/** What the phase functions need from the policy: how directives name things, and the gate's writer check. */
function depsFor(projectDir: string, ctx: CliContext) {
  const policy = policyOf(projectDir, ctx);
  return {
    render: renderFor(projectDir, policy),
    ...(policy === undefined
      ? {}
      : { writerCheck: (agent: string, writtenBy: string | undefined) => writerProblem(policy, agent, writtenBy) }),
  };
}

const packSkills = (): string | undefined => {
  const root = packRoot();
  return root === undefined ? undefined : join(root, "definitions", "skills");
};

async function start(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    { ...common, force: { type: "boolean" }, arg: { type: "string", multiple: true } },
    usage,
  );
  const skill = skillOf(positionals, "start");
  const projectDir = projectDirOf(values.project, ctx);
  const composite = unwrap(loadComposite(projectDir, skill, packSkills()));
  const policy = policyOf(projectDir, ctx);
  // a shipped skill naming agents this team lacks is set aside by the build (src/generate/team.ts)
  const missing =
    policy === undefined || !shippedSkills(projectPaths(projectDir).lanesDir).has(skill)
      ? []
      : [...new Set(composite.phases.flatMap(phaseAgents))].filter((a) => !policy.agents.some((x) => x.name === a));
  if (missing.length > 0)
    throw new CliError(
      `skill \`${skill}\` needs agent${missing.length === 1 ? "" : "s"} ${missing.map((m) => `\`${m}\``).join(", ")}, which this team does not have: it cannot run here`,
      1,
      "add the agents under `.claude/lanes/agents/`, or adapt the skill's phases to your agents (`lanes lint` lists the skills set aside)",
    );
  const taskId = values.task ?? newId("task", new Date(), Math.random);
  const options = { force: values.force === true, args: values.arg ?? [], argumentSpecs: composite.arguments };
  print(
    ctx,
    values.json,
    unwrap(startPhases(projectDir, skill, composite.phases, taskId, options, depsFor(projectDir, ctx))),
  );
}

async function advance(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    { ...common, skip: { type: "boolean" }, retry: { type: "boolean" } },
    usage,
  );
  const skill = skillOf(positionals, "advance");
  const projectDir = projectDirOf(values.project, ctx);
  const phases = unwrap(loadSkillPhases(projectDir, skill, packSkills()));
  const step = advancePhase(
    projectDir,
    skill,
    phases,
    required(values.task, "task", usage),
    { skip: values.skip === true, retry: values.retry === true },
    depsFor(projectDir, ctx),
  );
  print(ctx, values.json, unwrap(step));
}

/** The learnings skill, when this install has it (the learnings hook offers it). */
function learningsSkill(projectDir: string): { skill: string; cli: string } | undefined {
  if (!loadComposite(projectDir, LEARNINGS_SKILL, packSkills()).ok) return undefined;
  const render = renderFor(projectDir, undefined);
  return { skill: `/${render.agentRef(LEARNINGS_SKILL)}`, cli: render.cli };
}

const LEARNINGS_SKILL = "develop-learnings";

async function complete(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, common, usage);
  const skill = skillOf(positionals, "complete");
  const projectDir = projectDirOf(values.project, ctx);
  const composite = unwrap(loadComposite(projectDir, skill, packSkills()));
  const taskId = required(values.task, "task", usage);
  const onComplete = composite.onComplete ?? {};
  const learnings = learningsSkill(projectDir);
  const step = unwrap(
    completePhases(projectDir, skill, composite.phases, taskId, depsFor(projectDir, ctx), onComplete, learnings),
  );
  const logged = auditLog(projectPaths(projectDir)).append({
    ts: isoTime(new Date()),
    event: "skill-completed",
    subject: `${skill} for task ${taskId}`,
    skill,
    run_task: taskId,
    ...(step.state.run_id === undefined ? {} : { run: step.state.run_id }),
    learnings: learnings === undefined ? "unavailable" : offersLearnings(skill, onComplete) ? "offered" : "bypassed",
  });
  if (logged !== undefined) ctx.err(`${logged}\n`);
  print(ctx, values.json, step);
}

async function status(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, common, usage);
  const skill = skillOf(positionals, "status");
  const projectDir = projectDirOf(values.project, ctx);
  const phases = unwrap(loadSkillPhases(projectDir, skill, packSkills()));
  print(
    ctx,
    values.json,
    unwrap(phaseStatus(projectDir, skill, phases, required(values.task, "task", usage), depsFor(projectDir, ctx))),
  );
}

async function list(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values } = parseCommandArgs(args, { project: { type: "string" }, json: { type: "boolean" } }, usage, false);
  const runs = unwrap(listRuns(projectDirOf(values.project, ctx)));
  if (values.json === true) printJson(ctx, runs);
  else ctx.out(renderRuns(runs));
}

/** `lanes phase`. */
export const phaseCommand: Command = {
  name: "phase",
  summary: "run a composite skill phase by phase: start, advance, complete, status, list",
  usage,
  run: (args, ctx) => dispatch("phase", args, ctx, { start, advance, complete, status, list }, usage),
};

/**
 * Agent lanes: the checks that depend on which agent makes the call. Produces matches in the
 * `must-not`, `role` and `task` layers (the spawn-tree checks in `role`); the one precedence
 * function in combine.ts decides with everything else.
 *
 * Lanes may share paths: every agent whose `owns` covers a path (and whose `does_not_own` does not
 * carve it out) may write it, and a denial names every owner. A subagent without a definition
 * (general-purpose, Explore, Plan, plugin and `.claude/agents` agents) gets the lane
 * `subagents.lanes` or the default lane gives it (see {@link DefaultLane}).
 *
 * Identity comes from the hook input: `agent_type` (plugin agents arrive as `plugin:name`, the
 * namespace is dropped). A call without `agent_type` is the main session: it gets only the
 * global rules, plus the spawn-tree checks for the agents it starts.
 */
import { BUILTIN_AGENT_LANES, type CompiledAgent, type CompiledPolicy, type DefaultLane } from "./compiled.ts";
import type { CompiledGlob } from "../globs/types.ts";
import { shownFile, WRITE_ACCESS, type CommandFact, type Facts, type FileFact } from "./facts.ts";
import { matchPath, showGlobs, type GlobRoots } from "../globs/match.ts";
import { matchRule } from "./match.ts";
import { isWithin, relativeWithin } from "../host/paths.ts";
import { isMutatingTool, sameTool } from "../host/tools.ts";
import { type PathContext } from "./paths.ts";
import type { Match } from "./types.ts";
import { wildcard } from "../globs/wildcard.ts";

/**
 * Task constraints: from the progress file's `next_step.constraints` (for the agent type it names)
 * or from the constraint block of the Agent call that started one subagent instance (see
 * task-block.ts). They can only narrow what the agent may do.
 */
export interface TaskConstraints {
  /** The agent type they bind (`next_step.expert`, or the spawned type). */
  readonly agent: string;
  /** When set, they bind only this subagent instance (`agent_id`). */
  readonly agentId?: string;
  readonly step: number | undefined;
  /** Where they come from, for messages (default: the progress file). */
  readonly source?: string;
  /** Globs the task may write; writes elsewhere are denied. */
  readonly writePaths: readonly CompiledGlob[] | undefined;
  /** Globs the task must not write. */
  readonly forbiddenPaths?: readonly CompiledGlob[];
  /** Test fixtures and recorded outputs, when the task protects them. */
  readonly fixturePaths?: readonly CompiledGlob[];
  /** Commands the task must not run: program, then leading words. */
  readonly commands?: readonly (readonly string[])[];
  /** Tools the step may use. */
  readonly tools: readonly string[] | undefined;
  readonly readOnly: boolean;
  /** Set when the constraints exist but could not be read: writes and commands fail closed. */
  readonly unreadable?: string;
}

/** Where the calling agent sits in the live agent tree. */
export interface AgentPosition {
  /** Agent types from the first subagent down to the caller; empty for the main session. */
  readonly path: readonly string[];
}

export interface LaneInput {
  readonly policy: CompiledPolicy;
  /** `agent_type` of the caller, if any. */
  readonly agentType: string | undefined;
  /** `agent_id` of the caller, inside a subagent. */
  readonly agentId?: string | undefined;
  readonly position: AgentPosition;
  /** Agent types Claude Code can start (lanes agents, `.claude/agents`, built-ins). */
  readonly knownAgentTypes: ReadonlySet<string>;
  /** Every task constraint in force; each applies when its agent (and instance) is the caller. */
  readonly tasks: readonly TaskConstraints[];
}

/**
 * Lane, task and spawn-tree rules: the checks of this module, as data. They are enforced below
 * the lanes policy layers (layers `must-not`, `role`, `task`), so one rule governs them: any
 * policy layer switches one off with `disable: [<id>]`, and an `allow` rule never cancels them
 * (allow exceptions act only inside the policy layers, see combine.ts).
 */
export const LANE_RULES: Readonly<
  Record<string, { readonly layer: "role" | "task"; readonly effect: "deny" | "ask"; readonly what: string }>
> = {
  "lane.tool-not-allowed": { layer: "role", effect: "deny", what: "a tool outside the agent's `tools.allowed`" },
  "lane.tool-forbidden": { layer: "role", effect: "deny", what: "a tool in the agent's `tools.forbidden`" },
  "lane.skill-not-allowed": {
    layer: "role",
    effect: "deny",
    what: "a skill the agent may not invoke (`may_invoke_skills`)",
  },
  "lane.spawn-not-allowed": {
    layer: "role",
    effect: "deny",
    what: "starting an agent the agent may not start (`may_spawn`)",
  },
  "lane.write-unknown-path": {
    layer: "role",
    effect: "ask",
    what: "a write whose path is known only at run time, by an agent with a lane",
  },
  "lane.write-outside-owned": {
    layer: "role",
    effect: "deny",
    what: "a write outside the agent's `owns` (or carved out by `does_not_own`); names every owner",
  },
  "lane.undefined-agent": {
    layer: "role",
    effect: "deny",
    what: "any write by a subagent without a definition whose lane is `deny-writes`",
  },
  "lane.write-into-owned": {
    layer: "role",
    effect: "deny",
    what: "a write into a lanes agent's paths by a subagent without a definition whose lane is `unowned-only`",
  },
  "subagents.tool-not-allowed": {
    layer: "role",
    effect: "deny",
    what: "a tool outside `subagents.tools.allowed`, for every subagent",
  },
  "subagents.tool-forbidden": {
    layer: "role",
    effect: "deny",
    what: "a tool in `subagents.tools.forbidden`, for every subagent",
  },
  "agents.unknown-type": { layer: "role", effect: "deny", what: "starting an agent type Claude Code does not know" },
  "agents.depth-limit": {
    layer: "role",
    effect: "deny",
    what: "starting an agent nested deeper than `max_agent_depth`",
  },
  "agents.cycle": { layer: "role", effect: "deny", what: "starting an agent type already on the agent path" },
  "task.read-only": { layer: "task", effect: "deny", what: "a write under a read-only task" },
  "task.write-outside-scope": {
    layer: "task",
    effect: "deny",
    what: "a write outside the task's `only modify` paths (`write_paths`)",
  },
  "task.write-forbidden": { layer: "task", effect: "deny", what: "a write into a path the task says not to modify" },
  "task.fixtures": {
    layer: "task",
    effect: "deny",
    what: "a write to test fixtures or recorded outputs (snapshots, golden files) under a task that protects them",
  },
  "task.command-forbidden": { layer: "task", effect: "deny", what: "a command the task says not to run" },
  "task.tool-not-allowed": { layer: "task", effect: "deny", what: "a tool outside the progress step's `tools`" },
  "task.constraints-unreadable": {
    layer: "task",
    effect: "deny",
    what: "a write or command by a subagent whose task constraints exist but cannot be read yet (fails closed)",
  },
};

/** Claude Code's own agent types, always available. */
export const BUILTIN_AGENT_TYPES: readonly string[] = [
  "general-purpose",
  "Explore",
  "Plan",
  "statusline-setup",
  "output-style-setup",
  "claude-code-guide",
];

/** `lanes:backend` → `backend`. */
export const baseAgentName = (agentType: string): string => agentType.slice(agentType.lastIndexOf(":") + 1);

/** Files under here are every agent's to write: the memory-file protocol needs it. */
const SHARED_WRITABLE = [".claude/memory"];

const toolListed = (list: readonly string[], tool: string): boolean =>
  list.some((t) => sameTool(t, tool) || (t.includes("*") && wildcard(t, tool)));

/** A match of a lane, role, task or spawn-tree rule (fields in the order every match has them). */
function laneMatch(m: Match): Match {
  return {
    ruleId: m.ruleId,
    layer: m.layer,
    effect: m.effect,
    why: m.why,
    instead: m.instead,
    subject: m.subject,
    scope: m.scope,
    source: m.source,
  };
}

/**
 * Whether `agent`'s lane covers the absolute `path`: inside `owns` and not carved out by
 * `does_not_own`. The one reading of a lane: the guard's write checks and `lanes independence`
 * (which branches of a fan-out could write the same file) both decide with it.
 */
export const inLane = (agent: CompiledAgent, path: string, roots: GlobRoots): boolean =>
  agent.owns.some((g) => matchPath(g, path, roots)) && !agent.notOwned.some((n) => matchPath(n.glob, path, roots));

/**
 * Every owner of a path other than `agent`, sorted: the owners `agent` itself declares with
 * `does_not_own`, and every other agent whose lane covers it. Lanes may share paths.
 */
export function ownersOf(
  path: string,
  agent: CompiledAgent | undefined,
  policy: CompiledPolicy,
  roots: GlobRoots,
): string[] {
  const owners = new Set<string>();
  for (const n of agent?.notOwned ?? []) if (matchPath(n.glob, path, roots)) owners.add(n.owner);
  for (const a of policy.agents) if (a.name !== agent?.name && inLane(a, path, roots)) owners.add(a.name);
  return [...owners].sort();
}

const tick = (names: readonly string[], joiner: string): string => {
  const q = names.map((n) => `\`${n}\``);
  return q.length <= 1 ? (q[0] ?? "") : `${q.slice(0, -1).join(", ")} ${joiner} ${q.at(-1)!}`;
};

function writeFacts(facts: Facts): FileFact[] {
  return facts.files.filter((f) => WRITE_ACCESS.has(f.access));
}

/** Project-relative, for messages. */
const relPath = (path: string, ctx: PathContext): string =>
  relativeWithin(path, ctx.projectDir, ctx.caseInsensitive) ?? path;

/** Writes a lane judges: inside the project and outside the shared memory folder. */
function laneWrites(facts: Facts, ctx: PathContext): FileFact[] {
  return writeFacts(facts).filter(
    (f) =>
      f.path === undefined ||
      (isWithin(f.path, ctx.projectDir, ctx.caseInsensitive) &&
        !SHARED_WRITABLE.some((d) => isWithin(f.path!, `${ctx.projectDir}/${d}`, ctx.caseInsensitive))),
  );
}

function toolMatches(
  name: string,
  allowed: readonly string[] | undefined,
  forbidden: readonly string[],
  tool: string,
  src: string,
  prefix: "lane" | "subagents",
): Match[] {
  const matches: Match[] = [];
  if (allowed !== undefined && !toolListed(allowed, tool)) {
    matches.push(
      laneMatch({
        ruleId: `${prefix}.tool-not-allowed`,
        layer: "role",
        effect: "deny",
        why: `\`${tool}\` is not among ${name}'s tools (${allowed.join(", ")})`,
        instead: "use one of your own tools, or hand the step to the orchestrator",
        subject: `the \`${tool}\` tool`,
        scope: "call",
        source: src,
      }),
    );
  }
  if (toolListed(forbidden, tool)) {
    matches.push(
      laneMatch({
        ruleId: `${prefix}.tool-forbidden`,
        layer: "role",
        effect: "deny",
        why: `${name} must not use \`${tool}\``,
        instead: "hand the step to the orchestrator so an agent allowed to use it can do it",
        subject: `the \`${tool}\` tool`,
        scope: "call",
        source: src,
      }),
    );
  }
  return matches;
}

function roleMatches(
  agent: CompiledAgent,
  input: LaneInput,
  facts: Facts,
  ctx: PathContext,
  roots: GlobRoots,
): Match[] {
  const src = agent.source;
  const matches: Match[] = toolMatches(agent.name, agent.toolsAllowed, agent.toolsForbidden, facts.tool, src, "lane");
  if (
    facts.skill !== undefined &&
    !agent.mayInvokeSkills.includes("*") &&
    !agent.mayInvokeSkills.includes(baseAgentName(facts.skill))
  ) {
    matches.push(
      laneMatch({
        ruleId: "lane.skill-not-allowed",
        layer: "role",
        effect: "deny",
        why: `skills are invoked by the human or the orchestrator, not by ${agent.name}`,
        instead: "finish your step and name the skill you need in your report to the orchestrator",
        subject: `skill \`${facts.skill}\``,
        scope: "call",
        source: src,
      }),
    );
  }
  if (
    facts.spawn !== undefined &&
    !agent.maySpawn.includes("*") &&
    !agent.maySpawn.includes(baseAgentName(facts.spawn))
  ) {
    matches.push(
      laneMatch({
        ruleId: "lane.spawn-not-allowed",
        layer: "role",
        effect: "deny",
        why: `${agent.name} may not start other agents`,
        instead: "report what you need to the orchestrator, which delegates work",
        subject: `starting agent \`${facts.spawn}\``,
        scope: "call",
        source: src,
      }),
    );
  }

  for (const fact of laneWrites(facts, ctx)) {
    if (fact.path === undefined) {
      matches.push(
        laneMatch({
          ruleId: "lane.write-unknown-path",
          layer: "role",
          effect: "ask",
          why: `${agent.name} writes a path that is only known at run time, so its lane cannot be checked`,
          instead: "write the path out literally",
          subject: fact.raw,
          scope: fact.scope,
          source: src,
        }),
      );
      continue;
    }
    if (inLane(agent, fact.path, roots)) continue;
    const owners = ownersOf(fact.path, agent, input.policy, roots);
    const rel = relPath(fact.path, ctx);
    matches.push(
      laneMatch({
        ruleId: "lane.write-outside-owned",
        layer: "role",
        effect: "deny",
        why:
          owners.length === 0
            ? `\`${rel}\` is outside ${agent.name}'s lane and no agent owns it`
            : `\`${rel}\` is owned by ${tick(owners, "and")}, not ${agent.name}`,
        instead:
          owners.length === 0
            ? "stop and report to the orchestrator that this path needs an owner; do not work around the lane"
            : `hand this change to ${tick(owners, "or")} through the orchestrator (say what to change in your report); do not work around the lane`,
        subject: shownFile(fact),
        scope: fact.scope,
        source: src,
      }),
    );
  }
  return matches;
}

/** A subagent without a lanes definition: its lane from `subagents.lanes`, the built-in table, or the default. */
export function laneOfUndefined(policy: CompiledPolicy, agentType: string): DefaultLane {
  return (
    policy.subagents.lanes[agentType] ??
    policy.subagents.lanes[baseAgentName(agentType)] ??
    BUILTIN_AGENT_LANES[agentType] ??
    policy.options.defaultLane
  );
}

function undefinedAgentMatches(
  agentType: string,
  input: LaneInput,
  facts: Facts,
  ctx: PathContext,
  roots: GlobRoots,
): Match[] {
  const lane = laneOfUndefined(input.policy, agentType);
  if (lane === "global-only") return [];
  const matches: Match[] = [];
  for (const fact of laneWrites(facts, ctx)) {
    if (lane === "deny-writes") {
      matches.push(
        laneMatch({
          ruleId: "lane.undefined-agent",
          layer: "role",
          effect: "deny",
          why: `agent \`${agentType}\` has no lanes definition, and its lane (\`deny-writes\`) denies its writes`,
          instead: "add a definition under `.claude/lanes/agents/` or hand the change to a defined agent",
          subject: shownFile(fact),
          scope: fact.scope,
          source: "lanes subagents",
        }),
      );
      continue;
    }
    if (fact.path === undefined) continue;
    const owners = ownersOf(fact.path, undefined, input.policy, roots);
    if (owners.length === 0) continue;
    matches.push(
      laneMatch({
        ruleId: "lane.write-into-owned",
        layer: "role",
        effect: "deny",
        why: `\`${relPath(fact.path, ctx)}\` is in the lane of ${tick(owners, "and")}, and \`${agentType}\` (no lanes definition, lane \`unowned-only\`) may write only paths no agent owns`,
        instead: `hand this change to ${tick(owners, "or")}: report what to change to whoever started you`,
        subject: shownFile(fact),
        scope: fact.scope,
        source: "lanes subagents",
      }),
    );
  }
  return matches;
}

/** True when the command fact runs `words`: the same program and the same leading positionals. */
function runsWords(fact: CommandFact, words: readonly string[]): boolean {
  const program = words[0];
  if (program === undefined || fact.program === undefined) return false;
  if (fact.program.toLowerCase() !== program.slice(program.lastIndexOf("/") + 1).toLowerCase()) return false;
  const rest = words.slice(1);
  const flags = rest.filter((w) => w.startsWith("-"));
  const positionals = rest.filter((w) => !w.startsWith("-"));
  if (!flags.every((f) => fact.view.flags.has(f) || fact.argv.includes(f))) return false;
  return positionals.every((w, i) => fact.view.positionals[i]?.value?.toLowerCase() === w.toLowerCase());
}

function taskMatches(task: TaskConstraints, facts: Facts, ctx: PathContext, roots: GlobRoots): Match[] {
  const matches: Match[] = [];
  const step =
    task.agentId !== undefined
      ? `the task this ${task.agent} agent was started with`
      : task.step === undefined
        ? "the current step"
        : `step ${task.step}`;
  const source = task.source ?? "progress.json next_step.constraints";
  const add = (id: string, why: string, instead: string, subject: string, scope: string) =>
    matches.push(laneMatch({ ruleId: id, layer: "task", effect: "deny", why, instead, subject, scope, source }));
  if (task.unreadable !== undefined) {
    const writes = writeFacts(facts);
    if (writes.length > 0 || facts.commands.length > 0 || isMutatingTool(facts.tool)) {
      add(
        "task.constraints-unreadable",
        `this ${task.agent} agent's task constraints cannot be read yet (${task.unreadable})`,
        "read and plan first, and retry the change in a moment; if it persists, report it",
        `the \`${facts.tool}\` call`,
        "call",
      );
    }
    return matches;
  }
  if (task.tools !== undefined && !toolListed(task.tools, facts.tool)) {
    add(
      "task.tool-not-allowed",
      `${step} allows only ${task.tools.join(", ")}`,
      "finish the step with those tools, or report why you need another",
      `the \`${facts.tool}\` tool`,
      "call",
    );
  }
  for (const words of task.commands ?? []) {
    for (const fact of facts.commands) {
      if (runsWords(fact, words))
        add(
          "task.command-forbidden",
          `${step} says not to run \`${words.join(" ")}\``,
          "do the step without it, or report that the step needs it",
          `\`${fact.command.text}\``,
          fact.scope,
        );
    }
  }
  for (const fact of writeFacts(facts)) {
    if (task.readOnly) {
      add(
        "task.read-only",
        `${step} is read-only`,
        "report your findings instead of changing files",
        shownFile(fact),
        fact.scope,
      );
      continue;
    }
    const path = fact.path;
    if (
      path !== undefined &&
      task.fixturePaths !== undefined &&
      task.fixturePaths.some((g) => matchPath(g, path, roots))
    ) {
      add(
        "task.fixtures",
        `${step} says not to change test fixtures or recorded outputs, and \`${relPath(path, ctx)}\` is one`,
        "leave fixtures and snapshots as they are and report the difference you found",
        shownFile(fact),
        fact.scope,
      );
    }
    if (
      path !== undefined &&
      task.forbiddenPaths !== undefined &&
      task.forbiddenPaths.some((g) => matchPath(g, path, roots))
    ) {
      add(
        "task.write-forbidden",
        `${step} says not to modify ${showGlobs(task.forbiddenPaths.filter((g) => matchPath(g, path, roots)))}`,
        "leave it as it is, or report that the step needs it changed",
        shownFile(fact),
        fact.scope,
      );
    }
    if (
      task.writePaths !== undefined &&
      (path === undefined || !task.writePaths.some((g) => matchPath(g, path, roots)))
    ) {
      add(
        "task.write-outside-scope",
        `${step} may only write ${showGlobs(task.writePaths)}`,
        task.agentId === undefined
          ? "stay within the step's paths, or report that the step needs more"
          : "stay within the task's paths, or report that the task needs more",
        shownFile(fact),
        fact.scope,
      );
    }
  }
  return matches;
}

function spawnMatches(input: LaneInput, facts: Facts): Match[] {
  const target = facts.spawn;
  if (target === undefined) return [];
  const matches: Match[] = [];
  const path = input.position.path.map(baseAgentName);
  const shown = ["main", ...path].join(" → ");
  const base = baseAgentName(target);
  if (!input.knownAgentTypes.has(target) && !input.knownAgentTypes.has(base)) {
    const known = [...input.knownAgentTypes].sort().join(", ");
    matches.push(
      laneMatch({
        ruleId: "agents.unknown-type",
        layer: "role",
        effect: "deny",
        why: `there is no agent type \`${target}\``,
        instead: `use one of: ${known}`,
        subject: `starting agent \`${target}\``,
        scope: "call",
        source: "lanes built-in",
      }),
    );
  }
  const depth = path.length + 1;
  if (depth > input.policy.options.maxAgentDepth) {
    matches.push(
      laneMatch({
        ruleId: "agents.depth-limit",
        layer: "role",
        effect: "deny",
        why: `starting \`${base}\` would nest agents ${depth} deep (limit ${input.policy.options.maxAgentDepth}); path: ${shown}`,
        instead: "do the work yourself or return to the agent that started you",
        subject: `starting agent \`${target}\``,
        scope: "call",
        source: "lanes built-in",
      }),
    );
  }
  if (path.includes(base)) {
    matches.push(
      laneMatch({
        ruleId: "agents.cycle",
        layer: "role",
        effect: "deny",
        why: `\`${base}\` is already on the agent path ${shown}`,
        instead: "return your result to your caller instead of starting it again",
        subject: `starting agent \`${target}\``,
        scope: "call",
        source: "lanes built-in",
      }),
    );
  }
  return matches;
}

/** The task constraints that bind the caller: those naming its type, and those of its own instance. */
export function tasksFor(
  tasks: readonly TaskConstraints[],
  agentType: string,
  agentId: string | undefined,
): TaskConstraints[] {
  const name = baseAgentName(agentType);
  return tasks.filter((t) => t.agent === name && (t.agentId === undefined || t.agentId === agentId));
}

/** Every lane match for one call; rules switched off with `disable:` are left out. */
export function laneMatchesFor(input: LaneInput, facts: Facts, ctx: PathContext, roots: GlobRoots): Match[] {
  const matches = spawnMatches(input, facts);
  const agentType = input.agentType;
  if (agentType !== undefined) {
    const sub = input.policy.subagents;
    for (const rule of sub.mustNot) matches.push(...matchRule(rule, facts, ctx, roots));
    matches.push(
      ...toolMatches(
        "every subagent",
        sub.toolsAllowed,
        sub.toolsForbidden,
        facts.tool,
        "lanes.yaml subagents",
        "subagents",
      ),
    );
    const name = baseAgentName(agentType);
    const agent = input.policy.agents.find((a) => a.name === name);
    if (agent === undefined) matches.push(...undefinedAgentMatches(agentType, input, facts, ctx, roots));
    else {
      for (const rule of agent.mustNot) matches.push(...matchRule(rule, facts, ctx, roots));
      matches.push(...roleMatches(agent, input, facts, ctx, roots));
    }
    for (const task of tasksFor(input.tasks, agentType, input.agentId))
      matches.push(...taskMatches(task, facts, ctx, roots));
  }
  if (input.policy.disabled.length === 0) return matches;
  const off = new Set(input.policy.disabled.map((d) => d.id));
  return matches.filter((m) => !off.has(m.ruleId));
}

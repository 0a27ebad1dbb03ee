/**
 * Agent lanes: the checks that depend on which agent makes the call. Produces matches in the
 * `must-not`, `role` and `task` layers (and the spawn-tree checks in the lanes policy layer);
 * the one precedence function in combine.ts decides with everything else.
 *
 * Identity comes from the hook input: `agent_type` (plugin agents arrive as `plugin:name`, the
 * namespace is dropped). A call without `agent_type` is the main session: it gets only the
 * global rules, plus the spawn-tree checks for the agents it starts.
 */
import type { CompiledAgent, CompiledPolicy } from "./compiled.ts";
import type { CompiledGlob } from "../globs/types.ts";
import type { Facts, FileFact } from "./facts.ts";
import { matchPath, showGlobs, type GlobRoots } from "../globs/match.ts";
import { matchRule } from "./match.ts";
import { isWithin } from "../host/paths.ts";
import { type PathContext } from "./paths.ts";
import type { Match } from "./types.ts";
import { wildcard } from "../globs/wildcard.ts";

/** Task constraints from the current step of the progress file; they can only narrow a lane. */
export interface TaskConstraints {
  /** The agent the step is for (`next_step.expert`). */
  readonly agent: string;
  readonly step: number | undefined;
  /** Globs the step may write; writes elsewhere are denied. */
  readonly writePaths: readonly CompiledGlob[] | undefined;
  /** Tools the step may use. */
  readonly tools: readonly string[] | undefined;
  readonly readOnly: boolean;
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
  readonly position: AgentPosition;
  /** Agent types Claude Code can start (lanes agents, `.claude/agents`, built-ins). */
  readonly knownAgentTypes: ReadonlySet<string>;
  readonly task: TaskConstraints | undefined;
}

/** Claude Code's own agent types, always available. */
export const BUILTIN_AGENT_TYPES: readonly string[] = ["general-purpose", "Explore", "Plan", "statusline-setup", "output-style-setup", "claude-code-guide"];

/** `lanes:backend` → `backend`. */
export const baseAgentName = (agentType: string): string => agentType.slice(agentType.lastIndexOf(":") + 1);

/** Files under here are every agent's to write: the memory-file protocol needs it. */
const SHARED_WRITABLE = [".claude/memory"];

const WRITE_ACCESS = new Set(["write", "delete", "chmod", "chown"]);

const sameTool = (a: string, b: string): boolean => a === b || (a === "Task" && b === "Agent") || (a === "Agent" && b === "Task");
const toolListed = (list: readonly string[], tool: string): boolean => list.some((t) => sameTool(t, tool) || (t.includes("*") && wildcard(t, tool)));

function laneMatch(
  ruleId: string,
  layer: Match["layer"],
  effect: Match["effect"],
  why: string,
  instead: string,
  subject: string,
  scope: string,
  source: string,
): Match {
  return { ruleId, layer, effect, why, instead, subject, scope, source };
}

/** Who owns a path, for the message: the agent's own `does_not_own`, else another agent's `owns`. */
function ownerOf(path: string, agent: CompiledAgent, policy: CompiledPolicy, roots: GlobRoots): string | undefined {
  const declared = agent.notOwned.find((n) => matchPath(n.glob, path, roots));
  if (declared !== undefined) return declared.owner;
  return policy.agents.find((a) => a.name !== agent.name && a.owns.some((g) => matchPath(g, path, roots)))?.name;
}

function writeFacts(facts: Facts): FileFact[] {
  return facts.files.filter((f) => WRITE_ACCESS.has(f.access));
}

function roleMatches(agent: CompiledAgent, input: LaneInput, facts: Facts, ctx: PathContext, roots: GlobRoots): Match[] {
  const matches: Match[] = [];
  const src = agent.source;
  const tool = facts.tool;

  if (agent.toolsAllowed !== undefined && !toolListed(agent.toolsAllowed, tool)) {
    matches.push(
      laneMatch("lane.tool-not-allowed", "role", "deny", `\`${tool}\` is not among ${agent.name}'s tools (${agent.toolsAllowed.join(", ")})`, "use one of your own tools, or hand the step to the orchestrator", `the \`${tool}\` tool`, "call", src),
    );
  }
  if (toolListed(agent.toolsForbidden, tool)) {
    matches.push(laneMatch("lane.tool-forbidden", "role", "deny", `${agent.name} must not use \`${tool}\``, "hand the step to the orchestrator so an agent allowed to use it can do it", `the \`${tool}\` tool`, "call", src));
  }
  if (facts.skill !== undefined && !agent.mayInvokeSkills.includes("*") && !agent.mayInvokeSkills.includes(baseAgentName(facts.skill))) {
    matches.push(
      laneMatch("lane.skill-not-allowed", "role", "deny", `skills are invoked by the human or the orchestrator, not by ${agent.name}`, "finish your step and name the skill you need in your report to the orchestrator", `skill \`${facts.skill}\``, "call", src),
    );
  }
  if (facts.spawn !== undefined && !agent.maySpawn.includes("*") && !agent.maySpawn.includes(baseAgentName(facts.spawn))) {
    matches.push(
      laneMatch("lane.spawn-not-allowed", "role", "deny", `${agent.name} may not start other agents`, "report what you need to the orchestrator, which delegates work", `starting agent \`${facts.spawn}\``, "call", src),
    );
  }

  for (const fact of writeFacts(facts)) {
    if (fact.path === undefined) {
      matches.push(
        laneMatch("lane.write-unknown-path", "role", "ask", `${agent.name} writes a path that is only known at run time, so its lane cannot be checked`, "write the path out literally", fact.raw, fact.scope, src),
      );
      continue;
    }
    // writes outside the project are the global rules' business (fs.write-outside-project)
    if (!isWithin(fact.path, ctx.projectDir, ctx.caseInsensitive)) continue;
    if (SHARED_WRITABLE.some((d) => isWithin(fact.path!, `${ctx.projectDir}/${d}`, ctx.caseInsensitive))) continue;
    // in the lane: inside `owns` and not carved out by `does_not_own`
    if (agent.owns.some((g) => matchPath(g, fact.path!, roots)) && !agent.notOwned.some((n) => matchPath(n.glob, fact.path!, roots))) continue;
    const owner = ownerOf(fact.path, agent, input.policy, roots);
    const rel = fact.path.slice(ctx.projectDir.length + 1) || ".";
    matches.push(
      laneMatch(
        "lane.write-outside-owned",
        "role",
        "deny",
        owner === undefined ? `\`${rel}\` is outside ${agent.name}'s lane and no agent owns it` : `\`${rel}\` is owned by \`${owner}\`, not ${agent.name}`,
        owner === undefined
          ? "stop and report to the orchestrator that this path needs an owner; do not work around the lane"
          : `hand this change to \`${owner}\` through the orchestrator (say what to change in your report); do not work around the lane`,
        `\`${fact.raw}\``,
        fact.scope,
        src,
      ),
    );
  }
  return matches;
}

function taskMatches(task: TaskConstraints, facts: Facts, roots: GlobRoots): Match[] {
  const matches: Match[] = [];
  const step = task.step === undefined ? "the current step" : `step ${task.step}`;
  const source = "progress.json next_step.constraints";
  if (task.tools !== undefined && !toolListed(task.tools, facts.tool)) {
    matches.push(laneMatch("task.tool-not-allowed", "task", "deny", `${step} allows only ${task.tools.join(", ")}`, "finish the step with those tools, or report why you need another", `the \`${facts.tool}\` tool`, "call", source));
  }
  for (const fact of writeFacts(facts)) {
    if (task.readOnly) {
      matches.push(laneMatch("task.read-only", "task", "deny", `${step} is read-only`, "report your findings instead of changing files", `\`${fact.raw}\``, fact.scope, source));
    } else if (task.writePaths !== undefined && (fact.path === undefined || !task.writePaths.some((g) => matchPath(g, fact.path!, roots)))) {
      matches.push(
        laneMatch("task.write-outside-scope", "task", "deny", `${step} may only write ${showGlobs(task.writePaths)}`, "stay within the step's paths, or report that the step needs more", `\`${fact.raw}\``, fact.scope, source),
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
    matches.push(laneMatch("agents.unknown-type", "builtin", "deny", `there is no agent type \`${target}\``, `use one of: ${known}`, `starting agent \`${target}\``, "call", "lanes built-in"));
  }
  const depth = path.length + 1;
  if (depth > input.policy.options.maxAgentDepth) {
    matches.push(
      laneMatch("agents.depth-limit", "builtin", "deny", `starting \`${base}\` would nest agents ${depth} deep (limit ${input.policy.options.maxAgentDepth}); path: ${shown}`, "do the work yourself or return to the agent that started you", `starting agent \`${target}\``, "call", "lanes built-in"),
    );
  }
  if (path.includes(base)) {
    matches.push(
      laneMatch("agents.cycle", "builtin", "deny", `\`${base}\` is already on the agent path ${shown}`, "return your result to your caller instead of starting it again", `starting agent \`${target}\``, "call", "lanes built-in"),
    );
  }
  return matches;
}

/** Every lane match for one call. */
export function laneMatchesFor(input: LaneInput, facts: Facts, ctx: PathContext, roots: GlobRoots): Match[] {
  const matches = spawnMatches(input, facts);
  if (input.agentType === undefined) return matches;
  const name = baseAgentName(input.agentType);
  const agent = input.policy.agents.find((a) => a.name === name);
  if (agent === undefined) {
    if (input.policy.options.defaultLane === "deny-writes") {
      for (const fact of writeFacts(facts)) {
        matches.push(
          laneMatch("lane.undefined-agent", "role", "deny", `agent \`${input.agentType}\` has no lanes definition, and the team's default lane denies its writes`, "add a definition under `.claude/lanes/agents/` or hand the change to a defined agent", `\`${fact.raw}\``, fact.scope, "lanes options"),
        );
      }
    }
    return matches;
  }
  for (const rule of agent.mustNot) matches.push(...matchRule(rule, facts, ctx, roots));
  matches.push(...roleMatches(agent, input, facts, ctx, roots));
  if (input.task !== undefined && input.task.agent === name) matches.push(...taskMatches(input.task, facts, roots));
  return matches;
}

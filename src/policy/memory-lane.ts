/**
 * Who writes a memory file (`.claude/memory/{task}--{agent}-memory.md`): the phase gate of a
 * composite skill checks it, so a file written by anyone but its agent could pass that agent's gate.
 *
 * - An agent writes its own file (`lanes memory write --agent <own name>`, or with Write).
 * - An agent whose definition has no tool to write it (no Bash, no Write: a read-only reviewer)
 *   ends with its report, and the one who started it (the main session or an agent that may spawn
 *   it) writes the file from that report, recording itself as the writer:
 *   `lanes memory write --agent <reviewer> --written-by <main | own name>`. Only through the CLI,
 *   so the writer is recorded honestly; the gate (`lanes phase advance`) accepts such a file only
 *   for agents that cannot write their own.
 * - The main session also writes the files of orchestrators (it does the `runs_in: main` phases
 *   as the orchestrator) and of agents lanes has no definition of; never the file of a defined
 *   specialist or reviewer that could write it itself.
 *
 * Rule `lane.memory-not-own` enforces this for every tool (Write, Edit, a shell redirect, `rm`,
 * and `lanes memory write`). The guard and the gate decide with the same functions below.
 */
import { parseMemoryFileName } from "../host/memory-name.ts";
import { sameTool } from "../host/tools.ts";
import { wildcard } from "../globs/wildcard.ts";
import type { CompiledAgent, CompiledPolicy } from "./compiled.ts";
import { shownFile, WRITE_ACCESS, type Facts } from "./facts.ts";
import { baseAgentName } from "./lanes.ts";
import { isWithin } from "../host/paths.ts";
import type { PathContext } from "./paths.ts";
import type { Match } from "./types.ts";

const MEMORY_DIR = ".claude/memory";

/** The writer a memory file records for the main session (`written_by: main`). */
export const MAIN_WRITER = "main";

/** The tools with which an agent writes its own memory file: `lanes memory write` through Bash, or Write. */
const MEMORY_TOOLS = ["Bash", "Write"] as const;

const listed = (list: readonly string[], tool: string): boolean =>
  list.some((t) => sameTool(t, tool) || (t.includes("*") && wildcard(t, tool)));

/** An agent's tool lists, as its definition or its compiled lane has them. */
export interface AgentTools {
  /** When set, the only tools it may use. */
  readonly allowed?: readonly string[] | undefined;
  readonly forbidden?: readonly string[] | undefined;
}

/** Whether an agent with these tools can write its own memory file (it has Bash or Write). */
export function writesOwnMemory(tools: AgentTools): boolean {
  return MEMORY_TOOLS.some(
    (t) => (tools.allowed === undefined || listed(tools.allowed, t)) && !listed(tools.forbidden ?? [], t),
  );
}

/** {@link writesOwnMemory} for a compiled lane, with the tool lists every subagent gets. */
export function laneWritesOwnMemory(agent: CompiledAgent, policy: Pick<CompiledPolicy, "subagents">): boolean {
  return (
    writesOwnMemory({ allowed: agent.toolsAllowed, forbidden: agent.toolsForbidden }) &&
    writesOwnMemory({ allowed: policy.subagents.toolsAllowed, forbidden: policy.subagents.toolsForbidden })
  );
}

/**
 * Whether the main session writes `agent`'s memory file as its own: `agent` is an orchestrator (the
 * main session does the `runs_in: main` phases as the orchestrator) or has no definition.
 */
export function mainWritesAs(policy: Pick<CompiledPolicy, "agents">, agent: string): boolean {
  const target = policy.agents.find((a) => a.name === agent);
  return target === undefined || target.role === "orchestrator";
}

/**
 * Whether `writer` (`main` or an agent's name) may write `agent`'s memory file from its report:
 * `agent` has a definition, cannot write its own file, and `writer` is the main session or an
 * agent allowed to start it (its spawner).
 */
export function mayWriteFor(
  policy: Pick<CompiledPolicy, "agents" | "subagents">,
  writer: string,
  agent: string,
): boolean {
  const target = policy.agents.find((a) => a.name === agent);
  if (target === undefined || laneWritesOwnMemory(target, policy)) return false;
  if (writer === MAIN_WRITER) return true;
  const spawner = policy.agents.find((a) => a.name === writer);
  return spawner !== undefined && (spawner.maySpawn.includes("*") || spawner.maySpawn.includes(agent));
}

/**
 * The phase gate's check of a memory file's writer (`written_by`, absent: the agent itself):
 * undefined when it passes, else why not. The same decisions as the guard's.
 */
export function writerProblem(
  policy: Pick<CompiledPolicy, "agents" | "subagents">,
  agent: string,
  writtenBy: string | undefined,
): string | undefined {
  const target = policy.agents.find((a) => a.name === agent);
  if (writtenBy === undefined || writtenBy === agent) {
    if (target === undefined || laneWritesOwnMemory(target, policy)) return undefined;
    return `\`${agent}\` has no tool to write a memory file, yet the file says \`${agent}\` wrote it: the one who started it writes it from its report with \`--written-by\``;
  }
  if (writtenBy === MAIN_WRITER && mainWritesAs(policy, agent)) return undefined;
  if (mayWriteFor(policy, writtenBy, agent)) return undefined;
  if (target !== undefined && laneWritesOwnMemory(target, policy))
    return `it was written by \`${writtenBy}\`, but \`${agent}\` writes its own memory file: only an agent without a tool to write one may have it written for it`;
  return `it was written by \`${writtenBy}\`, which did not start \`${agent}\` and may not write its memory file`;
}

/** The rule, as data for `lanes rules` and `lanes log --explain`. */
export const MEMORY_LANE_RULE = {
  id: "lane.memory-not-own",
  layer: "role",
  effect: "deny",
  what: "writing a memory file that is not the caller's own: another agent's, or one an agent that writes its own should write (the main session writes only orchestrators', agents' without a definition, and read-only agents' with `--written-by main`)",
} as const;

const match = (why: string, instead: string, subject: string, scope: string): Match => ({
  ruleId: "lane.memory-not-own",
  layer: "role",
  effect: "deny",
  why,
  instead,
  subject,
  scope,
  source: "lanes built-in",
});

/** The option `name` of a `… memory write …` command line, or `null` when the line is not one. */
function memoryWrite(argv: readonly string[]): { agent: string | undefined; writtenBy: string | undefined } | null {
  const at = argv.findIndex((word, i) => word === "memory" && argv[i + 1] === "write");
  if (at < 0) return null;
  const option = (name: string): string | undefined => {
    for (let i = at + 2; i < argv.length; i++) {
      const word = argv[i]!;
      if (word === name) return argv[i + 1];
      if (word.startsWith(`${name}=`)) return word.slice(name.length + 1);
    }
    return undefined;
  };
  return { agent: option("--agent"), writtenBy: option("--written-by") };
}

/** Why the caller may not write `owner`'s memory file this way, and what to do instead; undefined when it may. */
function refusal(
  policy: Pick<CompiledPolicy, "agents" | "subagents">,
  caller: string | undefined,
  owner: string | undefined,
  via: { readonly cli: boolean; readonly writtenBy: string | undefined },
  name: string,
): { why: string; instead: string } | undefined {
  const self = caller ?? MAIN_WRITER;
  const who = caller ?? "the main session";
  if (owner === undefined)
    return caller === undefined
      ? undefined
      : {
          why: `${name} is not one of ${caller}'s memory files`,
          instead: `write your own memory file with \`lanes memory write --agent ${caller}\``,
        };
  if (via.writtenBy !== undefined && via.writtenBy !== self)
    return {
      why: `\`--written-by ${via.writtenBy}\` is not the writer: ${who} writes it, and the file records its writer as it is`,
      instead: `pass \`--written-by ${self}\`, or leave it out for a memory file of your own`,
    };
  if (owner === caller || (caller === undefined && mainWritesAs(policy, owner))) return undefined;
  if (mayWriteFor(policy, self, owner)) {
    if (via.cli && via.writtenBy === self) return undefined;
    return {
      why: `\`${owner}\` has no tool to write its memory file, so the one who started it writes it from its report and records itself as the writer`,
      instead: `run \`lanes memory write --agent ${owner} --written-by ${self}\` with \`${owner}\`'s report as the body`,
    };
  }
  const target = policy.agents.find((a) => a.name === owner);
  return {
    why:
      target !== undefined && laneWritesOwnMemory(target, policy)
        ? `\`${owner}\` writes its own memory file (${name}): it is what \`${owner}\`'s phase gate checks, so ${who} may not write it`
        : `${name} belongs to \`${owner}\`: it is what \`${owner}\`'s phase gate checks, and ${who} may not write it`,
    instead:
      caller === undefined
        ? `start \`${owner}\` and let it write its memory file with \`lanes memory write --agent ${owner}\``
        : `write your own memory file with \`lanes memory write --agent ${caller}\`, and report what another agent should record to the orchestrator`,
  };
}

/** The matches of `lane.memory-not-own` for a call of `agentType` (undefined: the main session). */
export function memoryLaneMatches(
  policy: Pick<CompiledPolicy, "agents" | "subagents">,
  agentType: string | undefined,
  facts: Facts,
  ctx: PathContext,
): Match[] {
  const caller = agentType === undefined ? undefined : baseAgentName(agentType);
  const dir = `${ctx.projectDir}/${MEMORY_DIR}`;
  const matches: Match[] = [];
  for (const fact of facts.files) {
    if (!WRITE_ACCESS.has(fact.access) || fact.path === undefined || !isWithin(fact.path, dir, ctx.caseInsensitive))
      continue;
    // the main session may clean up (delete, change modes): only writes can forge a gate, and
    // links, through which a later write would
    if (caller === undefined && fact.access !== "write" && fact.access !== "link" && fact.access !== "hardlink")
      continue;
    const name = fact.path.slice(dir.length + 1);
    if (name === ".gitignore" || name === "") continue;
    const parsed = name.includes("/") ? undefined : parseMemoryFileName(name)?.agent;
    // on a case-insensitive file system `L1--QA-memory.md` is qa's own file
    const owner =
      parsed !== undefined &&
      caller !== undefined &&
      ctx.caseInsensitive &&
      parsed.toLowerCase() === caller.toLowerCase()
        ? caller
        : parsed;
    const no = refusal(policy, caller, owner, { cli: false, writtenBy: undefined }, `\`${name}\``);
    if (no !== undefined) matches.push(match(no.why, no.instead, shownFile(fact), fact.scope));
  }
  for (const command of facts.commands) {
    const write = memoryWrite(command.argv);
    if (write === null) continue;
    if (write.agent === undefined) {
      if (caller !== undefined)
        matches.push(
          match(
            `a memory write must name the writing agent, \`${caller}\``,
            `write your own memory file with \`lanes memory write --agent ${caller}\``,
            `\`${command.line}\``,
            command.scope,
          ),
        );
      continue;
    }
    const no = refusal(policy, caller, write.agent, { cli: true, writtenBy: write.writtenBy }, "its memory file");
    if (no !== undefined) matches.push(match(no.why, no.instead, `\`${command.line}\``, command.scope));
  }
  return matches;
}

/**
 * `lane.memory-not-own`: a subagent writes only its own memory files. Memory files
 * (`.claude/memory/{task}--{agent}-memory.md`) are what a composite skill's phase gate checks, so a
 * subagent that wrote another agent's file could pass that agent's gate. Every subagent may write
 * under `.claude/memory/` (the lanes' shared-writable directory); this rule narrows that to files
 * whose name carries the caller's own agent name, and to `lanes memory write --agent <own name>`.
 * The main session is not narrowed: it runs the phases that need the human and writes their files.
 */
import { parseMemoryFileName } from "../host/memory-name.ts";
import { shownFile, WRITE_ACCESS, type Facts } from "./facts.ts";
import { baseAgentName } from "./lanes.ts";
import { isWithin } from "../host/paths.ts";
import type { PathContext } from "./paths.ts";
import type { Match } from "./types.ts";

const MEMORY_DIR = ".claude/memory";

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

/** The `--agent` value of a `… memory write …` command line (the lanes CLI however it is run), if any. */
function memoryWriteAgent(argv: readonly string[]): string | undefined | null {
  const at = argv.findIndex((word, i) => word === "memory" && argv[i + 1] === "write");
  if (at < 0) return null;
  for (let i = at + 2; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--agent") return argv[i + 1];
    if (word.startsWith("--agent=")) return word.slice("--agent=".length);
  }
  return undefined;
}

/** The matches of `lane.memory-not-own` for a call of subagent `agentType` (none for the main session). */
export function memoryLaneMatches(agentType: string | undefined, facts: Facts, ctx: PathContext): Match[] {
  if (agentType === undefined) return [];
  const self = baseAgentName(agentType);
  const dir = `${ctx.projectDir}/${MEMORY_DIR}`;
  const matches: Match[] = [];
  const instead = `write your own memory file with \`lanes memory write --agent ${self}\`, and report what another agent should record to the orchestrator`;
  for (const fact of facts.files) {
    if (!WRITE_ACCESS.has(fact.access) || fact.path === undefined || !isWithin(fact.path, dir, ctx.caseInsensitive))
      continue;
    const name = fact.path.slice(dir.length + 1);
    if (name === ".gitignore") continue;
    const owner = name.includes("/") ? undefined : parseMemoryFileName(name)?.agent;
    // on a case-insensitive file system `L1--QA-memory.md` is qa's own file
    if (owner !== undefined && (ctx.caseInsensitive ? owner.toLowerCase() === self.toLowerCase() : owner === self))
      continue;
    const why =
      owner === undefined
        ? `\`${name}\` is not one of ${self}'s memory files`
        : `\`${name}\` is \`${owner}\`'s memory file, not ${self}'s: it is what \`${owner}\`'s phase gate checks`;
    matches.push(match(why, instead, shownFile(fact), fact.scope));
  }
  for (const command of facts.commands) {
    const agent = memoryWriteAgent(command.argv);
    if (agent === null || agent === self) continue;
    const why =
      agent === undefined
        ? `a memory write must name the writing agent, \`${self}\``
        : `\`${agent}\`'s memory file is what \`${agent}\`'s phase gate checks; ${self} may write only its own`;
    matches.push(match(why, instead, `\`${command.line}\``, command.scope));
  }
  return matches;
}

/**
 * What a subagent may do with the workflow's shared state, beyond its own lane (issue 22):
 *
 * - `lane.progress-constraints`: the next step's constraints in the progress file (write paths,
 *   tools, read-only: what the next agent may do) are set by whoever plans the work, the main
 *   session or an orchestrator. A specialist or reviewer records its own step and hands off
 *   (`--next-expert`, `--next-action`, `--next-notes`, `--next-file`), but passes no
 *   `--next-write-path`, `--next-tool` or `--next-read-only`, and does not start the workflow over
 *   (`progress init`, which replaces the whole file).
 * - `lane.state-not-own`: the task store, the agent tree and the audit log hold every agent's
 *   tasks; a specialist or reviewer reads its own task from its prompt and `lanes progress show`,
 *   not from those files (by any tool, or by `lanes log`).
 *
 * The main session and orchestrators coordinate every agent and keep both. Writes of the state
 * files by a tool are `lanes.config`'s (src/policy/rules/paths.ts); this module is about the CLI
 * and about reads.
 */
import { isWithin } from "../host/paths.ts";
import type { CompiledPolicy } from "./compiled.ts";
import type { Facts } from "./facts.ts";
import { baseAgentName } from "./lanes.ts";
import type { PathContext } from "./paths.ts";
import type { Match } from "./types.ts";

/** Options of `lanes progress step` that set the next step's constraints. */
const CONSTRAINT_OPTIONS = ["--next-write-path", "--next-tool", "--next-read-only"];
/** State files that hold other agents' tasks, relative to the hooks' state, `.claude/lanes/state`. */
const SHARED_STATE = ["tasks.json", "agents.json", "audit.jsonl"];
const READ_ACCESS = new Set(["read", "exec"]);

/** The rules, as data for `lanes rules` and `lanes log --explain`. */
export const STATE_LANE_RULES = [
  {
    id: "lane.progress-constraints",
    layer: "role",
    effect: "deny",
    what: "a specialist or reviewer setting the next step's constraints in the progress file (`--next-write-path`, `--next-tool`, `--next-read-only`) or starting the workflow over (`progress init`)",
  },
  {
    id: "lane.state-not-own",
    layer: "role",
    effect: "deny",
    what: "a specialist or reviewer reading the task store, the agent tree or the audit log (`lanes log`), which hold other agents' tasks",
  },
] as const;

const match = (ruleId: string, why: string, instead: string, subject: string, scope: string): Match => ({
  ruleId,
  layer: "role",
  effect: "deny",
  why,
  instead,
  subject,
  scope,
  source: "lanes built-in",
});

const CLI_BUNDLES = new Set(["cli.mjs", "cli.cjs", "cli.js"]);
/** A word that runs the lanes CLI: `lanes`, or a path to its bundle. */
const isLanesCli = (word: string): boolean => {
  const base = word.slice(word.lastIndexOf("/") + 1);
  return base === "lanes" || base.startsWith("lanes@") || CLI_BUNDLES.has(base);
};

/** The lanes subcommand of a command line (`progress`, `log`) and the words after it, if it runs lanes. */
function lanesSubcommand(argv: readonly string[]): { name: string; rest: readonly string[] } | undefined {
  const at = argv.findIndex(isLanesCli);
  if (at < 0 || at + 1 >= argv.length) return undefined;
  return { name: argv[at + 1]!, rest: argv.slice(at + 2) };
}

const hasOption = (words: readonly string[], option: string): boolean =>
  words.some((w) => w === option || w.startsWith(`${option}=`));

/** The matches of the state lane rules for a call of `agentType` (undefined: the main session, never). */
export function stateLaneMatches(
  policy: Pick<CompiledPolicy, "agents">,
  agentType: string | undefined,
  facts: Facts,
  ctx: PathContext,
): Match[] {
  if (agentType === undefined) return [];
  const caller = baseAgentName(agentType);
  if (policy.agents.find((a) => a.name === caller)?.role === "orchestrator") return [];
  const matches: Match[] = [];
  for (const command of facts.commands) {
    const sub = lanesSubcommand(command.argv);
    if (sub === undefined) continue;
    const verb = sub.rest[0];
    if (
      sub.name === "progress" &&
      (verb === "init" || (verb === "step" && CONSTRAINT_OPTIONS.some((o) => hasOption(sub.rest, o))))
    )
      matches.push(
        match(
          "lane.progress-constraints",
          verb === "init"
            ? `${caller} would start the workflow over, replacing the steps and constraints the orchestrator planned`
            : `the next step's constraints say what the next agent may do, and only the orchestrator sets them, not ${caller}`,
          "record your step with `--next-expert`, `--next-action` and `--next-notes`, and tell the orchestrator in your report what the next agent needs",
          `\`${command.line}\``,
          command.scope,
        ),
      );
    if (sub.name === "log")
      matches.push(
        match(
          "lane.state-not-own",
          `the audit log holds every agent's tasks and decisions, which are not ${caller}'s to read`,
          "read your own task from your prompt or `lanes progress show`, and ask the orchestrator for what you need",
          `\`${command.line}\``,
          command.scope,
        ),
      );
  }
  const state = `${ctx.projectDir}/.claude/lanes/state`;
  for (const fact of facts.files) {
    if (!READ_ACCESS.has(fact.access) || fact.path === undefined) continue;
    const path = fact.path.replace(/\/+$/, "");
    const shared = SHARED_STATE.some((f) => {
      const file = `${state}/${f}`;
      return isWithin(path, file, ctx.caseInsensitive) || path.startsWith(`${file}.`);
    });
    // a tree read of lanes' own directories (`grep -r x .claude/lanes`) takes them along
    const tree =
      (fact.recursive || fact.glob) &&
      isWithin(state, path, ctx.caseInsensitive) &&
      isWithin(path, `${ctx.projectDir}/.claude`, ctx.caseInsensitive);
    if (shared || tree)
      matches.push(
        match(
          "lane.state-not-own",
          `lanes' state files hold every agent's tasks, which are not ${caller}'s to read`,
          "read your own task from your prompt or `lanes progress show`, and ask the orchestrator for what you need",
          `\`${fact.raw}\``,
          fact.scope,
        ),
      );
  }
  return matches;
}

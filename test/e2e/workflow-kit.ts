/**
 * What the workflow scenarios share: a scripted model that plays each agent as its definition
 * allows (a list of turns per actor, each a turn or a function of what the model saw so far), the
 * run id a phase directive names, and the commands an agent types.
 */
import { readFileSync } from "node:fs";
import {
  text,
  toolUse,
  type FunctionScript,
  type MockApi,
  type TempRepo,
  type Turn,
  type TurnContext,
} from "./harness/index.ts";

/** The CLI of an installed project, as the generated skills and directives call it. */
export const CLI = "node .claude/lanes/dist/cli.mjs";

/** Claude Code asks before writes under `.claude/` even in acceptEdits (a human would grant it); lanes' hooks still judge every call. */
export const BYPASS = { args: ["--permission-mode", "bypassPermissions"], env: { IS_SANDBOX: "1" } };

/** One turn of an actor: fixed, or built from what the model has seen (the run id, an earlier result). */
export type Step = Turn | ((ctx: TurnContext) => Turn);

/** A script from a list of steps per actor; agents are recognised by their definition's path in their system prompt. */
export function plan(steps: Readonly<Record<string, readonly Step[]>>): FunctionScript {
  const markers = Object.fromEntries(
    Object.keys(steps)
      .filter((a) => a !== "main")
      .map((a) => [a, `.claude/lanes/agents/${a}.yaml`]),
  );
  return {
    markers,
    respond: (ctx) => {
      const step = steps[ctx.actor]?.[ctx.turn];
      return typeof step === "function" ? step(ctx) : step;
    },
  };
}

export const bash = (command: string): Turn => [toolUse("Bash", { command })];
export const say = (words: string): Turn => [text(words)];

/** Starts an agent inline (the main turn waits for its report). */
export const spawn = (agent: string, prompt: string) =>
  toolUse("Agent", { description: `${agent} phase`, prompt, subagent_type: agent, run_in_background: false });

/** The run id the last `phase start` directive named (`--run run-…`). */
export function runOf(api: MockApi): string {
  const all = api
    .toolResults("main")
    .map((r) => r.text)
    .join("\n");
  return [...all.matchAll(/--run (run-[A-Za-z0-9-]+)/g)].at(-1)?.[1] ?? "run-missing";
}

/** `lanes memory write` as a directive shows it; `by` records a writer other than the agent. */
export function memory(
  api: MockApi,
  task: string,
  agent: string,
  phase: string,
  options: { by?: string; status?: string; summary?: string; body?: string; artifacts?: string[] } = {},
): string {
  const extra = [
    ...(options.by === undefined ? [] : [`--written-by ${options.by}`]),
    ...(options.status === undefined ? [] : [`--status ${options.status}`]),
    ...(options.artifacts ?? []).map((a) => `--artifact ${a}`),
  ].join(" ");
  return `${CLI} memory write --task ${task} --agent ${agent} --phase ${phase} --run ${runOf(api)}${extra === "" ? "" : ` ${extra}`} --summary "${options.summary ?? `phase ${phase} done`}" --body "${options.body ?? `findings of phase ${phase}`}"`;
}

/** The audit log entries of the run. */
export function audit(repo: TempRepo): Record<string, unknown>[] {
  return readFileSync(repo.path(".claude/state/audit.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * Whether two subagents ran side by side: each started before the other stopped (their
 * `subagent-start` and `subagent-stop` audit entries).
 */
export function ranSideBySide(repo: TempRepo, a: string, b: string): boolean {
  const entries = audit(repo);
  const at = (agent: string, event: string) =>
    Date.parse(String(entries.find((e) => e["agent"] === agent && e["event"] === event)?.["ts"] ?? "NaN"));
  return at(a, "subagent-start") < at(b, "subagent-stop") && at(b, "subagent-start") < at(a, "subagent-stop");
}

/** The results of the tool calls `actor` made in its turn `turn` (its plan's step `turn`), joined. */
export function at(api: MockApi, actor: string, turn: number): { is_error: boolean; text: string } {
  const ids = new Set(
    api
      .toolUses(actor)
      .filter((u) => api.requests[u.requestIndex]?.turn === turn)
      .map((u) => u.id),
  );
  const found = api.toolResults(actor).filter((r) => ids.has(r.tool_use_id));
  return { is_error: found.some((r) => r.is_error), text: found.map((r) => r.text).join("\n") };
}

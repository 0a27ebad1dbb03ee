/**
 * `lanes check`: judge a command or a tool call exactly as the PreToolUse hook would, and show
 * why: decision, rule ids, reason, risk class and the precedence trace.
 */
import { dirtyFilesReader, guardRemovalsReader } from "../../hooks/guard/dirty-files.ts";
import { TOOLS, toolSpec } from "../../host/tools.ts";
import { nearest, didYouMean } from "../suggest.ts";
import { realDisk } from "../../host/disk.ts";
import { findProjectDir, homeOf } from "../../host/env.ts";
import { compileTaskBlock } from "../../hooks/guard/task-constraints.ts";
import { projectPaths } from "../../host/layout.ts";
import { decide, reasonFor } from "../../hooks/guard/decide.ts";
import { judgementOf } from "../../hooks/guard/gather.ts";
import { progressForHooks } from "../../runtime/progress-hot.ts";
import { parseTaskBlock } from "../../policy/task-block.ts";
import { riskOf, type TraceEntry } from "../../policy/types.ts";
import type { FileRead } from "../../shell/types.ts";
import { parseCommandArgs } from "../args.ts";
import { policyForCli } from "../policy-source.ts";
import { CliError, type Command } from "../types.ts";
import { latestAssignee, readHold } from "../../hooks/state/task-store.ts";

const usage = `usage: lanes check [options] <command>
       lanes check [options] --tool <Tool> --input '<json>'

judge a Bash command or a tool call as the guard would, and show the rules and the precedence trace;
while the policy files do not compile, judge with the last good compiled policy (as the guard does)

options:
  --tool <name>       tool name (default: Bash)
  --input <json>      tool input as JSON (for --tool other than Bash)
  --agent <name>      judge the call as if a subagent of this type made it
  --path <a,b,...>    agent types above the caller, for Agent calls (nesting and cycle checks)
  --task <text>       the task the agent was started with (an Agent call's prompt): its
                      <constraints> block binds the call, as for a spawned subagent (needs --agent)
  --cwd <dir>         working directory of the call (default: the current one)
  --project <dir>     project root (default: nearest ancestor with .claude/)
  --json              print one JSON object for scripts
exit status: 0 no objection, 1 error, 2 denied, 3 ask`;

function traceLines(trace: readonly TraceEntry[]): string[] {
  if (trace.length === 0) return ["  (no rule matched)"];
  const w = Math.max(...trace.map((t) => t.ruleId.length));
  return trace.map(
    (t) =>
      `  ${t.layer.padEnd(9)} ${t.ruleId.padEnd(w)}  ${t.effect.padEnd(5)} ${(t.outcome + (t.by === undefined ? "" : ` by ${t.by}`)).padEnd(12)} ${t.subject}`,
  );
}

/** The files the analysis read for their code: path, what it was read as, the outcome and why. */
function readLines(reads: readonly FileRead[]): string[] {
  const w = Math.max(...reads.map((r) => r.path.length));
  return reads.map(
    (r) => `  ${r.path.padEnd(w)}  ${r.as}: ${r.outcome}${r.detail === undefined ? "" : ` (${r.detail})`}`,
  );
}

/** Claude Code's own agent types, valid without a lanes definition. */
const BUILT_IN_AGENTS = ["general-purpose", "Explore", "Plan", "statusline-setup", "output-style-setup"];

/** The constraints of `--task`, bound to the checked agent's instance (`lanes-check`). */
function promptTask(text: string, agent: string, caseInsensitive: boolean) {
  const block = parseTaskBlock(text);
  return block === undefined ? undefined : compileTaskBlock(block, agent, "lanes-check", caseInsensitive);
}

export const checkCommand: Command = {
  name: "check",
  summary: "judge a command or tool call and explain the decision",
  usage,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        tool: { type: "string" },
        input: { type: "string" },
        agent: { type: "string" },
        path: { type: "string" },
        task: { type: "string" },
        cwd: { type: "string" },
        project: { type: "string" },
        json: { type: "boolean" },
      },
      usage,
    );
    const tool = values.tool ?? "Bash";
    if (toolSpec(tool) === undefined && !tool.startsWith("mcp__"))
      throw new CliError(
        `unknown tool \`${tool}\`${didYouMean(
          tool,
          TOOLS.map((t) => t.name),
        )} (tool names are Claude Code's, e.g. Bash, Write, Edit, Read; MCP tools are mcp__<server>__<tool>)`,
        64,
        usage,
      );
    let input: Record<string, unknown>;
    if (tool === "Bash" && values.input === undefined) {
      if (positionals.length === 0)
        throw new CliError("give a command to check, e.g. `lanes check 'git reset --hard'`", 64, usage);
      input = { command: positionals.join(" ") };
    } else {
      if (values.input === undefined)
        throw new CliError(
          `give the ${tool} input as JSON with --input, e.g. --input '{"file_path":"src/a.ts"}'`,
          64,
          usage,
        );
      try {
        const parsed: unknown = JSON.parse(values.input);
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
        input = parsed as Record<string, unknown>;
      } catch {
        throw new CliError("`--input` is not a JSON object", 64, usage);
      }
    }

    const cwd = values.cwd ?? ctx.cwd;
    const projectDir = values.project ?? findProjectDir(cwd, ctx.env);
    const home = homeOf(ctx.env);
    const { policy, origin, note } = policyForCli(projectDir, home, { lastGood: true });
    if (values.agent !== undefined && !values.agent.includes(":")) {
      const known = [...policy.agents.map((a) => a.name), ...Object.keys(policy.subagents.lanes), ...BUILT_IN_AGENTS];
      const near = known.includes(values.agent) ? undefined : nearest(values.agent, known);
      if (near !== undefined)
        throw new CliError(`unknown agent \`${values.agent}\`: did you mean \`${near}\`?`, 64, usage);
      if (!known.includes(values.agent))
        ctx.err(
          `lanes check: \`${values.agent}\` is not an agent of this policy: judged as a subagent without a lanes definition (the default lane)\n`,
        );
    }
    const agentPath =
      values.path === undefined
        ? []
        : values.path
            .split(",")
            .map((s) => s.trim())
            .filter((s) => s !== "");
    const state = projectPaths(projectDir).state;
    const { judgement, problems } = judgementOf(policy, {
      projectDir,
      home,
      env: ctx.env,
      cwd,
      tool,
      input,
      agent: values.agent === undefined ? undefined : { id: "lanes-check", type: values.agent },
      agentPath: values.agent === undefined ? agentPath : [...agentPath, values.agent],
      progress: progressForHooks(projectDir),
      tasks:
        values.task === undefined || values.agent === undefined
          ? []
          : [promptTask(values.task, values.agent, policy.options.caseInsensitivePaths)].filter((t) => t !== undefined),
      taskOwner: (id) => latestAssignee(state, id),
      pendingDecision: readHold(state)?.reason,
      disk: realDisk(),
      ...(values.agent !== undefined && { dirtyFiles: dirtyFilesReader(projectDir) }),
      guardRemovals: guardRemovalsReader(projectDir),
    });
    const { evaluation, decision } = decide(judgement);
    const reason = decision === undefined ? undefined : reasonFor(decision, judgement.request, values.agent);
    const trace =
      decision?.trace ??
      evaluation.matches.map((m) => ({
        ruleId: m.ruleId,
        layer: m.layer,
        effect: m.effect,
        subject: m.subject,
        outcome: "inert" as const,
      }));
    const subject = tool === "Bash" ? String(input["command"]) : `${tool} ${JSON.stringify(input)}`;
    // the files whose code the call runs or stores, as the hook read them
    const reads = evaluation.facts.shell?.reads ?? [];

    // the note (a stale or broken policy file) goes to stderr in both forms: a script reading the JSON still sees it
    if (note !== undefined) ctx.err(`${note}\n`);
    if (values.json === true) {
      ctx.out(
        `${JSON.stringify({
          decision: decision?.effect ?? "none",
          risk: riskOf(decision?.effect),
          rules: decision?.ruleIds ?? [],
          reason: reason ?? null,
          layer: decision?.layer ?? null,
          trace,
          tool,
          agent: values.agent ?? null,
          policy: origin,
          files: reads,
          warnings: [...(note === undefined ? [] : [note]), ...problems],
        })}\n`,
      );
    } else {
      const head = decision === undefined ? "no objection" : decision.effect;
      ctx.out(`${head}  ${subject}${values.agent === undefined ? "" : `  (as ${values.agent})`}\n`);
      ctx.out(`  risk:   ${riskOf(decision?.effect)}\n`);
      if (decision !== undefined) {
        ctx.out(`  rules:  ${decision.ruleIds.join(", ")} (${decision.layer} layer)\n`);
        ctx.out(`  reason: ${reason}\n`);
      }
      ctx.out(`trace, highest layer first:\n${traceLines(trace).join("\n")}\n`);
      if (reads.length > 0)
        ctx.out(`files read for the code they hold (as they are now):\n${readLines(reads).join("\n")}\n`);
      ctx.out(`policy: ${origin}\n`);
      for (const p of problems) ctx.err(`${p}\n`);
    }
    return decision === undefined ? 0 : decision.effect === "deny" ? 2 : 3;
  },
};

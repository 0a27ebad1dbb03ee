/**
 * The less frequent events, in one bundle: SubagentStart/SubagentStop (the agent tree, and the
 * lane reminder given to each subagent), PreCompact (a checkpoint), TaskCreated/TaskCompleted
 * (the audit log). None of them can block; failures go to stderr.
 */
import { projectPaths } from "../host/layout.ts";
import { showGlobs } from "../globs/match.ts";
import type { CompiledAgent } from "../policy/compiled.ts";
import { baseAgentName } from "../policy/lanes.ts";
import { saveCompactCheckpoint } from "../runtime/checkpoints-hot.ts";
import { agentPath, readAgentTree, recordSubagentStart, recordSubagentStop } from "./agent-tree.ts";
import { appendAudit } from "./audit.ts";
import { findProjectDir } from "../host/env.ts";
import { readBaseInput } from "./hook-input.ts";
import { readCompiledPolicy } from "../config/policy-file.ts";
import type { GuardDeps, HookOutcome } from "./pre-tool-use.ts";

/** The reminder a subagent gets at start: who it is, where it sits, what it may write. */
export function laneReminder(agent: CompiledAgent | undefined, agentType: string, path: readonly string[]): string {
  const where = `path: ${["main", ...path].join(" → ")}`;
  if (agent === undefined) return `lanes: you run as \`${agentType}\` (${where}); the project's global rules apply to every call`;
  const owns = agent.owns.length === 0 ? "nothing (you are read-only)" : showGlobs(agent.owns);
  const handoff = agent.notOwned.length === 0 ? "" : `; paths of other agents: ${agent.notOwned.map((n) => `${showGlobs([n.glob])} → ${n.owner}`).join(", ")}`;
  return `lanes: you run as \`${agent.name}\` (${where}); you may write ${owns}${handoff}. The guard denies writes outside your lane and your MUST NOT rules; when a call is denied, hand that part back to the orchestrator instead of working around it, and after repeated denials stop and report`;
}

export function runEvent(raw: string, deps: GuardDeps): HookOutcome {
  const parsed = readBaseInput(raw);
  if (!parsed.ok) return { stdout: "", stderr: [`lanes events: could not read the hook input: ${parsed.message}`] };
  const input = parsed.input;
  const stderr: string[] = [];
  try {
    const projectDir = findProjectDir(input.cwd, deps.env);
    const paths = projectPaths(projectDir);
    const now = deps.now();
    const ts = now.toISOString();
    const session = input.session_id;
    const audit = (entry: Omit<Parameters<typeof appendAudit>[1], "ts">) => {
      const problem = appendAudit(paths.state, { ts, session, ...entry } as Parameters<typeof appendAudit>[1], 5_000_000);
      if (problem !== undefined) stderr.push(problem);
    };
    const agentId = input.agent_id;
    const agentType = input.agent_type;

    switch (input.hook_event_name) {
      case "SubagentStart": {
        if (agentId === undefined || agentType === undefined) return { stdout: "", stderr: ["lanes: SubagentStart without agent_id/agent_type"] };
        const problem = recordSubagentStart(paths.agentTree, paths.state, session, agentId, agentType, now);
        if (problem !== undefined) stderr.push(`lanes: could not record the subagent: ${problem}`);
        const path = agentPath(readAgentTree(paths.agentTree), session, agentId);
        audit({ event: "subagent-start", agent_id: agentId, agent: baseAgentName(agentType), subject: ["main", ...path].join(" → ") });
        const compiled = readCompiledPolicy(paths.compiledPolicy);
        const lane = compiled.ok ? compiled.policy.agents.find((a) => a.name === baseAgentName(agentType)) : undefined;
        return { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: "SubagentStart", additionalContext: laneReminder(lane, agentType, path) } }), stderr };
      }
      case "SubagentStop": {
        if (agentId === undefined) return { stdout: "", stderr };
        const problem = recordSubagentStop(paths.agentTree, paths.state, session, agentId, now);
        if (problem !== undefined) stderr.push(`lanes: could not record the subagent stop: ${problem}`);
        audit({ event: "subagent-stop", agent_id: agentId, ...(agentType !== undefined && { agent: baseAgentName(agentType) }) });
        return { stdout: "", stderr };
      }
      case "PreCompact": {
        const trigger = typeof input["trigger"] === "string" ? input["trigger"] : "manual";
        const saved = saveCompactCheckpoint(projectDir, trigger);
        if (!saved.ok) stderr.push(...saved.issues.map((i) => `lanes: checkpoint not saved: ${i.message}`));
        else if (saved.value !== undefined) audit({ event: "checkpoint", subject: `${saved.value.checkpoint_id} before ${trigger} compaction` });
        return { stdout: "", stderr };
      }
      case "TaskCreated":
      case "TaskCompleted": {
        const subject = typeof input["task_subject"] === "string" ? input["task_subject"] : "";
        audit({
          event: input.hook_event_name === "TaskCreated" ? "task-created" : "task-completed",
          ...(agentId !== undefined && { agent_id: agentId }),
          ...(agentType !== undefined && { agent: baseAgentName(agentType) }),
          subject,
          task_id: input["task_id"],
          ...(typeof input["teammate_name"] === "string" && { teammate: input["teammate_name"] }),
          ...(typeof input["task_description"] === "string" && { description: input["task_description"].slice(0, 500) }),
        });
        return { stdout: "", stderr };
      }
      default:
        return { stdout: "", stderr: [`lanes events: \`${input.hook_event_name}\` is not handled by this hook`] };
    }
  } catch (error) {
    return { stdout: "", stderr: [...stderr, `lanes events: ${error instanceof Error ? error.message : String(error)}`] };
  }
}

/**
 * The less frequent events, in one bundle: SubagentStart/SubagentStop (the agent tree, and the
 * lane reminder given to each subagent), PreCompact (a checkpoint), PostToolUseFailure (the audit
 * log). None of them can block; failures go to stderr. The task events and validation are in
 * task-channel.ts.
 */
import { recordAfter } from "../state/snapshots.ts";
import { assertNever } from "../../host/assert-never.ts";
import { handledBy } from "../../host/events.ts";
import { projectPaths, type ProjectPaths } from "../../host/layout.ts";
import { showGlobs } from "../../globs/match.ts";
import type { CompiledAgent } from "../../policy/compiled.ts";
import { baseAgentName, laneOfUndefined } from "../../policy/lanes.ts";
import type { DefaultLane } from "../../policy/compiled.ts";
import { taskText, type TaskBlock } from "../../policy/task-block.ts";
import { saveCompactCheckpoint } from "../../runtime/checkpoints-hot.ts";
import { fnv1a64 } from "../../io/hash.ts";
import { agentPath, readAgentTree, recordSubagentStart, recordSubagentStop } from "../state/agent-tree.ts";
import { readSpawnPrompt, subagentTranscriptPath } from "../guard/task-constraints.ts";
import { auditLog, type AuditEntry } from "../state/audit.ts";
import { findProjectDir } from "../../host/env.ts";
import { readBaseInput, type BaseHookInput } from "../protocol/hook-input.ts";
import { readCompiledPolicy } from "../../config/policy-file.ts";
import { quiet, respond, type HookDeps, type HookOutcome } from "../protocol/response.ts";
import { isoTime } from "../../io/time.ts";

const UNDEFINED_LANES: Readonly<Record<DefaultLane, string>> = {
  "unowned-only":
    "you may write only paths no lanes agent owns; for a path in an agent's lane, report what to change instead",
  "deny-writes": "you may not write files; report what should change instead",
  "global-only": "the project's global rules apply to every call",
};

/** The reminder a subagent gets at start: who it is, where it sits, what it may write, its task constraints. */
export function laneReminder(
  agent: CompiledAgent | undefined,
  agentType: string,
  path: readonly string[],
  lane?: DefaultLane,
  task?: TaskBlock | null,
): string {
  const where = `path: ${["main", ...path].join(" → ")}`;
  const constraints =
    task === undefined || task === null ? "" : `. Your task's constraints, enforced by the guard: ${taskText(task)}`;
  if (agent === undefined)
    return `lanes: you run as \`${agentType}\` (${where}), without a lanes definition; ${UNDEFINED_LANES[lane ?? "global-only"]}${constraints}`;
  const owns = agent.owns.length === 0 ? "nothing (you are read-only)" : showGlobs(agent.owns);
  const handoff =
    agent.notOwned.length === 0
      ? ""
      : `; paths of other agents: ${agent.notOwned.map((n) => `${showGlobs([n.glob])} → ${n.owner}`).join(", ")}`;
  return `lanes: you run as \`${agent.name}\` (${where}); you may write ${owns}${handoff}. The guard denies writes outside your lane and your MUST NOT rules; when a call is denied, hand that part back to the orchestrator instead of working around it, and after repeated denials stop and report${constraints}`;
}

/** What every handler of this bundle works with. */
interface Ctx {
  readonly input: BaseHookInput & Record<string, unknown>;
  readonly projectDir: string;
  readonly paths: ProjectPaths;
  readonly now: Date;
  readonly stderr: string[];
  readonly audit: (entry: Omit<AuditEntry, "ts">) => void;
}

export function runEvent(raw: string, deps: HookDeps): HookOutcome {
  const parsed = readBaseInput(raw);
  if (!parsed.ok) return quiet([`lanes events: could not read the hook input: ${parsed.message}`]);
  const input = parsed.input;
  const stderr: string[] = [];
  try {
    const projectDir = findProjectDir(input.cwd, deps.env);
    const paths = projectPaths(projectDir);
    const now = deps.now();
    const log = auditLog(paths);
    const ts = isoTime(now);
    const audit = (entry: Omit<AuditEntry, "ts">) => {
      const problem = log.append({ ts, session: input.session_id, ...entry } as AuditEntry);
      if (problem !== undefined) stderr.push(problem);
    };
    const ctx: Ctx = { input, projectDir, paths, now, stderr, audit };
    const event = input.hook_event_name;
    if (!handledBy(event, "events")) return quiet([`lanes events: \`${event}\` is not handled by this hook`]);
    switch (event) {
      case "SubagentStart":
        return onSubagentStart(ctx);
      case "SubagentStop":
        return onSubagentStop(ctx);
      case "PreCompact":
        return onPreCompact(ctx);
      case "PostToolUseFailure":
        return onToolFailure(ctx);
      default:
        return assertNever(event, "hook event");
    }
  } catch (error) {
    return quiet([...stderr, `lanes events: ${error instanceof Error ? error.message : String(error)}`]);
  }
}

/** Links the subagent into the agent tree and gives it its lane reminder. */
function onSubagentStart({ input, paths, now, stderr, audit }: Ctx): HookOutcome {
  const { session_id: session, agent_id: agentId, agent_type: agentType } = input;
  if (agentId === undefined || agentType === undefined)
    return quiet(["lanes: SubagentStart without agent_id/agent_type"]);
  // the transcript's first message is the Agent call's prompt: an exact link when it is there already
  const transcript =
    input.transcript_path === undefined ? undefined : subagentTranscriptPath(input.transcript_path, session, agentId);
  const prompt = transcript === undefined ? undefined : readSpawnPrompt(transcript);
  const problem = recordSubagentStart(
    paths.agentTree,
    paths.state,
    session,
    agentId,
    agentType,
    now,
    prompt === undefined ? undefined : fnv1a64(prompt),
  );
  if (problem !== undefined) stderr.push(`lanes: could not record the subagent: ${problem}`);
  const path = agentPath(readAgentTree(paths.agentTree), session, agentId);
  audit({
    event: "subagent-start",
    agent_id: agentId,
    agent: baseAgentName(agentType),
    subject: ["main", ...path].join(" → "),
  });
  const compiled = readCompiledPolicy(paths.compiledPolicy);
  const lane = compiled.ok ? compiled.policy.agents.find((a) => a.name === baseAgentName(agentType)) : undefined;
  const defaultLane = compiled.ok ? laneOfUndefined(compiled.policy, agentType) : undefined;
  const task = readAgentTree(paths.agentTree).sessions[session]?.agents[agentId]?.task;
  return {
    stdout: respond("SubagentStart", { context: laneReminder(lane, agentType, path, defaultLane, task) }),
    stderr,
  };
}

function onSubagentStop({ input, paths, now, stderr, audit }: Ctx): HookOutcome {
  const { agent_id: agentId, agent_type: agentType } = input;
  if (agentId === undefined) return quiet(stderr);
  const problem = recordSubagentStop(paths.agentTree, paths.state, input.session_id, agentId, now);
  if (problem !== undefined) stderr.push(`lanes: could not record the subagent stop: ${problem}`);
  audit({
    event: "subagent-stop",
    agent_id: agentId,
    ...(agentType !== undefined && { agent: baseAgentName(agentType) }),
  });
  return quiet(stderr);
}

/** A checkpoint before the conversation is compacted. */
function onPreCompact({ input, projectDir, stderr, audit }: Ctx): HookOutcome {
  const trigger = typeof input["trigger"] === "string" ? input["trigger"] : "manual";
  const saved = saveCompactCheckpoint(projectDir, trigger);
  if (!saved.ok) stderr.push(...saved.issues.map((i) => `lanes: checkpoint not saved: ${i.message}`));
  else if (saved.value !== undefined)
    audit({ event: "checkpoint", subject: `${saved.value.checkpoint_id} before ${trigger} compaction` });
  return quiet(stderr);
}

function onToolFailure({ input, paths, stderr, audit }: Ctx): HookOutcome {
  const error = typeof input["error"] === "string" ? input["error"] : "";
  // a failed command may have destroyed work too: the state it left, for the snapshot taken before it
  const toolUseId = typeof input["tool_use_id"] === "string" ? input["tool_use_id"] : undefined;
  const problem = recordAfter(paths.state, toolUseId);
  if (problem !== undefined) stderr.push(problem);
  audit({
    event: "tool-failed",
    ...(input.agent_id !== undefined && { agent_id: input.agent_id }),
    ...(input.agent_type !== undefined && { agent: baseAgentName(input.agent_type) }),
    tool: typeof input["tool_name"] === "string" ? input["tool_name"] : "",
    subject: error.slice(0, 500),
    ...(input["is_interrupt"] === true && { interrupted: true }),
  });
  return quiet(stderr);
}

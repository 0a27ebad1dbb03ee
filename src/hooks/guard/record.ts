/**
 * Record, the guard's third step: what the decision leaves on the machine. Side effects never
 * change the decision, with one exception that comes first, {@link spendGrant}: a human's one-use
 * override (state/override.ts) turns a DANGEROUS denial into no objection.
 *
 * Then, for the first installation of lanes to claim the call (state/claim.ts), in this order:
 * denial counters (escalation), the spawn intent of an Agent call, the subagent's task block cached
 * in the agent tree, a copy of a file another agent modified before this call overwrites it, the
 * audit log (with the snapshot taken just before this step, guard/snapshot.ts), and the override
 * offer of a DANGEROUS denial.
 */
import { fnv1a64 } from "../../io/hash.ts";
import { isoTime } from "../../io/time.ts";
import { subjectFields } from "../../host/tools.ts";
import { parseTaskBlock } from "../../policy/task-block.ts";
import { describeCall, type Escalation } from "../../policy/render.ts";
import { riskOf, type Decision } from "../../policy/types.ts";
import { recordAgentTask, recordSpawnIntent } from "../state/agent-tree.ts";
import { auditLog, type AuditEntry } from "../state/audit.ts";
import { claimCall } from "../state/claim.ts";
import { phase } from "../../io/profile.ts";
import { consumeGrant, offerOverride, peekOverrides } from "../state/override.ts";
import { openPrivateDir } from "../state/private-dir.ts";
import { protectEarlierVersions, workflowKey } from "../state/touches.ts";
import { countDenial } from "../state/violations.ts";
import type { ProjectPaths } from "../../host/layout.ts";
import { reasonFor, type Verdict } from "./decide.ts";
import type { GatheredCall } from "./gather.ts";
import type { SnapshotOutcome } from "./snapshot.ts";

/** The verdict after the human's grant. */
export interface Granted extends Verdict {
  /** The denial a human's grant let through, if one did (then `decision` is undefined). */
  readonly overridden: Decision | undefined;
  /** The private directory of the override store, when the verdict is overridable and it exists. */
  readonly privateDir: string | undefined;
}

/** What recording produced for the answer. */
export interface Recorded {
  /** This installation claimed the call (and recorded it); the other one answers without the notice. */
  readonly recorder: boolean;
  /** The reason of the decision, escalation included. */
  readonly reason: string | undefined;
  /** The override code offered to the human, if any. */
  readonly offer: string | undefined;
}

/** Uses the human's grant for this exact call, if there is one (both installations of lanes agree through the tool_use_id). */
export function spendGrant(call: GatheredCall, verdict: Verdict, now: Date): Granted {
  const input = call.input;
  const { home, projectDir } = call.judgement.request;
  const privateDir = verdict.overridable ? openPrivateDir(home, projectDir, false) : undefined;
  const granted =
    privateDir !== undefined &&
    consumeGrant(
      privateDir,
      input.session_id,
      input.prompt_id ?? "",
      input.tool_name,
      input.tool_input,
      input.tool_use_id,
      now,
      peekOverrides(privateDir),
    );
  return granted
    ? { ...verdict, decision: undefined, overridable: false, overridden: verdict.decision, privateDir }
    : { ...verdict, overridden: undefined, privateDir };
}

/** Logs a call that could not be judged for want of a policy. */
export function recordPolicyError(paths: ProjectPaths, call: GatheredCall["input"], now: Date, reason: string): void {
  auditLog(paths).append({
    ts: isoTime(now),
    event: "policy-error",
    session: call.session_id,
    tool: call.tool_name,
    reason,
  });
}

export function record(call: GatheredCall, verdict: Granted, now: Date, snapshot?: SnapshotOutcome): Recorded {
  phase("state I/O");
  const { input, paths, agentName, stderr } = call;
  const decision = verdict.decision;
  const request = call.judgement.request;
  // lanes installed twice (plugin and project): both judge, only the first to claim the call records it
  if (!claimCall(paths.state, "pre", input.session_id, input.tool_use_id, now))
    return {
      recorder: false,
      reason: decision === undefined ? undefined : reasonFor(decision, request, agentName),
      offer: undefined,
    };

  const count = countDenial(
    paths.state,
    input.session_id,
    input.agent_id ?? "main",
    agentName ?? "main",
    decision?.effect === "deny" ? decision.ruleIds : undefined,
    now,
  );
  const escalation: Escalation | undefined =
    decision?.effect === "deny" && count !== undefined && count >= call.judgement.policy.options.escalateAfter
      ? { agent: agentName ?? "this session", count, main: call.judgement.main }
      : undefined;

  if (call.spawning && decision?.effect !== "deny") recordSpawn(call, verdict, now);
  if (call.readBlock !== undefined && input.agent_id !== undefined) {
    const problem = recordAgentTask(
      paths.agentTree,
      paths.state,
      input.session_id,
      input.agent_id,
      call.readBlock,
      now,
    );
    if (problem !== undefined) stderr.push(`lanes: could not cache the agent's task constraints: ${problem}`);
  }
  // before a subagent overwrites a file another agent modified in this workflow, keep a copy
  if (agentName !== undefined && decision?.effect !== "deny") {
    const writes = verdict.evaluation.facts.files
      .filter((f) => f.path !== undefined && !f.glob && (f.access === "write" || f.access === "delete"))
      .map((f) => f.path!);
    if (writes.length > 0)
      protectEarlierVersions(
        { touches: paths.touches, state: paths.state, conflicts: paths.conflicts },
        workflowKey(call.progress, input.session_id),
        agentName,
        [...new Set(writes)],
        now,
      );
  }

  const reason = decision === undefined ? undefined : reasonFor(decision, request, agentName, escalation);
  audit(call, verdict, reason, escalation, now, snapshot);
  // the code goes to the human only (systemMessage), never into the reason the model reads
  const offer =
    decision !== undefined && verdict.overridable
      ? offerOverride(
          verdict.privateDir ?? openPrivateDir(call.judgement.request.home, call.judgement.request.projectDir, true),
          {
            session: input.session_id,
            tool: input.tool_name,
            input: input.tool_input,
            subject: describeCall(input.tool_name, input.tool_input),
            rules: decision.ruleIds,
          },
          now,
        )
      : undefined;
  return { recorder: true, reason, offer };
}

/** The spawn intent of an Agent call the guard let through: how the agent tree links the agent it starts. */
function recordSpawn(call: GatheredCall, verdict: Verdict, now: Date): void {
  const { input, paths } = call;
  const spawn = verdict.evaluation.facts.spawn;
  if (spawn === undefined) return;
  const prompt = typeof input.tool_input["prompt"] === "string" ? input.tool_input["prompt"] : undefined;
  const description =
    typeof input.tool_input["description"] === "string" ? input.tool_input["description"].slice(0, 200) : undefined;
  const details = {
    ...(prompt !== undefined && { prompt: fnv1a64(prompt), task: parseTaskBlock(prompt) ?? null }),
    ...(description !== undefined && { description }),
  };
  const problem = recordSpawnIntent(
    paths.agentTree,
    paths.state,
    input.session_id,
    input.agent_id,
    spawn,
    now,
    details,
  );
  if (problem !== undefined) call.stderr.push(`lanes: could not record the agent spawn: ${problem}`);
}

function audit(
  call: GatheredCall,
  verdict: Granted,
  reason: string | undefined,
  escalation: Escalation | undefined,
  now: Date,
  snapshot: SnapshotOutcome | undefined,
): void {
  const { input, agentName } = call;
  const { decision, overridden } = verdict;
  const log = auditLog(call.paths, call.judgement.policy.options.auditMaxBytes);
  const append = (entry: AuditEntry) => {
    const problem = log.append(entry);
    if (problem !== undefined) call.stderr.push(problem);
  };
  const base = {
    ts: isoTime(now),
    session: input.session_id,
    ...(input.agent_id !== undefined && { agent_id: input.agent_id }),
    ...(agentName !== undefined && { agent: agentName }),
    tool: input.tool_name,
    subject: subjectOf(call),
  };
  append({
    ...base,
    event: "decision",
    decision: decision?.effect ?? "none",
    risk: riskOf(decision?.effect),
    rules: decision?.ruleIds ?? [],
    ...(reason !== undefined && { reason }),
    ...(overridden !== undefined && { overridden: overridden.ruleIds }),
  });
  if (snapshot?.kind === "kept") {
    const { id, store, files, bytes, scope } = snapshot.entry;
    append({ ...base, event: "snapshot", id, store, files, bytes, scope });
  } else if (snapshot?.kind === "failed") append({ ...base, event: "snapshot", problem: snapshot.problem });
  if (overridden !== undefined)
    append({ ...base, event: "human-decision", decision: "allow-once", use: "consumed", rules: overridden.ruleIds });
  if (
    decision !== undefined &&
    decision.matches.some((m) => m.layer === "must-not" || m.layer === "role" || m.layer === "task")
  )
    append({ ...base, event: "boundary-violation", decision: decision.effect, rules: decision.ruleIds, reason });
  if (escalation !== undefined)
    append({ ...base, event: "escalation", count: escalation.count, rules: decision?.ruleIds ?? [] });
}

/** Fields that name the subject of a call of a tool lanes does not know. */
const GENERIC_SUBJECT = ["command", "file_path", "notebook_path", "path", "pattern", "subagent_type", "skill", "url"];

/** The audit log's subject of a call: its main field, cut at 300 characters. */
function subjectOf(call: GatheredCall): string {
  const input = call.input;
  const value = [...subjectFields(input.tool_name), ...GENERIC_SUBJECT]
    .map((key) => input.tool_input[key])
    .find((v) => typeof v === "string");
  const text = typeof value === "string" ? value : "";
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

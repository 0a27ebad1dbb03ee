/**
 * The task channel and validation on the way out (bundled to `dist/tasks.cjs`). One hook entry for:
 *
 * | event                              | what it does                                                                 |
 * |------------------------------------|------------------------------------------------------------------------------|
 * | SubagentStart                      | snapshot of the work tree for the run (`runs/<agent_id>.json`)               |
 * | SubagentStop                       | validates the run; a VIOLATION gets one bounded chance to undo (`decision: block`, honouring `stop_hook_active`) |
 * | TaskCreated                        | logs id, creator, subject, description; refused while a DANGEROUS hold waits  |
 * | TaskCompleted                      | validates the completing run; VIOLATION or DANGEROUS refuse the completion   |
 * | PostToolUse Agent                  | gives the orchestrator the run's validation; DANGEROUS stops the session     |
 * | PostToolUse TaskCreate / TaskUpdate| records the task, its assignee (`owner`) and status; keeps `next_step` in step |
 * | UserPromptSubmit                   | a background agent's `<task-notification>`: gives the orchestrator the validations not yet given; the human's `lanes allow <code>` (override.ts) |
 *
 * Prints one JSON object or nothing. Failures: see README "Failure posture".
 */
import { existsSync } from "node:fs";
import { readState } from "../../io/read.ts";
import { join } from "node:path";
import { projectPaths } from "../../host/layout.ts";
import type { CompiledPolicy } from "../../policy/compiled.ts";
import type { GlobRoots } from "../../globs/match.ts";
import { baseAgentName } from "../../policy/lanes.ts";
import { auditAfter, auditLog, auditMark, parseAuditLog, type AuditEntry, type AuditMark } from "../state/audit.ts";
import { findProjectDir, homeOf } from "../../host/env.ts";
import { readBaseInput, type BaseHookInput } from "../protocol/hook-input.ts";
import { readCompiledPolicy } from "../../config/policy-file.ts";
import { block, quiet, respond, type HookDeps, type HookOutcome } from "../protocol/response.ts";
import { ensureStateDir } from "../state/state-dir.ts";
import {
  findTask,
  pruneRuns,
  readHold,
  clearHold,
  readRun,
  setHold,
  startRun,
  updateRun,
  updateTask,
  type RunRecord,
  type TaskRecord,
} from "../state/task-store.ts";
import {
  reassignTo,
  renderValidation,
  validateRun,
  violationText,
  type ChangeEvidence,
  type CommandEvidence,
  type ValidationResult,
} from "../validation/validation.ts";
import {
  committedChanges,
  diffSnapshots,
  fingerprint,
  rootAsSeenFrom,
  takeSnapshot,
  trackedIn,
  DEFAULT_SNAPSHOT_LIMITS,
  type WorktreeSnapshot,
} from "../validation/worktree-snapshot.ts";
import { syncNextStep } from "../state/next-step.ts";
import { overrideCommand, OVERRIDE_TTL_MS, redeemOffer } from "../state/override.ts";
import { openPrivateDir } from "../state/private-dir.ts";
import { isoTime } from "../../io/time.ts";

type Input = BaseHookInput & Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

interface Ctx {
  readonly input: Input;
  readonly projectDir: string;
  readonly state: string;
  readonly home: string;
  readonly now: Date;
  readonly stderr: string[];
  readonly deps: HookDeps;
}

function audit(ctx: Ctx, entry: Omit<AuditEntry, "ts" | "session">): void {
  const problem = auditLog(projectPaths(ctx.projectDir)).append({
    ts: isoTime(ctx.now),
    session: ctx.input.session_id,
    ...entry,
  } as AuditEntry);
  if (problem !== undefined) ctx.stderr.push(problem);
}

function policyOf(ctx: Ctx): CompiledPolicy | undefined {
  const compiled = readCompiledPolicy(projectPaths(ctx.projectDir).compiledPolicy);
  if (compiled.ok) return compiled.policy;
  const fallback = readCompiledPolicy(ctx.deps.defaultPolicyPath);
  return fallback.ok ? fallback.policy : undefined;
}

/**
 * The audit entries since `since`. With the run's `mark` (where the log stood at its start), only
 * what was appended after it is read; without one (no log at the start, a record of an older lanes,
 * a search of the whole log) both files, the rotated one first.
 */
export function auditSince(state: string, since: string, mark?: AuditMark | null): AuditEntry[] {
  return parseAuditLog(auditAfter(state, mark ?? undefined)).entries.filter((e) => e.ts >= since);
}

/** Everything the run did, from the audit log and the work-tree snapshots; pure apart from reading them. */
export function gatherEvidence(
  ctx: Ctx,
  run: RunRecord,
): { changes: ChangeEvidence[]; commands: CommandEvidence[]; notes: string[] } {
  const notes: string[] = [];
  const entries = auditSince(ctx.state, run.started, run.audit_mark).filter((e) => e.session === run.session);
  const mine = entries.filter((e) => e.agent_id === run.agent_id);
  const commands: CommandEvidence[] = mine
    .filter((e) => e.event === "decision" && e.tool === "Bash")
    .map((e) => ({
      tool: "Bash",
      subject: str(e.subject) ?? "",
      decision: e.decision === "deny" || e.decision === "ask" ? e.decision : "none",
      rules: Array.isArray(e.rules) ? e.rules : [],
    }));
  const touched = new Set<string>();
  for (const e of mine)
    if (e.event === "file-touched" && Array.isArray(e["files"]))
      for (const f of e["files"] as unknown[]) if (typeof f === "string") touched.add(f);
  const touchedByOthers = new Set<string>();
  const othersRunning = new Set<string>();
  for (const e of entries) {
    if (e.agent_id === run.agent_id) continue;
    if (e.event === "file-touched" && Array.isArray(e["files"]))
      for (const f of e["files"] as unknown[]) if (typeof f === "string") touchedByOthers.add(f);
    if (e.event === "decision" && e.tool === "Bash" && e.decision !== "deny") othersRunning.add(e.agent ?? "main");
  }

  const changes: ChangeEvidence[] = [];
  let worktree: Map<string, ChangeEvidence["change"]> | undefined;
  let tracked: (path: string) => boolean = () => false;
  if (run.snapshot !== undefined) {
    const now = takeSnapshot(ctx.projectDir, DEFAULT_SNAPSHOT_LIMITS, run.snapshot);
    if (now.ok) {
      const root = now.snapshot.root;
      const base = rootAsSeenFrom(ctx.projectDir, root);
      const stop: WorktreeSnapshot = { ...now.snapshot, entries: { ...now.snapshot.entries } };
      // paths dirty at the start and clean now: fingerprint them now (reverted, committed or deleted)
      for (const path of Object.keys(run.snapshot.entries)) {
        const before = run.snapshot.entries[path]!;
        if (!(path in stop.entries))
          (stop.entries as Record<string, string>)[path] = fingerprint(
            join(root, path),
            before.startsWith("stat:") ? -1 : Number.MAX_SAFE_INTEGER,
          );
      }
      const inRepo = trackedIn(root);
      tracked = (abs) => abs.startsWith(`${base}/`) && inRepo(abs.slice(base.length + 1));
      const diff = [
        // the paths it asks of are listed by this snapshot's status (the others were dirty at the start)
        ...diffSnapshots(run.snapshot, stop, now.tracked),
        ...committedChanges(root, run.snapshot.head, stop.head),
      ];
      worktree = new Map(diff.map((c) => [join(base, c.path), c.change]));
      if (run.snapshot.truncated || stop.truncated)
        notes.push("the work tree had too many changed paths to fingerprint them all");
    } else {
      notes.push(`no work-tree snapshot at the end: ${now.message}`);
    }
  } else {
    notes.push(
      `no work-tree evidence (${run.snapshot_error ?? "no snapshot at the start"}); only the changes lanes recorded were checked`,
    );
  }
  for (const path of touched) {
    // with a snapshot, a touched path with no net change since the start was undone: a tracked file
    // that is clean again, or a new file that is gone again (git-ignored files stay: git cannot tell)
    if (
      worktree !== undefined &&
      !worktree.has(path) &&
      path.startsWith(`${ctx.projectDir}/`) &&
      !run.snapshot?.truncated
    ) {
      if (tracked(path) || !existsSync(path)) continue;
    }
    changes.push({ path, change: worktree?.get(path) ?? "modified", source: "touch" });
  }
  for (const [path, change] of worktree ?? []) {
    if (touched.has(path) || touchedByOthers.has(path)) continue;
    changes.push({ path, change, source: "worktree", alsoRunning: [...othersRunning].sort() });
  }
  return { changes, commands, notes };
}

function validate(ctx: Ctx, run: RunRecord): ValidationResult | undefined {
  const policy = policyOf(ctx);
  if (policy === undefined) {
    ctx.stderr.push("lanes: no compiled policy to validate against; run `lanes build`");
    return undefined;
  }
  const roots: GlobRoots = {
    projectDir: ctx.projectDir,
    home: ctx.home,
    caseInsensitive: policy.options.caseInsensitivePaths,
  };
  const evidence = gatherEvidence(ctx, run);
  return validateRun({ agentName: run.agent, policy, roots, ...evidence });
}

/** The run of an agent that started before lanes saw it: validated from touches and decisions only. */
const runOf = (ctx: Ctx, agentId: string, agentType: string | undefined): RunRecord =>
  readRun(ctx.state, agentId) ?? {
    version: 1,
    session: ctx.input.session_id,
    agent_id: agentId,
    agent: baseAgentName(agentType ?? "unknown"),
    started: "",
    snapshot_error: "SubagentStart was not seen",
  };

function recordValidation(
  ctx: Ctx,
  run: RunRecord,
  result: ValidationResult,
  extra: Record<string, unknown> = {},
): void {
  audit(ctx, {
    event: "validation",
    agent_id: run.agent_id,
    agent: run.agent,
    boundary: result.boundary,
    risk: result.risk,
    files: result.files.map((f) => f.path),
    violations: result.files
      .filter((f) => f.verdict === "violation")
      .map((f) => ({ path: f.path, owner: f.owner ?? null })),
    commands: result.commands.length,
    reason: renderValidation(result),
    ...extra,
  });
}

/** Creates or changes a task of this session; a problem goes to stderr. */
function setTask(ctx: Ctx, id: string, change: (current: TaskRecord | undefined) => TaskRecord): string | undefined {
  const problem = updateTask(ctx.state, ctx.input.session_id, id, change, ctx.now);
  if (problem !== undefined) ctx.stderr.push(`lanes: could not record task #${id}: ${problem}`);
  return problem;
}

function onSubagentStart(ctx: Ctx): HookOutcome {
  const agentId = ctx.input.agent_id;
  if (agentId === undefined) return quiet(ctx.stderr);
  ensureStateDir(ctx.state);
  pruneRuns(ctx.state, ctx.now);
  // where the log stands before the snapshot: a change another agent records before the mark is
  // in the snapshot already, and SubagentStop reads only what was appended after it
  const mark = auditMark(ctx.state) ?? null;
  const snap = takeSnapshot(ctx.projectDir);
  const problem = startRun(ctx.state, {
    version: 1,
    session: ctx.input.session_id,
    agent_id: agentId,
    agent: baseAgentName(ctx.input.agent_type ?? "unknown"),
    started: isoTime(ctx.now),
    audit_mark: mark,
    ...(snap.ok ? { snapshot: snap.snapshot } : { snapshot_error: snap.message }),
  });
  if (problem !== undefined) ctx.stderr.push(`lanes: could not record the run's start: ${problem}`);
  return quiet(ctx.stderr);
}

function onSubagentStop(ctx: Ctx): HookOutcome {
  const agentId = ctx.input.agent_id;
  if (agentId === undefined) return quiet(ctx.stderr);
  const run = runOf(ctx, agentId, ctx.input.agent_type);
  const result = validate(ctx, run);
  if (result === undefined) return quiet(ctx.stderr);
  const retry = ctx.input["stop_hook_active"] === true;
  const askUndo = result.boundary === "VIOLATION" && !retry && run.undo_asked !== true;
  updateRun(ctx.state, agentId, (current) => ({
    ...(current ?? run),
    stopped: isoTime(ctx.now),
    validation: result,
    ...(askUndo && { undo_asked: true }),
  }));
  recordValidation(ctx, run, result, { at: "subagent-stop", ...(askUndo && { undo_asked: true }) });
  if (result.risk === "DANGEROUS") holdFor(ctx, run, result, undefined);
  if (!askUndo) return quiet(ctx.stderr);
  return {
    stdout: block(
      `lanes validation: your output violates your lane: you changed ${violationText(result)}; undo those changes now (restore or delete exactly those files, nothing else), then finish; if you cannot undo them, stop and say so in your report — the orchestrator gives that work to the owner`,
    ),
    stderr: ctx.stderr,
  };
}

function holdFor(ctx: Ctx, run: RunRecord | undefined, result: ValidationResult, taskId: string | undefined): void {
  const dangerous = result.commands.filter((c) => c.risk === "DANGEROUS").map((c) => `\`${c.subject.slice(0, 80)}\``);
  const reason = `${result.agent} ran or attempted DANGEROUS commands: ${dangerous.join(", ")}`;
  const problem = setHold(ctx.state, {
    since: isoTime(ctx.now),
    agent: result.agent,
    ...(run !== undefined && { agent_id: run.agent_id }),
    ...(taskId !== undefined && { task_id: taskId }),
    reason,
  });
  if (problem !== undefined) ctx.stderr.push(`lanes: could not record the hold: ${problem}`);
  audit(ctx, {
    event: "escalation",
    agent: result.agent,
    ...(run !== undefined && { agent_id: run.agent_id }),
    ...(taskId !== undefined && { task_id: taskId }),
    reason,
    risk: "DANGEROUS",
    subject: "human decision required",
  });
}

const holdMessage = (ctx: Ctx, reason: string): string =>
  `lanes: processing is stopped until a human decides: ${reason}; the human reviews it and answers with the prompt \`lanes decide approve\` or \`lanes decide reject\` (or runs it in a terminal; see \`lanes log --event escalation\`)`;

function onTaskCreated(ctx: Ctx): HookOutcome {
  const id = str(ctx.input["task_id"]) ?? "";
  const subject = str(ctx.input["task_subject"]) ?? "";
  const description = str(ctx.input["task_description"]);
  const creator = ctx.input.agent_type === undefined ? "main" : baseAgentName(ctx.input.agent_type);
  const hold = readHold(ctx.state);
  if (hold !== undefined) {
    audit(ctx, { event: "task-refused", task_id: id, subject, reason: `hold: ${hold.reason}` });
    return { stdout: block(holdMessage(ctx, hold.reason)), stderr: ctx.stderr };
  }
  setTask(ctx, id, (current) => ({
    ...current,
    id,
    session: ctx.input.session_id,
    subject,
    ...(description !== undefined && { description }),
    creator,
    status: "pending",
    updated: isoTime(ctx.now),
  }));
  audit(ctx, {
    event: "task-created",
    task_id: id,
    subject,
    ...(description !== undefined && { description: description.slice(0, 500) }),
    creator,
    ...(ctx.input.agent_id !== undefined && { agent_id: ctx.input.agent_id, agent: creator }),
    ...(str(ctx.input["teammate_name"]) !== undefined && { assignee: str(ctx.input["teammate_name"]) }),
  });
  return quiet(ctx.stderr);
}

/** The run a completion is judged by: the completing subagent's, else the assignee's latest finished run in this session. */
function runForCompletion(ctx: Ctx, task: TaskRecord | undefined): RunRecord | undefined {
  if (ctx.input.agent_id !== undefined) return runOf(ctx, ctx.input.agent_id, ctx.input.agent_type);
  if (task?.assignee === undefined) return undefined;
  const assignee = baseAgentName(task.assignee);
  let latest: RunRecord | undefined;
  for (const e of auditSince(ctx.state, "")) {
    if (
      e.event !== "subagent-start" ||
      e.session !== ctx.input.session_id ||
      e.agent !== assignee ||
      typeof e.agent_id !== "string"
    )
      continue;
    const run = readRun(ctx.state, e.agent_id);
    if (run !== undefined && (latest === undefined || run.started > latest.started)) latest = run;
  }
  return latest;
}

function onTaskCompleted(ctx: Ctx): HookOutcome {
  const id = str(ctx.input["task_id"]) ?? "";
  const subject = str(ctx.input["task_subject"]) ?? "";
  const task = findTask(ctx.state, ctx.input.session_id, id);
  const hold = readHold(ctx.state);
  if (hold !== undefined) {
    audit(ctx, { event: "task-refused", task_id: id, subject, reason: `hold: ${hold.reason}` });
    return { stdout: block(holdMessage(ctx, hold.reason)), stderr: ctx.stderr };
  }
  const run = runForCompletion(ctx, task);
  const live = ctx.input.agent_id !== undefined;
  const result = run === undefined ? undefined : live ? validate(ctx, run) : (run.validation ?? validate(ctx, run));
  const completer = ctx.input.agent_type === undefined ? "main" : baseAgentName(ctx.input.agent_type);
  if (result === undefined) {
    setTask(ctx, id, (c) => ({
      ...(c ?? { id, session: ctx.input.session_id, subject }),
      status: "completed",
      outcome: "not validated",
      updated: isoTime(ctx.now),
    }));
    audit(ctx, {
      event: "task-completed",
      task_id: id,
      subject,
      agent: completer,
      outcome: "not validated (no subagent run to check)",
      files: [],
    });
    return quiet(ctx.stderr);
  }
  recordValidation(ctx, run!, result, { at: "task-completed", task_id: id });
  const outcome = `${result.boundary}, ${result.risk}`;
  const files = result.files.map((f) => f.path);
  if (result.boundary === "VIOLATION") {
    const owners = reassignTo(result);
    setTask(ctx, id, (c) => ({
      ...(c ?? { id, session: ctx.input.session_id, subject }),
      status: "refused",
      outcome,
      reassign_to: owners,
      updated: isoTime(ctx.now),
    }));
    audit(ctx, { event: "task-refused", task_id: id, subject, agent: completer, outcome, files, reassign_to: owners });
    const to = owners.length === 0 ? "an owner the orchestrator chooses" : owners.map((o) => `\`${o}\``).join(", ");
    return {
      stdout: block(
        `lanes refused completing task #${id}: VIOLATION: ${result.agent} changed ${violationText(result)}; the task is marked for reassignment to ${to}: revert the files outside your lane and report what the owner must do; the orchestrator creates a task for the owner with that context`,
      ),
      stderr: ctx.stderr,
    };
  }
  if (result.risk === "DANGEROUS") {
    holdFor(ctx, run, result, id);
    setTask(ctx, id, (c) => ({
      ...(c ?? { id, session: ctx.input.session_id, subject }),
      status: "refused",
      outcome,
      updated: isoTime(ctx.now),
    }));
    audit(ctx, { event: "task-refused", task_id: id, subject, agent: completer, outcome, files });
    return {
      stdout: block(holdMessage(ctx, readHold(ctx.state)?.reason ?? "a DANGEROUS outcome")),
      stderr: ctx.stderr,
    };
  }
  setTask(ctx, id, (c) => ({
    ...(c ?? { id, session: ctx.input.session_id, subject }),
    status: "completed",
    outcome,
    updated: isoTime(ctx.now),
  }));
  audit(ctx, {
    event: "task-completed",
    task_id: id,
    subject,
    agent: completer,
    ...(ctx.input.agent_id !== undefined && { agent_id: ctx.input.agent_id }),
    outcome,
    files,
  });
  return quiet(ctx.stderr);
}

function onPostToolUse(ctx: Ctx): HookOutcome {
  const tool = str(ctx.input["tool_name"]);
  const toolInput = (ctx.input["tool_input"] ?? {}) as Record<string, unknown>;
  const response = (ctx.input["tool_response"] ?? {}) as Record<string, unknown>;
  if (tool === "Agent" || tool === "Task") {
    const child = str(response["agentId"]);
    if (child === undefined || response["status"] !== "completed") return quiet(ctx.stderr);
    const run = readRun(ctx.state, child);
    if (run?.validation === undefined) return quiet(ctx.stderr);
    updateRun(ctx.state, child, (c) => ({ ...(c ?? run), delivered: true }));
    const text = renderValidation(run.validation);
    const hint =
      run.validation.boundary === "VIOLATION"
        ? `; do not build on this output: create a task for ${
            reassignTo(run.validation)
              .map((o) => `\`${o}\``)
              .join(", ") || "the owner"
          } with the change it needs, and have ${run.agent} revert the files outside its lane`
        : "";
    if (run.validation.risk === "DANGEROUS") {
      const reason = holdMessage(ctx, readHold(ctx.state)?.reason ?? text);
      return {
        stdout: respond("PostToolUse", { stop: reason, context: `${text}; ${reason}` }),
        stderr: ctx.stderr,
      };
    }
    return {
      stdout: respond("PostToolUse", { context: `${text}${hint}` }),
      stderr: ctx.stderr,
    };
  }
  const actor = ctx.input.agent_type === undefined ? "main" : baseAgentName(ctx.input.agent_type);
  if (tool === "TaskCreate") {
    const task = (response["task"] ?? {}) as Record<string, unknown>;
    const id = str(task["id"]);
    if (id === undefined) return quiet(ctx.stderr);
    setTask(ctx, id, (c) => ({
      ...c,
      id,
      session: ctx.input.session_id,
      subject: str(toolInput["subject"]) ?? c?.subject ?? "",
      status: c?.status ?? "pending",
      creator: actor,
      updated: isoTime(ctx.now),
    }));
    return quiet(ctx.stderr);
  }
  if (tool === "TaskUpdate") {
    const id = str(toolInput["taskId"]);
    if (id === undefined || response["success"] !== true) return quiet(ctx.stderr);
    const owner = str(toolInput["owner"]);
    const status = str(toolInput["status"]);
    const description = str(toolInput["description"]);
    setTask(ctx, id, (c) => ({
      ...(c ?? { id, session: ctx.input.session_id, subject: str(toolInput["subject"]) ?? "", status: "pending" }),
      ...(owner !== undefined && { assignee: baseAgentName(owner) }),
      ...((status === "pending" || status === "in_progress" || status === "completed") && { status }),
      ...(description !== undefined && { description }),
      updated: isoTime(ctx.now),
    }));
    const task = findTask(ctx.state, ctx.input.session_id, id);
    audit(ctx, {
      event: owner !== undefined ? "task-assigned" : "task-updated",
      task_id: id,
      subject: task?.subject ?? "",
      agent: actor,
      ...(ctx.input.agent_id !== undefined && { agent_id: ctx.input.agent_id }),
      ...(owner !== undefined && { assignee: baseAgentName(owner) }),
      ...(status !== undefined && { status }),
      ...(description !== undefined && { summary: description.slice(0, 500) }),
    });
    if (owner !== undefined && task !== undefined) {
      const problem = syncNextStep(ctx.projectDir, task);
      if (problem !== undefined) ctx.stderr.push(problem);
    }
    return quiet(ctx.stderr);
  }
  return quiet(ctx.stderr);
}

/**
 * A background agent's result reaches the main thread as a `<task-notification>` user turn, which
 * also fires UserPromptSubmit (observed on 2.1.330); the PostToolUse of its Agent call came before
 * it ran. The validations of this session's runs that stopped and were not given yet go with it.
 */
function onNotification(ctx: Ctx): HookOutcome {
  const prompt = str(ctx.input["prompt"]) ?? "";
  if (!prompt.includes("<task-notification>")) return quiet(ctx.stderr);
  const pending: RunRecord[] = [];
  for (const e of auditSince(ctx.state, "")) {
    if (e.event !== "subagent-start" || e.session !== ctx.input.session_id || typeof e.agent_id !== "string") continue;
    const run = readRun(ctx.state, e.agent_id);
    if (run?.validation !== undefined && run.delivered !== true && !pending.some((r) => r.agent_id === run.agent_id))
      pending.push(run);
  }
  if (pending.length === 0) return quiet(ctx.stderr);
  for (const run of pending) updateRun(ctx.state, run.agent_id, (c) => ({ ...(c ?? run), delivered: true }));
  const text = pending.map((r) => renderValidation(r.validation!)).join("\n");
  if (pending.some((r) => r.validation!.risk === "DANGEROUS")) {
    const reason = holdMessage(ctx, readHold(ctx.state)?.reason ?? text);
    return {
      stdout: respond("UserPromptSubmit", { stop: reason, context: `${text}\n${reason}` }),
      stderr: ctx.stderr,
    };
  }
  return {
    stdout: respond("UserPromptSubmit", { context: text }),
    stderr: ctx.stderr,
  };
}

/**
 * The human's `lanes allow <code>` (src/hooks/state/override.ts): the live offer of that code in this
 * session becomes a one-use grant for the exact call it was made for. Only a prompt typed by a
 * person counts (no `source`, or `user`/`sdk`; never a subagent). On success the prompt goes
 * through, so the model gets a turn to retry the call (the code is spent by then; the grant serves this turn, the
 * prompt's `prompt_id`, only); an unknown or
 * expired code blocks the prompt and tells the human why, the model sees nothing.
 */
function onOverride(ctx: Ctx, code: string): HookOutcome {
  const source = str(ctx.input["source"]);
  if (ctx.input.agent_id !== undefined || (source !== undefined && source !== "user" && source !== "sdk"))
    return quiet(ctx.stderr);
  const redeemed = redeemOffer(
    openPrivateDir(ctx.home, ctx.projectDir, false),
    ctx.input.session_id,
    ctx.input.prompt_id ?? "",
    code,
    ctx.now,
  );
  if (!redeemed.ok) {
    const reason =
      redeemed.reason === "unknown"
        ? `lanes: no live override \`${code}\` in this session: codes expire after ${OVERRIDE_TTL_MS / 60_000} minutes and work once; let the call be tried again to get a new code`
        : `lanes: could not record the override \`${code}\`: the state directory is busy or not writable; try again`;
    return { stdout: block(reason), stderr: ctx.stderr };
  }
  audit(ctx, {
    event: "human-decision",
    decision: "allow-once",
    tool: redeemed.tool,
    subject: redeemed.subject,
    rules: redeemed.rules,
    expires: redeemed.expires,
  });
  const text = `the human allowed this exact ${redeemed.tool} call once, despite lanes rules ${redeemed.rules.map((r) => `\`${r}\``).join(", ")}: ${redeemed.subject}; retry it unchanged now if it is still needed (valid until ${redeemed.expires}); any other call is judged as before`;
  return {
    stdout: respond("UserPromptSubmit", { message: `lanes: allowed once: ${redeemed.subject}`, context: text }),
    stderr: ctx.stderr,
  };
}

/** `lanes decide approve|reject [note]` typed as a prompt: the decision and the note, else `undefined`. */
export function decidePrompt(prompt: string): { decision: "approve" | "reject"; note: string | undefined } | undefined {
  const words = prompt.trim().split(/\s+/);
  if (words.length < 3 || words[0]!.toLowerCase() !== "lanes" || words[1]!.toLowerCase() !== "decide") return undefined;
  const decision = words[2]!.toLowerCase();
  if (decision !== "approve" && decision !== "reject") return undefined;
  const note = words.slice(3).join(" ");
  return { decision, note: note === "" ? undefined : note };
}

/**
 * The human's `lanes decide approve|reject [note]` as a prompt: the same decision as the CLI's
 * (`lanes decide`, which a tool call may not run: rule `lanes.human-only`), through the human's
 * channel. Only a prompt a person typed counts; the prompt goes through, so the orchestrator hears
 * the decision and goes on (or has the work reverted); without a hold it is blocked and says so.
 */
function onDecide(ctx: Ctx, answer: { decision: "approve" | "reject"; note: string | undefined }): HookOutcome {
  const source = str(ctx.input["source"]);
  if (ctx.input.agent_id !== undefined || (source !== undefined && source !== "user" && source !== "sdk"))
    return quiet(ctx.stderr);
  const hold = readHold(ctx.state);
  if (hold === undefined)
    return { stdout: block("lanes: no decision is pending: nothing changed"), stderr: ctx.stderr };
  clearHold(ctx.state);
  audit(ctx, {
    event: "human-decision",
    decision: answer.decision === "approve" ? "none" : "deny",
    subject: answer.decision,
    reason: hold.reason,
    agent: hold.agent,
    ...(hold.agent_id !== undefined && { agent_id: hold.agent_id }),
    ...(hold.task_id !== undefined && { task_id: hold.task_id }),
    ...(answer.note !== undefined && { note: answer.note }),
    held_since: hold.since,
  } as Omit<AuditEntry, "ts" | "session">);
  const verdict = answer.decision === "approve" ? "approved" : "rejected";
  const text = `the human ${verdict} the held outcome (${hold.reason})${answer.note === undefined ? "" : `: ${answer.note}`}; ${answer.decision === "approve" ? "the output stands and work may go on" : "the output is rejected: have it reverted or redone"}`;
  return {
    stdout: respond("UserPromptSubmit", { message: `lanes: ${verdict}: ${hold.reason}`, context: text }),
    stderr: ctx.stderr,
  };
}

/** Runs the task-channel hook on one raw input. Never throws. */
export function runTaskChannel(raw: string, deps: HookDeps): HookOutcome {
  const parsed = readBaseInput(raw);
  if (!parsed.ok) return quiet([`lanes tasks: could not read the hook input: ${parsed.message}`]);
  const input = parsed.input;
  const stderr: string[] = [];
  try {
    const projectDir = findProjectDir(input.cwd, deps.env);
    const ctx: Ctx = {
      input,
      projectDir,
      state: projectPaths(projectDir).state,
      home: homeOf(deps.env),
      now: deps.now(),
      stderr,
      deps,
    };
    switch (input.hook_event_name) {
      case "SubagentStart":
        return onSubagentStart(ctx);
      case "SubagentStop":
        return onSubagentStop(ctx);
      case "TaskCreated":
        return onTaskCreated(ctx);
      case "TaskCompleted":
        return onTaskCompleted(ctx);
      case "PostToolUse":
        return onPostToolUse(ctx);
      case "UserPromptSubmit": {
        const prompt = str(input["prompt"]) ?? "";
        const code = overrideCommand(prompt);
        if (code !== undefined) return onOverride(ctx, code);
        const decided = decidePrompt(prompt);
        return decided === undefined ? onNotification(ctx) : onDecide(ctx, decided);
      }
      default:
        return quiet([`lanes tasks: \`${input.hook_event_name}\` is not handled by this hook`]);
    }
  } catch (error) {
    const message = `lanes tasks: internal error at ${input.hook_event_name}: ${error instanceof Error ? error.message : String(error)}`;
    // creation and completion fail closed (unless the team opted into failing open); the other events only report
    const enforcing = input.hook_event_name === "TaskCreated" || input.hook_event_name === "TaskCompleted";
    if (!enforcing || deps.env["LANES_FAILURE_MODE"] === "open") return quiet([...stderr, message]);
    return {
      stdout: block(
        `${message}; the task was not ${input.hook_event_name === "TaskCreated" ? "created" : "completed"}; report it with \`lanes log\` output`,
      ),
      stderr: [...stderr, message],
    };
  }
}

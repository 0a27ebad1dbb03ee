/**
 * The PreToolUse guard: hook input in, exactly one JSON object (or nothing) out. Everything that
 * can fail is caught here and turned into the answer the failure posture prescribes:
 *
 * | failure                                  | answer                                                        |
 * |------------------------------------------|---------------------------------------------------------------|
 * | hook input unreadable / not JSON / wrong shape | deny, with a message                                    |
 * | compiled policy stale or missing while lanes config exists | recompiled on the spot (recompile.ts); the call is judged by the new policy |
 * | the edited config does not compile, a last good policy exists | judged by the last good policy; the user and the model are told once which line to fix |
 * | the config does not compile, no good policy | deny mutating tools (Write, Edit, MultiEdit, NotebookEdit, Bash, Agent, MCP) naming the file:line to fix, except edits to the policy files; other tools are judged by the built-in defaults |
 * | internal error                           | deny, with a message                                          |
 * | shell not analysable / budget exceeded   | ask (rule `shell.unanalysable`)                               |
 * | a subagent's task block unreadable while its type was started with one this session | deny its writes and commands (`task.constraints-unreadable`) |
 * | `LANES_FAILURE_MODE=open`                | the deny-on-failure rows become no opinion (stderr still says why) |
 *
 * Side effects after the decision (audit log, denial counters, spawn intents, cached task blocks) never change it.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { realDisk } from "../host/disk.ts";
import { projectPaths, userPaths } from "../host/layout.ts";
import { evaluate, evaluationContext } from "../policy/evaluate.ts";
import type { CompiledPolicy } from "../policy/compiled.ts";
import { baseAgentName, type TaskConstraints } from "../policy/lanes.ts";
import { parseTaskBlock } from "../policy/task-block.ts";
import { fnv1a64 } from "../io/hash.ts";
import { describeCall, renderReason } from "../policy/render.ts";
import { riskOf, type GuardRequest } from "../policy/types.ts";
import { agentPath, readAgentTree, recordAgentTask, recordSpawnIntent } from "./agent-tree.ts";
import { auditLog, type AuditEntry } from "./audit.ts";
import { cliCommandFor, findProjectDir, homeOf, type Env } from "../host/env.ts";
import { isMutatingTool, isSpawnTool, subjectFields } from "../host/tools.ts";
import { readProgressRaw } from "../runtime/progress-hot.ts";
import { readEvaluationSources } from "./inputs.ts";
import { readHookInput, type ToolHookInput } from "./hook-input.ts";
import { readCompiledPolicy } from "../config/policy-file.ts";
import { findTask, readHold } from "./task-store.ts";
import { instanceTask, taskConstraintsChecked, type InstanceTask } from "./task.ts";
import { recompilePolicy } from "./recompile.ts";
import { LANES_VERSION } from "../host/version.ts";
import { claimCall } from "./claim.ts";
import { protectEarlierVersions, workflowKey } from "./touches.ts";
import { countDenial } from "./violations.ts";
import { consumeGrant, offerOverride, OVERRIDE_RULES, OVERRIDE_TTL_MS, peekOverrides } from "./override.ts";
import { isoTime } from "../io/time.ts";

/** What the hook process prints. */
export interface HookOutcome {
  /** Exactly one JSON object, or the empty string for "no opinion". */
  readonly stdout: string;
  /** Lines for stderr (never stdout). */
  readonly stderr: readonly string[];
  /** The kind of call, for the hook loader's code cache (loader.ts `reportProfile`). */
  readonly profile?: string;
}

export interface GuardDeps {
  readonly env: Env;
  readonly now: () => Date;
  /** The built-in default policy shipped next to the hook (`dist/policy.default.json`). */
  readonly defaultPolicyPath: string;
  /** The directory the hook bundles run from, to tell users how to run the CLI (see cliCommandFor). */
  readonly distDir?: string;
}

/** `notice` goes to the user and the model; `humanOnly` only to the user (`systemMessage`, never sent to the model). */
const answer = (effect: "deny" | "ask", reason: string, notice?: string, humanOnly?: string): string => {
  const shown = [notice, humanOnly].filter((m) => m !== undefined).join("\n");
  return JSON.stringify({
    ...(shown !== "" && { systemMessage: shown }),
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: effect,
      permissionDecisionReason: reason,
      ...(notice !== undefined && { additionalContext: notice }),
    },
  });
};

/** No decision, but something the user and the model must hear once (a policy file that does not compile). */
const noticeOnly = (notice: string): string =>
  JSON.stringify({
    systemMessage: notice,
    hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: notice },
  });

/** A failure: deny with `message`, unless the team opted into failing open. */
function failure(message: string, deps: GuardDeps, stderr: string[] = []): HookOutcome {
  if (deps.env["LANES_FAILURE_MODE"] === "open")
    return { stdout: "", stderr: [...stderr, `${message} (LANES_FAILURE_MODE=open: no objection)`] };
  return { stdout: answer("deny", message), stderr: [...stderr, message] };
}

/** True when lanes configuration exists that must be compiled before it can be enforced. */
function hasPolicySources(projectDir: string, home: string): boolean {
  const p = projectPaths(projectDir);
  return [p.policy, p.policyLocal, p.agentDefinitions, userPaths(home).policy].some((f) => existsSync(f));
}

type PolicyChoice = { policy: CompiledPolicy; problem?: string; notice?: string } | { error: string };

/** The policy source files: while none compiles, edits to them stay possible (that is how the model fixes them). */
function writesOnlyPolicySources(input: ToolHookInput, projectDir: string, home: string): boolean {
  if (!["Write", "Edit", "MultiEdit"].includes(input.tool_name)) return false;
  const file = input.tool_input["file_path"];
  if (typeof file !== "string" || file === "") return false;
  const p = projectPaths(projectDir);
  const abs = resolve(input.cwd, file);
  return (
    abs === p.policy || abs === p.policyLocal || abs === userPaths(home).policy || dirname(abs) === p.agentDefinitions
  );
}

/**
 * The policy to judge with. A stale or missing compiled policy is recompiled on the spot (see
 * recompile.ts); when the edited files do not compile, the last good policy stays in force and the
 * message names the file and line to fix. Without any good policy, mutating tools are blocked except
 * edits to the policy files themselves, which the built-in defaults judge.
 */
function choosePolicy(input: ToolHookInput, projectDir: string, home: string, deps: GuardDeps): PolicyChoice {
  const compiledPath = projectPaths(projectDir).compiledPolicy;
  const compiled = readCompiledPolicy(compiledPath);
  if (compiled.ok) return { policy: compiled.policy };
  const fallback = readCompiledPolicy(deps.defaultPolicyPath);
  if (compiled.kind === "missing" && !hasPolicySources(projectDir, home)) {
    return fallback.ok
      ? { policy: fallback.policy }
      : {
          error: `lanes is not installed correctly: the default policy \`${deps.defaultPolicyPath}\` cannot be read; reinstall with \`lanes init\` from the lanes package`,
        };
  }
  const packAgents = deps.distDir === undefined ? undefined : join(deps.distDir, "..", "definitions", "agents");
  const rebuilt = recompilePolicy({
    projectDir,
    home,
    lanesVersion: LANES_VERSION,
    ...(packAgents !== undefined && existsSync(packAgents) && { fallbackAgentsDir: packAgents }),
  });
  if (rebuilt.ok) return { policy: rebuilt.policy };
  const lastGood = readCompiledPolicy(compiledPath, { allowStale: true });
  if (lastGood.ok) {
    const problem = `lanes policy does not compile: ${rebuilt.message}; fix that line: until then the last good policy stays in force`;
    return { policy: lastGood.policy, problem, ...(rebuilt.fresh && { notice: problem }) };
  }
  const problem = `lanes policy does not compile: ${rebuilt.message}; fix that line: until then lanes blocks Bash, Write, Edit and Agent calls except edits to the policy files, while Read, Grep and Glob still work`;
  if (isMutatingTool(input.tool_name) && !writesOnlyPolicySources(input, projectDir, home)) return { error: problem };
  return fallback.ok
    ? { policy: fallback.policy, problem, ...(rebuilt.fresh && { notice: problem }) }
    : { error: problem };
}

/** Fields that name the subject of a call of a tool lanes does not know. */
const GENERIC_SUBJECT = ["command", "file_path", "notebook_path", "path", "pattern", "subagent_type", "skill", "url"];

function subjectOf(input: ToolHookInput): string {
  const i = input.tool_input;
  const value = [...subjectFields(input.tool_name), ...GENERIC_SUBJECT]
    .map((key) => i[key])
    .find((v) => typeof v === "string");
  const text = typeof value === "string" ? value : "";
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

/** The kind of call, for the loader's code cache: which tool, who called, whether lanes answered. */
function callProfile(input: ToolHookInput, outcome: HookOutcome): string {
  const tool = input.tool_name.startsWith("mcp__") ? "mcp" : input.tool_name.replace(/[^A-Za-z0-9_]/g, "");
  return `pre:${tool}:${input.agent_id === undefined ? "main" : "agent"}:${outcome.stdout === "" ? "quiet" : "answer"}`;
}

/** Runs the guard on one raw hook input. Never throws. */
export function runPreToolUse(raw: string, deps: GuardDeps): HookOutcome {
  const parsed = readHookInput(raw);
  if (!parsed.ok)
    return failure(
      `lanes could not read the hook input: ${parsed.message}; the call is blocked because the guard cannot judge it`,
      deps,
    );
  const input = parsed.input;
  try {
    const outcome = judge(input, deps);
    return { ...outcome, profile: callProfile(input, outcome) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failure(
      `lanes internal error while judging this ${input.tool_name} call: ${message}; the call is blocked; report it with \`lanes log\` output`,
      deps,
    );
  }
}

function judge(input: ToolHookInput, deps: GuardDeps): HookOutcome {
  const env = deps.env;
  const home = homeOf(env);
  const projectDir = findProjectDir(input.cwd, env);
  const paths = projectPaths(projectDir);
  const stderr: string[] = [];

  const choice = choosePolicy(input, projectDir, home, deps);
  if ("error" in choice) {
    auditLog(paths).append({
      ts: isoTime(deps.now()),
      event: "policy-error",
      session: input.session_id,
      tool: input.tool_name,
      reason: choice.error,
    });
    return failure(choice.error, deps);
  }
  const policy = choice.policy;
  if (choice.problem !== undefined) stderr.push(choice.problem);

  // only spawns and subagents need the agent tree, and only subagents have task constraints: skip the reads otherwise
  const spawning = isSpawnTool(input.tool_name);
  const tree = spawning || input.agent_id !== undefined ? readAgentTree(paths.agentTree) : undefined;
  const own: TaskConstraints[] = [];
  let readBlock: InstanceTask["read"];
  if (input.agent_type !== undefined && input.agent_id !== undefined && tree !== undefined) {
    const instance = instanceTask({
      tree,
      session: input.session_id,
      agentId: input.agent_id,
      agentType: input.agent_type,
      transcriptPath: input.transcript_path,
      caseInsensitive: policy.options.caseInsensitivePaths,
      waitForTranscript: isMutatingTool(input.tool_name),
    });
    if (instance.task !== undefined) own.push(instance.task);
    readBlock = instance.read;
  }
  // a progress file that cannot be read might hold constraints narrowing this subagent: fail closed for its mutating calls
  const read = input.agent_type === undefined ? undefined : readProgressRaw(projectDir);
  const checked = read === undefined ? {} : taskConstraintsChecked(read, policy.options.caseInsensitivePaths);
  if (checked.problem !== undefined && isMutatingTool(input.tool_name)) {
    return failure(
      `lanes cannot read this step's task constraints: ${checked.problem}; the call is blocked for subagents; fix or remove the progress file (\`lanes progress show\` names the problem), or start the workflow again with \`lanes progress init --force\``,
      deps,
      stderr,
    );
  }
  const progress = read?.ok === true ? read.value : undefined;
  const { sources, problems } = readEvaluationSources(policy, {
    projectDir,
    home,
    env,
    agentPath: spawning && tree !== undefined ? agentPath(tree, input.session_id, input.agent_id) : [],
    progress,
    tasks: own,
  });
  stderr.push(...problems.map((p) => `lanes: ${p}`));
  const request: GuardRequest = {
    tool: input.tool_name,
    input: input.tool_input,
    cwd: input.cwd,
    projectDir,
    home,
    agent: input.agent_type === undefined ? undefined : { id: input.agent_id, type: input.agent_type },
  };
  const evaluation = evaluate(
    request,
    evaluationContext(policy, {
      ...sources,
      disk: realDisk(),
      taskOwner: (id) => findTask(paths.state, input.session_id, id)?.assignee,
      // a DANGEROUS outcome waiting for a human stops spawns and new tasks (read only for those calls)
      ...((spawning || input.tool_name === "TaskCreate") && { pendingDecision: readHold(paths.state)?.reason }),
    }),
  );
  const now = deps.now();
  // a human allowed this exact call once (`lanes allow <code>`): the denial gives way, once (override.ts)
  const main = input.agent_id === undefined && input.agent_type === undefined;
  const overridable = (d: typeof evaluation.decision) =>
    d?.effect === "deny" &&
    riskOf(d.effect) === "DANGEROUS" &&
    main &&
    !d.ruleIds.some((id) => OVERRIDE_RULES.includes(id));
  // read once for the grant and the offer (an atomic file: one read is a whole store)
  const overrides = overridable(evaluation.decision) ? peekOverrides(paths.state) : undefined;
  const overridden =
    overridable(evaluation.decision) &&
    consumeGrant(paths.state, input.session_id, input.tool_name, input.tool_input, input.tool_use_id, now, overrides)
      ? evaluation.decision
      : undefined;
  const decision = overridden === undefined ? evaluation.decision : undefined;

  const agentName = input.agent_type === undefined ? undefined : baseAgentName(input.agent_type);
  // lanes installed twice (plugin and project): both judge, only the first to claim the call records it
  const recorder = claimCall(paths.state, "pre", input.session_id, input.tool_use_id, now);
  if (!recorder)
    return {
      stdout:
        decision === undefined
          ? ""
          : answer(
              decision.effect,
              renderReason(decision, { call: describeCall(input.tool_name, input.tool_input), agent: agentName }),
            ),
      stderr,
    };
  const count = countDenial(
    paths.state,
    input.session_id,
    input.agent_id ?? "main",
    agentName ?? "main",
    decision?.effect === "deny" ? decision.ruleIds : undefined,
    now,
  );
  const escalation =
    decision?.effect === "deny" && count !== undefined && count >= policy.options.escalateAfter
      ? {
          agent: agentName ?? "this session",
          count,
          main: input.agent_id === undefined && input.agent_type === undefined,
        }
      : undefined;

  if (spawning) {
    if (decision?.effect !== "deny" && evaluation.facts.spawn !== undefined) {
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
        evaluation.facts.spawn,
        now,
        details,
      );
      if (problem !== undefined) stderr.push(`lanes: could not record the agent spawn: ${problem}`);
    }
  }
  if (readBlock !== undefined && input.agent_id !== undefined) {
    const problem = recordAgentTask(paths.agentTree, paths.state, input.session_id, input.agent_id, readBlock, now);
    if (problem !== undefined) stderr.push(`lanes: could not cache the agent's task constraints: ${problem}`);
  }

  // before a subagent overwrites a file another agent modified in this workflow, keep a copy
  if (agentName !== undefined && decision?.effect !== "deny") {
    const writes = evaluation.facts.files
      .filter((f) => f.path !== undefined && !f.glob && (f.access === "write" || f.access === "delete"))
      .map((f) => f.path!);
    if (writes.length > 0) {
      protectEarlierVersions(
        { touches: paths.touches, state: paths.state, conflicts: paths.conflicts },
        workflowKey(progress, input.session_id),
        agentName,
        [...new Set(writes)],
        now,
      );
    }
  }

  const reason =
    decision === undefined
      ? undefined
      : renderReason(decision, { call: describeCall(input.tool_name, input.tool_input), agent: agentName, escalation });
  const log = auditLog(paths, policy.options.auditMaxBytes);
  const audit = (entry: AuditEntry) => {
    const problem = log.append(entry);
    if (problem !== undefined) stderr.push(problem);
  };
  const base = {
    ts: isoTime(now),
    session: input.session_id,
    ...(input.agent_id !== undefined && { agent_id: input.agent_id }),
    ...(agentName !== undefined && { agent: agentName }),
    tool: input.tool_name,
    subject: subjectOf(input),
  };
  audit({
    ...base,
    event: "decision",
    decision: decision?.effect ?? "none",
    risk: riskOf(decision?.effect),
    rules: decision?.ruleIds ?? [],
    ...(reason !== undefined && { reason }),
    ...(overridden !== undefined && { overridden: overridden.ruleIds }),
  });
  if (overridden !== undefined)
    audit({ ...base, event: "human-decision", decision: "allow-once", use: "consumed", rules: overridden.ruleIds });
  if (
    decision !== undefined &&
    decision.matches.some((m) => m.layer === "must-not" || m.layer === "role" || m.layer === "task")
  ) {
    audit({ ...base, event: "boundary-violation", decision: decision.effect, rules: decision.ruleIds, reason });
  }
  if (escalation !== undefined)
    audit({ ...base, event: "escalation", count: escalation.count, rules: decision?.ruleIds ?? [] });

  if (decision === undefined || reason === undefined)
    return { stdout: choice.notice === undefined ? "" : noticeOnly(choice.notice), stderr };
  // the code goes to the human only (systemMessage), never into the reason the model reads
  const code = overridable(decision)
    ? offerOverride(
        paths.state,
        {
          session: input.session_id,
          tool: input.tool_name,
          input: input.tool_input,
          subject: describeCall(input.tool_name, input.tool_input),
          rules: decision.ruleIds,
        },
        now,
        overrides,
      )
    : undefined;
  const offer =
    code === undefined
      ? undefined
      : `lanes: to let this exact call run once, send \`lanes allow ${code}\` as your next message to Claude (valid ${OVERRIDE_TTL_MS / 60_000} minutes)`;
  return { stdout: answer(decision.effect, reason, choice.notice, offer), stderr };
}

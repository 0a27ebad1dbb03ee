/**
 * Gather, the guard's first step: everything a decision needs, read from the machine before
 * anything is decided (the policy, the agent tree, task constraints, settings rules, the task
 * channel). Reads only; nothing here writes state. Per-call facts read from disk belong here.
 *
 * {@link judgementOf} is shared by the hook and `lanes check`/`lanes test`: one call, one policy,
 * the sources of the machine, assembled into the evaluator's context.
 */
import { realDisk } from "../../host/disk.ts";
import { span } from "../../io/profile.ts";
import type { DiskView } from "../../host/disk-view.ts";
import type { Env } from "../../host/env.ts";
import { findProjectDir, homeOf } from "../../host/env.ts";
import { projectPaths, type ProjectPaths } from "../../host/layout.ts";
import { isMutatingTool, isSpawnTool } from "../../host/tools.ts";
import type { CompiledPolicy } from "../../policy/compiled.ts";
import { evaluationContext, type EvaluateContext } from "../../policy/evaluate.ts";
import { baseAgentName, type TaskConstraints } from "../../policy/lanes.ts";
import type { GuardRequest } from "../../policy/types.ts";
import { readProgressRaw, type RawProgress } from "../../runtime/progress-hot.ts";
import type { ToolHookInput } from "../protocol/hook-input.ts";
import type { HookDeps } from "../protocol/response.ts";
import { agentPath, readAgentTree, type AgentTreeFile } from "../state/agent-tree.ts";
import { findTask, readHold } from "../state/task-store.ts";
import { choosePolicy } from "./policy.ts";
import { dirtyFilesReader, guardRemovalsReader } from "./dirty-files.ts";
import { readEvaluationSources } from "./sources.ts";
import { instanceTask, taskConstraintsChecked, type InstanceTask } from "./task-constraints.ts";

/** One call, ready for decide: the policy, the request and the evaluator's context. */
export interface Judgement {
  readonly policy: CompiledPolicy;
  readonly request: GuardRequest;
  readonly context: EvaluateContext;
  /** The call comes from the main session (no agent id or type): only its denials can be overridden by a human. */
  readonly main: boolean;
}

/** What to judge, and what of the machine to read for it. */
export interface CallToJudge {
  readonly projectDir: string;
  readonly home: string;
  readonly env: Env;
  readonly cwd: string;
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly agent: GuardRequest["agent"];
  /** Agent types from the first subagent down to the caller (nesting and cycle checks of Agent calls). */
  readonly agentPath: readonly string[];
  /** The progress file, for its task constraints; undefined when they do not apply. */
  readonly progress: RawProgress | undefined;
  /** Further task constraints of the caller (its own task block). */
  readonly tasks?: readonly TaskConstraints[];
  /** The agent a task of the task channel is assigned to. */
  readonly taskOwner?: (taskId: string) => string | undefined;
  /** Why work waits for a human decision, if it does. */
  readonly pendingDecision?: string | undefined;
  /** The disk as the call finds it (read-only, bounded per call); absent: the evaluation reads no disk. */
  readonly disk?: DiskView;
  /** The work tree's dirty files, asked for only by a subagent's tree-moving git command (policy/git-moves.ts). */
  readonly dirtyFiles?: () => readonly string[];
  /** The guard's files a branch switch removes (policy/evaluate.ts). */
  readonly guardRemovals?: (target: string, candidates: readonly string[]) => readonly string[];
}

/** The judgement of one call, and problems met reading the machine (for stderr). */
export const judgementOf = (policy: CompiledPolicy, call: CallToJudge): { judgement: Judgement; problems: string[] } =>
  span("decide", () => judge(policy, call));

function judge(policy: CompiledPolicy, call: CallToJudge): { judgement: Judgement; problems: string[] } {
  const { sources, problems } = readEvaluationSources(policy, call);
  const request: GuardRequest = {
    tool: call.tool,
    input: call.input as Record<string, unknown>,
    cwd: call.cwd,
    projectDir: call.projectDir,
    home: call.home,
    agent: call.agent,
  };
  const context = evaluationContext(policy, {
    ...sources,
    ...(call.taskOwner !== undefined && { taskOwner: call.taskOwner }),
    ...(call.pendingDecision !== undefined && { pendingDecision: call.pendingDecision }),
    ...(call.disk !== undefined && { disk: call.disk }),
    ...(call.dirtyFiles !== undefined && { dirtyFiles: call.dirtyFiles }),
    ...(call.guardRemovals !== undefined && { guardRemovals: call.guardRemovals }),
  });
  return { judgement: { policy, request, context, main: call.agent === undefined }, problems };
}

/** A hook call gathered: its judgement and what the later steps need of what was read. */
export interface GatheredCall {
  readonly input: ToolHookInput;
  readonly paths: ProjectPaths;
  readonly judgement: Judgement;
  /** The caller's agent name (`agent_type` without its plugin prefix); undefined in the main session. */
  readonly agentName: string | undefined;
  /** An Agent call: record its spawn intent. */
  readonly spawning: boolean;
  /** The progress file as read (the workflow of touches). */
  readonly progress: RawProgress | undefined;
  /** The subagent's task block read from its transcript on this call, to cache in the agent tree. */
  readonly readBlock: InstanceTask["read"];
  /** Told once to the user and the model: the edited policy does not compile. */
  readonly notice: string | undefined;
  /** Lines for stderr, added to by the later steps. */
  readonly stderr: string[];
}

/** Why a call cannot be judged: the guard answers with the failure posture. */
export interface GatherFailure {
  readonly message: string;
  /** No policy at all: logged as a `policy-error`. */
  readonly policyError: boolean;
  readonly paths: ProjectPaths;
  readonly stderr: string[];
}

/** The task constraints of this subagent instance (its Agent call's task block), when a subagent calls. */
function instanceOf(input: ToolHookInput, tree: AgentTreeFile, policy: CompiledPolicy): InstanceTask | undefined {
  if (input.agent_type === undefined || input.agent_id === undefined) return undefined;
  return instanceTask({
    tree,
    session: input.session_id,
    agentId: input.agent_id,
    agentType: input.agent_type,
    transcriptPath: input.transcript_path,
    caseInsensitive: policy.options.caseInsensitivePaths,
    waitForTranscript: isMutatingTool(input.tool_name),
  });
}

/** Reads everything the guard needs to judge `input`, or says why it cannot be judged. */
export function gather(
  input: ToolHookInput,
  deps: HookDeps,
): { ok: true; call: GatheredCall } | ({ ok: false } & GatherFailure) {
  const env = deps.env;
  const home = homeOf(env);
  const projectDir = findProjectDir(input.cwd, env);
  const paths = projectPaths(projectDir);
  const stderr: string[] = [];

  const choice = choosePolicy(input, projectDir, home, deps);
  if ("error" in choice) return { ok: false, message: choice.error, policyError: true, paths, stderr };
  const policy = choice.policy;
  if (choice.problem !== undefined) stderr.push(choice.problem);

  // only spawns and subagents need the agent tree, and only subagents have task constraints: skip the reads otherwise
  const spawning = isSpawnTool(input.tool_name);
  const tree = spawning || input.agent_id !== undefined ? readAgentTree(paths.agentTree) : undefined;
  const instance = tree === undefined ? undefined : instanceOf(input, tree, policy);
  // a progress file that cannot be read might hold constraints narrowing this subagent: fail closed for its mutating calls
  const read = input.agent_type === undefined ? undefined : readProgressRaw(projectDir);
  const checked = read === undefined ? {} : taskConstraintsChecked(read, policy.options.caseInsensitivePaths);
  if (checked.problem !== undefined && isMutatingTool(input.tool_name)) {
    return {
      ok: false,
      message: `lanes cannot read this step's task constraints: ${checked.problem}; the call is blocked for subagents; fix or remove the progress file (\`lanes progress show\` names the problem), or start the workflow again with \`lanes progress init --force\``,
      policyError: false,
      paths,
      stderr,
    };
  }
  const progress = read?.ok === true ? read.value : undefined;
  const { judgement, problems } = judgementOf(policy, {
    projectDir,
    home,
    env,
    cwd: input.cwd,
    tool: input.tool_name,
    input: input.tool_input,
    agent: input.agent_type === undefined ? undefined : { id: input.agent_id, type: input.agent_type },
    agentPath: spawning && tree !== undefined ? agentPath(tree, input.session_id, input.agent_id) : [],
    progress,
    tasks: instance?.task === undefined ? [] : [instance.task],
    taskOwner: (id) => findTask(paths.state, input.session_id, id)?.assignee,
    disk: realDisk(),
    ...(input.agent_type !== undefined && { dirtyFiles: dirtyFilesReader(projectDir) }),
    guardRemovals: guardRemovalsReader(projectDir),
    // a DANGEROUS outcome waiting for a human stops spawns and new tasks (read only for those calls)
    ...((spawning || input.tool_name === "TaskCreate") && { pendingDecision: readHold(paths.state)?.reason }),
  });
  stderr.push(...problems.map((p) => `lanes: ${p}`));
  return {
    ok: true,
    call: {
      input,
      paths,
      // an agent id without a type is not the main session either
      judgement: { ...judgement, main: judgement.main && input.agent_id === undefined },
      agentName: input.agent_type === undefined ? undefined : baseAgentName(input.agent_type),
      spawning,
      progress,
      readBlock: instance?.read,
      notice: choice.notice,
      stderr,
    },
  };
}

/**
 * The task channel's rules: the main session and orchestrators create and
 * assign tasks; specialists and reviewers read their own tasks and update or complete only those.
 * Pure: the owner of a task comes from the caller (the guard reads `.claude/state/tasks.json`,
 * written by the task-channel hook from `TaskUpdate` `owner`). Matches go to the `role` layer, so a
 * denial is also a boundary violation in the audit log.
 */
import type { CompiledPolicy } from "./compiled.ts";
import { baseAgentName } from "./lanes.ts";
import type { Match } from "./types.ts";

/** Claude Code's task tools (2.1.330; enabled in `-p` sessions by `CLAUDE_CODE_ENABLE_TODO_TOOLS=1`). */
export const TASK_TOOLS: readonly string[] = ["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"];

export interface TaskToolInput {
  readonly policy: CompiledPolicy;
  /** `agent_type` of the caller; undefined for the main session. */
  readonly agentType: string | undefined;
  readonly tool: string;
  readonly toolInput: Readonly<Record<string, unknown>>;
  /** The agent a task is assigned to, if lanes knows the task and it has one. */
  readonly taskOwner: (taskId: string) => string | undefined;
  /** Why work is on hold for a human decision (a DANGEROUS outcome), if it is. */
  readonly pendingDecision?: string;
}

const SOURCE = "lanes task channel";

/** The task-channel rules, as data for `lanes rules` and `lanes log --explain` (the checks below produce them). */
export const TASK_RULES: Readonly<
  Record<string, { readonly layer: "role" | "builtin"; readonly effect: "deny"; readonly what: string }>
> = {
  "tasks.human-decision-pending": {
    layer: "builtin",
    effect: "deny",
    what: "starting agents or creating tasks while a DANGEROUS outcome waits for `lanes decide`",
  },
  "tasks.create-by-specialist": { layer: "role", effect: "deny", what: "a specialist or reviewer creating a task" },
  "tasks.read-not-own": { layer: "role", effect: "deny", what: "reading a task assigned to another agent" },
  "tasks.reassign-by-specialist": {
    layer: "role",
    effect: "deny",
    what: "a specialist or reviewer assigning a task to another agent",
  },
  "tasks.update-not-own": { layer: "role", effect: "deny", what: "updating a task not assigned to the agent" },
};

function deny(ruleId: string, why: string, instead: string, subject: string): Match {
  return { ruleId, layer: "role", effect: "deny", why, instead, subject, scope: "call", source: SOURCE };
}

/** While a DANGEROUS outcome waits for a human, nobody starts agents or creates tasks. */
function holdMatches(input: TaskToolInput): Match[] {
  if (input.pendingDecision === undefined) return [];
  if (input.tool !== "Agent" && input.tool !== "Task" && input.tool !== "TaskCreate") return [];
  return [
    {
      ruleId: "tasks.human-decision-pending",
      layer: "builtin",
      effect: "deny",
      why: `work is on hold until a human decides: ${input.pendingDecision}`,
      instead:
        "stop and report the outcome to the human, who reviews it and runs `lanes decide approve` or `lanes decide reject`",
      subject: `the \`${input.tool}\` tool`,
      scope: "call",
      source: SOURCE,
    },
  ];
}

/** The task-channel matches of one call (none for other tools, the main session and orchestrators). */
export function taskToolMatches(input: TaskToolInput): Match[] {
  const held = holdMatches(input);
  if (held.length > 0) return held;
  if (!TASK_TOOLS.includes(input.tool) || input.agentType === undefined) return [];
  const name = baseAgentName(input.agentType);
  const agent = input.policy.agents.find((a) => a.name === name);
  // orchestrators (and agents lanes has no definition for) run the channel
  if (agent === undefined || agent.role === "orchestrator") return [];
  const taskId = typeof input.toolInput["taskId"] === "string" ? input.toolInput["taskId"] : undefined;
  const subject = taskId === undefined ? `the \`${input.tool}\` tool` : `task #${taskId}`;
  if (input.tool === "TaskCreate") {
    return [
      deny(
        "tasks.create-by-specialist",
        `${name} does not create tasks; the orchestrator creates and assigns them`,
        "finish your task with a summary that says what work remains and for whom; the orchestrator creates that task",
        "the `TaskCreate` tool",
      ),
    ];
  }
  if (taskId === undefined) return [];
  const owner = input.taskOwner(taskId);
  const own = owner !== undefined && baseAgentName(owner) === name;
  if (input.tool === "TaskGet") {
    if (owner === undefined || own) return [];
    return [
      deny(
        "tasks.read-not-own",
        `task #${taskId} is assigned to \`${baseAgentName(owner)}\`, not ${name}`,
        "read only your own tasks; the context you need is in your task's description",
        subject,
      ),
    ];
  }
  if (input.tool !== "TaskUpdate") return [];
  const matches: Match[] = [];
  const newOwner = input.toolInput["owner"];
  if (typeof newOwner === "string" && baseAgentName(newOwner) !== name) {
    matches.push(
      deny(
        "tasks.reassign-by-specialist",
        `${name} does not assign tasks to other agents`,
        "complete or leave your task and say in its summary who should take the rest; the orchestrator reassigns",
        subject,
      ),
    );
  }
  if (!own) {
    matches.push(
      deny(
        "tasks.update-not-own",
        owner === undefined
          ? `task #${taskId} is not assigned to ${name}`
          : `task #${taskId} is assigned to \`${baseAgentName(owner)}\`, not ${name}`,
        "update and complete only the tasks assigned to you (TaskList shows them); report anything else to the orchestrator",
        subject,
      ),
    );
  }
  return matches;
}

/**
 * The task-channel section of a generated agent's protocols: how the agent
 * uses Claude Code's task tools, worded for its role. Pure.
 */
import type { AgentDefinition } from "../definitions/agent.ts";

const numbered = (items: readonly string[]): string => items.map((item, i) => `${i + 1}. ${item}`).join("\n");

/** `### Tasks` for the agent's protocols; `cli` is how the agent runs the lanes CLI. */
export function renderTaskProtocol(def: AgentDefinition, cli: string): string {
  const body =
    def.role === "orchestrator"
      ? numbered([
          "The task system is the only channel between agents. For each step, create a task (`TaskCreate`: `subject` = the action, `description` = the context: the goal, the files, the decisions, what done looks like) and assign it with `TaskUpdate` (`taskId`, `owner` = the agent). Then start that agent and tell it its task id.",
          "An agent completes its task with a summary naming its artifacts. lanes validates every run when the agent stops or completes its task, from evidence (the files it changed, including writes by scripts, and the commands it ran) and tells you the outcome after the Agent call: `VALID` or `VIOLATION` (with the paths and their owners), and `SAFE`, `REVIEW_REQUIRED` or `DANGEROUS`.",
          "Handoff: when A's task is completed and VALID, create B's task with A's context in its description (A's summary, the files A created, the decisions), assign it to B, and start B.",
          `A VIOLATION: do not build on that output. The completion was refused and the task is marked for reassignment: create a task for the owner named in the outcome with the change it needs, and have the agent revert the files outside its lane. REVIEW_REQUIRED: show the human before the next step. DANGEROUS: lanes stops the session until the human decides (\`${cli} decide approve|reject\`).`,
          "`TaskList` shows every task and its owner; keep the progress file's steps in line with the tasks (assigning a task sets `next_step`).",
        ])
      : numbered([
          "Your work comes as a task. Start with `TaskList`, then `TaskGet` your task (`taskId`): its description holds the context. Set it `in_progress` with `TaskUpdate` when you start.",
          "Update and complete only tasks assigned to you; never create tasks, assign them, or read other agents' tasks (the guard denies it: rules `tasks.*`). You do not message other agents (`agents.direct-message`).",
          "When done, complete it: `TaskUpdate` with `status: completed` and a `description` that is your summary: what you did, the files you created and changed, and what another agent must do next (which agent, what).",
          "lanes validates your run before the completion counts: files outside your lane refuse it (VIOLATION, with the owner). If that happens, revert exactly those files and say in your summary what the owner must do; do not complete around it.",
        ]);
  return `### Tasks\n\n${body}`;
}

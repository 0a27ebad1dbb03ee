/** Agents talk through the task system only: no direct messages between agents. */
import type { RuleSpec } from "./types.ts";

export const agentRules: readonly RuleSpec[] = [
  {
    id: "agents.direct-message",
    effect: "deny",
    tools: ["SendMessage"],
    why: "agents do not message each other directly; everything between agents goes through the task system",
    instead: "finish your task with a summary (TaskUpdate), or have the orchestrator create a task for the other agent",
  },
];

/**
 * Other agents started from a tool call (issue 22, "no client without the guard"): a nested Claude
 * Code under any spelling (its CLI, the package's script, a runner, a copy of the binary, the Agent
 * SDK) and other vendors' agent CLIs. Each would run tool calls lanes does not see, sees as another
 * session's, or sees as a main session with no lane: the main session asks the person, a subagent
 * (which has no person to ask) is denied. What the shell analysis records is `AgentRun`
 * (src/shell/types.ts); resuming a session is `lanes.override-session` (rules/paths.ts).
 */
import type { RuleSpec } from "./types.ts";

const instead = "do the work in this session; if another session is needed, ask the user to start it themselves";

export const clientRules: readonly RuleSpec[] = [
  {
    id: "clients.hooks-off",
    effect: "ask",
    subagentEffect: "deny",
    agentRun: { runs: "guard-off" },
    why: "it starts Claude Code without lanes' hooks or permission checks, so that session's tool calls would run without lanes",
    instead,
  },
  {
    id: "clients.agent-type",
    effect: "ask",
    subagentEffect: "deny",
    agentRun: { runs: "agent-type" },
    why: "it starts a Claude Code session as another agent type, which works under that agent's lane, not the caller's",
    instead,
  },
  {
    // plain `claude -p` with the project's hooks and no wider permissions: from the main session it
    // has the caller's own rights (the same hooks and rules; an ask is a denial in `-p`), so it stays
    // quiet; from a subagent it is a main session with no lane, a way out of the subagent's lane
    id: "clients.nested-session",
    effect: "deny",
    only: "subagents",
    agentRun: { runs: "session" },
    why: "it starts another Claude Code session, whose tool calls would be judged as a main session's, outside the subagent's lane",
    instead,
  },
  {
    id: "clients.foreign-agent",
    effect: "ask",
    subagentEffect: "deny",
    agentRun: { runs: "foreign" },
    why: "it runs another vendor's coding agent, which never reads lanes' hooks, so its tool calls would run without lanes",
    instead,
  },
  {
    id: "clients.configure",
    effect: "ask",
    subagentEffect: "deny",
    agentRun: { runs: "configure" },
    why: "it changes the MCP servers, plugins or settings that later sessions load, programs those sessions run",
    instead: "tell the user which server or plugin you want and why; they can add it themselves",
  },
];

/**
 * The Agent SDK in interpreter code: a Claude Code session the code starts itself. Kept apart
 * from the handlers so the collector can read every piece of code as it is recorded.
 */
import type { CodeRecord } from "./handlers/contract.ts";
import { AGENT_SDK_MODULES } from "./tables/clients.ts";
import type { AgentRun } from "./types.ts";

/** Options of the Agent SDK that continue an existing session. */
const SDK_SESSION_WORDS = [
  /\bresume\s*[:=]/,
  /\bcontinue\s*[:=]/,
  /\bforkSession\b/,
  /\bfork_session\b/,
  /\bcontinue_conversation\b/,
];

/**
 * Interpreter code that uses the Agent SDK (`require('@anthropic-ai/claude-agent-sdk').query(...)`,
 * `from claude_agent_sdk import query`): a Claude Code session whose settings, hooks and
 * permission callbacks the code decides, so lanes cannot tell its guard is on. Read from literal
 * code only; a script file's code is read when the walk reads it from disk.
 */
export function agentSdkRun(record: CodeRecord): AgentRun | undefined {
  const code = record.code;
  if (code === undefined || (record.language !== "node" && record.language !== "python")) return undefined;
  if (!AGENT_SDK_MODULES.some((m) => code.includes(m))) return undefined;
  const resumes = SDK_SESSION_WORDS.some((re) => re.test(code)) ? "the SDK's `resume`" : undefined;
  return {
    command: record.command,
    client: "claude",
    spelling: "sdk",
    action: "session",
    guardOff: ["the Agent SDK's code decides which settings, hooks and permission checks its session has"],
    ...(resumes !== undefined && { resumes }),
  };
}

/**
 * Every answer a lanes hook gives, built in one place: the JSON shape Claude Code reads from a
 * hook's stdout (reference A.8, A.9; Agent SDK `SyncHookJSONOutput`) is written here only. A hook
 * prints one of these objects or nothing (`NO_OPINION`).
 *
 * | part       | JSON                                                   | who reads it                         |
 * |------------|--------------------------------------------------------|--------------------------------------|
 * | permission | `hookSpecificOutput.permissionDecision` + reason       | PreToolUse only: the call is denied or asked; the model reads the reason |
 * | context    | `hookSpecificOutput.additionalContext`                 | the model                            |
 * | message    | `systemMessage`                                        | the human only, never the model      |
 * | stop       | `continue: false` + `stopReason`                       | ends the loop after the current tool |
 * | block      | `decision: "block"` + `reason`                         | the event's action is refused (TaskCreated, TaskCompleted, UserPromptSubmit) or the agent goes on (SubagentStop) |
 */
import type { Env } from "../../host/env.ts";

/** What the hook process prints. */
export interface HookOutcome {
  /** Exactly one JSON object, or the empty string for "no opinion". */
  readonly stdout: string;
  /** Lines for stderr (never stdout). */
  readonly stderr: readonly string[];
  /** The kind of call, for the hook loader's code cache (lazy/loader.ts `reportProfile`). */
  readonly profile?: string;
}

/** What every hook is given by its entry (entries/entry.ts). */
export interface HookDeps {
  readonly env: Env;
  readonly now: () => Date;
  /** The built-in default policy shipped next to the hook (`dist/policy.default.json`). */
  readonly defaultPolicyPath: string;
  /** The directory the hook bundles run from, to tell users how to run the CLI (see cliCommandFor). */
  readonly distDir?: string;
}

/** The events whose `hookSpecificOutput` lanes writes. */
export type ContextEvent = "PreToolUse" | "PostToolUse" | "SessionStart" | "SubagentStart" | "UserPromptSubmit";

/** The parts of one answer; each is left out when absent. */
export interface ResponseParts {
  /** PreToolUse: deny or ask, with the reason the model reads. */
  readonly permission?: { readonly decision: "deny" | "ask"; readonly reason: string };
  /** Text for the model (`additionalContext`). */
  readonly context?: string;
  /** Text for the human only (`systemMessage`). */
  readonly message?: string;
  /** Ends the loop after the current tool, with this reason (`continue: false`). */
  readonly stop?: string;
}

/** The empty answer: no opinion. */
export const NO_OPINION = "";

/** One answer of `event`: the only place that writes the shape of `hookSpecificOutput`. */
export function respond(event: ContextEvent, parts: ResponseParts): string {
  const specific = {
    hookEventName: event,
    ...(parts.permission !== undefined && {
      permissionDecision: parts.permission.decision,
      permissionDecisionReason: parts.permission.reason,
    }),
    ...(parts.context !== undefined && { additionalContext: parts.context }),
  };
  return JSON.stringify({
    ...(parts.message !== undefined && parts.message !== "" && { systemMessage: parts.message }),
    ...(parts.stop !== undefined && { continue: false, stopReason: parts.stop }),
    hookSpecificOutput: specific,
  });
}

/** Refuses what the event is about (`decision: "block"`), telling why. */
export const block = (reason: string): string => JSON.stringify({ decision: "block", reason });

/** An outcome with nothing to print but the stderr lines gathered so far. */
export const quiet = (stderr: readonly string[]): HookOutcome => ({ stdout: NO_OPINION, stderr });

/**
 * Reading hook input on the hot path: JSON.parse and a structural check of the fields lanes uses
 * (no zod: schema construction costs more than the whole decision). The shapes follow the Agent
 * SDK's `HookInput` types; test/hooks checks fixtures and outputs against JSON Schemas generated
 * from those types.
 */

/** Fields common to every hook event that lanes reads. */
export interface BaseHookInput {
  readonly session_id: string;
  readonly cwd: string;
  readonly hook_event_name: string;
  readonly transcript_path?: string;
  readonly permission_mode?: string;
  /** Present only inside a subagent. */
  readonly agent_id?: string;
  /** Present inside a subagent, or on the main thread of a `--agent` session. */
  readonly agent_type?: string;
}

/** PreToolUse, PostToolUse and PostToolUseFailure input. */
export interface ToolHookInput extends BaseHookInput {
  readonly tool_name: string;
  readonly tool_input: Readonly<Record<string, unknown>>;
  readonly tool_use_id?: string;
  readonly tool_response?: unknown;
}

export type InputRead<T> = { readonly ok: true; readonly input: T } | { readonly ok: false; readonly message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const optionalString = (o: Record<string, unknown>, key: string): boolean =>
  o[key] === undefined || typeof o[key] === "string";

/** Parses any hook input and checks the common fields. */
export function readBaseInput(raw: string): InputRead<BaseHookInput & Record<string, unknown>> {
  if (raw.trim() === "") return { ok: false, message: "stdin was empty" };
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { ok: false, message: "stdin is not valid JSON" };
  }
  if (!isObject(data)) return { ok: false, message: "stdin is not a JSON object" };
  for (const key of ["session_id", "cwd", "hook_event_name"]) {
    if (typeof data[key] !== "string" || data[key] === "")
      return { ok: false, message: `\`${key}\` is missing or not a string` };
  }
  for (const key of ["agent_id", "agent_type", "transcript_path", "permission_mode"]) {
    if (!optionalString(data, key)) return { ok: false, message: `\`${key}\` is not a string` };
  }
  return { ok: true, input: data as BaseHookInput & Record<string, unknown> };
}

/** Parses tool-event input (PreToolUse, PostToolUse). */
export function readHookInput(raw: string): InputRead<ToolHookInput> {
  const base = readBaseInput(raw);
  if (!base.ok) return base;
  const data = base.input;
  if (typeof data["tool_name"] !== "string" || data["tool_name"] === "")
    return { ok: false, message: "`tool_name` is missing or not a string" };
  if (!isObject(data["tool_input"])) return { ok: false, message: "`tool_input` is missing or not an object" };
  return { ok: true, input: data as unknown as ToolHookInput };
}

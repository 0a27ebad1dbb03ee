/**
 * Turning Claude Code's task tools on at install. In 2.1.330 `TaskCreate`, `TaskGet`, `TaskList`
 * and `TaskUpdate` are disabled in non-interactive (`-p`, SDK) sessions unless
 * `CLAUDE_CODE_ENABLE_TODO_TOOLS=1` is set (observed: "TaskCreate is disabled for this session");
 * lanes' task channel needs them, so `lanes init` puts the variable into the project's
 * `.claude/settings.json` `env` — unless the user already set it, whatever the value. What lanes
 * added is recorded in `.claude/lanes/installed-env.json`, so an uninstall removes exactly that and
 * a user's own setting is never touched.
 */

/** The switch and its value. */
export const TASK_TOOLS_ENV: Readonly<Record<string, string>> = { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" };

/** Where the record lives, relative to `.claude/`. */
export const INSTALLED_ENV_FILE = "lanes/installed-env.json";

import { addMember, memberOf, parseJsonText, removeMember, type JsonNode } from "./json-text.ts";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function recorded(record: string | undefined): Record<string, string> {
  try {
    const data = JSON.parse(record ?? "") as unknown;
    return isObject(data) && isObject(data["env"])
      ? (Object.fromEntries(Object.entries(data["env"]).filter(([, v]) => typeof v === "string")) as Record<
          string,
          string
        >)
      : {};
  } catch {
    return {};
  }
}

/**
 * Adds the task-tools switch to merged settings text, as a text edit (json-text.ts): every other
 * byte is kept. Returns the new text and the record of what lanes set. Pure.
 */
export function enableTaskTools(
  settingsText: string,
  previousRecord: string | undefined,
): { settings: string; record: string } {
  const ours = recorded(previousRecord);
  const set: Record<string, string> = {};
  let text = settingsText;
  for (const [name, value] of Object.entries(TASK_TOOLS_ENV)) {
    const root = parseJsonText(text) as Extract<JsonNode, { kind: "object" }>;
    const env = memberOf(root, "env");
    if (env === undefined) {
      text = addMember(text, root, "env", { [name]: value });
      set[name] = value;
      continue;
    }
    if (env.kind !== "object") continue; // not ours to repair
    const current = memberOf(env, name);
    if (current === undefined) {
      text = addMember(text, env, name, value);
      set[name] = value;
    } else if (ours[name] !== undefined && JSON.parse(text.slice(current.start, current.end)) === ours[name]) {
      set[name] = ours[name]; // lanes set it on an earlier install
    }
  }
  return { settings: text, record: `${JSON.stringify({ env: set }, null, 2)}\n` };
}

/**
 * Removes what lanes set (per the record) from settings text, for an uninstall, as a text edit;
 * an `env` left empty goes too. Pure.
 */
export function disableTaskTools(settingsText: string, record: string | undefined): string {
  let text = settingsText;
  for (const [name, value] of Object.entries(recorded(record))) {
    const env = memberOf(parseJsonText(text), "env");
    const current = memberOf(env, name);
    if (env?.kind !== "object" || current === undefined) continue;
    if (JSON.parse(text.slice(current.start, current.end)) === value) text = removeMember(text, env, name);
  }
  const root = parseJsonText(text);
  const env = memberOf(root, "env");
  if (root.kind === "object" && env?.kind === "object" && env.members.length === 0 && text !== settingsText)
    text = removeMember(text, root, "env");
  return text;
}

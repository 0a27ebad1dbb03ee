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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function recorded(record: string | undefined): Record<string, string> {
  try {
    const data = JSON.parse(record ?? "") as unknown;
    return isObject(data) && isObject(data["env"]) ? (Object.fromEntries(Object.entries(data["env"]).filter(([, v]) => typeof v === "string")) as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Adds the task-tools switch to merged settings text; returns the new text and the record of what lanes set. Pure. */
export function enableTaskTools(settingsText: string, previousRecord: string | undefined): { settings: string; record: string } {
  const settings = JSON.parse(settingsText) as Record<string, unknown>;
  const env: Record<string, unknown> = isObject(settings["env"]) ? { ...settings["env"] } : {};
  const ours = recorded(previousRecord);
  const set: Record<string, string> = {};
  for (const [name, value] of Object.entries(TASK_TOOLS_ENV)) {
    if (env[name] === undefined) {
      env[name] = value;
      set[name] = value;
    } else if (ours[name] !== undefined && env[name] === ours[name]) {
      set[name] = ours[name]; // lanes set it on an earlier install
    }
  }
  const next = { ...settings, env };
  return { settings: `${JSON.stringify(next, null, 2)}\n`, record: `${JSON.stringify({ env: set }, null, 2)}\n` };
}

/** Removes what lanes set (per the record) from settings text, for an uninstall. Pure. */
export function disableTaskTools(settingsText: string, record: string | undefined): string {
  const settings = JSON.parse(settingsText) as Record<string, unknown>;
  if (!isObject(settings["env"])) return settingsText;
  const env = { ...settings["env"] };
  for (const [name, value] of Object.entries(recorded(record))) if (env[name] === value) delete env[name];
  const next: Record<string, unknown> = { ...settings, env };
  if (Object.keys(env).length === 0) delete next["env"];
  return `${JSON.stringify(next, null, 2)}\n`;
}

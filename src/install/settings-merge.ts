/**
 * Merging lanes' hook wiring into an existing `.claude/settings.json`: every existing key and
 * every other hook is kept; lanes' own handlers (recognised by their command path) are replaced,
 * never duplicated, so running `lanes init` twice changes nothing.
 */
import { LANES_MARKER, type HookGroup, type HookWiring } from "./wiring.ts";

export type MergeResult = { ok: true; text: string } | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const isLanesHandler = (handler: unknown): boolean =>
  isObject(handler) && typeof handler["command"] === "string" && handler["command"].includes(LANES_MARKER);

/** Returns the new settings text, or why the file cannot be merged safely. */
export function mergeHookSettings(existing: string | undefined, wiring: HookWiring, file: string): MergeResult {
  let settings: Record<string, unknown> = {};
  if (existing !== undefined && existing.trim() !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(existing);
    } catch {
      return {
        ok: false,
        message: `\`${file}\` is not valid JSON, so lanes will not rewrite it: fix it (or move it away) and run \`lanes init\` again`,
      };
    }
    if (!isObject(parsed))
      return { ok: false, message: `\`${file}\` is not a JSON object: fix it and run \`lanes init\` again` };
    settings = parsed;
  }
  const hooks = settings["hooks"] ?? {};
  if (!isObject(hooks))
    return { ok: false, message: `\`hooks\` in \`${file}\` is not an object: fix it and run \`lanes init\` again` };

  const merged: Record<string, unknown> = {};
  const events = [...new Set([...Object.keys(hooks), ...Object.keys(wiring)])];
  for (const event of events) {
    const current = hooks[event];
    const groups: unknown[] = Array.isArray(current) ? current : current === undefined ? [] : [current];
    const kept = groups
      .map((group) => {
        if (!isObject(group) || !Array.isArray(group["hooks"])) return group;
        return { ...group, hooks: group["hooks"].filter((h) => !isLanesHandler(h)) };
      })
      .filter((group) => !isObject(group) || !Array.isArray(group["hooks"]) || group["hooks"].length > 0);
    const ours: readonly HookGroup[] = wiring[event] ?? [];
    merged[event] = [...kept, ...ours];
  }
  const next = { ...settings, hooks: merged };
  return { ok: true, text: `${JSON.stringify(next, null, 2)}\n` };
}

/**
 * Merging lanes' hook wiring into an existing `.claude/settings.json`, as text (json-text.ts):
 * every other key, hook and byte is kept; lanes' own handlers (recognised by their command path)
 * are replaced, never duplicated, so running `lanes init` twice changes nothing, and
 * `lanes uninstall` ({@link removeHookSettings}) gives back the file byte for byte.
 *
 * A user's changed `timeout` or `matcher` on a lanes handler is kept, and reported.
 */
import { INIT_COMMAND } from "../host/version.ts";
import { addItem, addMember, memberOf, parseJsonText, removeItem, removeMember, type JsonNode } from "./json-text.ts";
import { LANES_MARKER, type HookGroup, type HookWiring } from "./wiring.ts";

/** What init created in settings.json, so that uninstall removes exactly that. */
export interface SettingsRecord {
  /** settings.json did not exist. */
  readonly createdFile: boolean;
  /** The `hooks` key did not exist. */
  readonly createdHooks: boolean;
  /** Events lanes added to `hooks`. */
  readonly createdEvents: readonly string[];
}

export type MergeResult =
  { ok: true; text: string; record: SettingsRecord; kept: string[] } | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const isLanesHandler = (handler: unknown): boolean =>
  isObject(handler) && typeof handler["command"] === "string" && handler["command"].includes(LANES_MARKER);

/** The entry file a lanes handler runs (`pre-tool-use.cjs`). */
const entryOf = (command: string): string => {
  const tail = command.slice(command.lastIndexOf(LANES_MARKER) + LANES_MARKER.length);
  return tail.endsWith('"') ? tail.slice(0, -1) : tail;
};

type Custom = { matcher?: unknown; timeout?: unknown };

/**
 * Removes one lanes handler (or a group holding only lanes handlers) from the text; returns
 * `undefined` when there is none left. `seen` collects the matcher and timeout each one had.
 */
function removeOneLanesHandler(text: string, seen?: Map<string, Custom>): string | undefined {
  const root = parseJsonText(text);
  const hooks = memberOf(root, "hooks");
  if (hooks?.kind !== "object") return undefined;
  const value = JSON.parse(text.slice(hooks.start, hooks.end)) as Record<string, unknown>;
  for (const member of hooks.members) {
    const groups = value[member.key];
    if (member.value.kind !== "array" || !Array.isArray(groups)) continue;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g] as unknown;
      if (!isObject(group) || !Array.isArray(group["hooks"])) continue;
      const handlers = group["hooks"] as unknown[];
      const h = handlers.findIndex(isLanesHandler);
      if (h === -1) continue;
      const handler = handlers[h] as Record<string, unknown>;
      seen?.set(`${member.key} ${entryOf(String(handler["command"]))}`, {
        matcher: group["matcher"],
        timeout: handler["timeout"],
      });
      if (handlers.every(isLanesHandler)) return removeItem(text, member.value, g);
      const groupNode = member.value.items[g];
      const inner = memberOf(groupNode, "hooks");
      if (inner?.kind === "array") return removeItem(text, inner, h);
    }
  }
  return undefined;
}

/** Removes every lanes handler. */
function withoutLanes(text: string, seen?: Map<string, Custom>): string {
  let current = text;
  for (let next = removeOneLanesHandler(current, seen); next !== undefined; next = removeOneLanesHandler(current, seen))
    current = next;
  return current;
}

function check(existing: string, file: string): { ok: true; root: JsonNode } | { ok: false; message: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(existing);
  } catch {
    return {
      ok: false,
      message: `\`${file}\` is not valid JSON, so lanes will not rewrite it: fix it (or move it away) and run \`${INIT_COMMAND}\` again`,
    };
  }
  if (!isObject(parsed))
    return { ok: false, message: `\`${file}\` is not a JSON object: fix it and run \`${INIT_COMMAND}\` again` };
  if (parsed["hooks"] !== undefined && !isObject(parsed["hooks"]))
    return {
      ok: false,
      message: `\`hooks\` in \`${file}\` is not an object: fix it and run \`${INIT_COMMAND}\` again`,
    };
  return { ok: true, root: parseJsonText(existing) };
}

/** Returns the new settings text, or why the file cannot be merged safely. `previous`: what an earlier init created. */
export function mergeHookSettings(
  existing: string | undefined,
  wiring: HookWiring,
  file: string,
  previous?: SettingsRecord,
): MergeResult {
  if (existing === undefined || existing.trim() === "") {
    return {
      ok: true,
      text: `${JSON.stringify({ hooks: wiring }, null, 2)}\n`,
      record: previous ?? { createdFile: true, createdHooks: true, createdEvents: Object.keys(wiring) },
      kept: [],
    };
  }
  const checked = check(existing, file);
  if (!checked.ok) return checked;
  const seen = new Map<string, Custom>();
  let text = withoutLanes(existing, seen);
  const kept: string[] = [];
  // a user's own timeout or matcher on a lanes handler is kept
  const adjusted: Record<string, HookGroup[]> = {};
  for (const [event, groups] of Object.entries(wiring)) {
    adjusted[event] = groups.map((group) => {
      const handler = group.hooks[0]!;
      const custom = seen.get(`${event} ${entryOf(handler.command)}`);
      if (custom === undefined) return group;
      let next: HookGroup = group;
      if (typeof custom.timeout === "number" && custom.timeout !== handler.timeout) {
        kept.push(
          `${event} ${entryOf(handler.command)}: kept your timeout ${custom.timeout} s (lanes writes ${handler.timeout})`,
        );
        next = { ...next, hooks: [{ ...handler, timeout: custom.timeout }] };
      }
      if (custom.matcher !== group.matcher && (typeof custom.matcher === "string" || custom.matcher === undefined)) {
        kept.push(
          `${event} ${entryOf(handler.command)}: kept your matcher ${JSON.stringify(custom.matcher ?? "")} (lanes writes ${JSON.stringify(group.matcher ?? "")})`,
        );
        const { matcher: _drop, ...rest } = next;
        next = custom.matcher === undefined ? rest : { ...rest, matcher: custom.matcher };
      }
      return next;
    });
  }
  const createdEvents = new Set(previous?.createdEvents ?? []);
  let createdHooks = previous?.createdHooks ?? false;
  let root = parseJsonText(text) as Extract<JsonNode, { kind: "object" }>;
  if (memberOf(root, "hooks") === undefined) {
    text = addMember(text, root, "hooks", adjusted);
    createdHooks = true;
    for (const event of Object.keys(adjusted)) createdEvents.add(event);
  } else {
    for (const [event, groups] of Object.entries(adjusted)) {
      for (const group of groups) {
        root = parseJsonText(text) as Extract<JsonNode, { kind: "object" }>;
        const hooks = memberOf(root, "hooks") as Extract<JsonNode, { kind: "object" }>;
        const list = memberOf(hooks, event);
        if (list === undefined) {
          text = addMember(text, hooks, event, [group]);
          createdEvents.add(event);
        } else if (list.kind === "array") text = addItem(text, list, group);
        else
          return {
            ok: false,
            message: `\`hooks.${event}\` in \`${file}\` is not a list: fix it and run \`${INIT_COMMAND}\` again`,
          };
      }
    }
  }
  return {
    ok: true,
    text,
    record: { createdFile: previous?.createdFile ?? false, createdHooks, createdEvents: [...createdEvents].sort() },
    kept,
  };
}

/**
 * Removes lanes' handlers, and the events, `hooks` key and file lanes created when they are now
 * empty. Returns the new text, or `undefined` when the file should be deleted.
 */
export function removeHookSettings(existing: string, record: SettingsRecord): string | undefined {
  let text = withoutLanes(existing);
  let root = parseJsonText(text);
  const hooks = memberOf(root, "hooks");
  if (hooks?.kind === "object") {
    for (const event of record.createdEvents) {
      const current = memberOf(memberOf(parseJsonText(text), "hooks"), event);
      if (current?.kind === "array" && current.items.length === 0)
        text = removeMember(
          text,
          memberOf(parseJsonText(text), "hooks") as Extract<JsonNode, { kind: "object" }>,
          event,
        );
    }
    root = parseJsonText(text);
    const after = memberOf(root, "hooks");
    if (record.createdHooks && after?.kind === "object" && after.members.length === 0 && root.kind === "object")
      text = removeMember(text, root, "hooks");
  }
  root = parseJsonText(text);
  if (record.createdFile && root.kind === "object" && root.members.length === 0) return undefined;
  return text;
}

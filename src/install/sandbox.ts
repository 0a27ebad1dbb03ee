/**
 * The second wall: Claude Code's own Bash sandbox (bubblewrap and socat on Linux, Seatbelt on
 * macOS), configured from lanes' policy. What the guard cannot see (a compiled binary, interpreter
 * code that computes its paths, a nested client with its hooks turned off) the kernel stops.
 *
 * `lanes init` and `lanes build` write the `sandbox` section of the project's `.claude/settings.json`:
 * - `enabled: true` (unless the policy says `options.sandbox: off`);
 * - `filesystem.denyWrite`: the guard zone (`.claude/lanes/` whole: bundles, definitions, base
 *   copies, install record, schemas, hook-only state), Claude Code's settings files and lanes'
 *   configuration files;
 * - `filesystem.denyRead`: the deny-read (zero-access, write-only) secrets of the policy that the
 *   sandbox can name without a wildcard (`.env`, `~/.ssh`, `~/.aws/credentials`, ...), and lanes'
 *   private store when there is one.
 *
 * Observed with 2.1.330 (test/e2e/sandbox.test.ts): a sandboxed write to a `denyWrite` path fails
 * with `Read-only file system`, a read of a `denyRead` file with `Permission denied`; `allowWrite`
 * cannot reopen a path under `denyWrite`; writes outside the project and `$TMPDIR` are refused
 * anyway; a missing bubblewrap or socat prints a warning and runs every command unsandboxed; a
 * `denyWrite` path that does not exist is `/dev/null` bound at its name, unreadable (EACCES), which
 * lanes' CLI reads as absent (src/host/sandbox-mask.ts).
 *
 * Merged as a text edit (json-text.ts), as the hook wiring is: a user's own `sandbox` keys are
 * kept (and reported when they differ from what lanes would write); lanes only adds entries, never
 * removes or loosens one, and records what it added in `.claude/lanes/installed-sandbox.json`, so
 * that an uninstall removes exactly that. Pure.
 */
import type { CompiledGlob } from "../globs/types.ts";
import type { CompiledPolicy, CompiledRule } from "../policy/compiled.ts";
import { addItem, addMember, memberOf, parseJsonText, removeItem, removeMember, type JsonNode } from "./json-text.ts";

/** Where the record lives, relative to `.claude/`. */
export const INSTALLED_SANDBOX_FILE = "lanes/installed-sandbox.json";

/** Guard-zone and configuration paths, as the sandbox reads them (relative to the project root). */
export const GUARD_ZONE_WRITES: readonly string[] = [
  "./.claude/lanes",
  "./.claude/settings.json",
  "./.claude/settings.local.json",
  "./.claude/lanes.yaml",
  "./.claude/lanes.local.yaml",
  "./.claude/lanes.test.yaml",
  "~/.claude/settings.json",
  "~/.claude/lanes.yaml",
];

/**
 * Secrets the policy denies reading that everyday tools read themselves: denying them in the
 * sandbox would break the tool (npm reads `~/.npmrc` on every run, Gradle and Maven their
 * settings). The guard still denies a command that reads them by name.
 */
export const READ_BY_TOOLS: readonly string[] = [
  "~/.npmrc",
  "~/.gradle/gradle.properties",
  "~/.m2/settings-security.xml",
];

/** What lanes wants in the `sandbox` section. */
export interface SandboxWanted {
  readonly enabled: boolean;
  readonly denyWrite: readonly string[];
  readonly denyRead: readonly string[];
  /** The policy's exceptions to its deny-read rules (`.env.example`, `~/.ssh/*.pub`). */
  readonly allowRead: readonly string[];
  /** Deny-read patterns the sandbox is not given (see {@link sandboxPath}), for doctor: the guard alone holds them. */
  readonly guardOnly: readonly string[];
}

const DENY_READ_ACCESS = new Set(["zero-access", "write-only", "no-read"]);

const hasWildcard = (glob: string): boolean => ["*", "?", "["].some((c) => glob.includes(c));

/**
 * A policy glob as the sandbox names it (observed: `~/x`, `/abs`, `./x` and `**` globs all work in
 * `denyRead`), or `undefined` when it is left to the guard: a wildcard in an absolute path (`/proc/<pid>/environ`
 * changes with every process) and what everyday tools read themselves ({@link READ_BY_TOOLS}).
 */
export function sandboxPath(glob: Pick<CompiledGlob, "anchor">, written: string): string | undefined {
  const bare = written.endsWith("/") && written.length > 1 ? written.slice(0, -1) : written;
  switch (glob.anchor) {
    case "home": {
      const path = bare.startsWith("~/") ? bare : `~/${bare}`;
      return READ_BY_TOOLS.includes(path) ? undefined : path;
    }
    case "absolute":
      return hasWildcard(bare) ? undefined : bare.startsWith("//") ? bare.slice(1) : bare;
    case "project":
      return bare.startsWith("./") ? bare : `./${bare.startsWith("/") ? bare.slice(1) : bare}`;
    case "basename-anywhere":
      // a bare name is matched in every folder of the project (the sandbox has no "anywhere on disk")
      return bare.startsWith("**/") ? bare : `**/${bare}`;
  }
}

/**
 * What the sandbox section should hold for this policy: deny-read entries from the policy's
 * `deny` path rules that forbid reading (and their exceptions as `allowRead`), guard-zone and
 * configuration writes denied. `privateDir`: lanes' private store outside the project, denied
 * for reading too, when there is one.
 */
export function wantedSandbox(
  policy: Pick<CompiledPolicy, "options" | "rules">,
  privateDir: string | undefined,
  home: string,
): SandboxWanted {
  const denyRead = new Set<string>();
  const allowRead = new Set<string>();
  const guardOnly = new Set<string>();
  for (const rule of policy.rules as readonly CompiledRule[]) {
    if (rule.effect !== "deny" || rule.match.kind !== "path" || !DENY_READ_ACCESS.has(rule.match.access)) continue;
    for (const glob of rule.match.patterns)
      for (const written of glob.globs) {
        const path = sandboxPath(glob, written);
        if (path === undefined) guardOnly.add(written);
        else denyRead.add(path);
      }
    for (const glob of rule.match.except)
      for (const written of glob.globs) {
        const path = sandboxPath(glob, written);
        if (path !== undefined) allowRead.add(path);
      }
  }
  if (privateDir !== undefined)
    denyRead.add(privateDir.startsWith(`${home}/`) ? `~/${privateDir.slice(home.length + 1)}` : privateDir);
  return {
    enabled: policy.options.sandbox === "on",
    denyWrite: GUARD_ZONE_WRITES,
    denyRead: [...denyRead].sort(),
    allowRead: [...allowRead].filter((p) => !denyRead.has(p)).sort(),
    guardOnly: [...guardOnly].sort(),
  };
}

/** The lists lanes adds to, as `sandbox.<group>.<key>`. */
const LISTS = [
  ["filesystem", "denyWrite"],
  ["filesystem", "denyRead"],
  ["filesystem", "allowRead"],
] as const;
type ListName = (typeof LISTS)[number][1];
type Group = (typeof LISTS)[number][0];

/** What lanes added to the settings' `sandbox` section, so that an uninstall removes exactly that. */
export interface SandboxRecord {
  /** Keys lanes created: `sandbox`, a group (`filesystem`), a list (`filesystem.denyRead`). */
  readonly created: readonly string[];
  /** lanes set `enabled: true`. */
  readonly enabled: boolean;
  /** Entries lanes added, by list. */
  readonly added: Readonly<Partial<Record<ListName, readonly string[]>>>;
}

const EMPTY_RECORD: SandboxRecord = { created: [], enabled: false, added: {} };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** The record of an earlier install (empty when there is none or it does not parse). */
export function readSandboxRecord(text: string | undefined): SandboxRecord {
  try {
    const data = JSON.parse(text ?? "") as unknown;
    if (!isObject(data)) return EMPTY_RECORD;
    const added = isObject(data["added"]) ? data["added"] : {};
    return {
      created: strings(data["created"]),
      enabled: data["enabled"] === true,
      added: Object.fromEntries(LISTS.map(([, key]) => [key, strings(added[key])]).filter(([, v]) => v!.length > 0)),
    };
  } catch {
    return EMPTY_RECORD;
  }
}

type ObjectNode = Extract<JsonNode, { kind: "object" }>;

const valueAt = (text: string, node: JsonNode): unknown => JSON.parse(text.slice(node.start, node.end));

/** Result of {@link mergeSandbox}: the settings text, the record (`undefined`: none), what was kept. */
export interface SandboxMerge {
  readonly settings: string;
  readonly record: string | undefined;
  /** What the user's settings keep against lanes' wish (reported by init). */
  readonly kept: readonly string[];
}

const wantedList = (wanted: SandboxWanted, key: ListName): readonly string[] => wanted[key];

/**
 * Adds lanes' sandbox entries to settings text, as text edits: a missing key is created, a list
 * gets the entries it lacks, a user's `enabled` is kept (and reported when it is not `true`). With
 * `wanted.enabled` false (the policy switched the sandbox off), what an earlier install added is
 * taken out and nothing is added. Pure.
 */
export function mergeSandbox(
  settingsText: string,
  wanted: SandboxWanted,
  previousRecord: string | undefined,
): SandboxMerge {
  const previous = readSandboxRecord(previousRecord);
  if (!wanted.enabled) return { settings: removeSandbox(settingsText, previous), record: undefined, kept: [] };
  let text = removeSandbox(settingsText, previous, { keepCreated: true });
  const created = new Set(previous.created);
  const kept: string[] = [];
  const sandboxNode = (): JsonNode | undefined => memberOf(parseJsonText(text), "sandbox");
  if (sandboxNode() === undefined) {
    text = addMember(text, parseJsonText(text) as ObjectNode, "sandbox", {});
    created.add("sandbox");
  }
  if (sandboxNode()?.kind !== "object")
    return {
      settings: settingsText,
      record: previousRecord,
      kept: ["`sandbox` is not an object: lanes left it alone"],
    };
  let enabled = previous.enabled;
  const current = memberOf(sandboxNode(), "enabled");
  if (current === undefined) {
    text = addMember(text, sandboxNode() as ObjectNode, "enabled", true);
    enabled = true;
  } else if (valueAt(text, current) !== true)
    kept.push(`kept your \`sandbox.enabled: ${JSON.stringify(valueAt(text, current))}\` (lanes writes true)`);
  const added: Partial<Record<ListName, string[]>> = {};
  for (const [group, key] of LISTS) {
    const entries = wantedList(wanted, key);
    if (entries.length === 0) continue;
    const groupNode = (): JsonNode | undefined => memberOf(sandboxNode(), group);
    if (groupNode() === undefined) {
      text = addMember(text, sandboxNode() as ObjectNode, group, {});
      created.add(group);
    }
    if (groupNode()?.kind !== "object") {
      kept.push(`\`sandbox.${group}\` is not an object: lanes added nothing to it`);
      continue;
    }
    if (memberOf(groupNode(), key) === undefined) {
      text = addMember(text, groupNode() as ObjectNode, key, []);
      created.add(`${group}.${key}`);
    }
    for (const entry of entries) {
      const list = memberOf(groupNode(), key);
      if (list?.kind !== "array") {
        kept.push(`\`sandbox.${group}.${key}\` is not a list: lanes added nothing to it`);
        break;
      }
      if ((valueAt(text, list) as unknown[]).includes(entry)) continue;
      text = addItem(text, list, entry);
      (added[key] ??= []).push(entry);
    }
  }
  const record: SandboxRecord = { created: [...created].sort(), enabled, added };
  return { settings: text, record: `${JSON.stringify(record, null, 2)}\n`, kept };
}

/**
 * Removes what lanes added (per the record) from settings text, for an uninstall or a policy that
 * turned the sandbox off; keys lanes created go when left empty (`keepCreated`: they stay, for a
 * re-merge). Pure.
 */
export function removeSandbox(
  settingsText: string,
  record: SandboxRecord,
  options: { keepCreated?: boolean } = {},
): string {
  let text = settingsText;
  const sandboxNode = (): JsonNode | undefined => memberOf(parseJsonText(text), "sandbox");
  if (sandboxNode()?.kind !== "object") return text;
  for (const [group, key] of LISTS) {
    for (const entry of record.added[key] ?? []) {
      const list = memberOf(memberOf(sandboxNode(), group), key);
      if (list?.kind !== "array") break;
      const index = (valueAt(text, list) as unknown[]).indexOf(entry);
      if (index !== -1) text = removeItem(text, list, index);
    }
  }
  if (options.keepCreated === true) return text;
  const enabled = memberOf(sandboxNode(), "enabled");
  if (record.enabled && enabled !== undefined && valueAt(text, enabled) === true)
    text = removeMember(text, sandboxNode() as ObjectNode, "enabled");
  const emptied = (node: JsonNode | undefined): boolean =>
    (node?.kind === "array" && node.items.length === 0) || (node?.kind === "object" && node.members.length === 0);
  for (const [group, key] of LISTS) {
    const groupNode = memberOf(sandboxNode(), group);
    if (record.created.includes(`${group}.${key}`) && emptied(memberOf(groupNode, key)))
      text = removeMember(text, groupNode as ObjectNode, key);
  }
  for (const group of new Set<Group>(LISTS.map(([g]) => g))) {
    if (record.created.includes(group) && emptied(memberOf(sandboxNode(), group)))
      text = removeMember(text, sandboxNode() as ObjectNode, group);
  }
  const root = parseJsonText(text);
  if (record.created.includes("sandbox") && emptied(sandboxNode()) && root.kind === "object")
    text = removeMember(text, root, "sandbox");
  return text;
}

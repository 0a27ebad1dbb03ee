/**
 * The keys of Claude Code's settings that decide whether lanes' guard runs, or that name programs
 * Claude Code runs (from the 2.1.330 `Settings` type of the Agent SDK and `claude --help`): one
 * table, read where a settings file is written (`src/policy/match.ts`, a write to the guard) and
 * where a nested client is given settings (`claude --settings`, `src/shell/handlers/clients.ts`).
 * Pure: it reads values, never files.
 */

/** One key (a dot path into the settings object) and what changing it does. */
export interface GuardKey {
  readonly path: string;
  /** What the key does, one lowercase clause. */
  readonly why: string;
  /**
   * In settings given to a nested client (`--settings`), the value turns lanes' guard off in that
   * session: any value but `false`, `null`, `[]` or `{}` (the value test is `offWhen` when set).
   */
  readonly off?: boolean;
  /** Only these values count (a permission mode that bypasses every check). */
  readonly values?: readonly string[];
}

// prettier-ignore
export const GUARD_KEYS: readonly GuardKey[] = [
  { path: "disableAllHooks", why: "it turns every hook off, lanes' guard included", off: true },
  { path: "allowManagedHooksOnly", why: "it runs only managed hooks, not lanes'", off: true },
  { path: "strictPluginOnlyCustomization", why: "it ignores the hooks of settings files, where lanes is wired", off: true },
  { path: "allowManagedPermissionRulesOnly", why: "it ignores every permission rule but the managed ones", off: true },
  { path: "hooks", why: "it changes the hooks, the commands Claude Code runs at every event (lanes' guard is one)" },
  { path: "permissions.defaultMode", why: "it makes the session bypass every permission check", values: ["bypassPermissions"], off: true },
  { path: "permissions.disableBypassPermissionsMode", why: "it lets sessions bypass every permission check" },
  { path: "skipDangerousModePermissionPrompt", why: "it bypasses permission checks without asking" },
  { path: "statusLine", why: "it names a command Claude Code runs" },
  { path: "subagentStatusLine", why: "it names a command Claude Code runs" },
  { path: "apiKeyHelper", why: "it names a command Claude Code runs" },
  { path: "proxyAuthHelper", why: "it names a command Claude Code runs" },
  { path: "awsCredentialExport", why: "it names a command Claude Code runs" },
  { path: "awsAuthRefresh", why: "it names a command Claude Code runs" },
  { path: "gcpAuthRefresh", why: "it names a command Claude Code runs" },
  { path: "otelHeadersHelper", why: "it names a command Claude Code runs" },
  { path: "fileSuggestion", why: "it names a command Claude Code runs" },
  { path: "processWrapper", why: "it names a command Claude Code runs its processes through" },
  { path: "policyHelper", why: "it names a command Claude Code runs" },
  { path: "enabledPlugins", why: "plugins bring hooks and commands Claude Code runs" },
  { path: "extraKnownMarketplaces", why: "it adds the sources plugins, with their hooks, come from" },
  { path: "prependPlugins", why: "plugins bring hooks and commands Claude Code runs" },
  { path: "appendPlugins", why: "plugins bring hooks and commands Claude Code runs" },
  { path: "enableAllProjectMcpServers", why: "it approves every MCP server of the project, programs Claude Code runs" },
  { path: "enabledMcpjsonServers", why: "it approves MCP servers, programs Claude Code runs" },
  { path: "sandbox", why: "it changes the sandbox that confines Bash commands" },
  { path: "agent", why: "it makes the main session run as another agent type, with that agent's lane" },
];

/**
 * Variables that switch lanes' guard off, or make Claude Code and its hooks run other programs,
 * when a settings file's `env` sets them (a hook runs `node` from `PATH`; the Bash tool runs
 * `SHELL` and sources `BASH_ENV`). `off`: also when given to a nested client's command
 * (`CLAUDE_CODE_SIMPLE=1 claude -p`), unless set to a false value.
 */
// prettier-ignore
export const GUARD_ENV: Readonly<Record<string, { readonly why: string; readonly off?: boolean }>> = {
  CLAUDE_CODE_SIMPLE: { why: "`CLAUDE_CODE_SIMPLE` (what `--bare` sets) skips every hook", off: true },
  CLAUDE_CODE_SAFE_MODE: { why: "`CLAUDE_CODE_SAFE_MODE` starts with hooks and plugins off", off: true },
  CLAUDE_CODE_RESTRICTED: { why: "`CLAUDE_CODE_RESTRICTED` ignores the settings files where lanes is wired", off: true },
  CLAUDE_CODE_PERSONAL_HOOKS_OFF: { why: "`CLAUDE_CODE_PERSONAL_HOOKS_OFF` turns the hooks of settings files off", off: true },
  CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG: { why: "`CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG` ignores personal configuration", off: true },
  CLAUDE_CODE_EVEN_MORE_DANGEROUSLY_SKIP_PERMISSIONS: { why: "`CLAUDE_CODE_EVEN_MORE_DANGEROUSLY_SKIP_PERMISSIONS` bypasses every permission check", off: true },
  CLAUDE_CODE_MANAGED_SETTINGS_PATH: { why: "`CLAUDE_CODE_MANAGED_SETTINGS_PATH` swaps the managed settings, which outrank the project's", off: true },
  CLAUDE_CODE_REMOTE_SETTINGS_PATH: { why: "`CLAUDE_CODE_REMOTE_SETTINGS_PATH` swaps the managed settings, which outrank the project's", off: true },
  LANES_FAILURE_MODE: { why: "`LANES_FAILURE_MODE` decides what lanes' hooks do when they fail", off: true },
  CLAUDE_CODE_SHELL: { why: "`CLAUDE_CODE_SHELL` names the shell every Bash command runs in" },
  CLAUDE_CODE_SHELL_PREFIX: { why: "`CLAUDE_CODE_SHELL_PREFIX` names a command every Bash command runs through" },
  CLAUDE_CONFIG_DIR: { why: "`CLAUDE_CONFIG_DIR` moves the user settings" },
  CLAUDE_PROJECT_DIR: { why: "`CLAUDE_PROJECT_DIR` tells lanes' hooks where the project is" },
  PATH: { why: "`PATH` decides which `node` runs lanes' hooks" },
  HOME: { why: "`HOME` moves the user settings and lanes' user policy" },
  SHELL: { why: "`SHELL` names the shell Bash commands run in" },
  BASH_ENV: { why: "`BASH_ENV` names a script every Bash command runs first" },
  ENV: { why: "`ENV` names a script shells run first" },
  NODE_OPTIONS: { why: "`NODE_OPTIONS` can load code into every node process" },
  LD_PRELOAD: { why: "`LD_PRELOAD` loads a library into every program" },
  LD_LIBRARY_PATH: { why: "`LD_LIBRARY_PATH` changes the libraries every program loads" },
  DYLD_INSERT_LIBRARIES: { why: "`DYLD_INSERT_LIBRARIES` loads a library into every program" },
  TMPDIR: { why: "`TMPDIR` decides where lanes lets agents write freely" },
  LANES_PROFILE: { why: "`LANES_PROFILE` names a file every lanes hook appends to" },
};

/** Values of a variable that count as off. */
const FALSE_VALUES = new Set(["", "0", "false", "no", "off"]);

/** True when a variable given to a nested client leaves its guard on (`CLAUDE_CODE_SIMPLE=0`, `LANES_FAILURE_MODE=closed`). */
export function envLeavesGuardOn(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.trim().toLowerCase();
  return name === "LANES_FAILURE_MODE" ? v !== "open" : FALSE_VALUES.has(v);
}

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

function at(value: Json, path: string): Json {
  let here: Json = value;
  for (const part of path.split(".")) {
    if (!isObject(here)) return undefined;
    here = Object.hasOwn(here, part) ? here[part] : undefined;
  }
  return here;
}

/** Deep equality of JSON values (key order does not count). */
function same(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => same(x, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => same(a[k], b[k]));
}

const setValue = (v: Json): boolean =>
  v !== undefined &&
  v !== null &&
  v !== false &&
  !(Array.isArray(v) && v.length === 0) &&
  !(isObject(v) && Object.keys(v).length === 0);

/** One guard change found: what it is, for messages. */
export interface GuardChange {
  /** The key (`disableAllHooks`, `env.PATH`). */
  readonly key: string;
  readonly why: string;
}

/**
 * The guard keys whose value differs between two versions of a settings file (parsed JSON;
 * `before` is `undefined` for a file that did not exist or could not be read): a key added,
 * changed or removed counts, a `values` key only when either side holds one of its values, an
 * `env` variable of {@link GUARD_ENV} like a key.
 */
export function guardChanges(before: Json, after: Json): GuardChange[] {
  const changes: GuardChange[] = [];
  for (const key of GUARD_KEYS) {
    const a = at(before, key.path);
    const b = at(after, key.path);
    if (same(a, b)) continue;
    if (key.values !== undefined && ![a, b].some((v) => typeof v === "string" && key.values!.includes(v))) continue;
    changes.push({ key: key.path, why: key.why });
  }
  const envBefore = at(before, "env");
  const envAfter = at(after, "env");
  for (const [name, spec] of Object.entries(GUARD_ENV))
    if (!same(at(envBefore, name), at(envAfter, name))) changes.push({ key: `env.${name}`, why: spec.why });
  return changes;
}

/**
 * Why settings given to a nested client (`claude --settings`) turn lanes' guard off in its
 * session: the `off` keys set to a value that counts, the `off` variables of its `env`.
 */
export function guardOffIn(settings: Json): GuardChange[] {
  if (!isObject(settings)) return [];
  const found: GuardChange[] = [];
  for (const key of GUARD_KEYS) {
    if (key.off !== true) continue;
    const v = at(settings, key.path);
    if (key.values !== undefined ? typeof v === "string" && key.values.includes(v) : setValue(v))
      found.push({ key: key.path, why: key.why });
  }
  const env = at(settings, "env");
  if (isObject(env))
    for (const [name, spec] of Object.entries(GUARD_ENV)) {
      if (spec.off !== true || !Object.hasOwn(env, name)) continue;
      const v = env[name];
      if (!envLeavesGuardOn(name, typeof v === "string" ? v : v === undefined || v === null ? undefined : String(v)))
        found.push({ key: `env.${name}`, why: spec.why });
    }
  return found;
}

/** The guard keys and variables named anywhere in a piece of settings text (an Edit's old or new string, when the file itself cannot be read). */
export function guardNamesIn(text: string): string[] {
  const names = [...GUARD_KEYS.map((k) => k.path.split(".").at(-1)!), ...Object.keys(GUARD_ENV)];
  return [...new Set(names.filter((name) => text.includes(`"${name}"`)))];
}

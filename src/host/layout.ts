/**
 * Where lanes keeps things in a repository it is installed into. One module, so that the
 * installer, the hooks, the runtime and the docs agree. Pure path arithmetic: no fs access.
 *
 * ```
 * .claude/
 *   settings.json              hook wiring (merged by `lanes init`)
 *   lanes.yaml                 team policy (committed)
 *   lanes.local.yaml           personal policy (git-ignored)
 *   lanes/agents/*.yaml        agent definitions (committed)
 *   lanes/skills/<id>/skill.yaml  skill definitions (committed)
 *   lanes/dist/*.mjs           the prebuilt hooks and CLI (committed, so a clone works without npm)
 *   agents/*.md                generated agents (committed)
 *   skills/<id>/SKILL.md       generated skills (committed)
 *   lanes/state/               hook-only state (git-ignored): compiled policy, audit log, agent
 *                              tree, violations, touches, conflicts, task store, claims, holds,
 *                              overrides, code cache, snapshots
 *   state/                     work state the CLI writes for agents (git-ignored): progress.json,
 *                              checkpoints, phases, handoffs
 *   memory/                    memory files (git-ignored)
 * ~/.claude/lanes.yaml         user-level policy (highest lanes layer)
 * ~/.claude/lanes/private/<id>/  what no tool may reach (0700): the human override's key and store
 * ```
 *
 * Two zones (README "Two zones"): the **guard zone** is `.claude/lanes/` whole (bundles,
 * definitions, base copies, install record, schemas, hook-only state) plus Claude Code's settings
 * files and lanes' configuration; only the hooks (which run outside the sandbox) and `lanes init`
 * write it, and the Bash sandbox denies every sandboxed command writing there (install/sandbox.ts).
 * The **work zone** is `state/` and `memory/`: what agents write through lanes' CLI.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { join } from "node:path";

/** The `.claude` directory of a project. */
export const claudeDir = (projectDir: string): string => join(projectDir, ".claude");

/** What the hooks kept in `.claude/state/` before the guard zone had a state folder of its own. */
export const LEGACY_HOOK_STATE: readonly string[] = [
  "policy.json",
  "policy-error.json",
  "audit.jsonl",
  "audit.1.jsonl",
  "agents.json",
  "violations",
  "touches.json",
  "conflicts",
  "tasks.json",
  "runs",
  "hold.json",
  "claims",
  "overrides.json",
  "cache",
  "snapshots",
];

const buildProjectPaths = (projectDir: string) => {
  const claude = claudeDir(projectDir);
  // hook-only state (guard zone) and the work state the CLI writes for agents (work zone)
  const state = join(claude, "lanes", "state");
  const workState = join(claude, "state");
  return {
    claude,
    settings: join(claude, "settings.json"),
    settingsLocal: join(claude, "settings.local.json"),
    policy: join(claude, "lanes.yaml"),
    policyLocal: join(claude, "lanes.local.yaml"),
    lanesDir: join(claude, "lanes"),
    agentDefinitions: join(claude, "lanes", "agents"),
    skillDefinitions: join(claude, "lanes", "skills"),
    dist: join(claude, "lanes", "dist"),
    agents: join(claude, "agents"),
    skills: join(claude, "skills"),
    gitignore: join(claude, ".gitignore"),
    state,
    workState,
    compiledPolicy: join(state, "policy.json"),
    audit: join(state, "audit.jsonl"),
    progress: join(workState, "progress.json"),
    agentTree: join(state, "agents.json"),
    violations: join(state, "violations"),
    touches: join(state, "touches.json"),
    conflicts: join(state, "conflicts"),
    checkpoints: join(workState, "checkpoints"),
    phases: join(workState, "phases"),
    handoffs: join(workState, "handoffs"),
    memory: join(claude, "memory"),
    /** Hook-only files of `.claude/state/` before they moved to `.claude/lanes/state/` (moved by init). */
    legacyHookState: LEGACY_HOOK_STATE.map((name) => join(workState, name)),
  };
};
export type ProjectPaths = Readonly<ReturnType<typeof buildProjectPaths>>;

let last: { readonly projectDir: string; readonly paths: ProjectPaths } | undefined;

/** The paths of a project's lanes files (the last project's are kept: a hook asks for them often). */
export const projectPaths = (projectDir: string): ProjectPaths => {
  if (last?.projectDir !== projectDir) last = { projectDir, paths: buildProjectPaths(projectDir) };
  return last.paths;
};

export const userPaths = (home: string) => ({
  claude: join(home, ".claude"),
  settings: join(home, ".claude", "settings.json"),
  policy: join(home, ".claude", "lanes.yaml"),
});

/** The directory of every project's private directory. */
export const privateRoot = (home: string): string => join(home, ".claude", "lanes", "private");

/**
 * A project's private directory, out of the project tree so that no directory-wide reader of the
 * project (`grep -r`, `tar`, `cp -r`, a link inside it) reaches it: `~/.claude/lanes/private/<id>`,
 * `<id>` the first 16 hex digits of SHA-256 of the project's real path (`realProjectDir`: the caller
 * resolves links, this module touches no disk).
 */
export const privateDir = (home: string, realProjectDir: string): string =>
  join(privateRoot(home), bytesToHex(sha256(utf8ToBytes(realProjectDir))).slice(0, 16));

/** Claude Code's managed settings files, by platform, in the order Claude Code reads them. */
export const managedSettingsPaths = (platform: NodeJS.Platform): readonly string[] => {
  if (platform === "darwin") return ["/Library/Application Support/ClaudeCode/managed-settings.json"];
  if (platform === "win32") return ["C:\\Program Files\\ClaudeCode\\managed-settings.json"];
  return ["/etc/claude-code/managed-settings.json"];
};

/** Directory of managed-settings drop-ins (`managed-settings.d/*.json`). */
export const managedSettingsDropInDir = (platform: NodeJS.Platform): string | undefined => {
  if (platform === "darwin") return "/Library/Application Support/ClaudeCode/managed-settings.d";
  if (platform === "win32") return undefined;
  return "/etc/claude-code/managed-settings.d";
};

/**
 * Where lanes runs: project root, home, temp directories and the Claude Code settings files.
 * I/O at the edge: reads the environment and a few directories.
 */
import { existsSync, readdirSync } from "node:fs";
import type * as Os from "node:os";
import { builtin } from "./builtin.ts";
import { dirname, join, resolve } from "node:path";
import { managedSettingsDropInDir, managedSettingsPaths, projectPaths } from "./layout.ts";
import { normalizePath, shownPath } from "./paths.ts";

export type Env = Readonly<Record<string, string | undefined>>;

/** Where a settings file sits in Claude Code's order. */
export type SettingsScope = "managed" | "user" | "project" | "local";

/** A settings file to read. */
export interface SettingsFile {
  readonly path: string;
  readonly scope: SettingsScope;
  readonly baseDir: string;
}

/**
 * The project root. Claude Code starts a session in a directory and reports it as
 * `CLAUDE_PROJECT_DIR`; started in a package of a monorepo, that is the package, while lanes may
 * be configured at the repository root (a plugin or user-level install fires its hooks there too).
 * So: the nearest directory, from `CLAUDE_PROJECT_DIR` (else the cwd) upwards, that holds lanes
 * configuration (`.claude/lanes.yaml` or `.claude/lanes/`); else, without `CLAUDE_PROJECT_DIR`, the
 * nearest holding `.claude/`, then `.git`; else the start directory. The home directory and its
 * ancestors never count: `~/.claude/` is the user's configuration, not a project.
 */
export function findProjectDir(cwd: string, env: Env): string {
  const fromEnv = env["CLAUDE_PROJECT_DIR"];
  const start = resolve(fromEnv !== undefined && fromEnv !== "" ? fromEnv : cwd);
  const home = homeOf(env);
  const search = (...markers: string[]): string | undefined => {
    for (let dir = start; ; dir = dirname(dir)) {
      if (dir === home || (home.startsWith(`${dir}/`) && dir !== start)) return undefined;
      if (markers.some((m) => existsSync(join(dir, m)))) return dir;
      if (dirname(dir) === dir) return undefined;
    }
  };
  const lanes = search(join(".claude", "lanes.yaml"), join(".claude", "lanes"));
  if (lanes !== undefined || (fromEnv !== undefined && fromEnv !== "")) return lanes ?? start;
  return search(".claude") ?? search(".git") ?? start;
}

/**
 * How a person (or the model) runs the lanes CLI of the install a hook runs from: relative to the
 * project when the hooks live inside it (`node .claude/lanes/dist/cli.mjs`), else by absolute path
 * (a plugin install). The Bash tool's environment has no `CLAUDE_PROJECT_DIR`, so no variable.
 */
export function cliCommandFor(distDir: string, projectDir: string): string {
  const cli = join(distDir, "cli.mjs");
  const rel = shownPath(cli, projectDir);
  return rel !== cli ? `node ${rel}` : `node "${cli}"`;
}

/**
 * `node:os` costs a hook process a fifth of a millisecond to load, and is needed only where `HOME`
 * is unset or on Windows (POSIX `tmpdir()` is `TMPDIR`, `TMP`, `TEMP` or `/tmp`, all listed below).
 */
const nodeOs = (): typeof Os => builtin<typeof Os>("node:os");

export function homeOf(env: Env): string {
  return resolve(env["HOME"] ?? nodeOs().homedir());
}

/** Directories where writing is never "outside the project". */
export function tempDirsOf(env: Env, home: string): string[] {
  const dirs = [
    "/tmp",
    "/var/tmp",
    "/private/tmp",
    "/private/var/folders",
    process.platform === "win32" ? nodeOs().tmpdir() : undefined,
    env["TMPDIR"],
    env["TMP"],
    env["TEMP"],
  ];
  const cwd = "/";
  return [
    ...new Set(
      dirs.filter((d): d is string => d !== undefined && d !== "").map((d) => normalizePath(d, { cwd, home })),
    ),
  ];
}

/** Claude Code's settings files, managed first. */
export function settingsFiles(
  projectDir: string,
  home: string,
  env: Env,
  platform: NodeJS.Platform = process.platform,
): SettingsFile[] {
  const files: SettingsFile[] = managedSettingsPaths(platform).map((path) => ({
    path,
    scope: "managed",
    baseDir: "/",
  }));
  const dropIns = managedSettingsDropInDir(platform);
  if (dropIns !== undefined && existsSync(dropIns)) {
    for (const entry of readdirSync(dropIns)
      .filter((e) => e.endsWith(".json"))
      .sort())
      files.push({ path: join(dropIns, entry), scope: "managed", baseDir: "/" });
  }
  const configDir = env["CLAUDE_CONFIG_DIR"] ?? join(home, ".claude");
  files.push({ path: join(configDir, "settings.json"), scope: "user", baseDir: home });
  const project = projectPaths(projectDir);
  files.push({ path: project.settings, scope: "project", baseDir: projectDir });
  files.push({ path: project.settingsLocal, scope: "local", baseDir: projectDir });
  return files;
}

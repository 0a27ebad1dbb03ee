/**
 * Where the project's git keeps what it runs: its hooks directory (the repository's `hooks/`, in
 * the common directory of a linked work tree, or the one `core.hooksPath` names in the repository's
 * or the user's configuration) and its configuration files. Read from disk at hook time with a few
 * small reads, never by running git (a hostile `core.fsmonitor` would run).
 */
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { Env } from "./env.ts";

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

/** The project's git directory and common directory (`.git`, or what a `.git` file of a linked work tree points at). */
export function gitDirs(projectDir: string): { readonly gitDir: string; readonly commonDir: string } | undefined {
  const dotGit = join(projectDir, ".git");
  if (!existsSync(dotGit)) return undefined;
  const file = read(dotGit);
  let gitDir = dotGit;
  if (file !== undefined) {
    const line = file.split("\n").find((l) => l.startsWith("gitdir:"));
    if (line === undefined) return undefined;
    const target = line.slice("gitdir:".length).trim();
    gitDir = isAbsolute(target) ? target : resolve(projectDir, target);
  }
  const common = read(join(gitDir, "commondir"))?.trim();
  const commonDir = common === undefined || common === "" ? gitDir : resolve(gitDir, common);
  return { gitDir, commonDir };
}

/**
 * The repository configuration git reads for `projectDir` when nothing else is configured (no
 * system or user file): the common directory's `config` and the work tree's `config.worktree`
 * (empty when absent), with the directories. `undefined` when `projectDir` holds no `.git`, a file
 * cannot be read, or one includes other files (`include`, `includeIf`): then only git can say.
 */
export function repositoryConfig(
  projectDir: string,
): { readonly gitDir: string; readonly commonDir: string; readonly texts: readonly string[] } | undefined {
  const dirs = gitDirs(projectDir);
  if (dirs === undefined) return undefined;
  const texts: string[] = [];
  for (const file of [join(dirs.commonDir, "config"), join(dirs.gitDir, "config.worktree")]) {
    let text = "";
    try {
      text = readFileSync(file, "latin1");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") return undefined;
    }
    if (text.toLowerCase().includes("include")) return undefined;
    texts.push(text);
  }
  return { ...dirs, texts };
}

/** `core.hooksPath` as a git configuration file sets it (the last one wins), without includes. */
export function hooksPathIn(text: string): string | undefined {
  let section = "";
  let found: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      section = line
        .slice(1, line.indexOf("]") < 0 ? undefined : line.indexOf("]"))
        .trim()
        .toLowerCase();
      continue;
    }
    const eq = line.indexOf("=");
    if (section !== "core" || eq < 0 || line.slice(0, eq).trim().toLowerCase() !== "hookspath") continue;
    let value = line.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    found = value;
  }
  return found;
}

/**
 * The directories whose hooks git runs for this project: the repository's `hooks/` and the
 * `core.hooksPath` of its configuration or the user's (relative paths are relative to the work
 * tree, `~/` to the home directory, as git reads them).
 */
export function gitHooksDirs(projectDir: string, home: string, env: Env): string[] {
  const dirs = gitDirs(projectDir);
  if (dirs === undefined) return [];
  const out = [join(dirs.commonDir, "hooks")];
  const configs = [
    join(home, ".gitconfig"),
    join(env["XDG_CONFIG_HOME"] ?? join(home, ".config"), "git", "config"),
    join(dirs.commonDir, "config"),
    join(dirs.gitDir, "config.worktree"),
  ];
  for (const config of configs) {
    const text = read(config);
    const path = text === undefined ? undefined : hooksPathIn(text);
    if (path === undefined || path === "" || path === "/dev/null") continue;
    out.push(path.startsWith("~/") ? join(home, path.slice(2)) : isAbsolute(path) ? path : resolve(projectDir, path));
  }
  return [...new Set(out)];
}

/**
 * The work tree's files with uncommitted changes, for a subagent's git command that moves them out
 * of the tree (policy/git-moves.ts): read once per call, and only when such a command is judged
 * (the evaluator calls the function lazily). Absolute paths; empty outside a git work tree or when
 * git fails (the git rules still judge the command itself).
 *
 * git runs without repository code it could be made to run: no fsmonitor, no hooks, no optional
 * locks, no untracked cache, no pager.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const SAFE = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.untrackedCache=false"];

function git(dir: string, args: readonly string[]): string | undefined {
  const result = spawnSync("git", [...SAFE, "--no-pager", "--no-optional-locks", "-C", dir, ...args], {
    encoding: "utf8",
    timeout: 3000,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" },
  });
  return result.error === undefined && result.status === 0 ? result.stdout : undefined;
}

/**
 * Paths of `git status --porcelain=v1 -z` (a rename as both its paths). Its own copy of
 * validation/worktree-snapshot.ts's parser: that module loads `node:crypto`, which the guard's
 * bundle does not.
 */
function porcelainPaths(out: string): string[] {
  const fields = out.split("\0");
  const paths: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    paths.push(field.slice(3));
    const status = field.slice(0, 2);
    if (status.includes("R") || status.includes("C")) {
      const from = fields[++i];
      if (from !== undefined && from !== "") paths.push(from);
    }
  }
  return paths;
}

/** A lazy, memoised reader of the dirty files of the work tree `projectDir` is in. */
export function dirtyFilesReader(projectDir: string): () => readonly string[] {
  let files: readonly string[] | undefined;
  return () => {
    if (files !== undefined) return files;
    const root = git(projectDir, ["rev-parse", "--show-toplevel"])?.trim();
    const out =
      root === undefined || root === ""
        ? undefined
        : git(root, ["status", "--porcelain=v1", "-z", "--untracked-files=all"]);
    files = root === undefined || out === undefined ? [] : porcelainPaths(out).map((p) => join(root, p));
    return files;
  };
}

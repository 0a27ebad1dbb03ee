/**
 * The work tree's files with uncommitted changes, for a subagent's git command that moves them out
 * of the tree (policy/git-moves.ts): read once per call, and only when such a command is judged
 * (the evaluator calls the function lazily). Absolute paths; empty outside a git work tree or when
 * git fails (the git rules still judge the command itself).
 *
 * git runs through lanes' safe runner (src/io/git.ts): no repository code (fsmonitor, hooks,
 * filters, pagers) runs, and no optional lock is taken.
 */
import { join } from "node:path";
import { gitText } from "../../io/git.ts";

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
    const top = gitText({ args: ["rev-parse", "--show-toplevel"], cwd: projectDir, timeoutMs: 3000 });
    const root = top.ok ? top.out.trim() : undefined;
    const status =
      root === undefined || root === ""
        ? undefined
        : gitText({ args: ["status", "--porcelain=v1", "-z", "--untracked-files=all"], cwd: root, timeoutMs: 3000 });
    const out = status?.ok === true ? status.out : undefined;
    files = root === undefined || out === undefined ? [] : porcelainPaths(out).map((p) => join(root, p));
    return files;
  };
}

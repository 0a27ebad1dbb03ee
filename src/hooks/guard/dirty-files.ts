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

/**
 * A lazy reader of the guard's files a checkout of `target` removes from the work tree
 * `projectDir` is in (policy/evaluate.ts, `withGuardRemovals`): those of `candidates` (absolute)
 * tracked at HEAD and absent in `target`, by one `git diff --diff-filter=D`. Empty when git fails
 * (an unknown target: the switch fails too) or outside a work tree.
 */
export function guardRemovalsReader(projectDir: string): (target: string, candidates: readonly string[]) => string[] {
  let root: string | undefined | null = null;
  return (target, candidates) => {
    if (root === null) {
      const top = gitText({ args: ["rev-parse", "--show-toplevel"], cwd: projectDir, timeoutMs: 3000 });
      root = top.ok && top.out.trim() !== "" ? top.out.trim() : undefined;
    }
    const top = root;
    if (top === undefined || target.startsWith("-")) return [];
    const rel = candidates.flatMap((c) => (c.startsWith(`${top}/`) ? [c.slice(top.length + 1)] : []));
    if (rel.length === 0) return [];
    const diff = gitText({
      args: ["diff", "--name-only", "-z", "--no-renames", "--diff-filter=D", "HEAD", target, "--", ...rel],
      cwd: top,
      timeoutMs: 3000,
    });
    if (!diff.ok) return [];
    return diff.out
      .split("\0")
      .filter((p) => p !== "")
      .map((p) => join(top, p));
  };
}

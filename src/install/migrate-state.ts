/**
 * Moving the hooks' own state out of `.claude/state/` (the work zone, which sandboxed commands may
 * write) into `.claude/lanes/state/` (the guard zone), for a repository installed before the move.
 * Run by `lanes init` before it compiles the policy; a file already in its new place wins.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { projectPaths } from "../host/layout.ts";
import { ensurePrivateDir } from "../io/atomic.ts";
import { ensureStateDir } from "../hooks/state/state-dir.ts";

/** Moves what is left at the old places; returns the names moved (for the init report). */
export function migrateHookState(projectDir: string): string[] {
  const paths = projectPaths(projectDir);
  const moved: string[] = [];
  for (const old of paths.legacyHookState) {
    if (!existsSync(old)) continue;
    const target = join(paths.state, basename(old));
    ensurePrivateDir(paths.state);
    ensureStateDir(paths.state);
    if (existsSync(target)) rmSync(old, { recursive: true, force: true });
    else renameSync(old, target);
    moved.push(basename(old));
  }
  return moved;
}

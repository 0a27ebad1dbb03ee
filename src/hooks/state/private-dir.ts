/**
 * The project's private directory (`~/.claude/lanes/private/<id>/`, src/host/layout.ts): where the
 * human override keeps its key and its store. Out of the project tree, 0700, and never reached
 * through a link: every directory from `~/.claude/lanes` down is checked with `lstat` to be a real
 * directory of this user, and files in it are opened with `O_NOFOLLOW`. Every tool's access to it,
 * by any path, is denied by rule `lanes.override` (src/policy/rules/paths.ts).
 */
import { constants, closeSync, fstatSync, lstatSync, mkdirSync, openSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { privateDir } from "../../host/layout.ts";
import { readToEnd } from "../../io/read.ts";

/** `O_NOFOLLOW` where the platform has it (not on Windows, where links need privileges to make). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

const ownedDir = (path: string): boolean => {
  try {
    const st = lstatSync(path);
    const uid = process.getuid?.();
    return st.isDirectory() && !st.isSymbolicLink() && (uid === undefined || st.uid === uid);
  } catch {
    return false;
  }
};

/** The project's real path (links resolved), or the path as given when it cannot be resolved. */
function realProject(projectDir: string): string {
  try {
    return realpathSync(projectDir);
  } catch {
    return projectDir;
  }
}

/** Where the private directory of a project is (nothing created). */
export const privateDirOf = (home: string, projectDir: string): string => privateDir(home, realProject(projectDir));

/**
 * The private directory of a project, created when `create` (mode 0700), or `undefined` when it is
 * missing or any of `~/.claude/lanes`, `private` or the project's directory is a link, not a
 * directory, or not this user's: lanes then keeps nothing private rather than writing through a link.
 */
export function openPrivateDir(home: string, projectDir: string, create: boolean): string | undefined {
  const dir = privateDirOf(home, projectDir);
  const chain = [dirname(dirname(dir)), dirname(dir), dir];
  if (create && !chain.every(ownedDir)) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      return undefined;
    }
  }
  return chain.every(ownedDir) ? dir : undefined;
}

/** A file of the private directory, read without following a link; `undefined` when missing or unreadable. */
export function readPrivateFile(dir: string, name: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(join(dir, name), constants.O_RDONLY | NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    return fstatSync(fd).isFile() ? readToEnd(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

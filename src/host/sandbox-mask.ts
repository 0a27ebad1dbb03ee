/**
 * What a file lanes reads looks like inside Claude Code's Bash sandbox when it does not exist.
 *
 * Observed with 2.1.330 on Linux: bubblewrap binds `/dev/null` over every write-denied path that
 * does not exist (`.claude/lanes.local.yaml`, `.claude/settings.local.json`, ...), so that nothing
 * in the sandbox can create it. Inside, such a path exists, as a character device, and opening it
 * fails with `EACCES` (the mount is `nodev`). A CLI command run from a sandboxed Bash call (a
 * skill's `lanes phase`, `lanes check`) must read it as the hooks, which run unsandboxed, do:
 * absent. Otherwise the compiled policy looks stale (a source that had no file has one) and the
 * compile in memory fails on the unreadable file.
 *
 * Only `/dev/null`'s own device counts, seen without following a link: a link to it, a FIFO or
 * another device at a source's name is not taken for a missing file.
 */
import { lstatSync, readFileSync, type Stats } from "node:fs";

let nullDevice: number | undefined | null = null;

/** The device number of `/dev/null`, read once when first needed; undefined where there is none. */
function nullRdev(): number | undefined {
  if (nullDevice === null) {
    try {
      const stat = lstatSync("/dev/null");
      nullDevice = stat.isCharacterDevice() ? stat.rdev : undefined;
    } catch {
      nullDevice = undefined;
    }
  }
  return nullDevice;
}

/** True when `stat` (an `lstat`) is the sandbox's mask of a missing file: `/dev/null`'s device. */
export function isSandboxMask(stat: Pick<Stats, "isCharacterDevice" | "rdev">): boolean {
  return stat.isCharacterDevice() && stat.rdev === nullRdev();
}

/** `lstat` of `path`, undefined when it does not exist or is the sandbox's mask of a missing file. */
export function presentStat(path: string): Stats | undefined {
  let stat: Stats | undefined;
  try {
    stat = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  return stat === undefined || isSandboxMask(stat) ? undefined : stat;
}

/** True when something is at `path` that is not the sandbox's mask of a missing file (`existsSync`, sandbox-aware). */
export function isPresent(path: string): boolean {
  return presentStat(path) !== undefined;
}

/** The text of an optional file: undefined when it does not exist or is the sandbox's mask; other errors throw. */
export function readOptionalText(path: string): string | undefined {
  if (!isPresent(path)) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

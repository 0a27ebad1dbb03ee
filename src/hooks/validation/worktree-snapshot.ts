/**
 * Evidence of what changed in the work tree while a subagent ran, independent of what the guard
 * saw: `git status` (tracked changes and untracked files, ignored files excluded) plus a content
 * hash of every path it lists, taken at SubagentStart and again at stop. A path whose state differs
 * between the two snapshots changed during the run — whoever wrote it: an Edit, a shell redirect,
 * a code generator or a build step. A moved HEAD (a commit during the run) adds the paths of the
 * commits in between.
 *
 * Bounded: at most `maxEntries` paths are hashed, files above `maxHashBytes` are identified by
 * size and modification time, and git gets `timeoutMs`. Outside a git repository there is no
 * snapshot; validation then relies on what lanes recorded (touches and decisions) alone.
 */
import type * as Crypto from "node:crypto";
import { builtin } from "../../host/builtin.ts";
import { closeSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { gitText } from "../../io/git.ts";
import { repositoryConfig } from "../../host/git-layout.ts";

/** The state of the dirty paths of a work tree at one moment. */
export interface WorktreeSnapshot {
  /** The repository's top-level directory: the paths are relative to it (the project may be a subdirectory). */
  readonly root: string;
  /** Commit at HEAD, or `null` in a repository without commits. */
  readonly head: string | null;
  /** Relative path → content fingerprint (`sha1:<hex>`, `stat:<size>:<mtime>`, `deleted`, `dir`). */
  readonly entries: Readonly<Record<string, string>>;
  /** More dirty paths than `maxEntries`: the rest were not fingerprinted. */
  readonly truncated: boolean;
}

/** One path that changed between two snapshots. */
export interface WorktreeChange {
  /** Path relative to the project root, `/`-separated. */
  readonly path: string;
  readonly change: "created" | "modified" | "deleted";
}

export interface SnapshotLimits {
  readonly maxEntries: number;
  /** Files above this size are fingerprinted by size and mtime. */
  readonly maxHashBytes: number;
  /** Bytes hashed per snapshot at most; past it, every further file is fingerprinted by size and mtime. */
  readonly maxTotalHashBytes: number;
  readonly timeoutMs: number;
}

export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = {
  maxEntries: 5000,
  maxHashBytes: 2_000_000,
  maxTotalHashBytes: 64_000_000,
  timeoutMs: 4000,
};

/** Git without the repository's programs (`src/io/git.ts`): a snapshot must not run a hostile fsmonitor or filter. */
function git(
  projectDir: string,
  args: readonly string[],
  timeoutMs: number,
): { ok: true; out: string } | { ok: false; message: string } {
  const result = gitText({ args, cwd: projectDir, timeoutMs, maxBuffer: 32 * 1024 * 1024 });
  return result.ok ? { ok: true, out: result.out } : result;
}

/** `node:crypto` costs 3-4 ms to load in a hook process: loaded by the first fingerprint, not by every task event. */
let loadedCrypto: typeof Crypto | undefined;
const nodeCrypto = (): typeof Crypto => (loadedCrypto ??= builtin<typeof Crypto>("node:crypto"));

/** A file's fingerprint: its content hash, or size and mtime when it is large. */
export function fingerprint(absPath: string, maxHashBytes: number): string {
  let stat;
  try {
    stat = statSync(absPath);
  } catch {
    return "deleted";
  }
  if (stat.isDirectory()) return "dir";
  if (stat.size > maxHashBytes) return `stat:${stat.size}:${Math.trunc(stat.mtimeMs)}`;
  const hash = nodeCrypto().createHash("sha1");
  const fd = openSync(absPath, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    let read = 0;
    while ((read = readSync(fd, buffer, 0, buffer.length, null)) > 0) hash.update(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return `sha1:${hash.digest("hex")}`;
}

const sizeOf = (absPath: string): number => {
  try {
    return statSync(absPath).size;
  } catch {
    return 0;
  }
};

/**
 * What `git status --porcelain=v2 -z --branch` lists: the commit at HEAD (`null` before the first
 * commit), the paths (a rename or copy as both of its paths), and which of them are untracked.
 * Each record ends with a NUL; a path is the rest of its record after a fixed number of fields
 * (spaces in it included), and a rename's source path is the record after it.
 */
export function parseStatusV2(out: string): { head: string | null; paths: string[]; untracked: Set<string> } {
  const records = out.split("\0");
  const paths: string[] = [];
  const untracked = new Set<string>();
  let head: string | null = null;
  /** The text after the first `fields` space-separated fields of `record`. */
  const after = (record: string, fields: number): string | undefined => {
    let at = 0;
    for (let i = 0; i < fields; i++) {
      at = record.indexOf(" ", at) + 1;
      if (at === 0) return undefined;
    }
    return record.slice(at);
  };
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    if (record.startsWith("# branch.oid ")) {
      const oid = record.slice("# branch.oid ".length).trim();
      head = /^[0-9a-f]{7,}$/.test(oid) ? oid : null;
      continue;
    }
    const kind = record[0];
    // ordinary (1), renamed or copied (2, its source next), unmerged (u), untracked (?); ignored (!) is never asked for
    const path =
      kind === "1"
        ? after(record, 8)
        : kind === "2"
          ? after(record, 9)
          : kind === "u"
            ? after(record, 10)
            : kind === "?"
              ? after(record, 1)
              : undefined;
    if (path === undefined || path === "") continue;
    paths.push(path);
    if (kind === "?") untracked.add(path);
    if (kind === "2") {
      const from = records[i + 1];
      if (from !== undefined && from !== "") paths.push(from);
      i++;
    }
  }
  return { head, paths, untracked };
}

/**
 * The top level of the work tree `projectDir` is, when it is one without asking git: `projectDir`
 * holds the `.git` (a repository directory, or the file of a linked work tree) and no `worktree`
 * setting moves the top level elsewhere. Git itself would stop at that `.git` and report the real
 * path of its directory. `undefined` when git must say (a subdirectory of a work tree, a
 * configured `core.worktree`, anything unexpected).
 */
export function ownTopLevel(projectDir: string): string | undefined {
  const config = repositoryConfig(projectDir);
  if (config === undefined || config.texts.some((text) => text.toLowerCase().includes("worktree"))) return undefined;
  try {
    // a repository directory has a HEAD; git does not take a directory without one for a repository
    return statSync(join(config.gitDir, "HEAD")).isFile() ? realpathSync(projectDir) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes a snapshot of `projectDir`'s work tree (fingerprinting the paths of `like` as `like` did);
 * an error message when it is not a git work tree or git fails. The top level is `like`'s (the
 * same project), else {@link ownTopLevel}'s, else git's: one git process in most projects.
 */
export function takeSnapshot(
  projectDir: string,
  limits: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS,
  like?: WorktreeSnapshot,
):
  | {
      ok: true;
      snapshot: WorktreeSnapshot;
      /**
       * Whether a path the snapshot lists is in git's index (the rest are untracked: `??`), from the
       * same listing; not stored with the snapshot.
       */
      tracked: (path: string) => boolean;
    }
  | { ok: false; message: string } {
  let root = like?.root ?? ownTopLevel(projectDir);
  if (root === undefined) {
    const top = gitText({
      args: ["rev-parse", "--show-toplevel"],
      cwd: projectDir,
      timeoutMs: limits.timeoutMs,
      maxBuffer: 1024 * 1024,
    });
    if (!top.ok) return { ok: false, message: top.message };
    root = top.out.split("\n")[0]!.trim();
    if (root === "") return { ok: false, message: "git found no top level of the work tree" };
  }
  // porcelain paths are relative to the top level whatever the directory git runs in; HEAD comes
  // with them (`--branch`), in the same process
  const status = git(
    root,
    ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--no-renames"],
    limits.timeoutMs,
  );
  if (!status.ok) return { ok: false, message: status.message };
  const listed = parseStatusV2(status.out);
  const paths = [...new Set(listed.paths)].sort();
  const entries: Record<string, string> = {};
  let budget = limits.maxTotalHashBytes;
  for (const path of paths.slice(0, limits.maxEntries)) {
    // a path of an earlier snapshot is fingerprinted the same way again, so the two compare like for like
    const before = like?.entries[path];
    const max =
      before?.startsWith("sha1:") === true
        ? Number.MAX_SAFE_INTEGER
        : before?.startsWith("stat:") === true
          ? -1
          : Math.min(limits.maxHashBytes, budget);
    const print = fingerprint(join(root, path), max);
    entries[path] = print;
    if (print.startsWith("sha1:")) budget -= sizeOf(join(root, path));
  }
  return {
    ok: true,
    snapshot: {
      root,
      head: listed.head,
      entries,
      truncated: paths.length > limits.maxEntries,
    },
    tracked: (path) => !listed.untracked.has(path),
  };
}

/** Paths changed by the commits between two HEADs (`git diff --name-status`, relative to the top level `root`), for a run that committed. */
export function committedChanges(
  root: string,
  from: string | null,
  to: string | null,
  limits: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS,
): WorktreeChange[] {
  if (from === to || to === null) return [];
  const args =
    from === null
      ? ["show", "--name-status", "--format=", "-z", to]
      : ["diff", "--name-status", "--no-renames", "-z", from, to];
  const result = git(root, args, limits.timeoutMs);
  if (!result.ok) return [];
  const fields = result.out.split("\0").filter((f) => f !== "");
  const changes: WorktreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const code = fields[i]!.trim();
    changes.push({ path: fields[i + 1]!, change: code === "A" ? "created" : code === "D" ? "deleted" : "modified" });
  }
  return changes;
}

/**
 * The paths whose state differs between `start` and `stop`. Pure. A path dirty only at stop
 * changed (created when it does not exist in HEAD's tree is unknown here, so an untracked new file
 * and a modified tracked file are told apart by `tracked`); a path dirty only at start was
 * reverted or committed; a path dirty at both changed when its fingerprint differs.
 */
export function diffSnapshots(
  start: WorktreeSnapshot,
  stop: WorktreeSnapshot,
  tracked: (path: string) => boolean = () => true,
): WorktreeChange[] {
  const changes: WorktreeChange[] = [];
  const paths = new Set([...Object.keys(start.entries), ...Object.keys(stop.entries)]);
  for (const path of [...paths].sort()) {
    const before = start.entries[path];
    const after = stop.entries[path];
    if (before === after) continue;
    if (after === undefined) {
      // clean at stop: the change of the start was undone (or committed: see committedChanges)
      changes.push({ path, change: before === "deleted" ? "created" : "modified" });
    } else if (after === "deleted") {
      changes.push({ path, change: "deleted" });
    } else if (before === undefined) {
      changes.push({ path, change: tracked(path) ? "modified" : "created" });
    } else {
      changes.push({ path, change: before === "deleted" ? "created" : "modified" });
    }
  }
  return changes;
}

/**
 * The top level `root` (a real path, as git reports it) spelled the way `projectDir` is, so that the
 * absolute paths built from it compare with the guard's (a project reached through a symlink, such
 * as macOS's `/tmp`, keeps its spelling). `root` itself when the spelling cannot be derived.
 */
export function rootAsSeenFrom(projectDir: string, root: string): string {
  let real: string;
  try {
    real = realpathSync(projectDir);
  } catch {
    return root;
  }
  if (real === root) return projectDir;
  if (!real.startsWith(`${root}/`)) return root;
  const sub = real.slice(root.length);
  return projectDir.endsWith(sub) ? projectDir.slice(0, projectDir.length - sub.length) : root;
}

/**
 * Whether a path relative to the top level `root` is tracked (for telling created from modified).
 * git lists the index on the first question only: most subagent stops ask none.
 */
export function trackedIn(root: string, limits: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS): (path: string) => boolean {
  let set: Set<string> | undefined;
  return (path) => {
    if (set === undefined) {
      const result = git(root, ["ls-files", "-z"], limits.timeoutMs);
      set = new Set(result.ok ? result.out.split("\0") : []);
    }
    return set.has(path);
  };
}

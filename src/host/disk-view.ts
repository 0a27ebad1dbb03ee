/**
 * A read-only view of the disk at hook time, for an analysis that wants to know what a path is
 * (a symlink made earlier, a script it runs, a Makefile or package.json whose commands it reads).
 * Every answer is bounded: each operation on the disk counts against `maxOperations` and every
 * byte read against `maxBytes`, so a call gets the same answer from the same disk however slow the
 * machine is, and an analysis cannot wander the file system. Past a bound, and where the disk
 * cannot say (no permission, a symlink loop), the answer is `undefined`: not known, which the
 * caller treats as it treats a run-time value. The view touches nothing until it is asked.
 *
 * `boundedDisk` puts the bounds and the path walk over a `DiskSource` (its primitive reads):
 * `realDisk` (src/host/disk.ts) reads the file system, the tests build one from a map of files and
 * links (test/helpers/disk.ts), and `NO_DISK` knows nothing (pure evaluations).
 */
import { posix } from "node:path";

/** What a path is, without following a final symlink (`lstat`). */
export type PathKind =
  | { readonly kind: "missing" }
  | { readonly kind: "file"; readonly size: number; readonly mode: number }
  | { readonly kind: "dir" }
  /** `target` as the link holds it (relative targets are relative to the link's directory). */
  | { readonly kind: "symlink"; readonly target: string }
  /** A FIFO, socket or device. */
  | { readonly kind: "other" };

/** A file's text as read, and whether the file holds more than was read. */
export interface FileText {
  readonly text: string;
  readonly truncated: boolean;
}

/** The read-only view of the disk an analysis may consult. Paths are absolute. */
export interface DiskView {
  /** What `path` is, not following a final symlink; `undefined` when it cannot tell. */
  kind(path: string): PathKind | undefined;
  /**
   * `path` with every symlink of its longest existing prefix resolved and the rest appended as
   * written (`/work/app/out/new.txt`, `out` a link to `/srv/out`: `/srv/out/new.txt`); `..` after a
   * link is the link target's parent, as the kernel reads it. `undefined` when it cannot tell (a
   * symlink loop, past the bound).
   */
  realpath(path: string): string | undefined;
  /**
   * The text of the regular file at `path`, at most `maxBytes` bytes of it. A symlink is not
   * followed (resolve the path with `realpath` first); a directory, a FIFO or a device is not read.
   * `undefined` for those, for a missing file and past the bound.
   */
  readText(path: string, maxBytes: number): FileText | undefined;
  /** What the view has used of its bounds; `exhausted` once an answer was refused for them. */
  readonly spent: { readonly operations: number; readonly bytes: number; readonly exhausted: boolean };
}

/** The primitive reads a view is built on; `undefined` where the disk cannot say. */
export interface DiskSource {
  lstat(path: string): PathKind | undefined;
  /** At most `maxBytes` of a regular file, never through a symlink. */
  read(path: string, maxBytes: number): FileText | undefined;
}

/** The bounds of one view (one hook call). */
export interface DiskBounds {
  /** Operations on the disk (one `lstat`, one read). */
  readonly maxOperations: number;
  /** Bytes read, over every file. */
  readonly maxBytes: number;
}

/**
 * Every path a call judges is resolved through the view (src/policy/resolve.ts): an `lstat` per
 * path component not seen before in the call, so the bound is a few per path, well above what an
 * everyday call needs and still a few milliseconds at most.
 */
export const DEFAULT_DISK_BOUNDS: DiskBounds = { maxOperations: 1024, maxBytes: 1 << 20 };

/** Symlinks followed in one `realpath` before it is a loop (Linux's own limit). */
const MAX_LINKS = 40;

/** Whether an absolute path is already normal: no empty, `.` or `..` component, no trailing slash. */
const isNormal = (path: string): boolean =>
  !path.includes("//") &&
  !path.includes("/./") &&
  !path.includes("/../") &&
  !path.endsWith("/.") &&
  !path.endsWith("/..") &&
  (path.length === 1 || !path.endsWith("/"));

/** `/a/b/../c/` → `/a/c`; `undefined` for a relative path. */
function absolute(path: string): string | undefined {
  if (!path.startsWith("/")) return undefined;
  // the walk asks of every prefix it builds, each already normal: no normalising pass for those
  if (isNormal(path)) return path;
  const normal = posix.normalize(path);
  return normal.length > 1 && normal.endsWith("/") ? normal.slice(0, -1) : normal;
}

const pieces = (path: string): string[] => path.split("/").filter((p) => p.length > 0);

/**
 * `path` with every symlink of its longest existing prefix resolved, as {@link DiskView.realpath}
 * says, asking `kind` what each prefix is (`lstat`): the one path walk, for a view and for callers
 * that put links of their own over one (src/policy/resolve.ts). `undefined` when `kind` cannot
 * tell or the links loop.
 */
export function walkRealpath(path: string, kind: (path: string) => PathKind | undefined): string | undefined {
  if (absolute(path) === undefined) return undefined;
  let resolved = "/";
  const pending = pieces(path);
  let links = 0;
  while (pending.length > 0) {
    const piece = pending.shift() as string;
    if (piece === ".") continue;
    if (piece === "..") {
      resolved = posix.dirname(resolved);
      continue;
    }
    // `resolved` is normal and `piece` a plain name: joined as `posix.join` would, without its pass
    const next = resolved === "/" ? `/${piece}` : `${resolved}/${piece}`;
    const found = kind(next);
    if (found === undefined) return undefined;
    switch (found.kind) {
      case "symlink":
        if (++links > MAX_LINKS) return undefined;
        pending.unshift(...pieces(found.target));
        if (found.target.startsWith("/")) resolved = "/";
        continue;
      case "dir":
        resolved = next;
        continue;
      case "missing":
      case "file":
      case "other":
        // nothing below it exists: the rest is a path as written
        return absolute(posix.join(next, ...pending));
    }
  }
  return resolved;
}

/** A view over `source` within `bounds`. */
export function boundedDisk(source: DiskSource, bounds: DiskBounds = DEFAULT_DISK_BOUNDS): DiskView {
  let operations = 0;
  let bytes = 0;
  let exhausted = false;
  const charge = (): boolean => {
    if (operations >= bounds.maxOperations) {
      exhausted = true;
      return false;
    }
    operations++;
    return true;
  };
  // what a path is, asked of the disk once per view: every resolution walks the same prefixes
  // (the project, its parents), and a path asked again costs no operation (a spent view answers
  // nothing, as before)
  const known = new Map<string, PathKind | undefined>();
  const kind = (path: string): PathKind | undefined => {
    const abs = absolute(path);
    if (abs === undefined || exhausted) return undefined;
    if (known.has(abs)) return known.get(abs);
    if (!charge()) return undefined;
    const found = source.lstat(abs);
    known.set(abs, found);
    return found;
  };
  return {
    kind,
    realpath: (path) => walkRealpath(path, kind),
    readText(path, maxBytes) {
      const abs = absolute(path);
      if (abs === undefined || !charge()) return undefined;
      const room = Math.min(maxBytes, bounds.maxBytes - bytes);
      if (room <= 0) {
        exhausted = true;
        return undefined;
      }
      const read = source.read(abs, room);
      if (read !== undefined) bytes += Buffer.byteLength(read.text);
      return read;
    },
    get spent() {
      return { operations, bytes, exhausted };
    },
  };
}

/** The view of a pure evaluation: nothing on disk is known. */
export const NO_DISK: DiskView = {
  kind: () => undefined,
  realpath: () => undefined,
  readText: () => undefined,
  spent: { operations: 0, bytes: 0, exhausted: false },
};

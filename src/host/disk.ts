/**
 * The real disk behind a `DiskView` (src/host/disk-view.ts): `lstat` and `readlink` for what a
 * path is, and reads that never follow a final symlink (`O_NOFOLLOW`) and never block on a FIFO
 * (`O_NONBLOCK`, then only a regular file is read). Nothing is read until the view is asked.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync } from "node:fs";
import { boundedDisk, DEFAULT_DISK_BOUNDS, type DiskBounds, type DiskSource, type DiskView } from "./disk-view.ts";

const errorCode = (error: unknown): string | undefined =>
  error instanceof Error && "code" in error ? String((error as NodeJS.ErrnoException).code) : undefined;

const FILE_SYSTEM: DiskSource = {
  lstat(path) {
    try {
      // a missing path is the common answer: no exception for it (each costs more than the call)
      const st = lstatSync(path, { throwIfNoEntry: false });
      if (st === undefined) return { kind: "missing" };
      if (st.isSymbolicLink()) return { kind: "symlink", target: readlinkSync(path) };
      if (st.isFile()) return { kind: "file", size: st.size, mode: st.mode & 0o7777 };
      if (st.isDirectory()) return { kind: "dir" };
      return { kind: "other" };
    } catch (error) {
      const code = errorCode(error);
      return code === "ENOENT" || code === "ENOTDIR" ? { kind: "missing" } : undefined;
    }
  },
  read(path, maxBytes) {
    let fd: number | undefined;
    try {
      // O_NOFOLLOW is 0 where the platform has none (Windows): the caller resolved the path already
      fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
      const st = fstatSync(fd);
      if (!st.isFile()) return undefined;
      const want = Math.min(st.size, maxBytes);
      const buffer = Buffer.alloc(want);
      let got = 0;
      while (got < want) {
        const n = readSync(fd, buffer, got, want - got, got);
        if (n === 0) break;
        got += n;
      }
      return { text: buffer.subarray(0, got).toString("utf8"), truncated: st.size > got };
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  },
};

/** A view of this machine's disk, bounded per hook call. */
export function realDisk(bounds: DiskBounds = DEFAULT_DISK_BOUNDS): DiskView {
  return boundedDisk(FILE_SYSTEM, bounds);
}

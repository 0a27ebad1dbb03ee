/**
 * A disk for tests: a `DiskView` (src/host/disk-view.ts) over a map of files and symlinks, with
 * the real view's bounds and path walk. Directories are the ancestors of what the map names.
 */
import { posix } from "node:path";
import {
  boundedDisk,
  type DiskBounds,
  type DiskSource,
  type DiskView,
  type PathKind,
} from "../../src/host/disk-view.ts";

/** A file's content, or its content and mode (`0o755` for a script, or the octal text `"0755"`). */
export type FakeFile = string | { readonly content: string; readonly mode?: number | string };

/** A mode given as a number or as octal text (`"0755"`, as YAML cases write it). */
const modeOf = (mode: number | string | undefined): number =>
  mode === undefined ? 0o644 : typeof mode === "number" ? mode : Number.parseInt(mode, 8);

export interface FakeDisk {
  /** Absolute path → content. */
  readonly files?: Readonly<Record<string, FakeFile>>;
  /** Absolute path of a symlink → its target as the link holds it. */
  readonly links?: Readonly<Record<string, string>>;
}

const contentOf = (f: FakeFile): string => (typeof f === "string" ? f : f.content);

/** The view of a fake disk. */
export function fakeDisk(disk: FakeDisk, bounds?: DiskBounds): DiskView {
  const files = new Map(Object.entries(disk.files ?? {}).map(([p, f]) => [posix.normalize(p), f]));
  const links = new Map(Object.entries(disk.links ?? {}).map(([p, t]) => [posix.normalize(p), t]));
  const dirs = new Set<string>(["/"]);
  for (const path of [...files.keys(), ...links.keys()])
    for (let d = posix.dirname(path); d !== "/"; d = posix.dirname(d)) dirs.add(d);
  const source: DiskSource = {
    lstat(path): PathKind {
      const link = links.get(path);
      if (link !== undefined) return { kind: "symlink", target: link };
      const file = files.get(path);
      if (file !== undefined)
        return {
          kind: "file",
          size: Buffer.byteLength(contentOf(file)),
          mode: typeof file === "string" ? 0o644 : modeOf(file.mode),
        };
      return dirs.has(path) ? { kind: "dir" } : { kind: "missing" };
    },
    read(path, maxBytes) {
      const file = files.get(path);
      if (file === undefined) return undefined;
      const bytes = Buffer.from(contentOf(file));
      return { text: bytes.subarray(0, maxBytes).toString("utf8"), truncated: bytes.length > maxBytes };
    },
  };
  return boundedDisk(source, bounds);
}

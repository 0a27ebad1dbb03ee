/**
 * The read-only disk view (src/host/disk-view.ts): what a path is, the real path of its existing
 * prefix and a file's text, over a fake disk and over the real one, each within its bounds.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { boundedDisk, NO_DISK } from "../../src/host/disk-view.ts";
import { realDisk } from "../../src/host/disk.ts";
import { fakeDisk } from "../helpers/disk.ts";

const disk = () =>
  fakeDisk({
    files: { "/work/app/run.sh": { content: "rm -rf dist\n", mode: 0o755 }, "/srv/data/a.txt": "héllo" },
    links: {
      "/work/app/out": "/srv/data",
      "/work/app/rel": "../app/out",
      "/work/app/loop": "/work/app/loop",
      "/work/app/script": "run.sh",
    },
  });

describe("a fake disk", () => {
  it.each([
    ["/work/app/run.sh", { kind: "file", size: 12, mode: 0o755 }],
    ["/work/app", { kind: "dir" }],
    ["/work/app/out", { kind: "symlink", target: "/srv/data" }],
    ["/work/app/nothing", { kind: "missing" }],
    ["/work/app/./out/", { kind: "symlink", target: "/srv/data" }],
    ["relative/path", undefined],
  ])("kind(%s) → %j", (path, expected) => {
    expect(disk().kind(path)).toEqual(expected);
  });

  it.each([
    ["/work/app/out/new.txt", "/srv/data/new.txt"],
    ["/work/app/rel/a.txt", "/srv/data/a.txt"],
    // `..` after a link is the link target's parent
    ["/work/app/out/../x", "/srv/x"],
    ["/work/app/script", "/work/app/run.sh"],
    ["/work/app/missing/../y", "/work/app/y"],
    ["/work/app/loop/x", undefined],
    ["/", "/"],
  ])("realpath(%s) → %s", (path, expected) => {
    expect(disk().realpath(path)).toBe(expected);
  });

  it("reads regular files only, never through a symlink, within the byte bound", () => {
    const d = disk();
    expect(d.readText("/work/app/run.sh", 100)).toEqual({ text: "rm -rf dist\n", truncated: false });
    expect(d.readText("/work/app/run.sh", 5)).toEqual({ text: "rm -r", truncated: true });
    expect(d.readText("/work/app/script", 100)).toBeUndefined();
    expect(d.readText("/work/app", 100)).toBeUndefined();
    expect(d.spent).toEqual({ operations: 4, bytes: 17, exhausted: false });
  });

  it("answers nothing past its operation bound, the same way every time", () => {
    const d = fakeDisk({ files: { "/a/b/c/d": "x" } }, { maxOperations: 3, maxBytes: 100 });
    expect(d.realpath("/a/b/c/d")).toBeUndefined();
    expect(d.kind("/a")).toBeUndefined();
    expect(d.spent).toEqual({ operations: 3, bytes: 0, exhausted: true });
  });

  it("asks the disk once per path: resolving paths under the same prefixes costs each prefix once", () => {
    const d = fakeDisk({ files: { "/a/b/c/d": "x", "/a/b/c/e": "y" } }, { maxOperations: 100, maxBytes: 100 });
    expect(d.realpath("/a/b/c/d")).toBe("/a/b/c/d");
    expect(d.spent.operations).toBe(4);
    expect(d.realpath("/a/b/c/e")).toBe("/a/b/c/e");
    expect(d.kind("/a/b")).toEqual({ kind: "dir" });
    expect(d.spent).toEqual({ operations: 5, bytes: 0, exhausted: false });
  });

  it("asks the disk of normal paths only, whatever the spelling, and once per path", () => {
    const asked: string[] = [];
    const view = boundedDisk({
      lstat: (path) => {
        asked.push(path);
        return path === "/w/l" ? { kind: "symlink", target: "../t/./" } : { kind: "dir" };
      },
      read: () => undefined,
    });
    const spellings = ["/w//a/./b/", "/w/a/b/.", "/w/a/c/../b", "//w/a/b//", "/w/l/x/..", "/w/./l/", "/w/a/b/..."];
    for (const path of spellings) {
      const expected = posix.normalize(path).replace(/(.)\/$/, "$1");
      expect(view.kind(path)).toEqual(view.kind(expected));
    }
    expect(view.realpath("/w/l/x/../y")).toBe("/t/y");
    expect(asked.every((p) => p === "/" || (posix.normalize(p) === p && !p.endsWith("/")))).toBe(true);
    expect(new Set(asked).size).toBe(asked.length);
  });

  it("stops reading at its byte bound over all files", () => {
    const d = fakeDisk({ files: { "/a": "12345", "/b": "67890" } }, { maxOperations: 10, maxBytes: 7 });
    expect([d.readText("/a", 100), d.readText("/b", 100), d.readText("/a", 100)]).toEqual([
      { text: "12345", truncated: false },
      { text: "67", truncated: true },
      undefined,
    ]);
    expect(d.spent.exhausted).toBe(true);
  });

  it("NO_DISK knows nothing", () => {
    expect([NO_DISK.kind("/"), NO_DISK.realpath("/x"), NO_DISK.readText("/x", 10)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("the real disk", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "lanes-disk-")));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, "data"));
  writeFileSync(join(root, "data", "f.txt"), "text");
  symlinkSync(join(root, "data"), join(root, "out"));
  symlinkSync("data/f.txt", join(root, "link.txt"));

  it("tells files, directories, links and missing paths apart, and resolves links", () => {
    const d = realDisk();
    expect(d.kind(join(root, "data", "f.txt"))).toMatchObject({ kind: "file", size: 4 });
    expect(d.kind(join(root, "data"))).toEqual({ kind: "dir" });
    expect(d.kind(join(root, "out"))).toEqual({ kind: "symlink", target: join(root, "data") });
    expect(d.kind(join(root, "none"))).toEqual({ kind: "missing" });
    expect(d.realpath(join(root, "out", "new", "x"))).toBe(join(root, "data", "new", "x"));
    expect(d.realpath(join(root, "link.txt"))).toBe(join(root, "data", "f.txt"));
  });

  it("reads a file, but not through a symlink and not a FIFO", () => {
    const d = realDisk();
    expect(d.readText(join(root, "data", "f.txt"), 100)).toEqual({ text: "text", truncated: false });
    expect(d.readText(join(root, "link.txt"), 100)).toBeUndefined();
    const fifo = join(root, "pipe");
    try {
      execFileSync("mkfifo", [fifo]);
    } catch {
      return; // no mkfifo here: the regular-file check is covered above
    }
    expect(d.kind(fifo)).toEqual({ kind: "other" });
    expect(d.readText(fifo, 100)).toBeUndefined();
  });
});

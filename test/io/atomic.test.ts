import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { atomicWriteFile, ensurePrivateDir, sweepStaleTemps } from "../../src/io/atomic.ts";
import { tempProject } from "../runtime/helpers.ts";

let cleanup: () => void = () => {};
afterEach(() => cleanup());
const fresh = (): string => {
  const p = tempProject();
  cleanup = p.cleanup;
  return p.dir;
};

describe("atomicWriteFile", () => {
  it("writes the content with mode 0600 and leaves no temporary file", () => {
    const dir = fresh();
    const file = join(dir, "state.json");
    atomicWriteFile(file, "one\n");
    atomicWriteFile(file, "two\n");
    expect(readFileSync(file, "utf8")).toBe("two\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual([".claude", "state.json"]);
  });

  it("writes bytes and honours a mode", () => {
    const dir = fresh();
    const file = join(dir, "data.bin");
    atomicWriteFile(file, new Uint8Array([1, 2, 3]), { mode: 0o644 });
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);
    expect(statSync(file).mode & 0o777).toBe(0o644);
  });

  it("throws, keeps the target and removes its temporary file when the rename fails", () => {
    const dir = fresh();
    const target = join(dir, "target");
    mkdirSync(join(target, "child"), { recursive: true });
    expect(() => atomicWriteFile(target, "x")).toThrow();
    expect(statSync(target).isDirectory()).toBe(true);
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("throws when the directory does not exist", () => {
    const dir = fresh();
    expect(() => atomicWriteFile(join(dir, "missing", "f.json"), "x")).toThrow(/ENOENT/);
  });
});

describe("ensurePrivateDir", () => {
  it("creates missing parents with mode 0700 and accepts an existing directory", () => {
    const dir = fresh();
    const nested = join(dir, "a", "b", "c");
    ensurePrivateDir(nested);
    ensurePrivateDir(nested);
    expect(statSync(nested).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "a")).mode & 0o777).toBe(0o700);
  });
});

describe("sweepStaleTemps", () => {
  it("removes temporaries of dead writers and old ones, and nothing else", () => {
    const dir = fresh();
    const target = join(dir, "progress.json");
    const now = Date.now();
    const make = (name: string, ageMs: number): void => {
      writeFileSync(join(dir, name), "partial");
      const t = (now - ageMs) / 1000;
      utimesSync(join(dir, name), t, t);
    };
    make(".progress.json.111.a.tmp", 5_000); // dead writer, old enough
    make(".progress.json.222.b.tmp", 200); // dead writer, just written: could still be renaming
    make(".progress.json.333.c.tmp", 200); // live writer
    make(".progress.json.333.d.tmp", 60_000); // live but far too old: left over
    make(".other.json.111.e.tmp", 5_000); // another file's temporary
    make("progress.json", 5_000);
    const alive = new Set([333]);
    const removed = sweepStaleTemps(target, { now, isAlive: (pid) => alive.has(pid) });
    expect(removed).toBe(2);
    expect(readdirSync(dir).sort()).toEqual([".claude", ".other.json.111.e.tmp", ".progress.json.222.b.tmp", ".progress.json.333.c.tmp", "progress.json"]);
  });
});

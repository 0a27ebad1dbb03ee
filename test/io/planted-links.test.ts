/**
 * lanes' own state never follows a link (issue 22): a symbolic link planted where a state file,
 * a lock or the state directory lives, pointing at a hook bundle, never makes lanes write into
 * the bundle or read from it. Each planted link is checked on disk: the bundle is intact.
 */
import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  lstatSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { atomicCreateFile, atomicWriteFile, ensureIgnoredDir, ensurePrivateDir } from "../../src/io/atomic.ts";
import { withLockSync } from "../../src/io/lock.ts";
import { readState, readStateIfAny } from "../../src/io/read.ts";

const BUNDLE = "module.exports = 'the hook';\n";
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A project with a hook bundle and a state directory. */
function project(): { state: string; bundle: string; root: string } {
  const root = mkdtempSync(join(tmpdir(), "lanes-planted-"));
  dirs.push(root);
  const dist = join(root, ".claude", "lanes", "dist");
  mkdirSync(dist, { recursive: true });
  const bundle = join(dist, "pre-tool-use.cjs");
  writeFileSync(bundle, BUNDLE);
  const state = join(root, ".claude", "state");
  mkdirSync(state, { recursive: true });
  return { state, bundle, root };
}

describe("a link planted at a state file's name", () => {
  it("atomicWriteFile replaces the link, never writes through it", () => {
    const { state, bundle } = project();
    const file = join(state, "denials.json");
    symlinkSync(bundle, file);
    atomicWriteFile(file, "{}\n");
    expect(readFileSync(bundle, "utf8")).toBe(BUNDLE);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("{}\n");
  });

  it("atomicCreateFile refuses the name a link holds", () => {
    const { state, bundle } = project();
    const file = join(state, "claim");
    symlinkSync(bundle, file);
    expect(() => atomicCreateFile(file, "x")).toThrow(expect.objectContaining({ code: "EEXIST" }));
    expect(readFileSync(bundle, "utf8")).toBe(BUNDLE);
  });

  it("a dangling link is not followed to create its target either", () => {
    const { state, root } = project();
    const file = join(state, "tasks.json");
    const target = join(root, ".claude", "settings.local.json");
    symlinkSync(target, file);
    atomicWriteFile(file, "{}\n");
    expect(() => lstatSync(target)).toThrow();
  });

  it("readState refuses a link, a directory and a FIFO, and reads a regular file", () => {
    const { state, bundle } = project();
    const link = join(state, "policy.json");
    symlinkSync(bundle, link);
    expect(() => readState(link)).toThrow(expect.objectContaining({ code: "ELOOP" }));
    expect(() => readState(state)).toThrow();
    const fifo = join(state, "overrides.json");
    try {
      execFileSync("mkfifo", [fifo]);
      // a read that followed would block here for ever
      expect(() => readState(fifo)).toThrow(expect.objectContaining({ code: "EINVAL" }));
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return; // no mkfifo here
      throw error;
    }
    writeFileSync(join(state, "real.json"), "{}");
    expect(readState(join(state, "real.json"))).toBe("{}");
    expect(readStateIfAny(join(state, "none.json"))).toBeUndefined();
  });

  it("withLockSync never takes a lock through a link at the lock's name, and writes nothing through it", () => {
    const { state, bundle } = project();
    const file = join(state, "progress.json");
    symlinkSync(bundle, `${file}.lock`);
    const result = withLockSync(file, () => atomicWriteFile(file, "{}\n"), { timeoutMs: 50, staleMs: 60_000 });
    expect(result.ok).toBe(false);
    expect(readFileSync(bundle, "utf8")).toBe(BUNDLE);
    expect(readlinkSync(`${file}.lock`)).toBe(bundle);
  });
});

describe("a link planted at the state directory", () => {
  it("ensurePrivateDir refuses it, so nothing is created where it points", () => {
    const { root } = project();
    const state = join(root, ".claude", "state2");
    symlinkSync(join(root, ".claude", "lanes", "dist"), state);
    expect(() => ensurePrivateDir(state)).toThrow(expect.objectContaining({ code: "ELOOP" }));
    expect(() => ensurePrivateDir(join(state, "cache"))).toThrow();
    ensureIgnoredDir(state, "state");
    expect(() => lstatSync(join(root, ".claude", "lanes", "dist", ".gitignore"))).toThrow();
  });

  it("withLockSync refuses a link as the locked file's directory", () => {
    const { root, bundle } = project();
    const state = join(root, ".claude", "state3");
    symlinkSync(join(root, ".claude", "lanes", "dist"), state);
    const result = withLockSync(join(state, "pre-tool-use.cjs"), () => "ran", { timeoutMs: 50 });
    expect(result.ok).toBe(false);
    expect(readFileSync(bundle, "utf8")).toBe(BUNDLE);
  });
});

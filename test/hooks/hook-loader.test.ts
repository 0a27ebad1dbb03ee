/** The hook loader's parts (src/hooks/lazy/hook-loader.ts), in process; the built loader is tested in loader-cache.test.ts. */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cacheDir, createLoader, decodeCache, encodeCache } from "../../src/hooks/lazy/hook-loader.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A project install's dist/ holding one wrapped bundle, `demo.impl.cjs`. */
function install(): { dist: string; cache: string } {
  const base = mkdtempSync(join(tmpdir(), "lanes-loader-"));
  dirs.push(base);
  const dist = join(base, ".claude", "lanes", "dist");
  mkdirSync(dist, { recursive: true });
  writeFileSync(
    join(dist, "demo.impl.cjs"),
    "(function (exports, require, module, __filename, __dirname) { exports.dir = __dirname; exports.sep = require('node:path').sep; })",
  );
  return { dist, cache: join(base, ".claude", "lanes", "state", "cache") };
}

const config = { name: "demo", ids: { demo: "id1" }, maxProfiles: 2 };
const profiles = (cache: string): string[][] =>
  readdirSync(cache).map((f) => decodeCache(readFileSync(join(cache, f))).seen);

describe("the hook loader", () => {
  it.each([
    [{ CLAUDE_PLUGIN_DATA: "/data/lanes" }, "/x/.claude/lanes/dist", "/data/lanes/cache"],
    [{}, "/x/.claude/lanes/dist", "/x/.claude/lanes/state/cache"],
    [{}, "/somewhere/dist", undefined],
  ])("keeps its caches in %j for %s", (env, dist, expected) => {
    expect(cacheDir(env, dist)).toBe(expected);
  });

  it("reads back the cache files it writes, and refuses anything else", () => {
    const data = Buffer.from([1, 2, 3]);
    expect(decodeCache(encodeCache(["pre:Read:main:quiet"], data))).toEqual({ seen: ["pre:Read:main:quiet"], data });
    expect(() => decodeCache(Buffer.from("\u0007garbage"))).toThrow();
    expect(() => decodeCache(encodeCache([], data).fill(0x7b, 4, 5))).toThrow();
  });

  it("runs a bundle once with the loader's require and directory, and grows its cache by each new kind of call", () => {
    const { dist, cache } = install();
    const first = createLoader(config, dist, {}, createRequire(import.meta.url));
    const exports = first.load("demo") as { dir: string; sep: string };
    expect(exports).toEqual({ dir: dist, sep: "/" });
    expect(first.load("demo")).toBe(exports);
    first.finish("a");
    expect(profiles(cache)).toEqual([["a"]]);

    const again = createLoader(config, dist, {}, createRequire(import.meta.url));
    again.load("demo");
    again.finish("a");
    expect(profiles(cache)).toEqual([["a"]]);
    again.finish("b");
    expect(profiles(cache)).toEqual([["a", "b"]]);

    const full = createLoader(config, dist, {}, createRequire(import.meta.url));
    full.load("demo");
    full.finish("c");
    expect(profiles(cache)).toEqual([["a", "b"]]);
  });

  describe("never through a link planted in the state directory", () => {
    const BUNDLE = "module.exports = 'the hook';\n";
    const cacheName = (cache: string) => join(cache, `demo-id1-${process.version}-${process.arch}.v8`);
    const plant = () => {
      const { dist, cache } = install();
      const bundle = join(dist, "pre-tool-use.cjs");
      writeFileSync(bundle, BUNDLE);
      return { dist, cache, bundle };
    };

    it("replaces a link at the cache's name, never writes into what it points at", () => {
      const { dist, cache, bundle } = plant();
      mkdirSync(cache, { recursive: true });
      symlinkSync(bundle, cacheName(cache));
      const loader = createLoader(config, dist, {}, createRequire(import.meta.url));
      loader.load("demo");
      loader.finish("a");
      expect(readFileSync(bundle, "utf8")).toBe(BUNDLE);
      expect(lstatSync(cacheName(cache)).isSymbolicLink()).toBe(false);
    });

    it("refuses a link at its temporary file's name", () => {
      const { dist, cache, bundle } = plant();
      mkdirSync(cache, { recursive: true });
      symlinkSync(bundle, `${cacheName(cache)}.${process.pid}.tmp`);
      const loader = createLoader(config, dist, {}, createRequire(import.meta.url));
      loader.load("demo");
      loader.finish("a");
      expect(readFileSync(bundle, "utf8")).toBe(BUNDLE);
    });

    it("writes no cache into a cache or state directory that is a link", () => {
      for (const linked of ["cache", "state"] as const) {
        const { dist, cache, bundle } = plant();
        if (linked === "cache") {
          mkdirSync(join(cache, ".."), { recursive: true });
          symlinkSync(dist, cache);
        } else symlinkSync(dist, join(cache, ".."));
        const loader = createLoader(config, dist, {}, createRequire(import.meta.url));
        loader.load("demo");
        loader.finish("a");
        expect(readFileSync(bundle, "utf8")).toBe(BUNDLE);
        expect(readdirSync(dist).sort()).toEqual(["demo.impl.cjs", "pre-tool-use.cjs"]);
      }
    });
  });
});

/**
 * Glob hints (compile.ts `hintOf`) only skip misses: with and without them, every glob matches the
 * same paths. Globs: every path glob of the built-in rules and the pack's agent lanes, and patterns
 * chosen to break a careless hint; paths: a witness of every glob (its wildcards filled in, so it
 * matches), in both cases, plus near misses.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { compilePathGlob, compilePathGlobs, hintOf } from "../../src/globs/compile.ts";
import { matchPath } from "../../src/globs/match.ts";
import type { CompiledGlob } from "../../src/globs/types.ts";
import { WHOLE_CORPUS_TIMEOUT } from "../helpers/corpus.ts";
import { HOME, PROJECT, testPolicy } from "../helpers/guard.ts";

const policy = testPolicy();
const fromRules = policy.rules.flatMap((r) =>
  r.match.kind === "path" ? [...r.match.patterns, ...r.match.except].flatMap((g) => g.globs) : [],
);
const agentsDir = join(import.meta.dirname, "..", "..", "definitions", "agents");
const fromAgents = readdirSync(agentsDir)
  .filter((f) => f.endsWith(".yaml"))
  .flatMap((f) => {
    const d = parse(readFileSync(join(agentsDir, f), "utf8")) as { owns?: string[]; does_not_own?: unknown[] };
    return [...(d.owns ?? []), ...(d.does_not_own ?? []).flatMap((x) => (typeof x === "string" ? [x] : []))];
  });
const tricky = [
  "**/.env",
  ".env",
  ".env.*",
  "*.pem",
  "~/.ssh/",
  "~",
  "//etc/passwd",
  "src/**/*.ts",
  "ID_RSA*",
  "docs/",
  "*.{pem,key}",
  "!(foo)",
  "!secret",
  "a?b/c",
  "**",
  ".",
  "secrets/**/prod-*.json",
  "[Ss]ecrets/x",
  "x\\*y",
  "**/node_modules/**",
  "Makefile",
  "build-+(a)",
  "@types/**",
];
const globs = [...new Set([...fromRules, ...fromAgents, ...tricky])];

/** A path the glob matches (its wildcards filled in), under the root its anchor names. */
function witnesses(glob: string): string[] {
  let g = glob.trim();
  let root = PROJECT;
  if (g.startsWith("//")) [root, g] = ["", g.slice(1)];
  else if (g.startsWith("~")) [root, g] = [HOME, g.slice(1)];
  const fill = (deep: string) =>
    g
      .replace(/^\//, "")
      .replaceAll("**", deep)
      .replaceAll("*", "x")
      .replaceAll("?", "q")
      .replace(/\{([^,}]*)[^}]*\}/g, "$1")
      .replace(/\/$/, "/inside");
  return [fill(""), fill("deep/dir")].flatMap((p) => {
    const path = `${root}/${p}`.replace(/\/+/g, "/").replace(/\/$/, "");
    return [path, path.toUpperCase(), path.toLowerCase(), `${path}x`, `${PROJECT}/a/${p}`, `${HOME}/${p}`];
  });
}
const paths = [...new Set(globs.flatMap(witnesses))];
const roots = (caseInsensitive: boolean) => ({ projectDir: PROJECT, home: HOME, caseInsensitive });
const unhinted = (g: CompiledGlob): CompiledGlob => ({ ...g, hints: undefined });

describe("glob hints", () => {
  it("cover the rules and lanes, and most globs have one", () => {
    expect(globs.length).toBeGreaterThan(60);
    const hinted = globs.filter((g) => compilePathGlob(g, { caseInsensitive: false }).hints !== undefined);
    expect(hinted.length / globs.length).toBeGreaterThan(0.6);
  });

  // every glob against every witness path: as long as a whole-corpus test
  it.each([false, true])(
    "never change a match (case-insensitive: %s)",
    { timeout: WHOLE_CORPUS_TIMEOUT },
    (caseInsensitive) => {
      const compiled = [
        ...globs.map((g) => compilePathGlob(g, { caseInsensitive })),
        ...compilePathGlobs(globs, { caseInsensitive }),
        ...compilePathGlobs(fromRules, { caseInsensitive }),
      ];
      let matches = 0;
      for (const glob of compiled)
        for (const path of paths) {
          const expected = matchPath(unhinted(glob), path, roots(caseInsensitive));
          expect(matchPath(glob, path, roots(caseInsensitive)), `${glob.globs.join(",")} ${path}`).toBe(expected);
          if (expected) matches++;
        }
      // the witnesses do match: the equality above is not only over misses
      expect(matches).toBeGreaterThan(compiled.length);
    },
  );

  it("are left out where a literal could be optional or would filter nothing", () => {
    for (const pattern of [
      "*.{pem,key}",
      "!(foo)",
      "!secret",
      "[Ss]ecrets",
      "x\\*y",
      "**",
      ".",
      "a",
      "..",
      "caf\u00e9",
    ])
      expect(hintOf(pattern, false), pattern).toBeUndefined();
    expect(hintOf("**/.env", false)).toBe(".env");
    expect(hintOf("secrets/**/prod-*.json", true)).toBe("secrets");
    expect(hintOf("ID_RSA*", true)).toBe("id_rsa");
  });
});

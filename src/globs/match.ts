/**
 * Matching compiled globs on the hot path: plain `RegExp`, cached per glob.
 */
import type { CompiledGlob } from "./types.ts";
import { relativeWithin } from "../host/paths.ts";

const cache = new Map<string, RegExp>();

function regex(glob: CompiledGlob): RegExp {
  const key = `${glob.flags}/${glob.source}`;
  let re = cache.get(key);
  if (re === undefined) {
    re = new RegExp(glob.source, glob.flags);
    cache.set(key, re);
  }
  return re;
}

/** Where a path is matched from. */
export interface GlobRoots {
  readonly projectDir: string;
  readonly home: string;
  readonly caseInsensitive: boolean;
}

/** True when the normalised absolute path `abs` matches `glob`. */
export function matchPath(glob: CompiledGlob, abs: string, roots: GlobRoots): boolean {
  // every path the glob matches holds one of its literal pieces (compile.ts `hintOf`)
  if (glob.hints !== undefined) {
    const text = glob.flags.includes("i") ? abs.toLowerCase() : abs;
    if (!glob.hints.some((hint) => text.includes(hint))) return false;
  }
  const re = regex(glob);
  switch (glob.anchor) {
    case "absolute":
      return re.test(abs);
    case "project": {
      const rel = relativeWithin(abs, roots.projectDir, roots.caseInsensitive);
      return rel !== undefined && re.test(rel);
    }
    case "home": {
      const rel = relativeWithin(abs, roots.home, roots.caseInsensitive);
      return rel !== undefined && re.test(rel);
    }
    case "basename-anywhere":
      // gitignore: a pattern without a slash matches a file or directory at any depth, and a
      // matched directory covers everything inside it.
      return abs.split("/").some((segment) => segment !== "" && re.test(segment));
  }
}

/** True when `name` matches a name glob (tool names). */
export function matchName(glob: CompiledGlob, name: string): boolean {
  return regex(glob).test(name);
}

/** Globs for a message: each in backticks, comma-separated. */
export const showGlobs = (globs: readonly CompiledGlob[]): string =>
  globs
    .flatMap((g) => g.globs)
    .map((g) => `\`${g}\``)
    .join(", ");

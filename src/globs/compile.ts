/**
 * Glob compilation, at build time only: picomatch turns each glob into a regular expression whose
 * source is stored in the compiled policy, so the hook matches with `RegExp` and never loads a
 * glob library.
 *
 * Path patterns follow Claude Code's permission-rule convention, so users keep one mental model:
 * `//abs/path` is absolute, `~/path` is under the home directory, `/path` and `dir/path` are
 * relative to the project root, and a bare name without a slash (`.env`, `*.pem`) matches at any
 * depth, anywhere. A trailing `/` means the directory and everything in it.
 */
import picomatch from "picomatch";
import type { CompiledGlob } from "./types.ts";

export interface GlobOptions {
  readonly caseInsensitive: boolean;
  /**
   * Whether `*` matches a leading dot (default true). Shell globs do not (`rm *` leaves `.env`
   * alone); rule patterns and tool-input globs are treated as if they do.
   */
  readonly dot?: boolean;
}

/** Compiles a path glob of a policy, an agent definition or a settings rule. */
export function compilePathGlob(glob: string, options: GlobOptions): CompiledGlob {
  let pattern = glob.trim();
  let anchor: CompiledGlob["anchor"];
  if (pattern.startsWith("//")) {
    anchor = "absolute";
    pattern = pattern.slice(1);
  } else if (pattern === "~" || pattern.startsWith("~/")) {
    anchor = "home";
    pattern = pattern === "~" ? "." : pattern.slice(2);
  } else if (pattern.startsWith("/")) {
    anchor = "project";
    pattern = pattern.slice(1);
  } else if (pattern.startsWith("./")) {
    anchor = "project";
    pattern = pattern.slice(2);
  } else if (!pattern.replace(/\/+$/, "").includes("/")) {
    anchor = "basename-anywhere";
  } else {
    anchor = "project";
  }
  if (pattern.endsWith("/")) pattern = `${pattern}**`;
  if (pattern === "") pattern = "**";
  const re = picomatch.makeRe(pattern, { dot: options.dot ?? true, nocase: options.caseInsensitive });
  const hint = hintOf(pattern, options.caseInsensitive);
  return { globs: [glob], source: re.source, flags: re.flags, anchor, ...(hint !== undefined && { hints: [hint] }) };
}

/** Characters with a meaning in picomatch patterns beyond those `hintOf` splits at or refuses. */
const GLOB_SYNTAX = /[!@+|,]/;

/**
 * The longest literal piece of one path segment of `pattern`, which every path the pattern
 * matches contains (the hook skips building a rule's expression for a path holding none of its
 * pieces: most paths meet no secret or lane glob). Segments are split at `/` because `**` may
 * stand for no directory at all (a `**` segment before `.env` also matches `.env` alone). None for
 * patterns whose syntax could make a literal optional (braces, classes, extglobs, escapes, a
 * leading `!`), or whose longest piece is not plain ASCII (case folding beyond ASCII differs
 * between `toLowerCase` and the `i` flag), a lone character or dots, which would filter nothing.
 */
export function hintOf(pattern: string, caseInsensitive: boolean): string | undefined {
  if (pattern.startsWith("!") || /[[\]{}()\\]/.test(pattern)) return undefined;
  const pieces = pattern.split(/[/*?]/).filter((p) => p !== "" && !GLOB_SYNTAX.test(p));
  const longest = pieces.reduce<string | undefined>(
    (a, b) => (a === undefined || b.length > a.length ? b : a),
    undefined,
  );
  if (longest === undefined || longest.length < 2 || /^\.+$/.test(longest) || !/^[\x20-\x7e]+$/.test(longest))
    return undefined;
  return caseInsensitive ? longest.toLowerCase() : longest;
}

/** Compiles a name glob (tool names such as `mcp__github__*`): `*` matches any characters. */
export function compileNameGlob(glob: string): CompiledGlob {
  const re = picomatch.makeRe(glob, { dot: true, noglobstar: true, nobrace: true, noextglob: true });
  return { globs: [glob], source: re.source.replace(/\[\^\/\]/g, "."), flags: "", anchor: "absolute" };
}

/**
 * Compiles several path globs into as few regular expressions as possible: one per anchor, the
 * alternatives joined. Matching a rule then costs one `RegExp` per anchor instead of one per glob,
 * which matters on the hot path where every regular expression is compiled afresh.
 */
export function compilePathGlobs(globs: readonly string[], options: GlobOptions): CompiledGlob[] {
  const byAnchor = new Map<CompiledGlob["anchor"], CompiledGlob[]>();
  for (const glob of globs) {
    const compiled = compilePathGlob(glob, options);
    byAnchor.set(compiled.anchor, [...(byAnchor.get(compiled.anchor) ?? []), compiled]);
  }
  return [...byAnchor.values()].map((group) =>
    group.length === 1
      ? group[0]!
      : {
          globs: group.flatMap((g) => g.globs),
          source: group.map((g) => g.source).join("|"),
          flags: group[0]!.flags,
          anchor: group[0]!.anchor,
          ...(group.every((g) => g.hints !== undefined) && { hints: group.flatMap((g) => g.hints!) }),
        },
  );
}

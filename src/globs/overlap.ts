/**
 * Whether two path globs can match a common path: the question behind `owned-path-overlap`.
 *
 * Globs follow the convention of `src/globs/compile.ts` (Claude Code's permission rules): `/x` and
 * `dir/x` are relative to the project root, a bare name without a slash matches a file or directory
 * at any depth (and everything inside a matched directory), a trailing `/` means the directory and
 * everything in it, `//abs` and `~/x` are outside the project. Within a segment `*`, `?`, `[...]`
 * and `{a,b}` are understood; anything more exotic is treated as `*`, which can only report more
 * overlaps, never fewer.
 */

type Segment = { kind: "globstar" } | { kind: "pattern"; tokens: Token[] };
type Token =
  | { kind: "char"; char: string }
  | { kind: "any" }
  | { kind: "star" }
  | { kind: "class"; negated: boolean; ranges: [string, string][] };

/** Expands `{a,b}` alternatives (nested allowed), at most 64 results. */
function expandBraces(glob: string): string[] {
  const open = glob.indexOf("{");
  if (open === -1) return [glob];
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let i = open; i < glob.length; i++) {
    const c = glob[i];
    if (c === "{") depth++;
    else if (c === "}") {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    } else if (c === "," && depth === 1) commas.push(i);
  }
  if (close === -1 || commas.length === 0) return [glob];
  const head = glob.slice(0, open);
  const tail = glob.slice(close + 1);
  const bounds = [open, ...commas, close];
  const out: string[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    for (const rest of expandBraces(`${head}${glob.slice(bounds[i]! + 1, bounds[i + 1])}${tail}`)) {
      if (out.length < 64) out.push(rest);
    }
  }
  return out;
}

function tokenize(segment: string, lower = true): Token[] {
  const low = (c: string): string => (lower ? c.toLowerCase() : c);
  const tokens: Token[] = [];
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === "*") {
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
    } else if (c === "?") tokens.push({ kind: "any" });
    else if (c === "\\" && i + 1 < segment.length) tokens.push({ kind: "char", char: low(segment[++i]!) });
    else if (c === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end === -1) {
        tokens.push({ kind: "char", char: c });
        continue;
      }
      let body = segment.slice(i + 1, end);
      const negated = body.startsWith("!") || body.startsWith("^");
      if (negated) body = body.slice(1);
      if (body.includes("[:")) tokens.push({ kind: "any" });
      else {
        const ranges: [string, string][] = [];
        for (let j = 0; j < body.length; j++) {
          if (body[j + 1] === "-" && j + 2 < body.length) {
            ranges.push([low(body[j]!), low(body[j + 2]!)]);
            j += 2;
          } else ranges.push([low(body[j]!), low(body[j]!)]);
        }
        tokens.push({ kind: "class", negated, ranges });
      }
      i = end;
    } else if ("+@!".includes(c) && segment[i + 1] === "(") {
      // extglob: over-approximate the whole rest of the segment
      tokens.push({ kind: "star" });
      return tokens;
    } else tokens.push({ kind: "char", char: low(c) });
  }
  return tokens;
}

/** Glob → list of segment sequences (several when braces or a bare name expand). `undefined`: outside the project. */
function toSequences(glob: string, options: { lower?: boolean; bareAsFile?: boolean } = {}): Segment[][] | undefined {
  let pattern = glob.trim();
  if (pattern.startsWith("//") || pattern === "~" || pattern.startsWith("~/")) return undefined;
  let floating = false;
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  else if (pattern.startsWith("./")) pattern = pattern.slice(2);
  else if (!pattern.replace(/\/+$/, "").includes("/")) floating = true;
  if (pattern.endsWith("/")) pattern = `${pattern}**`;
  if (pattern === "") pattern = "**";
  const out: Segment[][] = [];
  for (const expanded of expandBraces(pattern)) {
    const segments: Segment[] = expanded
      .split("/")
      .filter((s) => s !== "")
      .map((s) =>
        s === "**" ? { kind: "globstar" } : { kind: "pattern", tokens: tokenize(s, options.lower ?? true) },
      );
    if (floating) {
      // a bare name matches a file or a directory at any depth, and a matched directory covers its content
      out.push([{ kind: "globstar" }, ...segments]);
      if (options.bareAsFile !== true) out.push([{ kind: "globstar" }, ...segments, { kind: "globstar" }]);
    } else out.push(segments);
  }
  return out;
}

function tokenAccepts(token: Token, char: string): boolean {
  switch (token.kind) {
    case "char":
      return token.char === char;
    case "any":
    case "star":
      return true;
    case "class": {
      const inside = token.ranges.some(([lo, hi]) => char >= lo && char <= hi);
      return token.negated ? !inside : inside;
    }
  }
}

/** Alphabet to try when two tokens meet: the characters the tokens name plus one character nobody names. */
function candidates(a: Token, b: Token): string[] {
  const chars = new Set<string>(["\u0001"]);
  for (const token of [a, b]) {
    if (token.kind === "char") chars.add(token.char);
    if (token.kind === "class") for (const [lo, hi] of token.ranges) chars.add(lo).add(hi);
  }
  return [...chars];
}

/** Whether two segment patterns (no `/`) can match one common, non-empty segment. */
function segmentsIntersect(a: Token[], b: Token[]): boolean {
  // product automaton over positions; `star` may stay (consume) or be skipped (epsilon)
  const seen = new Set<string>();
  const stack: [number, number, boolean][] = [[0, 0, false]];
  while (stack.length > 0) {
    const [i, j, consumed] = stack.pop()!;
    const key = `${i},${j},${consumed}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === a.length && j === b.length && consumed) return true;
    if (a[i]?.kind === "star") stack.push([i + 1, j, consumed]);
    if (b[j]?.kind === "star") stack.push([i, j + 1, consumed]);
    const ta = a[i];
    const tb = b[j];
    if (ta === undefined || tb === undefined) continue;
    for (const c of candidates(ta, tb)) {
      if (!tokenAccepts(ta, c) || !tokenAccepts(tb, c)) continue;
      stack.push([ta.kind === "star" ? i : i + 1, tb.kind === "star" ? j : j + 1, true]);
    }
  }
  return false;
}

function sequencesIntersect(a: Segment[], b: Segment[]): boolean {
  const seen = new Set<string>();
  const stack: [number, number, boolean][] = [[0, 0, false]];
  while (stack.length > 0) {
    const [i, j, consumed] = stack.pop()!;
    const key = `${i},${j},${consumed}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === a.length && j === b.length && consumed) return true;
    const sa = a[i];
    const sb = b[j];
    if (sa?.kind === "globstar") stack.push([i + 1, j, consumed]);
    if (sb?.kind === "globstar") stack.push([i, j + 1, consumed]);
    if (sa === undefined || sb === undefined) continue;
    if (sa.kind === "globstar" && sb.kind === "globstar") stack.push([i, j, true]);
    else if (sa.kind === "globstar" && sb.kind === "pattern") stack.push([i, j + 1, true]);
    else if (sa.kind === "pattern" && sb.kind === "globstar") stack.push([i + 1, j, true]);
    else if (sa.kind === "pattern" && sb.kind === "pattern" && segmentsIntersect(sa.tokens, sb.tokens))
      stack.push([i + 1, j + 1, true]);
  }
  return false;
}

/** True when some path inside the project matches both globs (case-insensitively, to be safe). */
export function globsOverlap(a: string, b: string): boolean {
  const left = toSequences(a);
  const right = toSequences(b);
  if (left === undefined || right === undefined) return false;
  return left.some((x) => right.some((y) => sequencesIntersect(x, y)));
}

/** The character a witness uses where a wildcard is free: no glob names it, so a literal in another glob never matches it. */
const FRESH = "\u0001";

/** One name (no `/`) that both segment patterns match, if any: a product walk like {@link segmentsIntersect}. */
function commonName(a: Token[], b: Token[]): string | undefined {
  const seen = new Set<string>();
  const stack: [number, number, string][] = [[0, 0, ""]];
  while (stack.length > 0) {
    const [i, j, text] = stack.pop()!;
    const key = `${i},${j},${text !== ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === a.length && j === b.length && text !== "") return text;
    const ta = a[i];
    const tb = b[j];
    if (ta !== undefined && tb !== undefined)
      for (const c of candidates(ta, tb)) {
        if (!tokenAccepts(ta, c) || !tokenAccepts(tb, c)) continue;
        stack.push([ta.kind === "star" ? i : i + 1, tb.kind === "star" ? j : j + 1, text + c]);
      }
    // pushed last, tried first: a star that matches nothing gives the shortest name
    if (a[i]?.kind === "star") stack.push([i + 1, j, text]);
    if (b[j]?.kind === "star") stack.push([i, j + 1, text]);
  }
  return undefined;
}

/** A name the segment pattern matches, wildcards filled with the fresh character. */
const nameOf = (tokens: Token[]): string =>
  tokens
    .map((t) => (t.kind === "char" ? t.char : t.kind === "class" && !t.negated ? t.ranges[0]![0] : FRESH))
    .join("") || FRESH;

/** Paths (as segment lists) that both sequences match, each route of the product walk once, at most `limit`. */
function commonPaths(a: Segment[], b: Segment[], limit: number): string[][] {
  const out: string[][] = [];
  const walk = (i: number, j: number, path: string[], depth: number): void => {
    if (out.length >= limit || depth > a.length + b.length + 2) return;
    if (i === a.length && j === b.length) {
      if (path.length > 0) out.push(path);
      return;
    }
    const sa = a[i];
    const sb = b[j];
    if (sa?.kind === "globstar") walk(i + 1, j, path, depth + 1);
    if (sb?.kind === "globstar") walk(i, j + 1, path, depth + 1);
    if (sa === undefined || sb === undefined) return;
    if (sa.kind === "globstar" && sb.kind === "globstar") walk(i + 1, j + 1, [...path, FRESH], depth + 1);
    else if (sa.kind === "globstar" && sb.kind === "pattern") walk(i, j + 1, [...path, nameOf(sb.tokens)], depth + 1);
    else if (sa.kind === "pattern" && sb.kind === "globstar") walk(i + 1, j, [...path, nameOf(sa.tokens)], depth + 1);
    else if (sa.kind === "pattern" && sb.kind === "pattern") {
      const name = commonName(sa.tokens, sb.tokens);
      if (name !== undefined) walk(i + 1, j + 1, [...path, name], depth + 1);
    }
  };
  walk(0, 0, [], 0);
  return out;
}

/**
 * Project-relative paths that both globs match: witnesses of their overlap, one per way the globs
 * can meet, for a caller that decides with its own matcher (the lanes' `does_not_own` carve-outs,
 * see `lanes independence`). Wildcards are filled with a character no glob names (`\u0001`); shown
 * to people, write it as `x` ({@link showWitness}). Case is kept unless `caseInsensitive`. Two bare
 * names meet only as one file name (`package.json` and `README.md` share no path: a directory named
 * `package.json` is not a real project's), while {@link globsOverlap} also counts such a directory.
 */
export function overlapWitnesses(
  a: string,
  b: string,
  options: { readonly caseInsensitive?: boolean; readonly limit?: number } = {},
): string[] {
  // two bare names meet only as one file name; a bare name against a path glob may be a directory
  const floating = (g: string) => {
    const t = g.trim();
    return !t.startsWith("/") && !t.startsWith("~") && !t.replace(/\/+$/, "").includes("/");
  };
  const shape = { lower: options.caseInsensitive === true, bareAsFile: floating(a) && floating(b) };
  const left = toSequences(a, shape);
  const right = toSequences(b, shape);
  if (left === undefined || right === undefined) return [];
  const limit = options.limit ?? 16;
  const out = new Set<string>();
  for (const x of left)
    for (const y of right) for (const path of commonPaths(x, y, limit)) if (out.size < limit) out.add(path.join("/"));
  return [...out];
}

/** A witness as people read it: the free character written as `x`. */
export const showWitness = (path: string): string => path.split(FRESH).join("x");

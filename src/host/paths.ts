/**
 * Path arithmetic on normalised absolute POSIX paths. Pure: the caller supplies the working
 * directory and the home directory.
 */
import { posix } from "node:path";

const stripSlash = (p: string): string => (p.length > 1 && p.endsWith("/") ? p.replace(/\/+$/, "") || "/" : p);

/** True when `path` is `dir` or inside it. Both must be normalised absolute paths. */
export function isWithin(path: string, dir: string, caseInsensitive = false): boolean {
  const p = caseInsensitive ? path.toLowerCase() : path;
  const d = caseInsensitive ? dir.toLowerCase() : dir;
  return p === d || d === "/" || p.startsWith(`${d}/`);
}

/**
 * Normalises a path to an absolute POSIX path: expands `~` and `$HOME`, resolves relative paths
 * against `ctx.cwd`, collapses `//`, `.` and `..`, maps `/proc/self/cwd` to the cwd and
 * `/proc/self/root` to `/`, drops a trailing slash.
 */
export function normalizePath(raw: string, ctx: { readonly cwd: string; readonly home: string }): string {
  let p = raw;
  if (p === "~" || p.startsWith("~/")) p = ctx.home + p.slice(1);
  else if (p === "$HOME" || p.startsWith("$HOME/")) p = ctx.home + p.slice(5);
  else if (p === "${HOME}" || p.startsWith("${HOME}/")) p = ctx.home + p.slice(7);
  if (!p.startsWith("/")) p = `${ctx.cwd}/${p}`;
  // /proc/self/cwd and /proc/<pid>/cwd are symlinks to the working directory, /proc/self/root to /;
  // the kernel follows them before any `..` after them, so map them before normalising `..`.
  const segments = p.split("/").filter((s) => s !== "" && s !== ".");
  if (segments[0] === "proc" && segments[1] !== undefined && /^(?:self|thread-self|\d+)$/.test(segments[1]) && (segments[2] === "cwd" || segments[2] === "root")) {
    p = `${segments[2] === "cwd" ? ctx.cwd : ""}/${segments.slice(3).join("/")}`;
  }
  return stripSlash(posix.normalize(p));
}

/** The path relative to the project root, or `undefined` when it is outside. */
export function projectRelative(abs: string, ctx: { readonly projectDir: string; readonly caseInsensitive: boolean }): string | undefined {
  if (!isWithin(abs, ctx.projectDir, ctx.caseInsensitive)) return undefined;
  return abs.length === ctx.projectDir.length ? "." : abs.slice(ctx.projectDir.length + (ctx.projectDir === "/" ? 0 : 1));
}

const GLOB_CHARS = new Set(["*", "?", "["]);

/** The directory a glob expands in: the leading segments that hold no glob character. */
export function globBase(abs: string): string {
  const segments = abs.split("/");
  const index = segments.findIndex((s) => [...s].some((c) => GLOB_CHARS.has(c)));
  if (index === -1) return abs;
  return segments.slice(0, index).join("/") || "/";
}

/**
 * Keeping the install tracked by git whatever the repository's ignore rules say. A typical
 * TypeScript repository ignores `dist/` (which also matches `.claude/lanes/dist/`), some ignore
 * `build/`, `*.log` or all of `.claude/`; a commit then leaves the hooks out and a teammate's clone
 * has wiring that points at nothing.
 *
 * `git check-ignore -v --no-index` names the rule that ignores each installed path (it also reports
 * a file under an ignored directory, with the directory's rule). The shallowest ignored path is
 * re-included with a negation rule, then everything is checked again, until nothing is ignored:
 * - `.claude` itself: `!/.claude/` in the target's own `.gitignore` (a directory git skips is never
 *   searched for a `.gitignore`, so lanes' own file cannot help);
 * - anything below: `!/<path>` in `.claude/.gitignore`, lanes' own ignore file, which overrides
 *   every shallower rule; unless the rule sits in a deeper `.gitignore`, which then gets the negation.
 * Negations are appended at the end of a file, so they come after the rule they undo.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative } from "node:path";
import { runGit } from "../io/git.ts";

/** A negation lanes added: which ignore file, which line, and the rule it undoes. */
export interface IgnoreFix {
  /** The ignore file, relative to the target directory (`.gitignore`, `.claude/.gitignore`). */
  readonly file: string;
  /** The negation line written. */
  readonly line: string;
  /** The rule it undoes, as git reports it (`.gitignore:3:dist/`). */
  readonly undoes: string;
}

export type TrackResult =
  | { readonly git: false; readonly reason: string }
  | {
      readonly git: true;
      readonly fixes: readonly IgnoreFix[];
      readonly stillIgnored: readonly { path: string; rule: string }[];
    };

/** The comment line above lanes' negations, also how uninstall finds them. */
export const IGNORE_MARKER =
  "# lanes: keep the guard's files tracked (added by lanes init, removed by lanes uninstall)";

interface Ignored {
  readonly path: string;
  readonly source: string;
  readonly rule: string;
}

/** Which of `paths` (relative to `dir`, `/`-separated) git ignores, with the rule that does it. */
export function checkIgnored(dir: string, paths: readonly string[]): Ignored[] | { error: string } {
  if (paths.length === 0) return [];
  // the user's configuration is read for `core.excludesFile`; its programs stay off (src/io/git.ts)
  const run = runGit({
    args: ["check-ignore", "-v", "--no-index", "--stdin", "-z"],
    cwd: dir,
    input: paths.join("\0"),
    globalConfig: "read",
  });
  if (run.error !== undefined) return { error: `git could not be run: ${run.error}` };
  // exit 1 = nothing matched; 0 = something matched (also a negation, with -v)
  if (run.status !== 0 && run.status !== 1)
    return { error: (run.stderr.split("\n")[0] ?? "").trim() || `git check-ignore exited ${String(run.status)}` };
  const fields = run.stdout.toString("utf8").split("\0");
  const out: Ignored[] = [];
  // -z -v: <source> NUL <linenum> NUL <pattern> NUL <pathname> NUL
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const [source, line, pattern, path] = [fields[i]!, fields[i + 1]!, fields[i + 2]!, fields[i + 3]!];
    if (pattern === "" || pattern.startsWith("!")) continue;
    out.push({ path, source, rule: `${source}:${line}:${pattern}` });
  }
  return out;
}

/** `paths` and every directory above them (below `dir`), deduplicated. */
function withAncestors(paths: readonly string[]): string[] {
  const all = new Set<string>();
  for (const p of paths) {
    const parts = p.split("/");
    for (let i = 1; i <= parts.length; i++) all.add(parts.slice(0, i).join("/"));
  }
  return [...all];
}

function appendNegation(dir: string, file: string, line: string): boolean {
  const path = join(dir, file);
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  if (text.split("\n").some((l) => l.trim() === line)) return false;
  const block = text.includes(IGNORE_MARKER) ? `${line}\n` : `${IGNORE_MARKER}\n${line}\n`;
  writeFileSync(path, `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${block}`);
  return true;
}

/** True when `dir` is inside a git work tree. */
export function inGitWorkTree(dir: string): boolean {
  const run = runGit({ args: ["rev-parse", "--is-inside-work-tree"], cwd: dir });
  return run.status === 0 && run.stdout.toString("utf8").trim() === "true";
}

/**
 * Makes sure git tracks every one of `paths` (relative to `target`, e.g. `.claude/lanes/dist/pre-tool-use.cjs`),
 * adding negation rules where needed. Writes only ignore files.
 */
export function ensureTracked(target: string, paths: readonly string[]): TrackResult {
  if (!inGitWorkTree(target)) return { git: false, reason: "not a git repository" };
  const fixes: IgnoreFix[] = [];
  const candidates = withAncestors(paths);
  for (let round = 0; round < 32; round++) {
    const ignored = checkIgnored(target, candidates);
    if ("error" in ignored) return { git: false, reason: ignored.error };
    if (ignored.length === 0) return { git: true, fixes, stillIgnored: [] };
    const first = [...ignored].sort((a, b) => a.path.split("/").length - b.path.split("/").length)[0]!;
    const isDir = existsSync(join(target, first.path)) && statSync(join(target, first.path)).isDirectory();
    const sourceDir = first.source.startsWith("/") ? undefined : dirname(first.source);
    // the nearest ignore file that can re-include the path: lanes' own, the target's, or the rule's own deeper file
    let file: string;
    if (!first.path.includes("/")) file = ".gitignore";
    else if (
      sourceDir !== undefined &&
      sourceDir !== "." &&
      sourceDir.split("/").length > 1 &&
      `${first.path}/`.startsWith(`${sourceDir}/`)
    )
      file = first.source;
    else file = ".claude/.gitignore";
    const base = dirname(file) === "." ? "" : `${dirname(file)}/`;
    const line = `!/${posix.relative(base === "" ? "." : base.slice(0, -1), first.path)}${isDir ? "/" : ""}`;
    if (!appendNegation(target, file, line)) {
      return { git: true, fixes, stillIgnored: ignored.map((i) => ({ path: i.path, rule: i.rule })) };
    }
    fixes.push({ file, line, undoes: first.rule });
    // the ignore file holding the negation must be committed too
    for (const path of withAncestors([file])) if (!candidates.includes(path)) candidates.push(path);
  }
  return { git: true, fixes, stillIgnored: [] };
}

/**
 * What {@link ensureTracked} would add, without touching `target`: the same rounds run in a scratch
 * repository holding copies of the ignore files that matter (the target's `.gitignore`, its
 * `.git/info/exclude`, the `.gitignore` files under `.claude/`, and `claudeIgnore`, the
 * `.claude/.gitignore` the install would write) and an empty file for each of `paths`.
 */
export function planTracked(target: string, paths: readonly string[], claudeIgnore: string | undefined): TrackResult {
  if (!inGitWorkTree(target)) return { git: false, reason: "not a git repository" };
  const scratch = mkdtempSync(join(tmpdir(), "lanes-dry-run-"));
  try {
    const init = runGit({ args: ["init", "-q"], cwd: scratch, writes: true });
    if (init.status !== 0) return { git: false, reason: "git could not make a scratch repository for the dry run" };
    const exclude = runGit({ args: ["rev-parse", "--git-path", "info/exclude"], cwd: target });
    const copies: [from: string, to: string][] = [[join(target, ".gitignore"), ".gitignore"]];
    if (exclude.status === 0) {
      const rel = exclude.stdout.toString("utf8").trim();
      copies.push([rel.startsWith("/") ? rel : join(target, rel), ".git/info/exclude"]);
    }
    for (const path of withAncestors(paths))
      if (path.startsWith(".claude/") || path === ".claude")
        copies.push([join(target, path, ".gitignore"), `${path}/.gitignore`]);
    for (const [from, to] of copies)
      if (existsSync(from) && statSync(from).isFile()) {
        mkdirSync(dirname(join(scratch, to)), { recursive: true });
        writeFileSync(join(scratch, to), readFileSync(from));
      }
    if (claudeIgnore !== undefined) {
      mkdirSync(join(scratch, ".claude"), { recursive: true });
      writeFileSync(join(scratch, ".claude", ".gitignore"), claudeIgnore);
    }
    for (const path of paths) {
      mkdirSync(dirname(join(scratch, path)), { recursive: true });
      if (!existsSync(join(scratch, path))) writeFileSync(join(scratch, path), "");
    }
    return ensureTracked(scratch, paths);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Removes the negations lanes added (the marker line and the lines after it that it wrote). */
export function removeNegations(target: string, fixes: readonly IgnoreFix[]): string[] {
  const changed: string[] = [];
  for (const file of [...new Set(fixes.map((f) => f.file))]) {
    const path = join(target, file);
    if (!existsSync(path)) continue;
    const ours = new Set([IGNORE_MARKER, ...fixes.filter((f) => f.file === file).map((f) => f.line)]);
    const text = readFileSync(path, "utf8");
    const kept = text.split("\n").filter((l) => !ours.has(l));
    const next = kept.join("\n");
    if (next !== text) {
      writeFileSync(path, next);
      changed.push(relative(target, path));
    }
  }
  return changed;
}

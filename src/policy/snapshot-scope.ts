/**
 * What of the work tree a call may destroy, from the facts the evaluator already computed: the
 * paths inside the project that a Bash call deletes, truncates, overwrites, edits, moves over or
 * extracts into, and the whole project for code lanes cannot read (a file it could not read or a
 * compiled program it runs, code piped in from other commands). Pure: the guard takes the snapshot (src/hooks/guard/snapshot.ts) only when
 * this is not `undefined`, so a call that destroys nothing costs no git process and no tree walk.
 */
import { globBase, isWithin } from "../host/paths.ts";
import type { Facts } from "./facts.ts";

/** The part of the project to keep before a call runs. */
export interface SnapshotScope {
  /** Absolute paths inside the project (files or directories), deduplicated, none inside another. */
  readonly paths: readonly string[];
  /** Why the scope is what it is, for the audit log: `effects` or `unknown code`. */
  readonly basis: "effects" | "unknown-code";
}

/**
 * git subcommands that rewrite the work tree without naming the files (`git reset --hard`, `git
 * checkout .`, `git switch -f`, `git stash`): run after a human's override or under a team's own
 * rule, they keep the project. Most of their destructive forms are denied by the git rules.
 */
const GIT_WORKTREE_REWRITES: ReadonlySet<string> = new Set([
  "reset",
  "checkout",
  "switch",
  "restore",
  "clean",
  "stash",
  "merge",
  "rebase",
  "pull",
  "cherry-pick",
  "revert",
  "am",
  "apply",
]);

/** Code sources whose text lanes has read, and whose effects are in the file facts already. */
const READ_SOURCES: ReadonlySet<string> = new Set(["literal"]);

/**
 * Code read from a file on disk or written earlier on the line: read, and its effects in the file
 * facts, when every file the call runs was read (none unread, none a compiled program).
 */
const FILE_SOURCES: ReadonlySet<string> = new Set(["disk", "file", "written-file"]);

/**
 * The scope of a snapshot before the call of `facts` runs in `projectDir`; `undefined` when the call
 * destroys nothing in the project (reads, writes outside it, new files by name only are still kept:
 * a write by name may overwrite). `stateDir` (lanes' own state) is never part of a scope.
 */
export function snapshotScope(
  facts: Facts,
  projectDir: string,
  stateDir: string,
  caseInsensitive = false,
): SnapshotScope | undefined {
  // a file tool is covered by Claude Code's checkpoints; the code a Write or an Edit stores runs later, not now
  if (facts.shell === undefined || facts.tool !== "Bash") return undefined;
  const inProject = (p: string) => isWithin(p, projectDir, caseInsensitive) && !isWithin(p, stateDir, caseInsensitive);
  // code lanes did not read (stdin from other commands, a download, a file it could not read), or shell it could not analyse (asked): may change any file
  const filesRead =
    facts.shell.reads.length > 0 && facts.shell.reads.every((r) => r.outcome === "read" || r.outcome === "missing");
  const unread = (source: string) => !READ_SOURCES.has(source) && !(filesRead && FILE_SOURCES.has(source));
  if (facts.code.some((c) => unread(c.source)) || facts.unrepresentable.length > 0 || facts.budgetExceeded)
    return { paths: [projectDir], basis: "unknown-code" };
  if (facts.commands.some((c) => c.program === "git" && GIT_WORKTREE_REWRITES.has(c.view.positionals[0]?.value ?? "")))
    return { paths: [projectDir], basis: "effects" };
  const touched: string[] = [];
  for (const f of facts.files) {
    if (f.access !== "delete" && f.access !== "write") continue;
    // a path known only at run time inside the project (the guard let it through): keep the project
    if (f.path === undefined) {
      if (f.raw.startsWith("/") || f.raw.startsWith("~")) continue;
      return { paths: [projectDir], basis: "effects" };
    }
    // `rm src/*.ts`: the glob's directory (its expansions are facts too, but the shell may see more)
    const path = f.glob ? globBase(f.path) : f.path;
    if (inProject(path)) touched.push(path);
    else if (isWithin(projectDir, path, caseInsensitive)) touched.push(projectDir);
  }
  if (touched.length === 0) return undefined;
  return { paths: outermost(touched, caseInsensitive), basis: "effects" };
}

/** The paths none of the others contains, in their first order. */
function outermost(paths: readonly string[], caseInsensitive: boolean): string[] {
  const unique = [...new Set(paths)];
  return unique.filter((p) => !unique.some((q) => q !== p && isWithin(p, q, caseInsensitive)));
}

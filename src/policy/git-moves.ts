/**
 * Git commands that move the work tree's uncommitted changes out of it (or replace them): `git
 * stash` (push, save, the bare form), `git checkout <branch>` and `git switch <branch>`. A
 * subagent's such command writes every dirty file it moves, including other lanes' work in
 * progress, so the guard judges it as writing those files (src/policy/evaluate.ts adds the writes;
 * the lane rules then judge them as any write). The forms that discard changes outright (`reset
 * --hard`, `checkout -f`, `restore`, `clean -f`) have git rules of their own.
 *
 * Cheap: only these forms ask for the dirty files (one `git status`, by the guard's gather step).
 */
import type { Facts } from "./facts.ts";

/** Global options of git that take a value as the next word. */
const GLOBAL_WITH_VALUE = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--config-env",
]);
/** `git stash` subcommands that leave the work tree alone. */
const STASH_READS = new Set(["list", "show", "create", "store", "drop", "clear", "branch"]);

/** What a tree-moving git command moves: every dirty file, or those under its pathspecs. */
export interface TreeMove {
  readonly command: number;
  readonly line: string;
  /** Pathspecs as written (relative to the command's cwd), or `undefined`: the whole work tree. */
  readonly pathspecs: readonly string[] | undefined;
  /** For a branch switch, the commit it checks out as written (`release`, `@{-1}` for `-`). */
  readonly target?: string;
}

/** The git subcommand of an argv and the words after it. */
function gitSubcommand(argv: readonly string[]): { name: string; rest: readonly string[] } | undefined {
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (GLOBAL_WITH_VALUE.has(word)) i++;
    else if (!word.startsWith("-")) return { name: word, rest: argv.slice(i + 1) };
  }
  return undefined;
}

const positionals = (words: readonly string[]): string[] => words.filter((w) => !w.startsWith("-"));

/** The tree-moving git commands of a call. */
export function treeMoves(facts: Facts): TreeMove[] {
  const moves: TreeMove[] = [];
  for (const c of facts.commands) {
    if (c.program !== "git") continue;
    const sub = gitSubcommand(c.argv);
    if (sub === undefined) continue;
    const dashdash = sub.rest.indexOf("--");
    const specs = dashdash >= 0 ? sub.rest.slice(dashdash + 1) : undefined;
    if (sub.name === "stash") {
      const verb = sub.rest.find((w) => !w.startsWith("-"));
      if (verb !== undefined && STASH_READS.has(verb)) continue;
      // `git stash -m msg` and `git stash push -u` move the whole tree unless pathspecs are given
      moves.push({
        command: c.index,
        line: c.line,
        pathspecs: specs !== undefined && specs.length > 0 ? specs : undefined,
      });
      continue;
    }
    if (sub.name === "checkout" || sub.name === "switch") {
      const words = dashdash >= 0 ? sub.rest.slice(0, dashdash) : sub.rest;
      const create = words.some((w) => w === "-b" || w === "-B" || w === "-c" || w === "-C" || w === "--orphan");
      // a new branch at HEAD (`checkout -b x`, `switch -c x`) leaves the tree as it is
      const targets = words.includes("-") ? ["@{-1}"] : positionals(words);
      if (dashdash >= 0 && targets.length === 0) continue;
      if (create && targets.length <= 1) continue;
      if (targets.length === 0) continue;
      // (`git checkout <commit> <path>...` writes those paths, it does not switch the tree)
      const target = create ? targets.at(-1) : targets.length === 1 ? targets[0] : undefined;
      moves.push({ command: c.index, line: c.line, pathspecs: undefined, ...(target !== undefined && { target }) });
    }
  }
  return moves;
}

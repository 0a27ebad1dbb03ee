/**
 * `analyzeShell`: the only entry point from shell text to lanes' typed view of it.
 *
 * Layout of the analysis:
 * - `walk/traverse.ts`: a traversal over the unbash AST, exhaustive over node kinds, threading
 *   the value environment (`walk/context.ts`: working directory, variables, arrays, positional
 *   parameters) through lists, branches, loops, functions and aliases;
 * - `walk/collector.ts`: what is collected (commands, pipes, code, calls, functions, static
 *   outputs, files written on the line) and the count bound (nodes and depth, never the clock);
 * - `handlers/`: one module per program family (wrappers and `env`, `find`, `xargs`/`parallel`,
 *   git, shells and interpreters, awk/sed, containers, compilers, builtins, text producers), each
 *   recording what the command would execute, read, write and delete; they see the walk only
 *   through `handlers/contract.ts`, and `handlers/index.ts` is the registry of program to handler;
 * - `code/`: interpreter code read for its calls (tokens, known values, API calls);
 * - `tables/`: the data (wrappers, interpreters, option grammars, effects, flag writes, APIs).
 */
import { storedKind } from "./stored-kind.ts";
import { Walker } from "./walk/traverse.ts";
import type { AnalyzeOptions, ShellAnalysis } from "./types.ts";

/**
 * Analyses one Bash command string. Pure and deterministic: bounded by a count of nodes and a
 * nesting depth; never throws: failures become {@link ShellAnalysis.unrepresentable} entries and
 * `budgetExceeded`.
 */
export function analyzeShell(source: string, options: AnalyzeOptions): ShellAnalysis {
  return new Walker(source, options).run();
}

/** A change a file tool makes to a file: its new text, and the text it replaces (`undefined`: a new file). */
export interface StoredChange {
  /** The tool (`Write`, `Edit`), shown as the command that stores the code. */
  readonly tool: string;
  /** The file's absolute path. */
  readonly path: string;
  readonly text: string;
  readonly before: string | undefined;
}

/**
 * The code a file tool stores for a tool to run later (a Makefile, a package.json, a justfile, a
 * Taskfile, a git hook), analysed as it will run; `undefined` when the file holds no such code.
 * Bounded and total like {@link analyzeShell}.
 */
export function analyzeStored(change: StoredChange, options: AnalyzeOptions): ShellAnalysis | undefined {
  if (storedKind(change.path) === undefined) return undefined;
  return new Walker("", options).runStored(change.tool, change.path, change.text, change.before);
}

/**
 * `analyzeShell`: the only entry point from shell text to lanes' typed view of it.
 *
 * Steps, in order:
 * 1. parse the source with unbash (parse errors become `parse-error`);
 * 2. walk every executable node: lists, pipelines, subshells, groups, control flow, function
 *    bodies, command and process substitutions, arithmetic command substitutions;
 * 3. resolve each word statically (quotes, `~`, `$HOME`, `$PWD`, brace expansion, globs);
 * 4. unwrap wrappers (`sudo`, `env`, `xargs`, `timeout`, ...) from their real option syntax;
 * 5. follow code: `bash -c`, `eval`, heredocs and pipes into shells, interpreter one-liners and
 *    the shell commands their `system()`-like calls run, each one level deeper;
 * 6. track the working directory through `cd`/`pushd`/`popd`;
 * 7. stop at the node, depth and time budgets, reporting what could not be represented.
 */
import { Walker } from "./_walk.ts";
import type { AnalyzeOptions, ShellAnalysis } from "./types.ts";

/**
 * Analyses one Bash command string. Pure apart from reading the clock for the time budget; never
 * throws: failures become {@link ShellAnalysis.unrepresentable} entries and `budgetExceeded`.
 */
export function analyzeShell(source: string, options: AnalyzeOptions): ShellAnalysis {
  const walker = new Walker(source, options, performance.now());
  walker.run();
  return walker.result();
}

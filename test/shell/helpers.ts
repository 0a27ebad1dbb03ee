/** Shared fixtures for the shell analysis tests. */
import { analyzeShell } from "../../src/shell/index.ts";
import type { AnalyzeOptions, ShellAnalysis, ShellCommand, ShellWord } from "../../src/shell/index.ts";

/** The home and working directory every test analyses with. */
export const HOME = "/home/u";
export const CWD = "/work/proj";

export function analyze(source: string, options: Partial<AnalyzeOptions> = {}): ShellAnalysis {
  return analyzeShell(source, { home: HOME, cwd: CWD, repoRoot: CWD, ...options });
}

/** A word as tests compare it: its value, or `<text>` when only known at run time. */
export const shown = (w: ShellWord): string => w.value ?? `<${w.text}>`;

/** The fields of a command most tests assert. */
export function brief(c: ShellCommand): {
  program: string | undefined;
  argv: string[];
  wrappers: string[];
  via: string[];
  depth: number;
} {
  return { program: c.program, argv: c.argv.map(shown), wrappers: [...c.wrappers], via: [...c.via], depth: c.depth };
}

/** `program argv...` lines of every command, in order. */
export function lines(a: ShellAnalysis): string[] {
  return a.commands.map((c) => c.argv.map(shown).join(" "));
}

/** The command whose program is `program` (the last one when several). */
export function find(a: ShellAnalysis, program: string): ShellCommand {
  const found = a.commands.filter((c) => c.program === program).at(-1);
  if (found === undefined) throw new Error(`no \`${program}\` command in: ${lines(a).join(" | ")}`);
  return found;
}

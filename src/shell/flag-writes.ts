/**
 * Write effects of programs that write because of a flag or a subcommand (`eslint --fix`,
 * `prettier --write`, `cargo fmt`, `git apply`, `jest -u`): the rows of `tables/flag-writes.ts`,
 * for the command itself and for what a package runner the walk left whole runs (`runners.ts`).
 */
import { detailedView } from "./detailed-view.ts";
import { isPackageRunner, packageRun } from "./runners.ts";
import { FLAG_WRITES } from "./tables/flag-writes.ts";
import type { FileEffect, ShellAnalysis, ShellCommand, ShellWord } from "./types.ts";

let writers: ReadonlySet<string> | undefined;

/** What the write flags of every command of `analysis` make it write, in command order (basis `flag`). */
export function flagWrites(analysis: ShellAnalysis): FileEffect[] {
  return analysis.commands.flatMap((cmd) => flagWriteEffects(cmd, analysis.cwd));
}

/**
 * The files `cmd` writes by its flags. `cwd` is the directory the line starts in: a relative
 * operand of a command whose own directory is unknown is taken there.
 */
function flagWriteEffects(cmd: ShellCommand, cwd: string): FileEffect[] {
  // most commands are neither a flag-writing program nor a runner: no argv view for them
  writers ??= new Set(FLAG_WRITES.flatMap((r) => r.programs));
  if (cmd.program === undefined || (!writers.has(cmd.program) && !isPackageRunner(cmd.program))) return [];
  const view = detailedView(cmd.program, cmd.args);
  const own = view.operands.map((o) => o.word);
  const argv = cmd.argv.map((w) => w.value ?? w.text);
  const has = (f: string): boolean => view.flags.has(f) || argv.includes(f);
  const at = cmd.cwd ?? cwd;
  const effect = (path: ShellWord, recursive: boolean): FileEffect => ({
    command: cmd.index,
    access: "write",
    path,
    recursive,
    force: false,
    filtered: false,
    basis: "flag",
  });
  const run = packageRun(cmd.program, own);
  // the flags of what a runner runs are the words after its name (`npm -w api exec prettier .`: npm's `-w` is not prettier's)
  const tool = run === undefined ? -1 : cmd.argv.findIndex((w) => w === own[own.length - run.positionals.length - 1]);
  const runFlags = argv.slice(tool + 1);
  for (const { program, positionals, ran } of [
    ...(run === undefined ? [] : [{ ...run, ran: true }]),
    { program: cmd.program, positionals: own, ran: false },
  ]) {
    const given = ran ? (f: string): boolean => runFlags.includes(f) : has;
    const row = FLAG_WRITES.find(
      (r) =>
        r.programs.includes(program) &&
        (r.args ?? []).every((a, i) => a.split("|").includes(positionals[i]?.value ?? "")) &&
        (r.flags === undefined || r.flags.some(given)) &&
        !(r.unless ?? []).some(given),
    );
    if (row === undefined) continue;
    if (row.writes === "unknown")
      return [effect({ text: `files named by \`${cmd.text}\``, value: undefined, glob: false }, false)];
    if (row.writes === "operands") {
      const valued = new Set(row.valued ?? []);
      const skipped = new Set<ShellWord>();
      const words = cmd.argv;
      for (let i = 1; i < words.length; i++)
        if (valued.has(words[i]!.value ?? "") && words[i + 1] !== undefined) skipped.add(words[i + 1]!);
      const operands = positionals
        .slice((row.args?.length ?? 0) + (row.skip ?? 0))
        .filter((w) => !skipped.has(w) && !(w.value ?? "").startsWith("-"));
      const targets: ShellWord[] =
        operands.length > 0
          ? operands.map((w) => ({ text: w.text, value: w.value, glob: w.glob }))
          : (row.defaults ?? []).map((d) => ({ text: d, value: d, glob: false }));
      return targets.map((w) => effect(cmd.cwd === undefined ? under(cwd, w) : w, true));
    }
    return row.writes.globs.map((g) => effect({ text: `${at}/${g}`, value: `${at}/${g}`, glob: true }, false));
  }
  return [];
}

/** A relative path taken under `dir` (the command's own directory is unknown). */
function under(dir: string, word: ShellWord): ShellWord {
  const v = word.value;
  if (v === undefined || v.startsWith("/") || v.startsWith("~")) return word;
  return { ...word, value: `${dir.replace(/\/+$/, "")}/${v}` };
}

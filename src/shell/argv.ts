/**
 * `argView`: a command's arguments split by its program's option grammar (tables in
 * `tables/options.ts`): option clusters, `--x=y`, values of options that take one, `--`,
 * git's global options and subcommands, find's expression, dd's `key=value` operands; which
 * operands may be an option's value; and what a package runner the walk left whole runs.
 */
import { detailedView } from "./detailed-view.ts";
import { packageRun } from "./runners.ts";
import { VALUELESS_OPTIONS } from "./tables/options.ts";
import type { ArgView, ShellCommand, ShellWord } from "./types.ts";

let valueless: ReadonlySet<string> | undefined;

const isNumber = (text: string): boolean => text.length > 0 && [...text].every((c) => c >= "0" && c <= "9");
/** `-KILL`, `-SIGTERM`: a signal name given as an option, which takes no value. */
const isSignal = (text: string): boolean => text.length > 1 && [...text].every((c) => c >= "A" && c <= "Z");

/** True when one of an option's values is `rest`, the text written right after the option's letter. */
function attached(values: readonly ShellWord[] | undefined, rest: string): boolean {
  return values?.some((w) => w.value === rest) === true;
}

/**
 * For each positional, whether it may be the value of the option written before it: an option
 * word (not `--`, `-x=y`, `-9`, `-KILL`) that is not known to take no value (`VALUELESS_OPTIONS`,
 * `--no-x`) and whose value the grammar did not take already.
 */
function suspects(
  args: readonly ShellWord[],
  positionals: readonly ShellWord[],
  values: ReadonlyMap<string, readonly ShellWord[]>,
): boolean[] {
  return positionals.map((word) => {
    const i = args.indexOf(word);
    const previous = i > 0 ? args[i - 1] : undefined;
    const text = previous?.value;
    const option =
      text !== undefined &&
      text.length > 1 &&
      text.startsWith("-") &&
      text !== "--" &&
      !text.includes("=") &&
      !isNumber(text.slice(1)) &&
      !isSignal(text.slice(1));
    if (!option) return false;
    // `git -C../infra push`: a short option with its value attached took no other word
    if (!text.startsWith("--") && text.length > 2 && attached(values.get(text.slice(0, 2)), text.slice(2)))
      return false;
    valueless ??= new Set(VALUELESS_OPTIONS);
    // `--no-x` negations never take a value; an option the table gave a value took another word
    const boolean = valueless.has(text) || text.startsWith("--no-") || values.has(text);
    return !boolean && !positionals.includes(previous!);
  });
}

/**
 * The flags, option values and positionals of `cmd`. Programs not in the tables get the POSIX
 * default: short options cluster, every `-x`/`--x` is a flag without a value.
 */
export function argView(cmd: ShellCommand): ArgView {
  const view = detailedView(cmd.program, cmd.args);
  const positionals = view.operands.map((o) => o.word);
  const runs = packageRun(cmd.program, positionals);
  return {
    flags: view.flags,
    values: view.values,
    positionals,
    afterDoubleDash: view.afterDoubleDash,
    suspect: suspects(cmd.args, positionals, view.values),
    ...(runs !== undefined && { runs }),
  };
}

import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliError } from "./types.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * `util.parseArgs` with lanes' error style: an unknown option or a missing value becomes a
 * {@link CliError} with exit code 64 and the command's usage as help.
 */
export function parseCommandArgs<O extends Options>(
  args: readonly string[],
  options: O,
  usage: string,
  allowPositionals = true,
) {
  try {
    return parseArgs({ args: joinDashValues(args, options), options, allowPositionals, strict: true });
  } catch (error) {
    const message =
      error instanceof Error ? error.message.split("\n")[0]!.split(". ")[0]!.replace(/\.$/, "") : String(error);
    throw new CliError(message.charAt(0).toLowerCase() + message.slice(1), 64, usage.trimEnd());
  }
}

/**
 * `--summary "-5% latency"`: `util.parseArgs` refuses a value that starts with `-` as ambiguous.
 * A string option followed by a word that starts with `-` but is not one of the command's options
 * takes it as its value (rewritten to `--summary=-5% latency`); `--summary --json` still reports
 * the missing value. Words after `--` are left alone.
 */
export function joinDashValues(args: readonly string[], options: Options): string[] {
  const isOption = (word: string): boolean => {
    if (word === "-" || !word.startsWith("-")) return false;
    if (word === "--") return true;
    if (word.startsWith("--")) return word.slice(2).split("=")[0]! in options;
    const short = word.slice(1, 2);
    return Object.values(options).some((o) => o.short === short);
  };
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === "--") {
      out.push(...args.slice(i));
      break;
    }
    const name = word.startsWith("--") && !word.includes("=") ? word.slice(2) : undefined;
    const next = args[i + 1];
    if (
      name !== undefined &&
      options[name]?.type === "string" &&
      next !== undefined &&
      next.startsWith("-") &&
      next !== "-" &&
      !isOption(next)
    ) {
      out.push(`${word}=${next}`);
      i++;
      continue;
    }
    out.push(word);
  }
  return out;
}

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
    return parseArgs({ args: [...args], options, allowPositionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0]!.replace(/\.$/, "") : String(error);
    throw new CliError(message.charAt(0).toLowerCase() + message.slice(1), 64, usage.trimEnd());
  }
}

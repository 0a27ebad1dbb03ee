/**
 * `argView`: a command's arguments split by its program's option grammar (tables in
 * `tables/options.ts`): option clusters, `--x=y`, values of options that take one, `--`,
 * git's global options and subcommands, find's expression, dd's `key=value` operands.
 */
import { detailedView } from "./detailed-view.ts";
import type { ArgView, ShellCommand } from "./types.ts";

/**
 * The flags, option values and positionals of `cmd`. Programs not in the tables get the POSIX
 * default: short options cluster, every `-x`/`--x` is a flag without a value.
 */
export function argView(cmd: ShellCommand): ArgView {
  const view = detailedView(cmd.program, cmd.args);
  return {
    flags: view.flags,
    values: view.values,
    positionals: view.operands.map((o) => o.word),
    afterDoubleDash: view.afterDoubleDash,
  };
}

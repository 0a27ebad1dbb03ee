/**
 * Runs one command with its arguments: `--help`, then the command, its expected failures
 * ({@link CliError}) as one line on stderr, anything else as an internal error (code 70). Shared by
 * the CLI (run.ts) and the statusline's own entry (statusline-main.ts).
 */
import { CliError, type CliContext, type Command } from "./types.ts";

export async function runCommand(command: Command, rest: readonly string[], ctx: CliContext): Promise<number> {
  // every command accepts --help (before `--`, which ends the options)
  const options = rest.indexOf("--") === -1 ? rest : rest.slice(0, rest.indexOf("--"));
  if (options.includes("--help") || options.includes("-h")) {
    ctx.out(`${command.usage.trimEnd()}\n`);
    return 0;
  }
  try {
    return (await command.run(rest, ctx)) ?? 0;
  } catch (error) {
    if (error instanceof CliError) {
      // a usage error is one line and a pointer, not the whole usage
      if (error.code === 64 && error.help !== undefined)
        ctx.err(`lanes ${command.name}: ${error.message}: see \`lanes ${command.name} --help\`\n`);
      else {
        ctx.err(`lanes ${command.name}: ${error.message}\n`);
        if (error.help !== undefined) ctx.err(`${error.help}\n`);
      }
      return error.code;
    }
    const message = error instanceof Error ? error.message : String(error);
    ctx.err(`lanes ${command.name}: internal error: ${message}: please report it with the command you ran\n`);
    return 70;
  }
}

import { commands } from "./commands/index.ts";
import { didYouMean } from "./suggest.ts";
import { runCommand } from "./run-command.ts";
import type { CliContext, Command } from "./types.ts";
import { LANES_VERSION } from "../host/version.ts";

export { LANES_VERSION };

function renderHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `usage: lanes <command> [options]\n\ncommands:\n${lines.join("\n")}\n\nrun \`lanes <command> --help\` for a command's options\n\n${EXIT_CODES}\n`;
}

/** Commands of similar tools a user may try, and lanes' name for each. */
const PEER_COMMANDS: Readonly<Record<string, string>> = {
  explain: "check",
  status: "doctor",
  install: "init",
  setup: "init",
  remove: "uninstall",
  audit: "log",
  list: "rules",
  validate: "lint",
};

/**
 * What a user types into Claude Code's prompt, never a shell command: the UserPromptSubmit hook reads
 * it (src/hooks/state/override.ts), so the CLI only says where it goes.
 */
const PROMPT_ONLY: Readonly<Record<string, string>> = {
  allow:
    "`lanes allow CODE` is typed into Claude Code's prompt, not the shell: send it as your next message to Claude in the session that showed the code",
};

/** The exit codes of every command. */
export const EXIT_CODES = `exit codes: 0 success; 1 the command failed (doctor: the guard is not fully active); 2 check: the call would be denied; 3 check: it would be asked; 64 usage error (unknown command or option, bad argument); 70 internal error (please report it)`;

function find(name: string): Command | undefined {
  return commands.find((c) => c.name === name);
}

/**
 * Runs the CLI in-process and returns the exit code. Expected failures ({@link CliError}) become one
 * line on stderr; anything else is an internal error, reported with its message and code 70.
 */
export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    const topic = name === "help" ? rest[0] : undefined;
    const command = topic === undefined ? undefined : find(topic);
    ctx.out(command === undefined ? renderHelp() : `${command.usage.trimEnd()}\n`);
    return topic !== undefined && command === undefined ? 64 : 0;
  }
  if (name === "--version" || name === "-v") {
    ctx.out(`${LANES_VERSION}\n`);
    return 0;
  }
  const command = find(name);
  const prompt = PROMPT_ONLY[name];
  if (command === undefined && prompt !== undefined) {
    ctx.err(`lanes ${name}: ${prompt}\n`);
    return 64;
  }
  if (command === undefined) {
    const peer = PEER_COMMANDS[name];
    const hint =
      peer !== undefined
        ? `: lanes calls it \`lanes ${peer}\``
        : didYouMean(
            name,
            commands.map((c) => c.name),
          );
    ctx.err(`lanes: unknown command \`${name}\`${hint}: run \`lanes help\` for the list\n`);
    return 64;
  }
  return runCommand(command, rest, ctx);
}

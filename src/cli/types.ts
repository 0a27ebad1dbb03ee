/** The context every command runs in; tests pass their own to capture output. */
export interface CliContext {
  /** Directory the command was started in. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Write to standard output (a trailing newline is not added). */
  readonly out: (text: string) => void;
  /** Write to standard error (a trailing newline is not added). */
  readonly err: (text: string) => void;
  /** Standard input, read to the end, for commands that accept `-`. */
  readonly stdin: () => Promise<string>;
}

/** One `lanes <name>` command. */
export interface Command {
  readonly name: string;
  /** One line for `lanes help`. */
  readonly summary: string;
  /** Usage text shown by `lanes help <name>` and after a usage error. */
  readonly usage: string;
  /** Runs the command; returns the exit code (0 when omitted). Throws {@link CliError} for expected failures. */
  run(args: readonly string[], ctx: CliContext): Promise<number | void>;
}

/** An expected failure: printed as one line on stderr, then the process exits with `code`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: number = 1,
    /** Optional help shown on the next line. */
    readonly help?: string,
  ) {
    super(message);
    this.name = "CliError";
  }
}

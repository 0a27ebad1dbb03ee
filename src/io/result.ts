/**
 * Shared shapes of the runtime: result values, issues and the injected clock and randomness.
 * Imports nothing, so the hot-path modules (progress-hot, checkpoints-hot) can use it.
 */

/** What kind of failure an issue is; the CLI maps it to an exit code and help. */
export type IssueCode =
  /** A file or record that should exist does not. */
  | "missing"
  /** A state file exists but does not parse or does not match its schema; it was not overwritten. */
  | "corrupt"
  /** The caller passed something unusable (a bad id, JSON that is not an object, ...). */
  | "invalid-input"
  /** The operation is refused in the current state (an unfinished workflow, a wrong phase, ...). */
  | "refused"
  /** A memory file or phase gate did not pass verification. */
  | "verify-failed"
  /** The lock could not be taken before the timeout. */
  | "locked"
  /** The file system failed (permissions, disk full, ...). */
  | "io";

/** Why a runtime operation did not happen. */
export interface RuntimeIssue {
  readonly code: IssueCode;
  /** One line in the house grammar: lowercase, no final period, input in backticks. */
  readonly message: string;
  /** What to do about it, shown on the next line (usually a command). */
  readonly help?: string;
  /** The file concerned, when there is one. */
  readonly file?: string;
}

/** Errors are values inside the runtime; only the CLI turns them into {@link CliError}s. */
export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly RuntimeIssue[] };

/** A successful {@link Result}. */
export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

/** A failed {@link Result} with one issue. */
export const fail = <T = never>(code: IssueCode, message: string, extra: { help?: string; file?: string } = {}): Result<T> => ({
  ok: false,
  issues: [{ code, message, ...extra }],
});

/** Re-types a failed result (its value type is irrelevant). */
export const propagate = <T>(result: { readonly ok: false; readonly issues: readonly RuntimeIssue[] }): Result<T> => ({ ok: false, issues: result.issues });

/** Time and randomness, injected so tests are deterministic. Defaults: the real clock and `Math.random`. */
export interface RuntimeDeps {
  /** The current time. */
  readonly now?: () => Date;
  /** A number in [0, 1), used for ids and backoff jitter. */
  readonly random?: () => number;
}

/** Resolves the injected clock. */
export const nowOf = (deps: RuntimeDeps | undefined): Date => (deps?.now ?? (() => new Date()))();

/** Resolves the injected randomness. */
export const randomOf = (deps: RuntimeDeps | undefined): (() => number) => deps?.random ?? Math.random;

/** A short, readable error description from anything thrown by Node (`EACCES: permission denied, open '…'`). */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split("\n")[0] ?? message;
  return line.replace(/\.$/, "");
}

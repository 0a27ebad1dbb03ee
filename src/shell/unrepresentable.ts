/**
 * The stable codes of {@link Unrepresentable} entries. Each one means "lanes cannot tell what this
 * command string would do", and the policy answers ask. Codes never change once shipped: rules,
 * tests and audit logs refer to them.
 *
 * | code                     | when                                                                 |
 * |--------------------------|----------------------------------------------------------------------|
 * | `parse-error`            | unbash reported a syntax error (unterminated quote, missing `fi`, ...) |
 * | `dynamic-command-name`   | the program is only known at run time (`$CMD x`, `"${a[@]}"`, `$(which rm) -rf /`, a glob) |
 * | `dynamic-code`           | code handed to a shell or interpreter is a run-time value (`bash -c "$X"`, `eval $X`, `tool \| sh`, `os.system(cmd)`, awk `system(x)`, sed `s///e` with backreferences) |
 * | `depth-limit`            | shell strings nest deeper than `maxDepth` (`bash -c "bash -c '...'"`) |
 * | `node-budget`            | the analysis visited more than `maxNodes` syntax nodes               |
 * | `time-budget`            | no longer reported: the bound is a count (`node-budget`, `depth-limit`) |
 * | `stack-overflow`         | the input nests so deeply that the walk ran out of stack             |
 * | `brace-expansion-limit`  | a brace expansion produces more words than lanes expands (`{1..1000}`) |
 * | `interpreter-code`       | interpreter code (`python -c`, `node -e`, ...) that lanes cannot tokenize |
 * | `unread-file`            | a file whose code a command runs could not be read at hook time (too large, unreadable, past the read bounds, a path only known at run time, a language lanes does not read) |
 * | `env-split-string`       | an `env -S` string that is not one plain command                     |
 * | `unknown-node`           | a syntax node kind this version of lanes does not know               |
 * | `internal-error`         | the analysis failed unexpectedly (a bug in lanes or unbash)          |
 * | `disk-bound`             | the disk view's bound was reached before every path was resolved (src/policy/resolve.ts) |
 * | `run-time-link`          | a path passes through a link the line makes to a run-time value (`ln -s "$X" d && echo > d/f`) |
 */
export const UNREPRESENTABLE_CODES = [
  "parse-error",
  "dynamic-command-name",
  "dynamic-code",
  "depth-limit",
  "node-budget",
  "time-budget",
  "stack-overflow",
  "brace-expansion-limit",
  "interpreter-code",
  "unread-file",
  "env-split-string",
  "unknown-node",
  "internal-error",
  "disk-bound",
  "run-time-link",
] as const;

/** One of {@link UNREPRESENTABLE_CODES}. */
export type UnrepresentableCode = (typeof UNREPRESENTABLE_CODES)[number];

/** The one-line reason shown to the model for each code (lowercase, no final period). */
export const UNREPRESENTABLE_MESSAGES: Readonly<Record<UnrepresentableCode, string>> = {
  "parse-error": "the command could not be parsed",
  "dynamic-command-name": "the program name is only known at run time",
  "dynamic-code": "the code to run is only known at run time",
  "depth-limit": "shell strings are nested too deeply to analyse",
  "node-budget": "the command is too large to analyse",
  "time-budget": "the command took too long to analyse",
  "stack-overflow": "the command is nested too deeply to analyse",
  "brace-expansion-limit": "a brace expansion produces too many words to analyse",
  "interpreter-code": "the interpreter code could not be read",
  "unread-file": "lanes could not read the code this command runs",
  "env-split-string": "the `env -S` string is not a single command",
  "unknown-node": "the command uses shell syntax lanes does not know",
  "internal-error": "the shell analysis failed",
  "disk-bound": "the command names more paths than lanes resolves on disk in one call",
  "run-time-link": "a path leads through a link to a place only known at run time",
};

/**
 * The program registry: which handler runs a program. Each handler records the command and what
 * it would execute (nested commands, code), read, write and delete; a program no row claims is
 * recorded as it is (`unclaimed.ts`), with its embedded commands and the builtins' effect on the
 * value environment. Teaching the walk a new program family is one module here and one row in
 * {@link PROGRAMS}.
 *
 * Lookup: a matcher row marked `first` (what a file run by path is: a copy of a client); then a
 * row that names the program; then the other matcher rows, in table order; then `unclaimed`.
 * No program is claimed by a name row and a matcher row both (test/shell/handlers.test.ts), so
 * the order of the rows only matters among matchers.
 */
import { interpreterName } from "../interpreter-input.ts";
import { EVAL_COMMANDS, SCRIPT_RUNNERS, SOURCE_COMMANDS, STDIN_EVALUATORS } from "../tables/interpreters.ts";
import { MANAGERS, RUNTIMES } from "../tables/runners.ts";
import {
  AWK_PROGRAMS,
  COMPOSE_PROGRAMS,
  C_COMPILERS,
  DOCKER_LIKE,
  PARAMETER_FILE_CLIS,
  REMOTE_EXEC,
  SED_PROGRAMS,
} from "../tables/programs.ts";
import type { Invocation } from "../walk/context.ts";
import { trap } from "./builtins.ts";
import { evalCommand, interpreter, scheduled, sourceCommand, stdinEvaluator } from "./code.ts";
import { CLIENT_PROGRAMS, client, copies, isClientScript, isClientSpelling } from "./clients.ts";
import { compiler } from "./compilers.ts";
import { container } from "./containers.ts";
import type { Handler, ProgramRow, Walk } from "./contract.ts";
import { awk, sed } from "./executors.ts";
import { fd, find } from "./find.ts";
import { git } from "./git.ts";
import { make } from "./make.ts";
import { parameterFiles } from "./parameter-files.ts";
import { just, mise, rake, task } from "./task-runners.ts";
import { husky } from "./stored.ts";
import { packageManager } from "./package-scripts.ts";
import { deno, tsRunner } from "./scripts.ts";
import { unclaimed } from "./unclaimed.ts";

export { runnerOptions, unwrap } from "./wrappers.ts";
export { judgeStored, storedFiles } from "./stored.ts";

/** The program families and their handlers (see the module comment for the lookup order). */
export const PROGRAMS: readonly ProgramRow[] = [
  { programs: ["find"], handler: find },
  { programs: ["fd", "fdfind"], handler: fd },
  { programs: ["at", "batch"], handler: scheduled },
  { programs: CLIENT_PROGRAMS, handler: client },
  {
    family:
      "agent clients run by path under another name: a copy or link of a client made on the line or found on disk (`./git` may be one)",
    matches: (inv, walk) => isClientSpelling(inv, walk),
    handler: client,
    first: true,
  },
  {
    family:
      "Claude Code's own script run by an interpreter (`node <package>/cli-wrapper.cjs`), before the interpreters' row",
    matches: (inv, walk) => isClientScript(inv, walk),
    handler: client,
  },
  { programs: ["cp", "ln", "install"], handler: copies },
  { programs: EVAL_COMMANDS, handler: evalCommand },
  { programs: SOURCE_COMMANDS, handler: sourceCommand },
  {
    family: "shells and interpreters, with version suffixes and in any case (`python3.12`, `PowerShell.exe`)",
    matches: (inv) => {
      const name = interpreterName(inv.program);
      return name !== undefined && !RUNTIMES.includes(name);
    },
    handler: interpreter,
  },
  {
    family: "PowerShell's evaluators, in any case (`IEX`, `Invoke-Expression`)",
    matches: (inv) => STDIN_EVALUATORS.includes(inv.program.toLowerCase()),
    handler: stdinEvaluator,
  },
  { programs: ["trap"], handler: trap },
  { programs: ["git"], handler: git },
  { programs: AWK_PROGRAMS, handler: awk },
  { programs: SED_PROGRAMS, handler: sed },
  { programs: [...DOCKER_LIKE, ...COMPOSE_PROGRAMS, ...REMOTE_EXEC], handler: container },
  { programs: C_COMPILERS, handler: compiler },
  { programs: Object.keys(MANAGERS), handler: packageManager },
  { programs: ["make", "gmake"], handler: make },
  { programs: ["just"], handler: just },
  { programs: ["task", "go-task"], handler: task },
  { programs: ["husky"], handler: husky },
  { programs: ["rake"], handler: rake },
  { programs: ["mise", "rtx"], handler: mise },
  { programs: ["deno"], handler: deno },
  { programs: Object.keys(SCRIPT_RUNNERS), handler: tsRunner },
  { programs: PARAMETER_FILE_CLIS, handler: parameterFiles },
];

const BY_NAME = new Map<string, Handler>();
for (const row of PROGRAMS) if ("programs" in row) for (const name of row.programs) BY_NAME.set(name, row.handler);
const MATCHERS = PROGRAMS.filter((row) => "matches" in row);
const FIRST = MATCHERS.filter((row) => row.first === true);

/** The handler of a program: a `first` matcher row's, else its name row, else the first matcher row that takes it, else `unclaimed`. */
export function handlerOf(inv: Invocation, walk: Walk): Handler {
  return (
    FIRST.find((row) => row.matches(inv, walk))?.handler ??
    BY_NAME.get(inv.program) ??
    MATCHERS.find((row) => row.first !== true && row.matches(inv, walk))?.handler ??
    unclaimed
  );
}

/** Runs the handler of `inv.program`. */
export function dispatch(walk: Walk, inv: Invocation): void {
  handlerOf(inv, walk)(walk, inv);
}

/**
 * Dispatch from a program to the handler of its family. Each handler records the command and
 * what it would execute (nested commands, code), read, write and delete; programs without a
 * handler are recorded as they are, with their embedded commands and the builtins' effect on
 * the value environment.
 */
import { readInterpreter } from "../interpreter-input.ts";
import { EVAL_COMMANDS, SOURCE_COMMANDS, STDIN_EVALUATORS } from "../tables/interpreters.ts";
import { joinWords, type Invocation, type State } from "../walk/context.ts";
import type { Walker } from "../walk/traverse.ts";
import { builtinState, trap } from "./builtins.ts";
import {
  evalCommand,
  hostCtx,
  interpreter,
  scheduled,
  shellString,
  sourceCommand,
  stdinCode,
  writtenProgram,
} from "./code.ts";
import { compiler } from "./compilers.ts";
import { container } from "./containers.ts";
import { AWK_PROGRAMS, SED_PROGRAMS } from "../tables/programs.ts";
import { awk, sed } from "./executors.ts";
import { fd, find } from "./find.ts";
import { embedded, git } from "./git.ts";
import { killEveryProcess } from "./processes.ts";
import { deleteEveryListed } from "./listings.ts";

export { unwrap } from "./wrappers.ts";

/** Runs the handler of `inv.program`; `shellState` is the state builtins change. */
export function dispatch(inv: Invocation, w: Walker, shellState: State): void {
  const program = inv.program;
  if (program === "find") return find(w, inv);
  if (program === "fd" || program === "fdfind") return fd(w, inv);
  if (program === "at" || program === "batch") return scheduled(w, inv);
  if (EVAL_COMMANDS.includes(program)) return evalCommand(w, inv);
  if (SOURCE_COMMANDS.includes(program)) return sourceCommand(w, inv);
  const read = readInterpreter(
    program,
    inv.words.slice(1).map((x) => x.word),
  );
  if (read !== undefined) return interpreter(w, read, inv);
  if (STDIN_EVALUATORS.includes(program.toLowerCase())) {
    // `iwr https://x | iex`: PowerShell's Invoke-Expression runs its argument or what is piped in
    const host = w.emit(inv.words, inv.base, inv.ctx);
    const inner = hostCtx(inv.ctx, { host, base: inv.base });
    if (inv.words.length === 1)
      stdinCode(w, {
        language: "powershell",
        interpreter: program,
        host,
        base: inv.base,
        hostCtx: inner,
        ctx: inv.ctx,
      });
    else
      shellString(w, {
        word: joinWords(inv.words.slice(1)),
        interpreter: program,
        host,
        base: inv.base,
        ctx: inner,
        via: "shell-string",
        language: "powershell",
      });
    return;
  }
  if (program === "trap") return trap(w, inv, shellState);
  if (program === "git") {
    // `git tag -d $(git tag -l)`: every tag
    git(w, deleteEveryListed(w, inv));
    return;
  }
  if (AWK_PROGRAMS.includes(program)) return awk(w, inv);
  if (SED_PROGRAMS.includes(program)) return sed(w, inv);
  // a listing of every container or object fed to a delete (`docker rm -f $(docker ps -aq)`)
  const listed = deleteEveryListed(w, inv);
  if (container(w, listed)) return;
  if (compiler(w, listed)) return;
  if (writtenProgram(w, listed)) return;
  const call = killEveryProcess(w, listed);
  const index = w.emit(call.words, call.base, call.ctx);
  embedded(w, call, index);
  builtinState(w, call, shellState);
}

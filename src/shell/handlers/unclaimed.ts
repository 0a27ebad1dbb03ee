/**
 * A program no row of the registry claims (and a family's command its handler does not take, such
 * as `docker ps`): a listing of every container, object or process fed to a delete or a `kill`
 * is spelled as the program spells "every one" (`listings.ts`, `processes.ts`), a script written
 * earlier on the line and run by its path is walked as that script, and otherwise the command is
 * recorded as it is, with the commands its options embed and the builtins' effect on the shell.
 */
import type { Invocation } from "../walk/context.ts";
import { builtinState } from "./builtins.ts";
import { writtenProgram } from "./code.ts";
import type { Walk } from "./contract.ts";
import { embedded } from "./git.ts";
import { deleteEveryListed } from "./listings.ts";
import { killEveryProcess } from "./processes.ts";

/** The handler of a program no row of the registry claims. */
export function unclaimed(w: Walk, inv: Invocation): void {
  unclaimedListed(w, deleteEveryListed(w, inv));
}

/** The default handler, after `deleteEveryListed` rewrote the words (it is not run twice: `xargs` input would be added again). */
export function unclaimedListed(w: Walk, listed: Invocation): void {
  if (writtenProgram(w, listed)) return;
  const call = killEveryProcess(w, listed);
  const index = w.emit(call.words, call.base, call.ctx);
  embedded(w, call, index);
  builtinState(w, call);
}

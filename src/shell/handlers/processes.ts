/**
 * Process listings fed to `kill`: `ps -e`, `ps aux`, `pgrep -u root`, `pgrep .` print the pid of
 * every process (of a user). Passed to `kill` by a substitution or by `xargs` (`kill -9 $(ps -e -o
 * pid=)`, `ps aux | awk '{print $2}' | xargs kill -9`) they signal every process, which `kill`
 * itself spells `-- -1`: the words are replaced by that. A listing narrowed on the way (`pgrep
 * node`, `ps -C node`, `grep node`, an awk pattern) is a run-time argument as before.
 */
import { detailedView } from "../detailed-view.ts";
import { POWERSHELL_PROCESS_FLAGS, PS_SELECTORS } from "../tables/programs.ts";
import type { ShellCommand } from "../types.ts";
import { synthetic, type Invocation } from "../walk/context.ts";
import type { Walk } from "./contract.ts";
import { passesOn, replaceListings } from "./listings.ts";

/** `pgrep` patterns that match every process name. */
const EVERYTHING: readonly string[] = ["", ".", ".*", ".+", "^", "$", "^.*", "^.*$", "^.+$"];

/** True when the command prints every process's pid or passes such a list on unnarrowed. */
function role(c: ShellCommand): "lister" | "pass" | "narrow" {
  const values = c.args.map((a) => a.value);
  switch (c.program) {
    case "ps":
      return values.some((v) => v !== undefined && PS_SELECTORS.some((s) => v === s || v.startsWith(`${s}=`)))
        ? "narrow"
        : "lister";
    case "pgrep": {
      const patterns = detailedView("pgrep", c.args).operands;
      return patterns.every((p) => p.word.value !== undefined && EVERYTHING.includes(p.word.value))
        ? "lister"
        : "narrow";
    }
    default: {
      const program = c.program?.toLowerCase();
      // PowerShell `Get-Process` with no name, id or other selection lists every process
      if (program === "get-process" || program === "gps")
        return c.args.every((a) => a.value !== undefined && POWERSHELL_PROCESS_FLAGS.includes(a.value.toLowerCase()))
          ? "lister"
          : "narrow";
      // `grep -v grep` drops one line, `awk '{print $2}'` a column; a positive pattern selects processes
      return passesOn(c) ? "pass" : "narrow";
    }
  }
}

/** True when the commands producing a text are a listing of every process, unnarrowed. */
export function listsEveryProcess(w: Walk, producers: readonly number[]): boolean {
  const roles = producers.map((i) => {
    const c = w.command(i);
    return c === undefined ? "narrow" : role(c);
  });
  return roles.includes("lister") && !roles.includes("narrow");
}

/**
 * `kill`'s words with every whole substitution that lists every process replaced by `-- -1`, and
 * `-- -1` added when `xargs` feeds it such a listing (`ps -e -o pid= | xargs sudo kill`).
 */
export function killEveryProcess(w: Walk, inv: Invocation): Invocation {
  const stopProcess = ["stop-process", "spps"].includes(inv.program.toLowerCase());
  if (stopProcess) {
    // `Get-Process | Stop-Process -Force`: the processes come from the pipeline, every one of them
    const selects = inv.words
      .slice(1)
      .some((x) => !POWERSHELL_PROCESS_FLAGS.includes(x.word.value?.toLowerCase() ?? ""));
    if (selects || !listsEveryProcess(w, inv.ctx.stdin?.upstream ?? [])) return inv;
    return { ...inv, words: [...inv.words, synthetic("*")] };
  }
  if (inv.program !== "kill") return inv;
  return replaceListings(w, inv, (producers) =>
    listsEveryProcess(w, producers) ? [synthetic("--"), synthetic("-1")] : undefined,
  );
}

/**
 * Process listings fed to `kill`: `ps -e`, `ps aux`, `pgrep -u root`, `pgrep .` print the pid of
 * every process (of a user). Passed to `kill` by a substitution or by `xargs` (`kill -9 $(ps -e -o
 * pid=)`, `ps aux | awk '{print $2}' | xargs kill -9`) they signal every process, which `kill`
 * itself spells `-- -1`: the words are replaced by that. A listing narrowed by one process name
 * (`pgrep sshd`, `pidof sshd`, `ps -C sshd`, `ps aux | grep sshd | awk '{print $2}'`, a pid file
 * `cat /run/sshd.pid`) kills the processes of that name, which `kill` is then given by name
 * (`kill -9 sshd`), as `pkill sshd` names them; the parent of the Bash tool's shell (`$PPID`,
 * `ps -o ppid= -p $$`) is the client itself, named `claude`. Other listings (`lsof -ti :3000`, two
 * patterns, an awk pattern) are run-time arguments as before.
 */
import { detailedView } from "../detailed-view.ts";
import { POWERSHELL_PROCESS_FLAGS, PS_SELECTORS } from "../tables/programs.ts";
import type { ShellCommand } from "../types.ts";
import { synthetic, type ArgWord, type Invocation } from "../walk/context.ts";
import type { Walk } from "./contract.ts";
import { passesOn, replaceListings } from "./listings.ts";

/** `pgrep` patterns that match every process name. */
const EVERYTHING: readonly string[] = ["", ".", ".*", ".+", "^", "$", "^.*", "^.*$", "^.+$"];

/** pgrep's options that select a few processes whatever the pattern (`pgrep -P $$`: this shell's children). */
const PGREP_SELECTORS: readonly string[] = [
  "-P",
  "--parent",
  "-g",
  "--pgroup",
  "-s",
  "--session",
  "-t",
  "--terminal",
  "-F",
  "--pidfile",
];

/** True when the command prints every process's pid or passes such a list on unnarrowed. */
function role(c: ShellCommand): "lister" | "pass" | "narrow" {
  const values = c.args.map((a) => a.value);
  switch (c.program) {
    case "ps":
      return values.some((v) => v !== undefined && PS_SELECTORS.some((s) => v === s || v.startsWith(`${s}=`)))
        ? "narrow"
        : "lister";
    case "pgrep": {
      const view = detailedView("pgrep", c.args);
      // children, a process group, a session, a terminal or a pid file select a few processes
      if (PGREP_SELECTORS.some((o) => view.values.has(o))) return "narrow";
      return view.operands.every((p) => p.word.value !== undefined && EVERYTHING.includes(p.word.value))
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

/** The name the client's process goes by, for `$PPID` and `ps -o ppid= -p $$`. */
const CLIENT = "claude";

/**
 * A `grep`/`pgrep` pattern as the process name it selects: anchors dropped, the `[s]shd` trick
 * undone (`^[s]shd$` → `sshd`); other regular expressions are kept as written (they name nothing).
 */
function patternName(pattern: string, fold: boolean): string {
  let name = pattern;
  if (name.startsWith("^")) name = name.slice(1);
  if (name.endsWith("$")) name = name.slice(0, -1);
  if (name.length > 3 && name[0] === "[" && name[2] === "]") name = `${name[1] as string}${name.slice(3)}`;
  return fold ? name.toLowerCase() : name;
}

/** The process a pid file names: `/var/run/sshd.pid` → `sshd`, `/run/nginx/nginx.pid` → `nginx`. */
function pidFileName(path: string | undefined): string | undefined {
  if (path === undefined || !path.endsWith(".pid")) return undefined;
  const name = path.slice(path.lastIndexOf("/") + 1, -".pid".length);
  return name.length > 0 ? name : undefined;
}

/** The names `ps -C NAME[,NAME]` (or `-CNAME`) selects; `undefined` without `-C` or with a run-time name. */
function psCommandNames(c: ShellCommand): string[] | undefined {
  const at = c.args.findIndex((a) => a.value === "-C" || (a.value?.startsWith("-C") === true && a.value.length > 2));
  if (at < 0) return undefined;
  const value = c.args[at]?.value === "-C" ? c.args[at + 1]?.value : c.args[at]?.value?.slice(2);
  return value === undefined || value.length === 0 ? undefined : value.split(",");
}

/** `ps -o ppid= -p $$`: the parent of this shell. */
function parentOfShell(c: ShellCommand): boolean {
  return (
    c.args.some((a) => a.value?.includes("ppid") === true) && c.args.some((a) => a.text.replaceAll('"', "") === "$$")
  );
}

/**
 * The process names a listing selects, when one selection names them (`pgrep -x init`, `pidof
 * sshd`, `ps -C sshd`, `ps aux | grep -i claude | grep -v grep | awk '{print $2}'`, `cat
 * /run/sshd.pid`, `ps -o ppid= -p $$` the client); `undefined` for other listings.
 */
function namedProcesses(w: Walk, producers: readonly number[]): string[] | undefined {
  const names: string[] = [];
  let listed = false;
  let selections = 0;
  for (const i of producers) {
    const c = w.command(i);
    if (c === undefined) return undefined;
    const view = detailedView(c.program, c.args);
    const operands = view.operands.map((o) => o.word.value);
    switch (c.program) {
      case "pgrep":
      case "pidof": {
        const pidfile = pidFileName(view.values.get("-F")?.at(-1)?.value);
        const given = pidfile === undefined ? operands : [pidfile];
        if (given.length === 0 || given.some((v) => v === undefined)) return undefined;
        names.push(...given.map((v) => patternName(v as string, view.flags.has("-i"))));
        listed = true;
        selections++;
        continue;
      }
      case "ps": {
        listed = true;
        if (parentOfShell(c)) {
          names.push(CLIENT);
          selections++;
          continue;
        }
        const command = psCommandNames(c);
        if (command !== undefined) {
          names.push(...command);
          selections++;
        } else if (role(c) === "narrow") return undefined;
        continue;
      }
      case "cat": {
        if (operands.length === 0) continue;
        const files = operands.map(pidFileName);
        if (files.some((f) => f === undefined)) return undefined;
        names.push(...(files as string[]));
        listed = true;
        selections++;
        continue;
      }
      case "grep":
      case "egrep":
      case "fgrep": {
        if (passesOn(c)) continue;
        const pattern = view.values.get("-e")?.[0]?.value ?? operands[0];
        if (pattern === undefined || operands.length > (view.values.has("-e") ? 0 : 1)) return undefined;
        names.push(patternName(pattern, view.flags.has("-i")));
        selections++;
        continue;
      }
      case "awk":
      case "gawk":
      case "mawk": {
        if (passesOn(c)) continue;
        // `awk '/sshd/ {print $2}'`: the lines matching one name, a column of them
        const selected = /^\/([^/\\]+)\/\s*\{\s*print\s+\$\d+\s*\}$/.exec(operands[0]?.trim() ?? "")?.[1];
        if (selected === undefined || operands.length > 1) return undefined;
        names.push(patternName(selected, false));
        selections++;
        continue;
      }
      default:
        if (!passesOn(c)) return undefined;
    }
  }
  // two selections choose what matches both, which no one name says
  return listed && selections === 1 && names.length > 0 ? names : undefined;
}

/** A word that is `$PPID` alone: at the top of the line, the parent of the Bash tool's shell, the client. */
const isParentPid = (x: ArgWord, depth: number): boolean =>
  depth === 0 && x.word.value === undefined && ["$PPID", "${PPID}"].includes(x.word.text.replaceAll('"', ""));

/**
 * `kill`'s words with every whole substitution that lists every process replaced by `-- -1`, and
 * `-- -1` added when `xargs` feeds it such a listing (`ps -e -o pid= | xargs sudo kill`); a
 * listing of named processes, and `$PPID`, by those names (`kill -9 $(pgrep sshd)` → `kill -9 sshd`).
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
  const listed = replaceListings(w, inv, (producers) => {
    if (listsEveryProcess(w, producers)) return [synthetic("--"), synthetic("-1")];
    return namedProcesses(w, producers)?.map(synthetic);
  });
  const depth = inv.ctx.depth;
  if (!listed.words.some((x) => isParentPid(x, depth))) return listed;
  return { ...listed, words: listed.words.map((x) => (isParentPid(x, depth) ? synthetic(CLIENT) : x)) };
}

/**
 * Builtins that change the value environment: `cd`/`pushd`/`popd`, `export`/`declare`/`local`,
 * `read`/`unset`/`mapfile`, `set --`/`shift`, `alias`; and `trap`, whose handler is a shell
 * string run later.
 */
import { printfOutput } from "../echo.ts";
import { scanOptions } from "../option-scanner.ts";
import { assign, copyState, resolveDir, varValue, type Invocation, type State } from "../walk/context.ts";
import type { Walk } from "./contract.ts";
import { hostCtx, shellString } from "./code.ts";

/** Characters of the default IFS. */
const BLANKS = " \t\n";

/**
 * `read [-r] [-a NAME] [-d DELIM] NAMES` over a known text: the first record split by IFS (from
 * an `IFS=...` prefix, else blanks), the last name taking the rest. False for what is not
 * emulated (`-n`, `-t`, `-u`, ...).
 */
function readKnown(state: State, inv: Invocation, text: string): boolean {
  let raw = false;
  let array: string | undefined;
  let delimiter = "\n";
  const names: string[] = [];
  const args = inv.words.slice(1).map((a) => a.word.value);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === undefined) return false;
    if (!a.startsWith("-") || a === "-") {
      names.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j] as string;
      if (c === "r" || c === "s" || c === "e") {
        if (c === "r") raw = true;
        continue;
      }
      if (c !== "a" && c !== "d" && c !== "p") return false;
      const value = j + 1 < a.length ? a.slice(j + 1) : args[++i];
      if (value === undefined) return false;
      if (c === "a") array = value;
      if (c === "d") delimiter = value === "" ? "\0" : (value[0] as string);
      break;
    }
  }
  const ifsAssignment = inv.base.assignments.find((x) => x.name === "IFS");
  const ifs = ifsAssignment === undefined ? BLANKS : ifsAssignment.value.value;
  if (ifs === undefined) return false;
  const end = text.indexOf(delimiter);
  let line = end < 0 ? text : text.slice(0, end);
  if (!raw) line = line.replace(/\\(.)/g, "$1");
  const white = [...ifs].filter((c) => BLANKS.includes(c)).join("");
  const trimmed = ifs === "" ? line : trimChars(line, white);
  const fields: string[] = [];
  let current = "";
  for (const c of trimmed) {
    if (ifs.includes(c)) {
      if (!white.includes(c) || current.length > 0) fields.push(current);
      current = "";
    } else current += c;
  }
  if (current.length > 0 || fields.length === 0) fields.push(current);
  if (array !== undefined) {
    assign(state, array, { set: true, value: fields[0], elements: fields });
    return true;
  }
  const targets = names.length === 0 ? ["REPLY"] : names;
  targets.forEach((name, i) => {
    // the last name takes the rest of the line
    const value = i === targets.length - 1 ? rest(trimmed, ifs, white, i) : (fields[i] ?? "");
    assign(state, name, { set: true, value });
  });
  return true;
}

/** The line after its first `skip` fields (what the last `read` name receives). */
function rest(line: string, ifs: string, white: string, skip: number): string {
  let at = 0;
  for (let n = 0; n < skip && at < line.length; n++) {
    while (at < line.length && !ifs.includes(line[at] as string)) at++;
    // one separator, with the IFS blanks around it
    while (at < line.length && white.includes(line[at] as string)) at++;
    if (at < line.length && ifs.includes(line[at] as string) && !white.includes(line[at] as string)) at++;
    while (at < line.length && white.includes(line[at] as string)) at++;
  }
  return trimChars(line.slice(at), white);
}

function trimChars(text: string, chars: string): string {
  let a = 0;
  let b = text.length;
  while (a < b && chars.includes(text[a] as string)) a++;
  while (b > a && chars.includes(text[b - 1] as string)) b--;
  return text.slice(a, b);
}

/** Keeps `inv.shell` (the shell's own state, not a per-command copy) honest after a builtin. */
export function builtinState(w: Walk, inv: Invocation): void {
  const state = inv.shell;
  const args = inv.words.slice(1);
  switch (inv.program) {
    case "cd":
    case "pushd": {
      const scan = scanOptions(
        args.map((a) => a.word),
        { options: { "-L": 0, "-P": 0, "-e": 0, "-@": 0, "-n": 0 }, permute: false },
      );
      if (scan.events.some((e) => e.kind === "option" && e.name === "-n")) return;
      const target = args[scan.next]?.word;
      let cwd: string | undefined;
      if (target === undefined) cwd = inv.program === "cd" ? varValue(state, "HOME") : undefined;
      // `cd -`: back to the previous directory
      else if (target.value === "-" && inv.program === "cd") cwd = varValue(state, "OLDPWD");
      else if (
        target.value === undefined ||
        target.glob ||
        target.value === "-" ||
        (inv.program === "pushd" && (target.value.startsWith("+") || target.value.startsWith("-")))
      )
        cwd = undefined;
      else cwd = resolveDir(state.cwd, target.value);
      assign(state, "OLDPWD", state.cwd === undefined ? undefined : { set: true, value: state.cwd });
      state.cwd = cwd;
      assign(state, "PWD", cwd === undefined ? undefined : { set: true, value: cwd });
      return;
    }
    case "popd":
      if (!args.some((a) => a.word.value === "-n")) {
        state.cwd = undefined;
        assign(state, "PWD", undefined);
      }
      return;
    case "export":
    case "declare":
    case "typeset":
    case "local":
    case "readonly":
      for (const a of args) if (a.assignment !== undefined) assign(state, a.assignment.name, a.assignment.binding);
      return;
    case "read":
    case "mapfile":
    case "readarray":
    case "getopts": {
      // `read -r c <<< 'text'`: the variables get the known line
      const text = inv.program === "read" ? w.stdinText(inv.base, inv.ctx) : undefined;
      if (text !== undefined && readKnown(state, inv, text)) return;
      const names = args.filter((a) => a.word.value !== undefined && !a.word.value.startsWith("-"));
      // `docker ps -aq | while read c; do docker rm -f "$c"; done`: one name gets each listed line
      const upstream = inv.ctx.stdin?.upstream ?? [];
      const options = args.every((a) => names.includes(a) || ["-r", "-s"].includes(a.word.value ?? ""));
      if (inv.program === "read" && names.length === 1 && options && upstream.length > 0) {
        assign(state, names[0]!.word.value!, { set: true, value: undefined, listed: upstream });
        return;
      }
      for (const a of names) assign(state, a.word.value!, undefined);
      return;
    }
    case "printf": {
      const v = args[0]?.word.value === "-v" ? args[1]?.word.value : undefined;
      if (v === undefined) return;
      // `printf -v c FORMAT ARGS`: the variable gets what printf would print
      const values = args.slice(2).map((a) => a.word.value);
      const out = values.every((x) => x !== undefined) ? printfOutput(values as string[]) : undefined;
      assign(state, v, out === undefined ? undefined : { set: true, value: out });
      return;
    }
    case "unset":
      for (const a of args)
        if (a.word.value !== undefined && !a.word.value.startsWith("-")) assign(state, a.word.value, { set: false });
      return;
    case "set": {
      // `set -- a b` (and `set a b` without options) replaces the positional parameters
      const dash = args.findIndex((a) => a.word.value === "--");
      const operands =
        dash >= 0
          ? args.slice(dash + 1)
          : args[0]?.word.value?.startsWith("-") === true || args[0]?.word.value?.startsWith("+") === true
            ? undefined
            : args;
      if (operands === undefined || (dash < 0 && operands.length === 0)) return;
      state.positional = [state.positional?.[0] ?? "bash", ...operands.map((a) => a.word.value)];
      return;
    }
    case "shift": {
      const n = Number(args[0]?.word.value ?? "1");
      if (state.positional === undefined) return;
      state.positional = Number.isInteger(n) ? [state.positional[0], ...state.positional.slice(1 + n)] : undefined;
      return;
    }
    case "alias":
      for (const a of args) {
        const v = a.word.value;
        const eq = v?.indexOf("=") ?? -1;
        if (v !== undefined && eq > 0) w.defineAlias(v.slice(0, eq), v.slice(eq + 1));
      }
      return;
    case "unalias":
      for (const a of args) if (a.word.value !== undefined) w.defineAlias(a.word.value, undefined);
      return;
    default:
  }
}

/**
 * `trap 'rm -rf "$tmp"' EXIT`: the handler is a shell string run later. It is walked when the
 * whole line has been, with the variables and the directory as the line leaves them (`trap 'rm -rf
 * "$t"' EXIT; t=$(mktemp -d)` removes the temp directory): a handler runs at the end or on a
 * signal, and what is assigned after the trap is what it sees at the end.
 */
export function trap(w: Walk, inv: Invocation): void {
  const { words, base, ctx } = inv;
  const host = w.emit(words, base, ctx);
  const args = words.slice(1);
  const handler = args[0]?.word.value === "--" ? args[1] : args[0];
  const rest = args.length - (args[0]?.word.value === "--" ? 2 : 1);
  if (handler === undefined || rest < 1 || handler.word.value === "-" || handler.word.value?.startsWith("-") === true)
    return;
  const live = inv.shell;
  w.atExit(() => {
    const later = hostCtx({ ...ctx, state: live }, { host });
    shellString(w, { word: handler, interpreter: "trap", host, base, ctx: later, via: "shell-string" });
  });
}

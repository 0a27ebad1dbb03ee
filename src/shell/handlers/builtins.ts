/**
 * Builtins that change the value environment: `cd`/`pushd`/`popd`, `export`/`declare`/`local`,
 * `read`/`unset`/`mapfile`, `set --`/`shift`, `alias`; and `trap`, whose handler is a shell
 * string run later.
 */
import { scanOptions } from "../_options.ts";
import { assign, copyState, resolveDir, varValue, type Invocation, type State } from "../walk/context.ts";
import type { Walker } from "../walk/traverse.ts";
import { hostCtx, shellString } from "./code.ts";

/** Keeps `state` (the shell's own, not a per-command copy) honest after a builtin. */
export function builtinState(w: Walker, inv: Invocation, state: State): void {
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
      else if (
        target.value === undefined ||
        target.glob ||
        target.value === "-" ||
        (inv.program === "pushd" && (target.value.startsWith("+") || target.value.startsWith("-")))
      )
        cwd = undefined;
      else cwd = resolveDir(state.cwd, target.value);
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
    case "getopts":
      for (const a of args)
        if (a.word.value !== undefined && !a.word.value.startsWith("-")) assign(state, a.word.value, undefined);
      return;
    case "printf": {
      const v = args[0]?.word.value === "-v" ? args[1]?.word.value : undefined;
      if (v !== undefined) assign(state, v, undefined);
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
        if (v !== undefined && eq > 0) w.aliases.set(v.slice(0, eq), v.slice(eq + 1));
      }
      return;
    case "unalias":
      for (const a of args) if (a.word.value !== undefined) w.aliases.delete(a.word.value);
      return;
    default:
  }
}

/** `trap 'rm -rf /tmp/x' EXIT`: the handler is a shell string run later, in an unknown directory. */
export function trap(w: Walker, inv: Invocation): void {
  const { words, base, ctx } = inv;
  const host = w.emit(words, base, ctx);
  const args = words.slice(1);
  const handler = args[0]?.word.value === "--" ? args[1] : args[0];
  const rest = args.length - (args[0]?.word.value === "--" ? 2 : 1);
  if (handler === undefined || rest < 1 || handler.word.value === "-" || handler.word.value?.startsWith("-") === true)
    return;
  const later = hostCtx(ctx, { host });
  const state = copyState(later.state);
  state.cwd = undefined;
  assign(state, "PWD", undefined);
  shellString(w, { word: handler, interpreter: "trap", host, base, ctx: { ...later, state }, via: "shell-string" });
}

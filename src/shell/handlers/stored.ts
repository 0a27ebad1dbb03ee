/**
 * Code stored for a tool to run later, judged as that code when it is stored: `npm pkg set
 * scripts.X=CODE`, `npx husky add HOOK CODE`, and files the line writes that a runner reads (a
 * Makefile, a package.json, a justfile, a Taskfile, a git hook). The stored code is walked as it
 * would run (every target, script, task or hook, not only one a command names), in a fresh shell
 * in the file's directory: nothing the line set holds there.
 */
import { posix } from "node:path";
import type { ArgWord, Base, Ctx } from "../walk/context.ts";
import { hostCtx } from "./code.ts";
import type { Walk } from "./contract.ts";
import { diskShell } from "./on-disk.ts";

/** A fresh shell in `dir` started by the command at `host` (the one that stores the code). */
export function laterCtx(w: Walk, ctx: Ctx, host: number, dir: string | undefined): Ctx {
  const inner = hostCtx(ctx, { host });
  inner.state.cwd = dir;
  inner.state.vars = new Map([
    ["HOME", { set: true, value: w.options.home }],
    ["PWD", dir === undefined ? undefined : { set: true, value: dir }],
  ]);
  inner.state.positional = undefined;
  return { ...inner, stdin: undefined, stdinRedirects: [] };
}

/** Shell code stored at `shown` (line `line`, 0 when unknown), judged now as it will run in `dir`. */
export function storedShell(
  w: Walk,
  o: {
    readonly code: string;
    readonly shown: string;
    readonly line: number;
    readonly interpreter: string;
    readonly host: number;
    readonly base: Base;
    readonly ctx: Ctx;
    readonly dir: string | undefined;
  },
): void {
  diskShell(w, {
    code: o.code,
    shown: o.shown,
    line: o.line,
    interpreter: o.interpreter,
    host: o.host,
    base: o.base,
    ctx: laterCtx(w, o.ctx, o.host, o.dir),
  });
}

/** The script a `npm pkg set` key names (`scripts.clean`, `scripts[clean]`), else `undefined`. */
function scriptKey(key: string): string | undefined {
  if (key.startsWith("scripts.")) return key.slice("scripts.".length);
  if (key.startsWith("scripts[") && key.endsWith("]"))
    return key.slice("scripts[".length, -1).replace(/^["']|["']$/g, "");
  return undefined;
}

/**
 * `npm pkg set scripts.X=CODE ...`, `pnpm pkg set ...`, `npm set-script X CODE`: the scripts they
 * store are judged as the code they are (with `--json`, a value is a JSON string). True when the
 * command was such a call.
 */
export function storedPackageScripts(
  w: Walk,
  o: {
    readonly program: string;
    readonly words: readonly ArgWord[];
    readonly host: number;
    readonly base: Base;
    readonly ctx: Ctx;
  },
): boolean {
  const operands = o.words.slice(1).filter((x) => x.word.value === undefined || !x.word.value.startsWith("-"));
  const values = operands.map((x) => x.word.value);
  const json = o.words.some((x) => x.word.value === "--json");
  const dir = o.ctx.state.cwd;
  const shown = "package.json";
  const store = (name: string, code: string | undefined): void => {
    if (code === undefined) {
      w.report("dynamic-code", o.base.text, `the script \`${name}\` stored is only known at run time`);
      return;
    }
    storedShell(w, {
      code,
      shown: `${shown} scripts.${name}`,
      line: 0,
      interpreter: o.program,
      host: o.host,
      base: o.base,
      ctx: o.ctx,
      dir,
    });
  };
  if (values[0] === "set-script" && values[1] !== undefined && operands[2] !== undefined) {
    store(values[1], values[2]);
    return true;
  }
  if (values[0] !== "pkg" || values[1] !== "set") return false;
  for (const word of operands.slice(2)) {
    const v = word.word.value;
    // `"scripts.x=$CMD"`: the key is still written out
    const text = v ?? word.word.text.replace(/^["']|["']$/g, "");
    const eq = text.indexOf("=");
    if (eq <= 0) continue;
    const name = scriptKey(text.slice(0, eq));
    if (name === undefined) continue;
    let code = v === undefined ? undefined : v.slice(eq + 1);
    if (json && code !== undefined)
      try {
        const parsed: unknown = JSON.parse(code);
        code = typeof parsed === "string" ? parsed : undefined;
      } catch {
        code = undefined;
      }
    store(name, code);
  }
  return true;
}

/** The directory of a file path (`/work/app/Makefile` → `/work/app`). */
export const dirOf = (path: string): string => posix.dirname(path);

/**
 * Programs that run a script file whose command lines are not an interpreter's of
 * `tables/interpreters.ts`: TypeScript runners (`tsx x.ts`, `ts-node x.ts`, `vite-node`), Deno
 * (`deno run -A x.ts`, `deno x.ts`, `deno task NAME` from deno.json), Bun's files (`bun x.ts`,
 * `bun run x.ts`) and `python -m pkg.mod` of a module in the working directory. The file is read
 * from disk at hook time (`on-disk.ts`) and judged as the code it is (`code.ts`, `scriptFile`).
 */
import { posix } from "node:path";
import { readPackageJson } from "../formats/index.ts";
import { readInterpreter } from "../interpreter-input.ts";
import { SCRIPT_EXTENSIONS, SCRIPT_RUNNER_OPTIONS } from "../tables/runners.ts";
import type { CodeLanguage } from "../types.ts";
import type { ArgWord, Invocation } from "../walk/context.ts";
import { hostCtx, interpreter, runCode, scriptFile } from "./code.ts";
import type { Walk } from "./contract.ts";
import { diskShell, findUp, hasDisk, inDir, noteFile, readCode, unreadCode } from "./on-disk.ts";

/** The language of a file by its extension (`x.ts` → node), when lanes reads that language. */
export function extensionLanguage(path: string): CodeLanguage | undefined {
  const dot = path.lastIndexOf(".");
  if (dot < 0 || dot < path.lastIndexOf("/")) return undefined;
  const ext = path.slice(dot);
  return Object.hasOwn(SCRIPT_EXTENSIONS, ext) ? SCRIPT_EXTENSIONS[ext] : undefined;
}

/**
 * The script operand of a runner's argv: the first word that is not an option or an option's
 * value (`tsx --tsconfig t.json x.ts`), after a leading subcommand in `skip` (`tsx watch x.ts`).
 */
function operand(
  words: readonly ArgWord[],
  from: number,
  values: readonly string[],
  skip: readonly string[] = [],
): number | undefined {
  for (let i = from; i < words.length; i++) {
    const v = words[i]?.word.value;
    if (v === undefined) return i;
    if (v === "--") return i + 1 < words.length ? i + 1 : undefined;
    if (v.startsWith("-") && v.length > 1) {
      if (!v.includes("=") && values.includes(v)) i++;
      continue;
    }
    if (i === from && skip.includes(v)) continue;
    return i;
  }
  return undefined;
}

/** Runs the script at `words[index]` in `language` (its arguments are the words after it). */
function runScript(w: Walk, inv: Invocation, host: number, index: number, language: CodeLanguage): void {
  const inner = hostCtx(inv.ctx, { host });
  if (language === "shell") inner.state.positional = inv.words.slice(index).map((a) => a.word.value);
  scriptFile(w, {
    language,
    interpreter: inv.program,
    host,
    file: inv.words[index] as ArgWord,
    base: inv.base,
    ctx: inner,
    outer: inv.ctx,
  });
}

/** `tsx x.ts`, `ts-node -P tsconfig.json x.ts`, `tsx watch src/index.ts`, `ts-node -e CODE`. */
export function tsRunner(w: Walk, inv: Invocation): void {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  const spec = SCRIPT_RUNNER_OPTIONS[inv.program] ?? SCRIPT_RUNNER_OPTIONS["tsx"]!;
  const values = inv.words.map((x) => x.word.value);
  if (values.some((v) => v !== undefined && spec.noRun.includes(v))) return;
  const code = values.findIndex((v) => v !== undefined && spec.code.includes(v));
  if (code > 0) {
    const word = inv.words[code + 1];
    if (word !== undefined)
      runCode(w, {
        language: "node",
        word,
        interpreter: inv.program,
        host,
        base: inv.base,
        ctx: hostCtx(inv.ctx, { host }),
      });
    return;
  }
  const index = operand(inv.words, 1, spec.values, spec.subcommands);
  if (index !== undefined) runScript(w, inv, host, index, "node");
}

/**
 * Bun's files: `bun x.ts`, `bun run ./x.js`, `bun --watch src/index.ts`; true when the command
 * runs a file (a name with a script extension or a `/`), false for scripts and subcommands.
 */
export function bunFile(w: Walk, inv: Invocation): boolean {
  const spec = SCRIPT_RUNNER_OPTIONS["bun"]!;
  let index = operand(inv.words, 1, spec.values);
  if (index !== undefined && inv.words[index]?.word.value === "run") index = operand(inv.words, index + 1, spec.values);
  const v = index === undefined ? undefined : inv.words[index]?.word.value;
  if (index === undefined || v === undefined || (!v.includes("/") && extensionLanguage(v) === undefined)) return false;
  const host = w.emit(inv.words, inv.base, inv.ctx);
  runScript(w, inv, host, index, extensionLanguage(v) === "shell" ? "shell" : "node");
  return true;
}

/**
 * `deno run [options] x.ts`, `deno x.ts`, `deno task NAME` (deno.json's tasks), `deno eval CODE`
 * (the interpreter's); other subcommands run no file of the project lanes reads.
 */
export function deno(w: Walk, inv: Invocation): void {
  const read = readInterpreter(
    inv.program,
    inv.words.slice(1).map((x) => x.word),
  );
  if (read?.input.kind === "code") {
    interpreter(w, inv);
    return;
  }
  const host = w.emit(inv.words, inv.base, inv.ctx);
  const spec = SCRIPT_RUNNER_OPTIONS["deno"]!;
  const first = operand(inv.words, 1, spec.values);
  const sub = first === undefined ? undefined : inv.words[first]?.word.value;
  if (first === undefined || sub === undefined) return;
  if (sub === "task") {
    denoTask(w, inv, host, first + 1);
    return;
  }
  if (sub === "run" || sub === "serve") {
    const index = operand(inv.words, first + 1, spec.values);
    if (index !== undefined && denoMayChange(inv, index)) runScript(w, inv, host, index, "node");
    return;
  }
  // `deno x.ts`: a file, not a subcommand
  if (spec.subcommands.includes(sub) || (!sub.includes("/") && extensionLanguage(sub) === undefined)) return;
  if (denoMayChange(inv, first)) runScript(w, inv, host, first, "node");
}

/**
 * Deno runs a file with the permissions its options grant: without write, run, FFI or network
 * access (`deno run --allow-read x.ts`), the script cannot change the disk, start a program or send
 * anything, and is not read.
 */
function denoMayChange(inv: Invocation, script: number): boolean {
  return inv.words.slice(1, script).some((x) => {
    const v = x.word.value;
    if (v === undefined) return true;
    const name = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
    return DENO_GRANTS.includes(name) || (/^-[A-Za-z]+$/.test(v) && [...v.slice(1)].some((c) => "AWNP".includes(c)));
  });
}

/** Deno's options that let a script change the disk, run programs or reach the network. */
const DENO_GRANTS = ["--allow-all", "--allow-write", "--allow-run", "--allow-ffi", "--allow-net", "--permission-set"];

/** `deno task NAME`: the task of deno.json(c) (or a package.json script), run by Deno's shell. */
function denoTask(w: Walk, inv: Invocation, host: number, from: number): void {
  if (!hasDisk(w)) return;
  const index = operand(inv.words, from, SCRIPT_RUNNER_OPTIONS["deno"]!.values);
  const name = index === undefined ? undefined : inv.words[index]?.word.value;
  if (index === undefined) return;
  const file = findUp(w, inv.ctx.state.cwd, ["deno.json", "deno.jsonc", "package.json"]);
  if (file === undefined) return;
  const as = "deno tasks";
  if (file.kind === "unread") {
    unreadCode(w, { file, as, language: "shell", interpreter: "deno", host, text: inv.base.text });
    return;
  }
  if (file.kind !== "text") {
    noteFile(w, file, as);
    return;
  }
  const tasks = readPackageJson(file.text, file.path.endsWith("package.json") ? "scripts" : "tasks").scripts;
  if (name === undefined) {
    unreadCode(w, {
      file: { kind: "unread", shown: file.shown, why: "runs a task named only at run time" },
      as,
      language: "shell",
      interpreter: "deno",
      host,
      text: inv.base.text,
    });
    return;
  }
  const task = tasks?.get(name);
  noteFile(w, file, as, task === undefined ? `no task \`${name}\`: nothing runs` : `task \`${name}\``);
  if (task === undefined) return;
  diskShell(w, {
    code: task.code,
    shown: file.shown,
    line: task.line,
    interpreter: "deno",
    host,
    base: inv.base,
    ctx: inDir(hostCtx(inv.ctx, { host }), posix.dirname(file.path)),
    args: inv.words.slice(index + 1).map((a) => a.word.value),
  });
}

/**
 * `python -m pkg.mod`: a module of the working directory (Python puts it first on the path) is
 * the file `pkg/mod.py` or `pkg/mod/__main__.py`, read as a script; an installed module is not.
 */
export function pythonModule(w: Walk, inv: Invocation, host: number): void {
  const values = inv.words.map((x) => x.word.value);
  const at = values.indexOf("-m");
  const module = at < 0 ? undefined : values[at + 1];
  if (module === undefined || !hasDisk(w) || !/^[A-Za-z_][\w.]*$/.test(module)) return;
  const base = module.replaceAll(".", "/");
  for (const path of [`${base}.py`, `${base}/__main__.py`]) {
    const file = readCode(w, path, inv.ctx.state.cwd);
    if (file === undefined || file.kind === "missing") continue;
    const word: ArgWord = { word: { text: module, value: path, glob: false }, producers: [], substitution: undefined };
    scriptFile(w, {
      language: "python",
      interpreter: inv.program,
      host,
      file: word,
      base: inv.base,
      ctx: hostCtx(inv.ctx, { host }),
      outer: inv.ctx,
    });
    return;
  }
}

/**
 * Code handed to shells and interpreters: `bash -c STR`, `eval`, `source`/`.`, `python -c`,
 * heredocs and herestrings, text piped in, substitutions (`sh -c "$(...)"`, `bash <(...)`) and
 * scripts written earlier on the same line. Statically known text is analysed as the code it is
 * (one level deeper, bounded by `maxDepth`); text only known at run time is `dynamic-code`, except
 * the output of well-known environment generators (`eval "$(ssh-agent -s)"`).
 */
import { findCalls, type CodeTokenLanguage } from "../code/index.ts";
import { interpreterName, readInterpreter } from "../interpreter-input.ts";
import { CODE_GENERATORS, COMPLETION_WORDS, INTERPRETERS, SCRIPT_RUNNERS } from "../tables/interpreters.ts";
import type { CodeLanguage, Via } from "../types.ts";
import {
  copyState,
  emptyBase,
  joinWords,
  plain,
  resolveDir,
  synthetic,
  varValue,
  withVia,
  type ArgWord,
  type Base,
  type Ctx,
  type Invocation,
} from "../walk/context.ts";
import type { Walk, WrittenFile } from "./contract.ts";
import { noteFile, readCode, unreadCode } from "./on-disk.ts";
import { remoteCodeIn } from "./remote-code.ts";
import { extensionLanguage, pythonModule } from "./scripts.ts";
import { EXTENSION_RUNNERS } from "../tables/runners.ts";

/** How a host command starts the code it runs (options object of {@link hostCtx}). */
export interface HostOptions {
  /** Wrapper name recorded on the commands inside (`su`, `ssh`); none for shells. */
  readonly wrapper?: string;
  /** Index of the host command. */
  readonly host: number;
  /** The code runs on another machine or in a container: nothing of the local state holds. */
  readonly remote?: boolean;
  /** With `remote`: the home directory there, when known (`ssh user@host`: that user's home). */
  readonly home?: string | undefined;
  /** The host's own stdin redirections feed the commands inside. */
  readonly base?: Base;
}

/** The context of commands a host command (`ssh`, `su -c`, `bash -c`) starts; they inherit its stdin. */
export function hostCtx(ctx: Ctx, o: HostOptions): Ctx {
  const state = copyState(ctx.state);
  if (o.remote === true) {
    state.cwd = undefined;
    state.vars = new Map([
      ["HOME", o.home === undefined ? undefined : { set: true, value: o.home }],
      ["PWD", undefined],
    ]);
    state.positional = undefined;
  }
  const stdinRedirects = o.base === undefined ? ctx.stdinRedirects : [...ctx.stdinRedirects, ...o.base.stdinRedirects];
  return {
    ...ctx,
    wrappers: o.wrapper === undefined ? ctx.wrappers : [...ctx.wrappers, o.wrapper],
    state,
    launchedBy: o.host,
    redirects: [],
    stdinRedirects,
  };
}

/** A shell string to analyse (options object of {@link shellString}). */
export interface ShellStringOptions {
  readonly word: ArgWord;
  readonly interpreter: string;
  readonly host: number;
  readonly base: Base;
  readonly ctx: Ctx;
  readonly via: Via;
  /** Runs in the current shell (`eval`, `source`): its `cd` and assignments stay. */
  readonly sameShell?: boolean;
  /** The language recorded (shell unless PowerShell text is walked as shell syntax). */
  readonly language?: CodeLanguage;
  /** The code was read from this file on disk (its text starts at `line`, default 1). */
  readonly disk?: DiskSource;
}

/** A file on disk the code was read from (`shown` as messages show it), and the line its text starts on. */
export interface DiskSource {
  readonly shown: string;
  readonly line?: number;
  /** The file's absolute path, when the whole file is the code (a script: judged once per chain). */
  readonly path?: string;
}

/** A shell string (`bash -c`, `eval`, `su -c`, `ssh host ...`): parsed and walked one level deeper. */
export function shellString(w: Walk, o: ShellStringOptions): void {
  const language = o.language ?? "shell";
  const code = o.word.word.value ?? (o.word.substitution !== undefined ? o.word.output : undefined);
  if (code === undefined) {
    codeSource(w, { language, interpreter: o.interpreter, host: o.host, word: o.word, text: o.base.text });
    // PowerShell's own variables (`-Confirm:$false`, `$true`) read as unset shell variables in double
    // quotes: the code is still unknown (asked), and the commands it names as written are walked too
    const written = language === "powershell" ? asWritten(o.word.word.text) : undefined;
    if (written !== undefined)
      shellString(w, { ...o, word: plain({ text: o.word.word.text, value: written, glob: false }) });
    return;
  }
  w.addCode({
    language,
    interpreter: o.interpreter,
    command: o.host,
    source: o.disk === undefined ? "literal" : "disk",
    code,
    ...(o.disk !== undefined && { path: o.disk.shown }),
  });
  if (language === "powershell") remoteCodeIn(w, { language, code, ctx: o.ctx, host: o.host });
  if (w.beyondDepth(o.ctx, o.disk === undefined ? code : `${o.base.text} (${o.disk.shown})`)) return;
  const state = o.sameShell === true ? o.ctx.state : copyState(o.ctx.state);
  if (o.sameShell !== true)
    for (const a of o.base.assignments)
      state.vars.set(a.name, a.value.value === undefined ? undefined : { set: true, value: a.value.value });
  w.parseAndWalk(code, {
    ...o.ctx,
    via: withVia(o.ctx, o.via),
    depth: o.ctx.depth + 1,
    state,
    launchedBy: o.host,
    frames: o.sameShell === true ? o.ctx.frames : [],
    ...(o.disk !== undefined && { origin: { file: o.disk.shown, line: o.disk.line ?? 1, text: code } }),
  });
}

/** The text of one double-quoted word without its quotes, when nothing in it runs in the outer shell. */
function asWritten(text: string): string | undefined {
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return undefined;
  const inner = text.slice(1, -1);
  return inner.includes('"') || inner.includes("`") || inner.includes("$(") || inner.includes("\\") ? undefined : inner;
}

/** A non-literal code word (options object of {@link codeSource}). */
interface CodeSourceOptions {
  readonly language: CodeLanguage;
  readonly interpreter: string;
  readonly host: number;
  readonly word: ArgWord;
  readonly text: string;
}

/** Records a non-literal code word: a substitution's producers, or an unknown value; unknown code is `dynamic-code`. */
export function codeSource(w: Walk, o: CodeSourceOptions): void {
  const source =
    o.word.substitution === "command"
      ? "command-substitution"
      : o.word.substitution === "process"
        ? "process-substitution"
        : "dynamic";
  w.addCode({ language: o.language, interpreter: o.interpreter, command: o.host, source, producers: o.word.producers });
  if (source === "dynamic" || !generated(w, o.word.producers)) w.report("dynamic-code", o.text);
}

/** Subcommands that print a program's own shell setup code (`eval "$(tool init bash)"`). */
const SETUP_VERBS: readonly string[] = [
  "completion",
  "completions",
  "init",
  "hook",
  "shell-hook",
  "shellenv",
  "activate",
];

/** The producers are all well-known generators of environment code (`ssh-agent -s`, `pyenv init -`). */
function generated(w: Walk, producers: readonly number[]): boolean {
  if (producers.length === 0) return false;
  return producers.every((i) => {
    const c = w.command(i);
    if (c?.program === undefined) return false;
    // any CLI's completion script (`source <(eksctl completion bash)`)
    if (c.args.some((a) => a.value !== undefined && COMPLETION_WORDS.includes(a.value))) return true;
    // `X init -`, `X shell hook`, `X shellenv`: a program printing its own shell setup code
    if (c.args.slice(0, 2).some((a) => a.value !== undefined && SETUP_VERBS.includes(a.value))) return true;
    const spec = Object.hasOwn(CODE_GENERATORS, c.program) ? CODE_GENERATORS[c.program] : undefined;
    if (spec === undefined) return false;
    return spec.length === 0 || c.args.some((a) => a.value !== undefined && spec.includes(a.value));
  });
}

/** Code given as a word: literal → analysed; substitution → its output or producers; else dynamic. */
export function runCode(
  w: Walk,
  o: {
    language: CodeLanguage;
    word: ArgWord;
    interpreter: string;
    host: number;
    base: Base;
    ctx: Ctx;
    /** The code was read from this file on disk. */
    disk?: DiskSource;
    /** Runs in the current shell (`source FILE`). */
    sameShell?: boolean;
    /** The arguments after the code (`python -c CODE a b`), for `sys.argv` and `process.argv`. */
    argv?: readonly (string | undefined)[];
  },
): void {
  const path = o.disk?.path;
  if (path !== undefined && o.ctx.running?.includes(path) === true) {
    // a script that runs itself again (`sh -e "$0"`): its code is being judged already
    w.noteRead({
      path: o.disk!.shown,
      as: `${o.interpreter} script`,
      outcome: "skipped",
      detail: "runs itself again: judged once",
    });
    return;
  }
  const running = path === undefined ? o.ctx : { ...o.ctx, running: [...(o.ctx.running ?? []), path] };
  if (o.language === "shell" || o.language === "powershell") {
    shellString(w, {
      word: o.word,
      interpreter: o.interpreter,
      host: o.host,
      base: o.base,
      ctx: running,
      via: "shell-string",
      language: o.language,
      ...(o.disk !== undefined && { disk: o.disk }),
      ...(o.sameShell === true && { sameShell: true }),
    });
    return;
  }
  const code = o.word.word.value ?? (o.word.substitution !== undefined ? o.word.output : undefined);
  if (code === undefined) {
    codeSource(w, { language: o.language, interpreter: o.interpreter, host: o.host, word: o.word, text: o.base.text });
    return;
  }
  w.addCode({
    language: o.language,
    interpreter: o.interpreter,
    command: o.host,
    source: o.disk === undefined ? "literal" : "disk",
    code,
    ...(o.disk !== undefined && { path: o.disk.shown }),
  });
  const ctx = o.disk === undefined ? running : { ...running, origin: { file: o.disk.shown, line: o.disk.line ?? 1 } };
  interpreterCode(w, {
    language: o.language,
    code,
    host: o.host,
    ctx,
    ...(o.argv !== undefined && { argv: o.argv }),
    ...(o.disk?.path !== undefined && { script: o.disk.path }),
  });
}

/**
 * Code read from stdin: a heredoc or herestring, a `<` file, or what the pipeline feeds in.
 * Static text is analysed; a file written earlier on the line is followed; other text is
 * `stdin` code with its producers, and `dynamic-code` unless it only comes from files (`cat f | sh`).
 */
export function stdinCode(
  w: Walk,
  o: { language: CodeLanguage; interpreter: string; host: number; base: Base; hostCtx: Ctx; ctx: Ctx },
): void {
  const redirect = o.base.stdinRedirects.at(-1) ?? o.ctx.stdinRedirects.at(-1);
  if (redirect !== undefined) {
    if (redirect.kind === "file" && redirect.word.substitution === "process") {
      // `bash < <(cmd)`: static output is code; otherwise the commands inside produce it
      scriptFile(w, {
        language: o.language,
        interpreter: o.interpreter,
        host: o.host,
        file: redirect.word,
        base: o.base,
        ctx: o.hostCtx,
      });
    } else if (redirect.kind === "file") {
      const written = w.writtenFile(redirect.word.word.value, o.ctx);
      if (written?.text !== undefined)
        runCode(w, {
          language: o.language,
          word: plain({ text: o.base.text, value: written.text, glob: false }),
          interpreter: o.interpreter,
          host: o.host,
          base: o.base,
          ctx: o.hostCtx,
        });
      else if (written !== undefined)
        w.addCode({
          language: o.language,
          interpreter: o.interpreter,
          command: o.host,
          source: "written-file",
          producers: written.producers,
        });
      else if (
        !diskScript(
          w,
          {
            language: o.language,
            interpreter: o.interpreter,
            host: o.host,
            file: redirect.word,
            base: o.base,
            ctx: o.hostCtx,
          },
          undefined,
        )
      )
        w.addCode({ language: o.language, interpreter: o.interpreter, command: o.host, source: "file" });
    } else
      runCode(w, {
        language: o.language,
        word: redirect.word,
        interpreter: o.interpreter,
        host: o.host,
        base: o.base,
        ctx: o.hostCtx,
      });
    return;
  }
  const text = w.command(o.host)?.stdin;
  if (text !== undefined) {
    runCode(w, {
      language: o.language,
      word: plain({ text: o.base.text, value: text, glob: false }),
      interpreter: o.interpreter,
      host: o.host,
      base: o.base,
      ctx: o.hostCtx,
    });
    return;
  }
  const stdin = o.ctx.stdin;
  if (stdin === undefined) return;
  const producers = [...new Set(stdin.upstream)];
  w.addCode({ language: o.language, interpreter: o.interpreter, command: o.host, source: "stdin", producers });
  const fromFiles = stdin.immediate.every((i) => {
    const c = w.command(i);
    return c?.program === "cat" && c.args.length > 0 && c.args.every((a) => a.value !== undefined && !a.glob);
  });
  // `cat x.sh | bash`: the files on disk are the code
  if (fromFiles && catFiles(w, o, stdin.immediate)) return;
  if (!fromFiles && !generated(w, stdin.immediate)) w.report("dynamic-code", o.base.text);
}

/**
 * The files `cat` feeds to a shell or interpreter (`cat a.sh b.sh | bash`), read from disk and
 * run as one text; false without a disk (nothing read: the code is `stdin` from files, as before).
 */
function catFiles(
  w: Walk,
  o: { language: CodeLanguage; interpreter: string; host: number; base: Base; hostCtx: Ctx },
  cats: readonly number[],
): boolean {
  let text = "";
  let first: string | undefined;
  for (const i of cats) {
    const c = w.command(i);
    for (const a of c?.args ?? []) {
      if (a.value?.startsWith("-") === true) continue;
      const written = w.writtenFile(a.value, { ...o.hostCtx, state: { ...o.hostCtx.state, cwd: c?.cwd } });
      if (written !== undefined) return false;
      const file = readCode(w, a.value, c?.cwd, a.text);
      if (file === undefined) return false;
      const as = `${o.interpreter} input`;
      if (file.kind === "missing" || file.kind === "binary") {
        noteFile(w, file, as);
        continue;
      }
      if (file.kind === "unread") {
        unreadCode(w, { file, as, language: o.language, interpreter: o.interpreter, host: o.host, text: o.base.text });
        return true;
      }
      noteFile(w, file, as);
      first ??= file.shown;
      text += file.text;
    }
  }
  if (first === undefined) return true;
  runCode(w, {
    language: o.language,
    word: plain({ text: o.base.text, value: text, glob: false }),
    interpreter: o.interpreter,
    host: o.host,
    base: o.base,
    ctx: o.hostCtx,
    disk: { shown: first },
  });
  return true;
}

/** `eval ARGS`: the arguments joined by spaces run in this shell. */
export function evalCommand(w: Walk, inv: Invocation): void {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  const args = inv.words.slice(1);
  if (args.length === 0) return;
  const inner: Ctx = { ...inv.ctx, launchedBy: host, redirects: [] };
  shellString(w, {
    word: args.length === 1 ? (args[0] as ArgWord) : joinWords(args),
    interpreter: inv.program,
    host,
    base: inv.base,
    ctx: inner,
    via: "shell-string",
    sameShell: true,
  });
}

/** `source FILE` / `. FILE`: a process substitution or a file written earlier on the line is code; other files are scripts. */
export function sourceCommand(w: Walk, inv: Invocation): void {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  const file = inv.words[1];
  if (file === undefined) return;
  scriptFile(w, {
    language: "shell",
    interpreter: inv.program,
    host,
    file,
    base: inv.base,
    ctx: { ...inv.ctx, launchedBy: host, redirects: [] },
    sameShell: true,
    outer: inv.ctx,
  });
}

/** A script operand: process substitution, a file written on the line, or a plain file. */
export function scriptFile(
  w: Walk,
  o: {
    language: CodeLanguage;
    interpreter: string;
    host: number;
    file: ArgWord;
    base: Base;
    ctx: Ctx;
    sameShell?: boolean;
    outer?: Ctx;
  },
): void {
  if (
    o.file.word.value === "/dev/stdin" ||
    o.file.word.value === "/proc/self/fd/0" ||
    o.file.word.value === "/dev/fd/0"
  ) {
    // `source /dev/stdin <<< STR`, `bash /dev/stdin`: the script is what stdin holds
    stdinCode(w, {
      language: o.language,
      interpreter: o.interpreter,
      host: o.host,
      base: o.base,
      hostCtx: o.ctx,
      ctx: o.outer ?? o.ctx,
    });
    return;
  }
  if (o.file.substitution === "process") {
    if (o.file.output !== undefined) {
      if (o.language === "shell")
        shellString(w, {
          word: plain({ text: o.file.word.text, value: o.file.output, glob: false }),
          interpreter: o.interpreter,
          host: o.host,
          base: o.base,
          ctx: o.ctx,
          via: "shell-string",
          sameShell: o.sameShell === true,
        });
      else
        runCode(w, {
          language: o.language,
          word: plain({ text: o.file.word.text, value: o.file.output, glob: false }),
          interpreter: o.interpreter,
          host: o.host,
          base: o.base,
          ctx: o.ctx,
        });
      return;
    }
    w.addCode({
      language: o.language,
      interpreter: o.interpreter,
      command: o.host,
      source: "process-substitution",
      producers: o.file.producers,
    });
    if (!generated(w, o.file.producers)) w.report("dynamic-code", o.base.text);
    return;
  }
  const written = w.writtenFile(o.file.word.value, o.ctx);
  // not written whole on the line: the file on disk, with what the line appends to it
  if ((written === undefined || written.partial === true) && diskScript(w, o, written)) return;
  if (written === undefined) {
    w.addCode({ language: o.language, interpreter: o.interpreter, command: o.host, source: "file" });
    return;
  }
  if (written.text !== undefined) {
    const word = plain({ text: o.file.word.text, value: written.text, glob: false });
    if (o.language === "shell")
      shellString(w, {
        word,
        interpreter: o.interpreter,
        host: o.host,
        base: o.base,
        ctx: o.ctx,
        via: "shell-string",
        sameShell: o.sameShell === true,
      });
    else runCode(w, { language: o.language, word, interpreter: o.interpreter, host: o.host, base: o.base, ctx: o.ctx });
    return;
  }
  // written by a download or from run-time text: what it runs is not known
  w.addCode({
    language: o.language,
    interpreter: o.interpreter,
    command: o.host,
    source: "written-file",
    producers: written.producers,
  });
  w.report("dynamic-code", o.base.text);
}

/** What a script operand of {@link scriptFile} is. */
type ScriptOptions = Parameters<typeof scriptFile>[1];

/**
 * A script named by a command that the line does not write whole: read from disk and judged as
 * the code it is, what the line appends to it included (`cat >> x.sh <<EOF ... && bash x.sh`).
 * False without a disk (the caller records it as before), and for a file the line creates by
 * appending (its known text is all of it).
 */
function diskScript(w: Walk, o: ScriptOptions, appended: WrittenFile | undefined): boolean {
  const file = readCode(w, o.file.word.value, o.ctx.state.cwd, o.file.word.text);
  if (file === undefined) return false;
  const as = `${o.interpreter} script`;
  switch (file.kind) {
    case "missing":
      if (appended !== undefined) return false;
      // `bash x.sh` with no `x.sh`: the command fails and runs nothing
      noteFile(w, file, as);
      w.addCode({ language: o.language, interpreter: o.interpreter, command: o.host, source: "file" });
      return true;
    case "binary":
      noteFile(w, file, as);
      w.addCode({ language: o.language, interpreter: o.interpreter, command: o.host, source: "file" });
      return true;
    case "unread":
      unreadCode(w, { file, as, language: o.language, interpreter: o.interpreter, host: o.host, text: o.base.text });
      return true;
    case "text": {
      if (appended !== undefined && appended.text === undefined) return false;
      noteFile(w, file, as);
      const text = file.text + (appended?.text ?? "");
      runCode(w, {
        language: o.language,
        word: plain({ text: o.file.word.text, value: text, glob: false }),
        interpreter: o.interpreter,
        host: o.host,
        base: o.base,
        ctx: o.ctx,
        disk: { shown: file.shown, path: file.path },
        ...(o.sameShell === true && { sameShell: true }),
      });
      return true;
    }
    default: {
      const unknown: never = file;
      w.report("internal-error", o.base.text, String(unknown));
      return true;
    }
  }
}

/** A shell or interpreter command (`bash -c`, `python3 -`, `node -e`, `perl script.pl`). */
export function interpreter(w: Walk, inv: Invocation): void {
  const { words, base, ctx } = inv;
  const read = readInterpreter(
    inv.program,
    words.slice(1).map((x) => x.word),
  );
  const host = w.emit(words, base, ctx);
  // not reached through the registry, whose matcher is `interpreterName`
  if (read === undefined) return;
  const args = words.slice(1);
  const language = read.spec.language;
  const input = read.input;
  // a heredoc that is the interpreter's own code is not stdin for the commands inside it
  const inner = hostCtx(ctx, { host, base: input.kind === "stdin" ? undefined : base });
  switch (input.kind) {
    case "none":
      // `python -m pkg.mod`: a module of the working directory is a script
      if (language === "python") pythonModule(w, inv, host);
      return;
    case "code": {
      if (input.words.length === 0) {
        // `curl x | xargs -0 sh -c`: the code is a run-time argument, read from stdin by xargs
        if (ctx.runtimeArgs && ctx.stdin !== undefined)
          w.addCode({
            language,
            interpreter: read.name,
            command: host,
            source: "stdin",
            producers: [...new Set(ctx.stdin.upstream)],
          });
        else if (ctx.runtimeArgs)
          codeSource(w, {
            language,
            interpreter: read.name,
            host,
            word: plain({ text: base.text, value: undefined, glob: false }),
            text: base.text,
          });
        return;
      }
      const pieces = input.words.map((i) => args[i] ?? synthetic(""));
      const code = pieces.length === 1 ? (pieces[0] as ArgWord) : joinWords(pieces, input.separator ?? "\n");
      const rest = args.slice(input.argsFrom).map((a) => a.word.value);
      if (language === "shell") inner.state.positional = rest;
      runCode(w, { language, word: code, interpreter: read.name, host, base, ctx: inner, argv: rest });
      return;
    }
    case "script": {
      if (language === "shell") inner.state.positional = args.slice(input.index).map((a) => a.word.value);
      scriptFile(w, {
        language,
        interpreter: read.name,
        host,
        file: args[input.index] as ArgWord,
        base,
        ctx: inner,
        outer: ctx,
      });
      return;
    }
    case "stdin": {
      if (language === "shell") inner.state.positional = ["", ...args.slice(input.argsFrom).map((a) => a.word.value)];
      stdinCode(w, { language, interpreter: read.name, host, base, hostCtx: inner, ctx });
      return;
    }
    default: {
      const unknown: never = input;
      w.report("unknown-node", base.text, String(unknown));
    }
  }
}

/**
 * `./f`, `/tmp/x.sh`, `scripts/deploy.sh`: a program named by a path that is a script written
 * earlier on the line, or a script on disk that may be executed, runs that script, in the language
 * its `#!` line names (shell without one). False when the program is not such a file (a compiled
 * program, a file without the `x` bit, none at all): the command is then recorded as it is.
 */
export function writtenProgram(w: Walk, inv: Invocation): boolean {
  const path = inv.words[0]?.word.value;
  // `uv run x.py`: a runner that runs a script file by its extension, with or without a `/`
  const wrapper = inv.ctx.wrappers.at(-1);
  const byExtension =
    path !== undefined && wrapper !== undefined && EXTENSION_RUNNERS.includes(wrapper)
      ? extensionLanguage(path)
      : undefined;
  if (byExtension !== undefined && path !== undefined) return extensionScript(w, inv, path, byExtension);
  if (path === undefined || !path.includes("/")) return false;
  const written = w.writtenFile(path, inv.ctx);
  if (written !== undefined && written.partial !== true) {
    runWritten(w, inv, path, written.text);
    return true;
  }
  // installed packages' programs (`./node_modules/.bin/eslint`) are judged by their name
  const file = path.includes("node_modules/") ? undefined : readCode(w, path, inv.ctx.state.cwd);
  // no disk, or no such file: only what the line appends to it (`echo ... >> x.sh && ./x.sh`)
  if (
    file === undefined ||
    file.kind === "missing" ||
    (file.kind === "text" && written?.text === undefined && written !== undefined)
  ) {
    if (written === undefined) return false;
    runWritten(w, inv, path, written.text);
    return true;
  }
  const as = "program";
  // a compiled program is judged by its name; a file without the `x` bit is not run (permission
  // denied), unless the line may have changed its mode first (`chmod +x x.sh && ./x.sh`)
  if (
    file.kind === "binary" ||
    (file.kind === "text" && !file.executable && written === undefined && !chmodOnLine(w))
  ) {
    noteFile(w, file, as, file.kind === "text" ? "not executable: the shell does not run it" : undefined, true);
    return false;
  }
  const host = w.emit(inv.words, inv.base, inv.ctx);
  const inner = hostCtx(inv.ctx, { host });
  inner.state.positional = inv.words.map((a) => a.word.value);
  if (file.kind === "unread") {
    unreadCode(w, { file, as, language: "shell", interpreter: path, host, text: inv.base.text });
    return true;
  }
  const text = file.text + (written?.text ?? "");
  const language = shebangOf(text);
  if (typeof language !== "string") {
    const why = `is a \`${language.runs}\` script, which lanes does not read`;
    unreadCode(w, {
      file: { kind: "unread", shown: file.shown, why },
      as,
      language: "shell",
      interpreter: path,
      host,
      text: inv.base.text,
    });
    return true;
  }
  noteFile(w, file, as);
  runCode(w, {
    language,
    word: plain({ text: inv.words[0]!.word.text, value: text, glob: false }),
    interpreter: path,
    host,
    base: inv.base,
    ctx: inner,
    disk: { shown: file.shown, path: file.path },
  });
  return true;
}

/** `uv run x.py`: the file, read as a script of the language of its extension. */
function extensionScript(w: Walk, inv: Invocation, path: string, language: CodeLanguage): boolean {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  const inner = hostCtx(inv.ctx, { host });
  if (language === "shell") inner.state.positional = inv.words.map((a) => a.word.value);
  scriptFile(w, {
    language,
    interpreter: `${inv.ctx.wrappers.at(-1) ?? ""} run`.trim(),
    host,
    file: inv.words[0] as ArgWord,
    base: inv.base,
    ctx: inner,
    outer: inv.ctx,
  });
  return true;
}

/** A `chmod` earlier on the line: a file run by its path may have been made executable by it. */
function chmodOnLine(w: Walk): boolean {
  for (let i = 0; ; i++) {
    const c = w.command(i);
    if (c === undefined) return false;
    if (c.program === "chmod") return true;
  }
}

/** A script written earlier on the line, run by its path (`scriptFile` follows the written file). */
function runWritten(w: Walk, inv: Invocation, path: string, text: string | undefined): void {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  const inner = hostCtx(inv.ctx, { host });
  inner.state.positional = inv.words.map((a) => a.word.value);
  const language = shebangOf(text);
  scriptFile(w, {
    language: typeof language === "string" ? language : "shell",
    interpreter: path,
    host,
    file: inv.words[0] as ArgWord,
    base: inv.base,
    ctx: inner,
  });
}

/**
 * The language a script's `#!` line names (shell when it has none: the shell runs such a file
 * itself); `{ runs }` for an interpreter lanes does not read (`#!/usr/bin/env lua`).
 */
export function shebangOf(text: string | undefined): CodeLanguage | { readonly runs: string } {
  if (text === undefined || !text.startsWith("#!")) return "shell";
  const end = text.indexOf("\n");
  const words = text
    .slice(2, end < 0 ? text.length : end)
    .trim()
    .split(/[ \t]+/)
    .filter((word) => word.length > 0);
  let at = 0;
  const base = (word: string | undefined): string => (word ?? "").slice((word ?? "").lastIndexOf("/") + 1);
  if (base(words[0]) === "env") {
    // `#!/usr/bin/env -S deno run -A`, `#!/usr/bin/env -u VAR python3`
    at = 1;
    while (at < words.length && (words[at]!.startsWith("-") || words[at]!.includes("="))) {
      const option = words[at]!;
      at += option === "-u" || option === "--unset" || option === "-C" || option === "--chdir" ? 2 : 1;
    }
  }
  const program = base(words[at]);
  return scriptLanguage(program) ?? { runs: program.length === 0 ? "unnamed" : program };
}

/** The language of a program that runs a script file (`python3.12`, `bash`, `deno`, `tsx`), if lanes reads it. */
export function scriptLanguage(program: string): CodeLanguage | undefined {
  const name = interpreterName(program);
  if (name !== undefined) return INTERPRETERS[name]?.language;
  return Object.hasOwn(SCRIPT_RUNNERS, program) ? SCRIPT_RUNNERS[program] : undefined;
}

/** The lines of `code` before the first occurrence of `text` (0 when it is not found as written). */
function linesBefore(code: string, text: string): number {
  const at = code.indexOf(text);
  let lines = 0;
  for (let i = code.indexOf("\n"); i >= 0 && i < at; i = code.indexOf("\n", i + 1)) lines++;
  return lines;
}

/** Interpreter code: API calls from the tables, and the shell commands they run. */
export function interpreterCode(
  w: Walk,
  o: {
    readonly language: CodeLanguage;
    readonly code: string;
    readonly host: number;
    readonly ctx: Ctx;
    readonly argv?: readonly (string | undefined)[];
    /** The script file the code was read from (`__file__`, `__dirname`). */
    readonly script?: string;
  },
): void {
  const { language, code, host, ctx } = o;
  if (language === "shell" || language === "powershell" || language === "c") return;
  remoteCodeIn(w, { language, code, ctx, host });
  const lang: CodeTokenLanguage = language;
  // syntax nodes and evaluation steps are cheap next to shell syntax nodes: charge one per eight
  const found = findCalls(code, lang, (units) => w.tick(Math.ceil(units / 8)), {
    home: varValue(ctx.state, "HOME"),
    cwd: ctx.state.cwd,
    ...(o.argv !== undefined && { argv: o.argv }),
    ...(o.script !== undefined && { script: o.script }),
  });
  if (found === undefined) {
    w.report("interpreter-code", code);
    return;
  }
  for (const call of found) {
    w.addCall({
      language,
      command: host,
      api: call.api,
      access: call.access,
      recursive: call.recursive,
      ...(call.overwrite && { overwrite: true }),
      args: call.args,
      ...(call.details !== undefined && { details: call.details }),
    });
    const exec = call.exec;
    if (exec === undefined) continue;
    const state = copyState(ctx.state);
    state.positional = undefined;
    // `subprocess.run(..., cwd="infra")`: the command runs there
    if (call.cwd !== undefined) state.cwd = call.cwd.startsWith("/") ? call.cwd : resolveDir(ctx.state.cwd, call.cwd);
    const inner: Ctx = {
      ...ctx,
      via: withVia(ctx, "interpreter"),
      depth: ctx.depth + 1,
      state,
      launchedBy: host,
      redirects: [],
      // code read from a file: the commands it runs are on the line of the call
      ...(ctx.origin !== undefined && {
        origin: { file: ctx.origin.file, line: ctx.origin.line + linesBefore(code, call.text) },
      }),
    };
    if (exec.kind === "code") {
      // `exec('...')`: literal code of the same language is analysed as such; other code is not followed
      if (exec.code === undefined) continue;
      if (w.beyondDepth(ctx, call.text)) continue;
      w.addCode({ language, interpreter: call.api, command: host, source: "literal", code: exec.code });
      interpreterCode(w, { language, code: exec.code, host, ctx: inner });
      continue;
    }
    if (exec.kind === "shell") {
      if (exec.code === undefined) {
        w.addCode({ language: "shell", interpreter: call.api, command: host, source: "dynamic" });
        w.report("dynamic-code", call.text);
        continue;
      }
      w.addCode({ language: "shell", interpreter: call.api, command: host, source: "literal", code: exec.code });
      if (w.beyondDepth(ctx, call.text)) continue;
      w.parseAndWalk(exec.code, inner);
      continue;
    }
    if (w.beyondDepth(ctx)) continue;
    const argv = exec.argv.map((a) =>
      plain({
        text: a.text,
        value: a.value,
        glob: false,
        ...(a.env !== undefined && { env: a.env }),
        ...(a.known !== undefined && { known: a.known }),
      }),
    );
    if (argv.length > 0) w.execute(argv, emptyBase(call.text), { ...inner, source: call.text });
  }
}

/**
 * PowerShell's `Invoke-Expression` (`iwr https://x | iex`): it runs its argument, or what is piped
 * in when it has none.
 */
export function stdinEvaluator(w: Walk, inv: Invocation): void {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  const inner = hostCtx(inv.ctx, { host, base: inv.base });
  if (inv.words.length === 1)
    stdinCode(w, {
      language: "powershell",
      interpreter: inv.program,
      host,
      base: inv.base,
      hostCtx: inner,
      ctx: inv.ctx,
    });
  else
    shellString(w, {
      word: joinWords(inv.words.slice(1)),
      interpreter: inv.program,
      host,
      base: inv.base,
      ctx: inner,
      via: "shell-string",
      language: "powershell",
    });
}

/** `at TIME`, `batch`: the commands are read from stdin (or `-f FILE`) and run later, in this directory. */
export function scheduled(w: Walk, inv: Invocation): void {
  const { words, base, ctx } = inv;
  const host = w.emit(words, base, ctx);
  const values = words.map((x) => x.word.value);
  if (values.some((v) => v === "-l" || v === "-r" || v === "-d" || v === "-c" || v === "-V")) return;
  const file = values.indexOf("-f");
  if (file > 0) {
    const operand = words[file + 1];
    if (operand !== undefined)
      scriptFile(w, {
        language: "shell",
        interpreter: inv.program,
        host,
        file: operand,
        base,
        ctx: hostCtx(ctx, { host }),
      });
    return;
  }
  stdinCode(w, {
    language: "shell",
    interpreter: inv.program,
    host,
    base,
    hostCtx: hostCtx(ctx, { wrapper: inv.program, host, base }),
    ctx,
  });
}

/**
 * Code handed to shells and interpreters: `bash -c STR`, `eval`, `source`/`.`, `python -c`,
 * heredocs and herestrings, text piped in, substitutions (`sh -c "$(...)"`, `bash <(...)`) and
 * scripts written earlier on the same line. Statically known text is analysed as the code it is
 * (one level deeper, bounded by `maxDepth`); text only known at run time is `dynamic-code`, except
 * the output of well-known environment generators (`eval "$(ssh-agent -s)"`).
 */
import { findCalls, type CodeTokenLanguage } from "../code/index.ts";
import { readInterpreter } from "../interpreter-input.ts";
import { CODE_GENERATORS, COMPLETION_WORDS } from "../tables/interpreters.ts";
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
import type { Walk } from "./contract.ts";
import { remoteCodeIn } from "./remote-code.ts";

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
  w.addCode({ language, interpreter: o.interpreter, command: o.host, source: "literal", code });
  if (language === "powershell") remoteCodeIn(w, { language, code, ctx: o.ctx, host: o.host });
  if (w.beyondDepth(o.ctx, code)) return;
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
    /** The arguments after the code (`python -c CODE a b`), for `sys.argv` and `process.argv`. */
    argv?: readonly (string | undefined)[];
  },
): void {
  if (o.language === "shell" || o.language === "powershell") {
    shellString(w, {
      word: o.word,
      interpreter: o.interpreter,
      host: o.host,
      base: o.base,
      ctx: o.ctx,
      via: "shell-string",
      language: o.language,
    });
    return;
  }
  const code = o.word.word.value ?? (o.word.substitution !== undefined ? o.word.output : undefined);
  if (code === undefined) {
    codeSource(w, { language: o.language, interpreter: o.interpreter, host: o.host, word: o.word, text: o.base.text });
    return;
  }
  w.addCode({ language: o.language, interpreter: o.interpreter, command: o.host, source: "literal", code });
  interpreterCode(w, {
    language: o.language,
    code,
    host: o.host,
    ctx: o.ctx,
    ...(o.argv !== undefined && { argv: o.argv }),
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
      else w.addCode({ language: o.language, interpreter: o.interpreter, command: o.host, source: "file" });
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
  if (!fromFiles && !generated(w, stdin.immediate)) w.report("dynamic-code", o.base.text);
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

/** `./f`, `/tmp/x.sh`: a program that is a script written earlier on the line runs that script. */
export function writtenProgram(w: Walk, inv: Invocation): boolean {
  const path = inv.words[0]?.word.value;
  if (path === undefined || !path.includes("/")) return false;
  const written = w.writtenFile(path, inv.ctx);
  if (written === undefined) return false;
  const host = w.emit(inv.words, inv.base, inv.ctx);
  const inner = hostCtx(inv.ctx, { host });
  inner.state.positional = inv.words.map((a) => a.word.value);
  scriptFile(w, {
    language: shebangLanguage(written.text),
    interpreter: path,
    host,
    file: inv.words[0] as ArgWord,
    base: inv.base,
    ctx: inner,
  });
  return true;
}

/** The language a script's `#!` line names (shell when none). */
function shebangLanguage(text: string | undefined): CodeLanguage {
  if (text === undefined || !text.startsWith("#!")) return "shell";
  const line = text.slice(2, text.indexOf("\n") < 0 ? text.length : text.indexOf("\n"));
  const names: readonly [string, CodeLanguage][] = [
    ["python", "python"],
    ["node", "node"],
    ["perl", "perl"],
    ["ruby", "ruby"],
    ["php", "php"],
  ];
  return names.find(([n]) => line.includes(n))?.[1] ?? "shell";
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

/**
 * What the walk collects: commands, pipes, code executions, calls, functions, what could not be
 * represented, the statically known output of each command and the files written on the line.
 * The bound is a count (nodes visited, nesting depth), never the clock: the same command gets the
 * same answer on every machine.
 */
import { staticOutput, writtenFiles } from "../handlers/text.ts";
import type {
  AnalyzeOptions,
  CodeExecution,
  CodeLanguage,
  InterpreterCall,
  ShellAnalysis,
  ShellCommand,
  ShellFunction,
  ShellLoop,
  ShellWord,
  Unrepresentable,
} from "../types.ts";
import { UNREPRESENTABLE_MESSAGES, type UnrepresentableCode } from "../unrepresentable.ts";
import { programOf, type ArgWord, type Base, type Ctx, type FunctionInfo, type Mutable } from "./context.ts";

const DEFAULT_MAX_DEPTH = 5;
const DEFAULT_MAX_NODES = 20_000;
/** Source characters charged as one node when a string is parsed (parsing is linear in its length). */
const CHARS_PER_NODE = 64;

/** Thrown to unwind the walk when the node budget runs out. */
export class BudgetExceeded extends Error {
  constructor() {
    super("node-budget");
  }
}

/** A file written earlier on the same command line: its text when static, and who wrote it. */
export interface WrittenFile {
  readonly text: string | undefined;
  readonly producers: readonly number[];
}

/** One code execution to record (an options object: `addCode({ language, ... })`). */
export interface CodeRecord {
  readonly language: CodeLanguage;
  readonly interpreter: string;
  readonly command: number;
  readonly source: CodeExecution["source"];
  readonly code?: string | undefined;
  readonly producers?: readonly number[];
}

/** The collected analysis; the traversal extends it. */
export class Collector {
  readonly commands: Mutable<ShellCommand>[] = [];
  /** The statically known stdout of each command, by index (`undefined`: only known at run time). */
  readonly outputs: (string | undefined)[] = [];
  readonly pipes: { from: number; to: number }[] = [];
  readonly code: CodeExecution[] = [];
  readonly calls: InterpreterCall[] = [];
  readonly functions = new Map<string, FunctionInfo>();
  readonly functionOrder: FunctionInfo[] = [];
  readonly unrepresentable: Unrepresentable[] = [];
  readonly loops: ShellLoop[] = [];
  /** Commands inside the substitutions of each command's words. */
  readonly subProducers = new Map<number, readonly number[]>();
  /** Aliases defined on the line (`alias x='...'`). */
  readonly aliases = new Map<string, string>();
  /** Git configuration set on the line (`git config alias.x '...'`), by lowercased key. */
  readonly gitConfig = new Map<string, string>();
  /** Files written on the line, by absolute path. */
  readonly files = new Map<string, WrittenFile>();
  /** Code already scanned for download-and-evaluate expressions (`handlers/remote-code.ts`), by language and text. */
  readonly remoteScanned = new Set<string>();
  budgetExceeded = false;
  private nodes = 0;
  readonly maxDepth: number;
  private readonly maxNodes: number;

  constructor(
    readonly source: string,
    readonly options: AnalyzeOptions,
  ) {
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;
  }

  /** The analysis collected so far (complete unless the budget stopped the walk). */
  result(): ShellAnalysis {
    return {
      source: this.source,
      commands: this.commands,
      pipes: this.pipes,
      code: this.code,
      calls: this.calls,
      functions: this.functionOrder.map((f): ShellFunction => ({
        name: f.name,
        recursive: f.recursive,
        forks: f.forks,
        called: f.called,
      })),
      unrepresentable: this.unrepresentable,
      loops: this.loops,
      budgetExceeded: this.budgetExceeded,
    };
  }

  stop(code: "node-budget" | "stack-overflow" | "depth-limit", text = this.source): void {
    this.budgetExceeded = true;
    this.report(code, text);
  }

  report(code: UnrepresentableCode, text: string, detail?: string): void {
    if (this.unrepresentable.some((u) => u.code === code && u.text === text)) return;
    const message =
      detail === undefined ? UNREPRESENTABLE_MESSAGES[code] : `${UNREPRESENTABLE_MESSAGES[code]}: ${detail}`;
    this.unrepresentable.push({ code, message, text });
  }

  /** Counts visited nodes; over the budget the walk unwinds. */
  tick(units = 1): void {
    this.nodes += units;
    if (this.nodes > this.maxNodes) throw new BudgetExceeded();
  }

  /** Charges the parse of `text`. */
  tickText(text: string): void {
    this.tick(1 + Math.floor(text.length / CHARS_PER_NODE));
  }

  addCode(record: CodeRecord): void {
    this.code.push({
      language: record.language,
      interpreter: record.interpreter,
      command: record.command,
      source: record.source,
      code: record.code,
      producers: record.producers ?? [],
    });
  }

  /** The statically known text a command reads on stdin: a heredoc, a herestring, a written file, or what is piped in. */
  stdinText(base: Base, ctx: Ctx): string | undefined {
    const redirect = base.stdinRedirects.at(-1) ?? ctx.stdinRedirects.at(-1);
    if (redirect !== undefined) {
      // `< <(cmd)`: what the process substitution prints
      if (redirect.word.substitution === "process") return redirect.word.output;
      const value = redirect.word.word.value;
      if (value === undefined) return undefined;
      if (redirect.kind === "heredoc") return value;
      if (redirect.kind === "herestring") return `${value}\n`;
      return this.fileText(value, ctx);
    }
    if (ctx.stdin === undefined) return undefined;
    return this.outputOf(ctx.stdin.immediate);
  }

  /** The concatenated static output of commands, `undefined` when any is unknown. */
  outputOf(indices: readonly number[]): string | undefined {
    if (indices.length === 0) return undefined;
    let out = "";
    for (const i of indices) {
      const o = this.outputs[i];
      if (o === undefined) return undefined;
      out += o;
    }
    return out;
  }

  /** The text of a file written earlier on the line, if static. */
  fileText(path: string, ctx: Ctx): string | undefined {
    const abs = path.startsWith("/") ? path : ctx.state.cwd === undefined ? undefined : `${ctx.state.cwd}/${path}`;
    return abs === undefined ? undefined : this.files.get(normalize(abs))?.text;
  }

  /** A file written earlier on the line. */
  writtenFile(path: string | undefined, ctx: Ctx): WrittenFile | undefined {
    if (path === undefined) return undefined;
    const abs = path.startsWith("/") ? path : ctx.state.cwd === undefined ? undefined : `${ctx.state.cwd}/${path}`;
    return abs === undefined ? undefined : this.files.get(normalize(abs));
  }

  /** Records one command, its static output and the files it writes. */
  emit(words: readonly ArgWord[], base: Base, ctx: Ctx, searchRoots?: ShellCommand["searchRoots"]): number {
    const argv =
      ctx.mounts === undefined || ctx.mounts.length === 0
        ? words.map((w) => w.word)
        : words.map((w, i) => (i === 0 ? w.word : hostPath(w.word, ctx.mounts ?? [])));
    const program = programOf(argv[0]);
    const index = this.commands.length;
    const stdin = this.stdinText(base, ctx);
    const command: Mutable<ShellCommand> = {
      index,
      argv,
      program,
      args: argv.slice(1),
      assignments: base.assignments,
      redirects: [...base.redirects, ...ctx.redirects],
      wrappers: ctx.wrappers,
      via: ctx.via,
      depth: ctx.depth,
      runtimeArgs: ctx.runtimeArgs,
      searchRoots: searchRoots ?? ctx.searchRoots,
      cwd: ctx.state.cwd,
      text: base.text,
      launchedBy: ctx.launchedBy,
    };
    if (stdin !== undefined) command.stdin = stdin;
    this.commands.push(command);
    const output = ctx.runtimeArgs
      ? undefined
      : staticOutput({
          program,
          args: argv.slice(1),
          stdin,
          state: ctx.state,
          options: this.options,
          fileText: (path) => this.fileText(path, ctx),
          hasStdin: ctx.stdin !== undefined || base.stdinRedirects.length + ctx.stdinRedirects.length > 0,
        });
    this.outputs[index] = output;
    for (const file of writtenFiles({
      program,
      args: argv.slice(1),
      redirects: command.redirects,
      output,
      stdin,
      cwd: ctx.state.cwd,
    })) {
      const previous = file.append ? this.files.get(file.path) : undefined;
      const text = file.append
        ? previous?.text === undefined || file.text === undefined
          ? undefined
          : previous.text + file.text
        : file.text;
      // what `tee` writes comes from upstream (`curl URL | tee f`): its producers wrote the file too
      const upstream = program === "tee" ? (ctx.stdin?.upstream ?? []) : [];
      this.files.set(file.path, { text, producers: [...(previous?.producers ?? []), ...upstream, index] });
    }
    ctx.sink.push(index);
    const producers = [...new Set(words.flatMap((w) => w.producers))];
    if (producers.length > 0) this.subProducers.set(index, producers);
    if (program !== undefined) {
      for (const frame of ctx.frames) {
        if (frame.name !== program) continue;
        frame.recursive = true;
        if (ctx.forking) frame.forks = true;
      }
    }
    return index;
  }
}

/** A container path as the host path of the bind mount it is under. */
function hostPath(word: ShellWord, mounts: NonNullable<Ctx["mounts"]>): ShellWord {
  const v = word.value;
  if (v === undefined) return word;
  for (const m of mounts) {
    const target = normalize(m.target);
    if (v !== target && !v.startsWith(`${target === "/" ? "" : target}/`)) continue;
    if (m.source === undefined) return { text: word.text, value: undefined, glob: word.glob };
    const rest = v.slice(target === "/" ? 0 : target.length);
    return { text: word.text, value: normalize(`${m.source}/${rest}`), glob: word.glob };
  }
  return word;
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const piece of path.split("/")) {
    if (piece === "" || piece === ".") continue;
    if (piece === "..") out.pop();
    else out.push(piece);
  }
  return `/${out.join("/")}`;
}

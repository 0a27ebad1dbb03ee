/**
 * What the walk collects: commands, pipes, code executions, calls, functions, what could not be
 * represented, the statically known output of each command and the files written on the line.
 * The bound is a count (nodes visited, nesting depth), never the clock: the same command gets the
 * same answer on every machine.
 */
import { NO_DISK, type DiskView } from "../../host/disk-view.ts";
import type { CodeRecord, WrittenFile } from "../handlers/contract.ts";
import { staticOutput, writtenFiles } from "../handlers/text.ts";
import { agentSdkRun } from "../agent-sdk.ts";
import type {
  AgentRun,
  AnalyzeOptions,
  CodeExecution,
  DeferredCode,
  FileRead,
  InterpreterCall,
  ShellAnalysis,
  ShellCommand,
  ShellFunction,
  ShellLoop,
  ShellWord,
  Unrepresentable,
  WrittenText,
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
  readonly agents: AgentRun[] = [];
  readonly deferred: DeferredCode[] = [];
  readonly written: WrittenText[] = [];
  /** Commands inside the substitutions of each command's words. */
  readonly subProducers = new Map<number, readonly number[]>();
  /** Files written on the line, by absolute path. */
  readonly files = new Map<string, WrittenFile>();
  /** Files read from disk for their code (see `ShellAnalysis.reads`). */
  readonly reads: FileRead[] = [];
  budgetExceeded = false;
  private nodes = 0;
  readonly maxDepth: number;
  private readonly maxNodes: number;
  /** The disk at hook time (see `Walk.disk`). */
  readonly disk: DiskView;

  constructor(
    readonly source: string,
    readonly options: AnalyzeOptions,
  ) {
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;
    this.disk = options.disk ?? NO_DISK;
  }

  /** The analysis collected so far (complete unless the budget stopped the walk). */
  result(): ShellAnalysis {
    return {
      source: this.source,
      cwd: this.options.cwd,
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
      agents: this.agents,
      deferred: this.deferred,
      written: this.written,
      budgetExceeded: this.budgetExceeded,
      reads: this.reads,
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

  /** A command recorded earlier, by index. */
  command(index: number): ShellCommand | undefined {
    return this.commands[index];
  }

  /** The commands piped into the command at `index`. */
  pipedInto(index: number): number[] {
    return this.pipes.filter((p) => p.to === index).map((p) => p.from);
  }

  addCall(call: InterpreterCall): void {
    this.calls.push(call);
  }

  /** True, recording `depth-limit`, when one level below `ctx` passes the nesting bound. */
  beyondDepth(ctx: Ctx, text?: string): boolean {
    if (ctx.depth + 1 <= this.maxDepth) return false;
    this.stop("depth-limit", text);
    return true;
  }

  addCode(record: CodeRecord): void {
    this.code.push({
      language: record.language,
      interpreter: record.interpreter,
      command: record.command,
      source: record.source,
      code: record.code,
      producers: record.producers ?? [],
      ...(record.path !== undefined && { path: record.path }),
    });
    // interpreter code that drives the Agent SDK starts a Claude Code of its own
    const sdk = agentSdkRun(record);
    if (sdk !== undefined) this.addAgentRun(sdk);
  }

  addAgentRun(run: AgentRun): void {
    this.agents.push(run);
  }

  addDeferred(code: DeferredCode): void {
    this.deferred.push(code);
  }

  noteRead(read: FileRead): void {
    if (!this.reads.some((r) => r.path === read.path && r.as === read.as && r.detail === read.detail))
      this.reads.push(read);
  }

  writtenFiles(): ReadonlyMap<string, WrittenFile> {
    return this.files;
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
    const file = abs === undefined ? undefined : this.files.get(normalize(abs));
    return file?.partial === true ? undefined : file?.text;
  }

  /** A file written earlier on the line. */
  writtenFile(path: string | undefined, ctx: Ctx): WrittenFile | undefined {
    if (path === undefined) return undefined;
    const abs = path.startsWith("/") ? path : ctx.state.cwd === undefined ? undefined : `${ctx.state.cwd}/${path}`;
    return abs === undefined ? undefined : this.files.get(normalize(abs));
  }

  /** The known text of the files operands name: static process substitutions and files written on the line. */
  private operandTexts(words: readonly ArgWord[], ctx: Ctx): string[] {
    const out: string[] = [];
    for (const w of words) {
      if (w.substitution === "process") {
        if (w.output !== undefined) out.push(w.output);
        continue;
      }
      const v = w.word.value;
      if (v === undefined || w.word.glob || this.files.size === 0) continue;
      // `--file=q.sql`: the value of a long option
      const eq = v.startsWith("--") ? v.indexOf("=") : -1;
      const text = this.fileText(eq > 0 ? v.slice(eq + 1) : v, ctx);
      if (text !== undefined) out.push(text);
    }
    return out;
  }

  /**
   * The program a command word names: its basename, lowercased where the file system ignores case
   * (`RM -rf /` runs `rm` on macOS: {@link AnalyzeOptions.caseInsensitive}).
   */
  programName(word: ShellWord | undefined): string | undefined {
    const program = programOf(word);
    return program !== undefined && this.options.caseInsensitive === true ? program.toLowerCase() : program;
  }

  /** Records one command, its static output and the files it writes. */
  emit(words: readonly ArgWord[], base: Base, ctx: Ctx, searchRoots?: ShellCommand["searchRoots"]): number {
    const argv =
      ctx.mounts === undefined || ctx.mounts.length === 0
        ? words.map((w) => w.word)
        : words.map((w, i) => (i === 0 ? w.word : hostPath(w.word, ctx.mounts ?? [])));
    const program = this.programName(argv[0]);
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
    if (ctx.lister !== undefined) command.lister = ctx.lister;
    if (ctx.origin !== undefined) command.origin = { file: ctx.origin.file, line: ctx.origin.line };
    const inputs = this.operandTexts(words.slice(1), ctx);
    if (inputs.length > 0) command.inputs = inputs;
    this.commands.push(command);
    // `cat <(echo ...)`: a process substitution with static output reads as a file of that text
    const pipes = new Map<string, string>();
    const args = argv.slice(1).map((word, i) => {
      const output = words[i + 1]?.substitution === "process" ? words[i + 1]?.output : undefined;
      if (output === undefined) return word;
      const path = `/dev/fd/${63 - i}`;
      pipes.set(path, output);
      return { ...word, value: path };
    });
    const output = ctx.runtimeArgs
      ? undefined
      : staticOutput({
          program,
          args,
          stdin,
          state: ctx.state,
          options: this.options,
          fileText: (path) => pipes.get(path) ?? this.fileText(path, ctx),
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
      // appending to a file the line did not write: its known end is what was appended
      const partial = file.append && (previous === undefined || previous.partial === true);
      const text = file.append
        ? previous === undefined
          ? file.text
          : previous.text === undefined || file.text === undefined
            ? undefined
            : previous.text + file.text
        : file.text;
      // what `tee` writes comes from upstream (`curl URL | tee f`): its producers wrote the file too
      const upstream = program === "tee" ? (ctx.stdin?.upstream ?? []) : [];
      const producers = [...(previous?.producers ?? []), ...upstream, index];
      this.files.set(file.path, partial ? { text, producers, partial } : { text, producers });
      this.written.push({ command: index, path: file.path, text: file.text, append: file.append });
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

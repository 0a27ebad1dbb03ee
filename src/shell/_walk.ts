/**
 * The walk behind `analyzeShell`: visits every executable node of the unbash AST, resolves words,
 * unwraps wrappers, follows nested shell strings and interpreter code, tracks the working
 * directory, and collects commands, pipes, code executions, calls, functions and what it could
 * not represent. Every `switch` over node kinds ends in an exhaustive check; an unknown kind is
 * reported as `unknown-node`, never skipped.
 */
import { posix } from "node:path";
import { parse } from "unbash";
import type {
  ArithmeticExpression,
  Assignment,
  CommandNode,
  CompoundList,
  Command as UCommand,
  HereDoc,
  LogicalOperator,
  ParsedScript,
  PipelineNode,
  AndOr,
  Redirection,
  Statement,
  TestExpression,
  Word,
  WordPart,
} from "unbash";
import { findCalls } from "./_code-calls.ts";
import type { CodeTokenLanguage } from "./_code-tokens.ts";
import { echoOutput, printfOutput } from "./_echo.ts";
import { readInterpreter } from "./_interpreters.ts";
import { detailedView } from "./_argview.ts";
import { optionsOf, scanOptions } from "./_options.ts";
import { resolveWord, syntheticWord, type WordEnv } from "./_words.ts";
import { EMBEDDED_COMMANDS } from "./tables/embedded.ts";
import { EVAL_COMMANDS, LITERAL_PRODUCERS, SOURCE_COMMANDS } from "./tables/interpreters.ts";
import { PARALLEL_SEPARATORS, WRAPPERS, type WrapperSpec } from "./tables/wrappers.ts";
import type {
  AnalyzeOptions,
  CodeExecution,
  CodeLanguage,
  InterpreterCall,
  RedirectKind,
  ShellAnalysis,
  ShellCommand,
  ShellFunction,
  ShellRedirect,
  ShellWord,
  Unrepresentable,
  Via,
} from "./types.ts";
import { UNREPRESENTABLE_MESSAGES, type UnrepresentableCode } from "./unrepresentable.ts";

const DEFAULT_MAX_DEPTH = 5;
const DEFAULT_BUDGET_MS = 50;
const DEFAULT_MAX_NODES = 20_000;
/** The clock is read once per this many nodes. */
const CLOCK_EVERY = 256;
/** Guards the unwrap loop against wrappers wrapping themselves forever (`nice nice nice ...`). */
const MAX_UNWRAP = 64;

/** Thrown to unwind the walk when a budget runs out; caught in {@link Walker.run}. */
class BudgetExceeded extends Error {
  constructor(readonly code: "node-budget" | "time-budget") {
    super(code);
  }
}

/** Shell state that flows along a list: what `cd` and assignments change. */
interface State {
  cwd: string | undefined;
  home: string | undefined;
  /** The value of `$PWD` (follows `cd`; an assignment to PWD changes only this). */
  pwd: string | undefined;
}

/** Where a command's stdin comes from when it sits in a pipeline. */
interface Stdin {
  /** The top-level commands of the pipeline element right before. */
  readonly immediate: readonly number[];
  /** Every command upstream in the pipeline, including substitutions inside them. */
  readonly upstream: readonly number[];
}

interface FunctionInfo {
  readonly name: string;
  recursive: boolean;
  forks: boolean;
  called: boolean;
  /** Commands of the body: [start, end). */
  start: number;
  end: number;
  /** The working directory the body was analysed with. */
  defCwd: string | undefined;
  /** The body changes the working directory or HOME of its caller. */
  changesState: boolean;
}

interface Frame {
  readonly info: FunctionInfo;
}

/** The walk context: immutable per branch, except `state` and `sink`, which are shared on purpose. */
interface Ctx {
  readonly source: string;
  readonly via: readonly Via[];
  readonly wrappers: readonly string[];
  readonly depth: number;
  readonly state: State;
  /** Collects the indices of commands whose stdout goes where this context's stdout goes. */
  readonly sink: number[];
  readonly stdin: Stdin | undefined;
  readonly positional: readonly (string | undefined)[] | undefined;
  readonly runtimeArgs: boolean;
  readonly searchRoots: readonly ShellWord[];
  readonly launchedBy: number | undefined;
  /** Inside a pipeline element, a background job or a coproc (for fork-bomb detection). */
  readonly forking: boolean;
  readonly frames: readonly Frame[];
  /** Redirections of enclosing compound commands (`{ a; b; } > out`). */
  readonly redirects: readonly ShellRedirect[];
  /** Stdin redirections of enclosing commands: a heredoc on `{ ...; }` or on `bash -c '...'` feeds the commands inside. */
  readonly stdinRedirects: readonly StdinRedirect[];
}

/** A resolved argument with what produced it. */
interface ArgWord {
  readonly word: ShellWord;
  /** Commands inside substitutions of this word. */
  readonly producers: readonly number[];
  /** The whole word is one command substitution (`"$(curl x)"`) or one process substitution (`<(curl x)`). */
  readonly substitution: "command" | "process" | undefined;
  /** For `NAME=VALUE` arguments of declaration builtins (`export HOME=/x`). */
  readonly assignment?: { readonly name: string; readonly value: ShellWord };
}

/** What a simple command carries besides its argv. */
interface Base {
  readonly assignments: readonly { readonly name: string; readonly value: ShellWord }[];
  readonly redirects: readonly ShellRedirect[];
  /** The unbash redirections, for heredoc and herestring code. */
  readonly stdinRedirects: readonly StdinRedirect[];
  readonly text: string;
}

/** A redirection that feeds stdin, with its resolved code source. */
interface StdinRedirect {
  readonly kind: "heredoc" | "herestring" | "file";
  readonly word: ArgWord;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const plain = (word: ShellWord): ArgWord => ({ word, producers: [], substitution: undefined });
const copyState = (s: State): State => ({ cwd: s.cwd, home: s.home, pwd: s.pwd });
const sameState = (a: State, b: State): boolean => a.cwd === b.cwd && a.home === b.home && a.pwd === b.pwd;

/** The program basename of a command word, or `undefined` when it is not statically known. */
export function programOf(word: ShellWord | undefined): string | undefined {
  if (word === undefined || word.value === undefined || word.glob) return undefined;
  const base = word.value.slice(word.value.lastIndexOf("/") + 1);
  return base.length === 0 ? undefined : base;
}

function withVia(ctx: Ctx, via: Via): readonly Via[] {
  return [...ctx.via, via];
}

/** Joins a directory and a path lexically; `undefined` when the directory is unknown. */
function resolveDir(cwd: string | undefined, target: string): string | undefined {
  if (target.startsWith("/")) return posix.normalize(target);
  if (cwd === undefined) return undefined;
  return posix.normalize(posix.join(cwd, target));
}

/** Strips the leading tabs of each line of a `<<-` heredoc body. */
function stripTabs(body: string): string {
  return body
    .split("\n")
    .map((line) => {
      let i = 0;
      while (line[i] === "\t") i++;
      return line.slice(i);
    })
    .join("\n");
}

/** The walker. One instance per `analyzeShell` call. */
export class Walker {
  private readonly commands: Mutable<ShellCommand>[] = [];
  private readonly pipes: { from: number; to: number }[] = [];
  private readonly code: CodeExecution[] = [];
  private readonly calls: InterpreterCall[] = [];
  private readonly functions = new Map<string, FunctionInfo>();
  private readonly functionOrder: FunctionInfo[] = [];
  private readonly unrepresentable: Unrepresentable[] = [];
  /** Commands inside the substitutions of each command's words. */
  private readonly subProducers = new Map<number, readonly number[]>();
  private budgetExceeded = false;
  private nodes = 0;
  private readonly maxDepth: number;
  private readonly maxNodes: number;
  private readonly deadline: number;

  constructor(
    private readonly source: string,
    private readonly options: AnalyzeOptions,
    start: number,
  ) {
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;
    this.deadline = start + (options.budgetMs ?? DEFAULT_BUDGET_MS);
  }

  // ---------------------------------------------------------------------------------------------
  // entry and result

  /** Walks the whole source, converting budget exhaustion and crashes into results. */
  run(): void {
    try {
      const state: State = { cwd: this.options.cwd, home: this.options.home, pwd: this.options.cwd };
      const ctx: Ctx = {
        source: this.source,
        via: [],
        wrappers: [],
        depth: 0,
        state,
        sink: [],
        stdin: undefined,
        positional: undefined,
        runtimeArgs: false,
        searchRoots: [],
        launchedBy: undefined,
        forking: false,
        frames: [],
        redirects: [],
        stdinRedirects: [],
      };
      this.parseAndWalk(this.source, ctx);
    } catch (error) {
      if (error instanceof BudgetExceeded) this.stop(error.code);
      else if (error instanceof RangeError) this.stop("stack-overflow");
      else this.report("internal-error", this.source, error instanceof Error ? error.message : undefined);
    }
  }

  /** The analysis collected so far (complete unless a budget stopped the walk). */
  result(): ShellAnalysis {
    return {
      source: this.source,
      commands: this.commands,
      pipes: this.pipes,
      code: this.code,
      calls: this.calls,
      functions: this.functionOrder.map((f): ShellFunction => ({ name: f.name, recursive: f.recursive, forks: f.forks, called: f.called })),
      unrepresentable: this.unrepresentable,
      budgetExceeded: this.budgetExceeded,
    };
  }

  private stop(code: "node-budget" | "time-budget" | "stack-overflow" | "depth-limit", text = this.source): void {
    this.budgetExceeded = true;
    this.report(code, text);
  }

  private report(code: UnrepresentableCode, text: string, detail?: string): void {
    if (this.unrepresentable.some((u) => u.code === code && u.text === text)) return;
    const message = detail === undefined ? UNREPRESENTABLE_MESSAGES[code] : `${UNREPRESENTABLE_MESSAGES[code]}: ${detail}`;
    this.unrepresentable.push({ code, message, text });
  }

  /** Counts visited nodes and checks the clock every {@link CLOCK_EVERY} nodes. */
  private tick(units = 1): void {
    const before = this.nodes;
    this.nodes += units;
    if (this.nodes > this.maxNodes) throw new BudgetExceeded("node-budget");
    if (Math.floor(before / CLOCK_EVERY) !== Math.floor(this.nodes / CLOCK_EVERY)) this.checkClock();
  }

  private checkClock(): void {
    if (performance.now() > this.deadline) throw new BudgetExceeded("time-budget");
  }

  // ---------------------------------------------------------------------------------------------
  // scripts, lists and pipelines

  private parseAndWalk(source: string, ctx: Ctx): void {
    this.tick();
    const script = parse(source);
    this.checkClock();
    this.script(script, { ...ctx, source });
  }

  private script(script: ParsedScript, ctx: Ctx): void {
    const source = script.source ?? ctx.source;
    for (const error of script.errors ?? []) this.report("parse-error", source, error.message);
    this.statements(script.commands, { ...ctx, source });
  }

  private statements(list: readonly Statement[], ctx: Ctx): void {
    const inner = list.length > 1 && ctx.via.at(-1) !== "list" ? { ...ctx, via: withVia(ctx, "list") } : ctx;
    for (const statement of list) this.statement(statement, inner);
  }

  private compoundList(list: CompoundList, ctx: Ctx): void {
    this.tick();
    this.statements(list.commands, ctx);
  }

  private statement(statement: Statement, ctx: Ctx): void {
    this.tick();
    if (statement.background === true) {
      // a background job runs in a subshell: its `cd` does not leak
      this.pipelineOrList(statement.command, { ...ctx, state: copyState(ctx.state), forking: true });
    } else this.pipelineOrList(statement.command, ctx);
  }

  private pipelineOrList(node: PipelineNode | AndOr, ctx: Ctx): void {
    this.tick();
    switch (node.type) {
      case "AndOr":
        this.andOr(node.commands, node.operators, ctx);
        return;
      case "Pipeline": {
        let inner = ctx;
        if (node.prefixes.some((p) => p.type === "Time")) inner = { ...ctx, wrappers: [...ctx.wrappers, "time"], via: withVia(ctx, "wrapper") };
        if (node.commands.length === 1) this.commandNode(node.commands[0] as CommandNode, inner);
        else this.pipeline(node.commands, inner);
        return;
      }
      default:
        this.commandNode(node, ctx);
    }
  }

  /**
   * `a && b || c`: the state flows along `&&`. The right side of `||` runs when the left failed:
   * after a failed plain `cd` the directory is unchanged, otherwise unknown. Afterwards the
   * directory is known only when every way through agrees (or the `||` side exits).
   */
  private andOr(commands: readonly PipelineNode[], operators: readonly LogicalOperator[], ctx: Ctx): void {
    const inner = ctx.via.at(-1) === "list" ? ctx : { ...ctx, via: withVia(ctx, "list") };
    const state = ctx.state;
    const start = copyState(state);
    commands.forEach((node, i) => {
      if (i === 0 || operators[i - 1] === "&&") {
        this.pipelineOrList(node, inner);
        return;
      }
      const success = copyState(state);
      const failure = sameState(start, success) || isPlainCd(commands.slice(0, i)) ? copyState(start) : unknownState();
      this.pipelineOrList(node, { ...inner, state: failure });
      Object.assign(state, exits(node) ? success : mergeStates(success, failure));
    });
  }

  private pipeline(elements: readonly CommandNode[], ctx: Ctx): void {
    const via = withVia(ctx, "pipeline");
    let previous: number[] | undefined;
    const upstream: number[] = [];
    let last: number[] = [];
    for (const element of elements) {
      const sink: number[] = [];
      const stdin: Stdin | undefined = previous === undefined ? ctx.stdin : { immediate: previous, upstream: [...upstream] };
      const stdinRedirects = previous === undefined ? ctx.stdinRedirects : [];
      this.commandNode(element, { ...ctx, via, sink, stdin, stdinRedirects, state: copyState(ctx.state), forking: true });
      if (previous !== undefined) for (const from of previous) for (const to of sink) this.pipes.push({ from, to });
      for (const i of sink) upstream.push(i, ...(this.subProducers.get(i) ?? []));
      previous = sink;
      last = sink;
    }
    ctx.sink.push(...last);
  }

  // ---------------------------------------------------------------------------------------------
  // command nodes

  private commandNode(node: CommandNode, ctx: Ctx): void {
    this.tick();
    switch (node.type) {
      case "Command":
        this.simpleCommand(node, ctx);
        return;
      case "Subshell":
        this.compoundList(node.body, { ...ctx, via: withVia(ctx, "subshell"), state: copyState(ctx.state) });
        return;
      case "BraceGroup":
        this.compoundList(node.body, { ...ctx, via: withVia(ctx, "group") });
        return;
      case "If":
        this.ifNode(node.clause, node.then, node.elif, node.else, ctx);
        return;
      case "While":
        this.loop(ctx, (inner) => {
          this.compoundList(node.clause, inner);
          this.compoundList(node.body, inner);
        });
        return;
      case "For":
      case "Select":
        for (const word of node.wordlist ?? []) this.wordSubs(word, ctx);
        this.loop(ctx, (inner) => {
          const name = node.name.value;
          if (name === "HOME") inner.state.home = undefined;
          if (name === "PWD") inner.state.pwd = undefined;
          this.compoundList(node.body, inner);
        });
        return;
      case "ArithmeticFor":
        for (const e of [node.initialize, node.test, node.update]) if (e !== undefined) this.arithmeticSubs(e, ctx, []);
        this.loop(ctx, (inner) => this.compoundList(node.body, inner));
        return;
      case "Case": {
        this.wordSubs(node.word, ctx);
        const before = copyState(ctx.state);
        const ends: State[] = [before];
        const inner = { ...ctx, via: withVia(ctx, "control-flow") };
        for (const item of node.items) {
          this.tick();
          for (const pattern of item.pattern) this.wordSubs(pattern, ctx);
          const state = copyState(before);
          this.compoundList(item.body, { ...inner, state });
          ends.push(state);
        }
        Object.assign(ctx.state, ends.reduce(mergeStates));
        return;
      }
      case "TestCommand":
        this.testCommand(node.expression, node.pos, node.end, ctx);
        return;
      case "ArithmeticCommand":
        if (node.expression !== undefined) this.arithmeticSubs(node.expression, ctx, []);
        return;
      case "Redirected": {
        const redirects: ShellRedirect[] = [];
        const stdinRedirects: StdinRedirect[] = [];
        for (const r of node.redirects) {
          const resolved = this.redirect(r, ctx);
          redirects.push(resolved.redirect);
          if (resolved.stdin !== undefined) stdinRedirects.push(resolved.stdin);
        }
        this.commandNode(node.command, { ...ctx, redirects: [...ctx.redirects, ...redirects], stdinRedirects: [...ctx.stdinRedirects, ...stdinRedirects] });
        return;
      }
      case "Function":
        this.defineFunction(node.name, node.body, ctx);
        return;
      case "Coproc": {
        const inner: Ctx = { ...ctx, via: withVia(ctx, "subshell"), state: copyState(ctx.state), forking: true };
        if (node.body.type === "CompoundList") this.compoundList(node.body, inner);
        else this.commandNode(node.body, inner);
        return;
      }
      default: {
        const unknown: never = node;
        const kind = (unknown as { type?: unknown }).type;
        this.report("unknown-node", ctx.source, String(kind));
      }
    }
  }

  private ifNode(clause: CompoundList, then: CompoundList, elifs: readonly { clause: CompoundList; then: CompoundList }[], otherwise: CompoundList | undefined, ctx: Ctx): void {
    const inner = { ...ctx, via: withVia(ctx, "control-flow") };
    const before = copyState(ctx.state);
    this.compoundList(clause, inner);
    const afterClause = copyState(ctx.state);
    // a failed plain `cd` changes nothing; any other clause that changed the state leaves it unknown
    const plainCd = clause.commands.length === 1 && clause.commands[0]?.command !== undefined && clause.commands[0].command.type !== "AndOr" && isPlainCd([clause.commands[0].command]);
    const failure = sameState(before, afterClause) ? afterClause : plainCd ? copyState(before) : unknownState();
    const thenState = copyState(afterClause);
    this.compoundList(then, { ...inner, state: thenState });
    const ends: State[] = [thenState];
    let rest = failure;
    for (const elif of elifs) {
      const state = copyState(rest);
      this.compoundList(elif.clause, { ...inner, state });
      const branch = copyState(state);
      this.compoundList(elif.then, { ...inner, state: branch });
      ends.push(branch);
      rest = sameState(state, rest) ? state : unknownState();
    }
    if (otherwise === undefined) ends.push(rest);
    else {
      const state = copyState(rest);
      this.compoundList(otherwise, { ...inner, state });
      ends.push(state);
    }
    Object.assign(ctx.state, ends.reduce(mergeStates));
  }

  /** A loop body may run many times: when it changes the state, every command in it loses its cwd. */
  private loop(ctx: Ctx, body: (inner: Ctx) => void): void {
    const start = this.commands.length;
    const before = copyState(ctx.state);
    body({ ...ctx, via: withVia(ctx, "control-flow") });
    if (before.cwd !== ctx.state.cwd) for (let i = start; i < this.commands.length; i++) (this.commands[i] as Mutable<ShellCommand>).cwd = undefined;
    Object.assign(ctx.state, mergeStates(before, ctx.state));
  }

  private testCommand(expression: TestExpression, pos: number, end: number, ctx: Ctx): void {
    const words: ArgWord[] = [plain(syntheticWord("[["))];
    const visit = (e: TestExpression): void => {
      this.tick();
      switch (e.type) {
        case "TestUnary":
          words.push(plain(syntheticWord(e.operator)), this.argWord(e.operand, ctx)[0] ?? plain(syntheticWord("")));
          return;
        case "TestBinary":
          words.push(...this.argWord(e.left, ctx), plain(syntheticWord(e.operator)), ...this.argWord(e.right, ctx));
          return;
        case "TestLogical":
          e.operands.forEach((o, i) => {
            if (i > 0) words.push(plain(syntheticWord(e.operator)));
            visit(o);
          });
          return;
        case "TestNot":
          words.push(plain(syntheticWord("!")));
          visit(e.operand);
          return;
        case "TestGroup":
          words.push(plain(syntheticWord("(")));
          visit(e.expression);
          words.push(plain(syntheticWord(")")));
          return;
        default: {
          const unknown: never = e;
          this.report("unknown-node", ctx.source, String((unknown as { type?: unknown }).type));
        }
      }
    };
    visit(expression);
    words.push(plain(syntheticWord("]]")));
    this.emit(words, { assignments: [], redirects: [], stdinRedirects: [], text: ctx.source.slice(pos, end) }, ctx);
  }

  private defineFunction(nameWord: Word, body: CommandNode | CompoundList, ctx: Ctx): void {
    const name = nameWord.value;
    const info: FunctionInfo = { name, recursive: false, forks: false, called: false, start: this.commands.length, end: this.commands.length, defCwd: ctx.state.cwd, changesState: false };
    const state = copyState(ctx.state);
    const inner: Ctx = { ...ctx, via: withVia(ctx, "function-body"), state, sink: [], positional: undefined, forking: false, frames: [...ctx.frames, { info }] };
    if (body.type === "CompoundList") this.compoundList(body, inner);
    else this.commandNode(body, inner);
    info.end = this.commands.length;
    info.changesState = !sameState(state, ctx.state);
    const previous = this.functions.get(name);
    if (previous !== undefined) this.functionOrder.splice(this.functionOrder.indexOf(previous), 1);
    this.functions.set(name, info);
    this.functionOrder.push(info);
  }

  // ---------------------------------------------------------------------------------------------
  // words and substitutions

  private env(ctx: Ctx): WordEnv {
    return { home: ctx.state.home, pwd: ctx.state.pwd, positional: ctx.positional };
  }

  /** Resolves a word (brace expansion may yield several) after walking its substitutions. */
  private argWord(word: Word, ctx: Ctx): ArgWord[] {
    this.tick(1 + (word.parts?.length ?? 0));
    const producers = this.wordSubs(word, ctx);
    const resolved = resolveWord(word, this.env(ctx));
    if (resolved.limited) this.report("brace-expansion-limit", word.text);
    const substitution = wholeSubstitution(word);
    return resolved.words.map((w) => ({ word: w, producers, substitution }));
  }

  private assignmentWord(a: Assignment, ctx: Ctx): { name: string; value: ShellWord; arg: ArgWord } {
    this.tick();
    if (a.value.type === "ArrayValue") {
      for (const element of a.value.elements) this.wordSubs(element, ctx);
      const value: ShellWord = { text: ctx.source.slice(a.value.pos, a.value.end), value: undefined, glob: false };
      return { name: a.name, value, arg: { word: { text: a.text, value: undefined, glob: false }, producers: [], substitution: undefined, assignment: { name: a.name, value } } };
    }
    const producers = this.wordSubs(a.value, ctx);
    const resolved = resolveWord(a.value, this.env(ctx)).words[0] ?? syntheticWord("");
    // `NAME=~/x`: tilde after `=` expands in assignments
    const value = resolved;
    const word: ShellWord = { text: a.text, value: value.value === undefined ? undefined : `${a.name}${a.append === true ? "+=" : "="}${value.value}`, glob: false };
    return { name: a.name, value, arg: { word, producers, substitution: undefined, assignment: { name: a.name, value } } };
  }

  /** Walks the substitutions inside a word; returns the indices of the commands they ran. */
  private wordSubs(word: Word, ctx: Ctx): number[] {
    const out: number[] = [];
    for (const part of word.parts ?? []) this.partSubs(part, ctx, out);
    return out;
  }

  private partSubs(part: WordPart, ctx: Ctx, out: number[]): void {
    this.tick();
    switch (part.type) {
      case "Literal":
      case "SingleQuoted":
      case "AnsiCQuoted":
      case "SimpleExpansion":
        return;
      case "Glob":
        for (const p of part.parts ?? []) this.partSubs(p, ctx, out);
        return;
      case "DoubleQuoted":
      case "LocaleString":
        for (const p of part.parts) this.partSubs(p, ctx, out);
        return;
      case "ParameterExpansion": {
        const words: Word[] = [];
        if (part.index !== undefined) words.push(part.index);
        const op = part.operation;
        if (op !== undefined) {
          switch (op.type) {
            case "Default":
            case "Remove":
            case "Transform":
              words.push(op.operand);
              break;
            case "Replace":
              words.push(op.pattern, op.replacement);
              break;
            case "Slice":
              words.push(op.offset);
              if (op.length !== undefined) words.push(op.length);
              break;
            case "CaseModification":
              if (op.operand !== undefined) words.push(op.operand);
              break;
            case "Names":
            case "Unknown":
              break;
            default: {
              const unknown: never = op;
              this.report("unknown-node", ctx.source, String((unknown as { type?: unknown }).type));
            }
          }
        }
        for (const w of words) out.push(...this.wordSubs(w, ctx));
        return;
      }
      case "CommandExpansion":
        // reading `script` parses it (lazily, in unbash): check the clock before each one
        this.checkClock();
        out.push(...this.substitution(part.script, part.text, "command-substitution", ctx));
        return;
      case "ProcessSubstitution":
        this.checkClock();
        out.push(...this.substitution(part.script, part.text, "process-substitution", ctx));
        return;
      case "ArithmeticExpansion":
        if (part.expression !== undefined) this.arithmeticSubs(part.expression, ctx, out);
        return;
      case "ExtendedGlob":
      case "BraceExpansion":
        for (const p of part.parts ?? []) this.partSubs(p, ctx, out);
        return;
      default: {
        const unknown: never = part;
        this.report("unknown-node", ctx.source, String((unknown as { type?: unknown }).type));
      }
    }
  }

  private arithmeticSubs(e: ArithmeticExpression, ctx: Ctx, out: number[]): void {
    this.tick();
    switch (e.type) {
      case "ArithmeticBinary":
        this.arithmeticSubs(e.left, ctx, out);
        this.arithmeticSubs(e.right, ctx, out);
        return;
      case "ArithmeticUnary":
        this.arithmeticSubs(e.operand, ctx, out);
        return;
      case "ArithmeticTernary":
        this.arithmeticSubs(e.test, ctx, out);
        this.arithmeticSubs(e.consequent, ctx, out);
        this.arithmeticSubs(e.alternate, ctx, out);
        return;
      case "ArithmeticGroup":
        this.arithmeticSubs(e.expression, ctx, out);
        return;
      case "ArithmeticWord":
        for (const p of e.parts ?? []) this.partSubs(p, ctx, out);
        return;
      case "ArithmeticCommandExpansion":
        this.checkClock();
        out.push(...this.substitution(e.script, e.text, "command-substitution", ctx));
        return;
      default: {
        const unknown: never = e;
        this.report("unknown-node", ctx.source, String((unknown as { type?: unknown }).type));
      }
    }
  }

  /** Walks a `$(...)` or `<(...)` script in a subshell; returns the commands it ran. */
  private substitution(script: ParsedScript | undefined, text: string, via: "command-substitution" | "process-substitution", ctx: Ctx): number[] {
    if (script === undefined) {
      this.report("parse-error", text);
      return [];
    }
    const start = this.commands.length;
    this.script(script, { ...ctx, via: withVia(ctx, via), state: copyState(ctx.state), sink: [], redirects: [], stdinRedirects: [] });
    const out: number[] = [];
    for (let i = start; i < this.commands.length; i++) out.push(i);
    return out;
  }

  private redirect(r: Redirection, ctx: Ctx): { redirect: ShellRedirect; stdin: StdinRedirect | undefined } {
    this.tick();
    const fd = r.descriptor?.type === "FileDescriptor" ? r.descriptor.value : undefined;
    switch (r.type) {
      case "HereDoc":
        return this.heredoc(r, fd, ctx);
      case "HereString": {
        const word = r.target === undefined ? plain(syntheticWord("")) : (this.argWord(r.target, ctx)[0] ?? plain(syntheticWord("")));
        return { redirect: { op: r.operator, kind: "herestring", fd, target: word.word }, stdin: fd === undefined || fd === 0 ? { kind: "herestring", word } : undefined };
      }
      case "Redirect": {
        const word = r.target === undefined ? undefined : this.argWord(r.target, ctx)[0];
        const target = word?.word;
        let kind: RedirectKind;
        const op = r.operator;
        switch (op) {
          case ">":
          case ">|":
          case "&>":
            kind = "write";
            break;
          case ">>":
          case "&>>":
            kind = "append";
            break;
          case "<":
            kind = "read";
            break;
          case "<>":
            kind = "readwrite";
            break;
          case ">&":
          case "<&": {
            const v = target?.value;
            const isFd = v !== undefined && (v === "-" || (v.length > 0 && [...(v.endsWith("-") ? v.slice(0, -1) : v)].every((c) => c >= "0" && c <= "9")));
            // `>& file` (no fd number) redirects stdout and stderr to a file
            kind = isFd || op === "<&" || target === undefined || (v === undefined && fd !== undefined) ? "dup" : "write";
            break;
          }
          default: {
            const unknown: never = op;
            this.report("unknown-node", ctx.source, String(unknown));
            kind = "dup";
          }
        }
        const stdin: StdinRedirect | undefined = kind === "read" && (fd === undefined || fd === 0) && word !== undefined ? { kind: "file", word } : undefined;
        return { redirect: { op: r.operator, kind, fd, target }, stdin };
      }
      default: {
        const unknown: never = r;
        this.report("unknown-node", ctx.source, String((unknown as { type?: unknown }).type));
        return { redirect: { op: "?", kind: "dup", fd: undefined, target: undefined }, stdin: undefined };
      }
    }
  }

  private heredoc(r: HereDoc, fd: number | undefined, ctx: Ctx): { redirect: ShellRedirect; stdin: StdinRedirect | undefined } {
    const out: number[] = [];
    // an unquoted heredoc expands its body: its `$(...)` run in this shell
    if (r.delimiter?.quoted !== true) for (const part of r.body.parts ?? []) this.partSubs(part, ctx, out);
    const body = r.operator === "<<-" ? stripTabs(r.body.text) : r.body.text;
    const word: ShellWord = { text: r.body.text, value: body, glob: false };
    const arg: ArgWord = { word, producers: out, substitution: undefined };
    return { redirect: { op: r.operator, kind: "heredoc", fd, target: word }, stdin: fd === undefined || fd === 0 ? { kind: "heredoc", word: arg } : undefined };
  }

  // ---------------------------------------------------------------------------------------------
  // simple commands

  private simpleCommand(node: UCommand, ctx: Ctx): void {
    const text = ctx.source.slice(node.pos, node.end);
    const assignments: { name: string; value: ShellWord }[] = [];
    const redirects: ShellRedirect[] = [];
    const stdinRedirects: StdinRedirect[] = [];
    const argv: ArgWord[] = [];
    for (const item of node.prefix) {
      if (item.type === "Assignment") {
        const a = this.assignmentWord(item, ctx);
        assignments.push({ name: a.name, value: a.value });
      } else {
        const r = this.redirect(item, ctx);
        redirects.push(r.redirect);
        if (r.stdin !== undefined) stdinRedirects.push(r.stdin);
      }
    }
    if (node.name !== undefined) argv.push(...this.argWord(node.name, ctx));
    for (const item of node.suffix) {
      if (item.type === "Word") argv.push(...this.argWord(item, ctx));
      else if (item.type === "Assignment") argv.push(this.assignmentWord(item, ctx).arg);
      else {
        const r = this.redirect(item, ctx);
        redirects.push(r.redirect);
        if (r.stdin !== undefined) stdinRedirects.push(r.stdin);
      }
    }
    const base: Base = { assignments, redirects, stdinRedirects, text };
    if (argv.length === 0) {
      // `HOME=/x` changes what `~` means for the rest of the list
      for (const a of assignments) this.assignVariable(a.name, a.value.value, ctx.state);
      if (redirects.length > 0 || ctx.redirects.length > 0) this.emit([], base, ctx);
      return;
    }
    this.execute(argv, base, ctx);
  }

  private assignVariable(name: string, value: string | undefined, state: State): void {
    if (name === "HOME") state.home = value;
    if (name === "PWD") state.pwd = value;
  }

  /** Unwraps wrappers, then dispatches on the program. */
  private execute(argv: readonly ArgWord[], base: Base, ctx: Ctx): void {
    let words = argv;
    let c = ctx;
    let b = base;
    for (let guard = 0; guard < MAX_UNWRAP; guard++) {
      const program = programOf(words[0]?.word);
      if (program === undefined) {
        this.emit(words, b, c);
        this.report("dynamic-command-name", b.text);
        return;
      }
      const spec = Object.hasOwn(WRAPPERS, program) ? WRAPPERS[program] : undefined;
      if (spec === undefined) {
        this.dispatch(program, words, b, c);
        return;
      }
      const next = this.unwrap(program, spec, words, b, c);
      if (next === undefined) return;
      ({ words, ctx: c, base: b } = next);
    }
    this.emit(words, b, c);
  }

  private dispatch(program: string, words: readonly ArgWord[], base: Base, ctx: Ctx): void {
    if (program === "find") {
      this.find(words, base, ctx);
      return;
    }
    if (EVAL_COMMANDS.includes(program)) {
      this.evalCommand(program, words, base, ctx);
      return;
    }
    if (SOURCE_COMMANDS.includes(program)) {
      this.sourceCommand(program, words, base, ctx);
      return;
    }
    const interpreter = readInterpreter(program, words.slice(1).map((w) => w.word));
    if (interpreter !== undefined) {
      this.interpreter(interpreter, words, base, ctx);
      return;
    }
    if (program === "trap") {
      this.trap(words, base, ctx);
      return;
    }
    const index = this.emit(words, base, ctx);
    this.embedded(program, words, index, base, ctx);
    this.builtinState(program, words, index, ctx);
  }

  /** `trap 'rm -rf /tmp/x' EXIT`: the handler is a shell string run later, in an unknown directory. */
  private trap(words: readonly ArgWord[], base: Base, ctx: Ctx): void {
    const host = this.emit(words, base, ctx);
    const args = words.slice(1);
    const handler = args[0]?.word.value === "--" ? args[1] : args[0];
    const rest = args.length - (args[0]?.word.value === "--" ? 2 : 1);
    if (handler === undefined || rest < 1 || handler.word.value === "-" || handler.word.value?.startsWith("-") === true) return;
    const later: Ctx = { ...this.hostCtx(ctx, undefined, host, false), state: { ...copyState(ctx.state), cwd: undefined, pwd: undefined } };
    this.shellString(handler, "trap", host, base, later, "shell-string", false);
  }

  /** Options whose value is a command the program runs (`rsync -e CMD`, `git -c core.pager=CMD`). */
  private embedded(program: string, words: readonly ArgWord[], host: number, base: Base, ctx: Ctx): void {
    const specs = Object.hasOwn(EMBEDDED_COMMANDS, program) ? EMBEDDED_COMMANDS[program] : undefined;
    if (specs === undefined) return;
    const view = detailedView(
      program,
      words.slice(1).map((w) => w.word),
    );
    for (const spec of specs) {
      for (const value of view.values.get(spec.option) ?? []) {
        let code = value.value;
        if (code === undefined) {
          if (spec.keys === undefined) this.codeSource("shell", program, host, plain(value), base.text);
          continue;
        }
        if (spec.keys !== undefined) {
          const cut = [code.indexOf("="), code.indexOf(" ")].filter((i) => i > 0).reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
          if (!Number.isFinite(cut)) continue;
          const key = code.slice(0, cut).toLowerCase();
          if (!spec.keys.some((k) => (k.endsWith(".") ? key.startsWith(k.toLowerCase()) : key === k.toLowerCase()))) continue;
          code = code.slice(cut + 1);
        }
        if (spec.bang === true) {
          if (!code.startsWith("!")) continue;
          code = code.slice(1);
        }
        this.shellString(plain({ text: value.text, value: code, glob: false }), program, host, base, this.hostCtx(ctx, undefined, host, false), "shell-string", false);
      }
    }
  }

  /** `cd`, `pushd`, `popd`, `export HOME=...`, `read HOME`: keep the state honest. */
  private builtinState(program: string, words: readonly ArgWord[], index: number, ctx: Ctx): void {
    const state = ctx.state;
    const args = words.slice(1);
    switch (program) {
      case "cd":
      case "pushd": {
        const scan = scanOptions(
          args.map((a) => a.word),
          { options: { "-L": 0, "-P": 0, "-e": 0, "-@": 0, "-n": 0 }, permute: false },
        );
        if (scan.events.some((e) => e.kind === "option" && e.name === "-n")) return;
        const target = args[scan.next]?.word;
        let cwd: string | undefined;
        if (target === undefined) cwd = program === "cd" ? state.home : undefined;
        else if (target.value === undefined || target.glob || target.value === "-" || (program === "pushd" && (target.value.startsWith("+") || target.value.startsWith("-")))) cwd = undefined;
        else cwd = resolveDir(state.cwd, target.value);
        state.cwd = cwd;
        state.pwd = cwd;
        return;
      }
      case "popd":
        if (!args.some((a) => a.word.value === "-n")) {
          state.cwd = undefined;
          state.pwd = undefined;
        }
        return;
      case "export":
      case "declare":
      case "typeset":
      case "local":
      case "readonly":
        for (const a of args) if (a.assignment !== undefined) this.assignVariable(a.assignment.name, a.assignment.value.value, state);
        return;
      case "read":
      case "unset":
      case "mapfile":
      case "readarray":
      case "getopts":
      case "printf":
        for (const a of args) if (a.word.value === "HOME" || a.word.value === "PWD") this.assignVariable(a.word.value, undefined, state);
        return;
      default: {
        const fn = this.functions.get(program);
        if (fn === undefined || ctx.frames.some((f) => f.info === fn)) return;
        fn.called = true;
        if (fn.defCwd !== state.cwd) for (let i = fn.start; i < fn.end; i++) (this.commands[i] as Mutable<ShellCommand>).cwd = undefined;
        if (fn.changesState) Object.assign(state, unknownState());
        void index;
      }
    }
  }

  /** Records one command. */
  private emit(words: readonly ArgWord[], base: Base, ctx: Ctx, searchRoots?: readonly ShellWord[]): number {
    const argv = words.map((w) => w.word);
    const program = programOf(argv[0]);
    const index = this.commands.length;
    this.commands.push({
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
    });
    ctx.sink.push(index);
    const producers = [...new Set(words.flatMap((w) => w.producers))];
    if (producers.length > 0) this.subProducers.set(index, producers);
    if (program !== undefined) {
      for (const frame of ctx.frames) {
        if (frame.info.name !== program) continue;
        frame.info.recursive = true;
        if (ctx.forking) frame.info.forks = true;
      }
    }
    return index;
  }

  // ---------------------------------------------------------------------------------------------
  // wrappers

  /** Removes one wrapper; returns the wrapped command, or `undefined` when handled here. */
  private unwrap(program: string, spec: WrapperSpec, words: readonly ArgWord[], base: Base, ctx: Ctx): { words: readonly ArgWord[]; ctx: Ctx; base: Base } | undefined {
    const plainWords = words.map((w) => w.word);
    const wrapped = (rest: readonly ArgWord[], extra: Partial<Ctx> = {}, via: Via = "wrapper"): { words: readonly ArgWord[]; ctx: Ctx; base: Base } => ({
      words: rest,
      ctx: { ...ctx, wrappers: [...ctx.wrappers, program], via: withVia(ctx, via), ...extra },
      base,
    });
    switch (spec.kind) {
      case "exec":
      case "xargs": {
        const scan = scanOptions(plainWords, spec.grammar, 1);
        const options = optionsOf(scan);
        if (spec.noRun?.some((o) => options.has(o)) === true) {
          this.emit(words, base, ctx);
          return undefined;
        }
        let rest: ArgWord[] = words.slice(scan.next);
        const split = spec.splitString?.flatMap((o) => options.get(o) ?? []).at(-1);
        if (split !== undefined) {
          const splitWords = this.splitString(split, base.text);
          if (splitWords === undefined) {
            this.emit(words, base, ctx);
            return undefined;
          }
          rest = [...splitWords, ...rest];
        }
        let assignments = base.assignments;
        if (spec.assignments === true) {
          while (rest[0] !== undefined && isAssignmentWord(rest[0].word)) {
            const v = rest[0].word.value as string;
            const eq = v.indexOf("=");
            assignments = [...assignments, { name: v.slice(0, eq), value: { text: rest[0].word.text, value: v.slice(eq + 1), glob: false } }];
            rest = rest.slice(1);
          }
        }
        rest = rest.slice(spec.operands ?? 0);
        if (rest.length === 0) {
          if (spec.defaultCommand === undefined) {
            const host = this.emit(words, base, ctx);
            if (spec.stdinShell === true && (spec.shellOptions === undefined || spec.shellOptions.some((o) => options.has(o)))) {
              this.stdinCode("shell", program, host, base, this.hostCtx(ctx, program, host, false, base), ctx);
            }
            return undefined;
          }
          rest = [plain(syntheticWord(spec.defaultCommand))];
        }
        let state = ctx.state;
        const inShell = program === "command" || program === "builtin";
        if (!inShell) state = copyState(state);
        const chdir = spec.chdir?.flatMap((o) => options.get(o) ?? []).at(-1);
        if (chdir !== undefined) {
          const dir = chdir.value === undefined || chdir.glob ? undefined : resolveDir(state.cwd, chdir.value);
          state.cwd = dir;
          state.pwd = dir;
        }
        if (spec.newRoot === true) Object.assign(state, unknownState());
        for (const a of assignments) if (a.name === "HOME" || a.name === "PWD") this.assignVariable(a.name, a.value.value, state);
        const next = wrapped(rest, { state, runtimeArgs: ctx.runtimeArgs || spec.kind === "xargs" }, spec.kind === "xargs" ? "xargs" : "wrapper");
        return { ...next, base: { ...base, assignments } };
      }
      case "multicall": {
        const applet = words[1];
        if (applet === undefined || applet.word.value?.startsWith("-") === true) {
          this.emit(words, base, ctx);
          return undefined;
        }
        return wrapped(words.slice(1));
      }
      case "shell-option":
        return this.shellOptionWrapper(program, spec, words, base, ctx, wrapped);
      case "remote": {
        const scan = scanOptions(plainWords, spec.grammar, 1);
        const rest = words.slice(scan.next + (spec.operands ?? 0));
        const host = this.emit(words, base, ctx);
        this.embedded(program, words, host, base, ctx);
        const remote = this.hostCtx(ctx, program, host, true, base);
        // without a command the remote login shell reads its commands from stdin
        if (rest.length === 0) this.stdinCode("shell", program, host, base, remote, ctx);
        else this.shellString(joinWords(rest), program, host, base, remote, "shell-string", false);
        return undefined;
      }
      case "watch": {
        const scan = scanOptions(plainWords, spec.grammar, 1);
        const options = optionsOf(scan);
        const rest = words.slice(scan.next);
        if (rest.length === 0) {
          this.emit(words, base, ctx);
          return undefined;
        }
        if (spec.execOptions?.some((o) => options.has(o)) === true) return wrapped(rest, { state: copyState(ctx.state) });
        const host = this.emit(words, base, ctx);
        this.shellString(joinWords(rest), program, host, base, this.hostCtx(ctx, program, host, false), "shell-string", false);
        return undefined;
      }
      case "parallel":
        this.parallel(program, spec, words, base, ctx);
        return undefined;
      default: {
        const unknown: never = spec.kind;
        this.report("unknown-node", base.text, String(unknown));
        this.emit(words, base, ctx);
        return undefined;
      }
    }
  }

  /** The context of commands a host command (`ssh`, `su -c`, `bash -c`) starts; they inherit its stdin. */
  private hostCtx(ctx: Ctx, wrapper: string | undefined, host: number, remote: boolean, base?: Base): Ctx {
    const state = remote ? unknownState() : copyState(ctx.state);
    const stdinRedirects = base === undefined ? ctx.stdinRedirects : [...ctx.stdinRedirects, ...base.stdinRedirects];
    return { ...ctx, wrappers: wrapper === undefined ? ctx.wrappers : [...ctx.wrappers, wrapper], state, launchedBy: host, redirects: [], stdinRedirects };
  }

  private shellOptionWrapper(
    program: string,
    spec: WrapperSpec,
    words: readonly ArgWord[],
    base: Base,
    ctx: Ctx,
    wrapped: (rest: readonly ArgWord[], extra?: Partial<Ctx>) => { words: readonly ArgWord[]; ctx: Ctx; base: Base },
  ): { words: readonly ArgWord[]; ctx: Ctx; base: Base } | undefined {
    const plainWords = words.map((w) => w.word);
    const scan = scanOptions(plainWords, spec.grammar, 1);
    const argOf = (w: ShellWord): ArgWord => words[plainWords.indexOf(w)] ?? plain(w);
    let string: ArgWord | undefined;
    for (const e of scan.events) if (e.kind === "option" && spec.shellString?.includes(e.name) === true && e.values[0] !== undefined) string = argOf(e.values[0]);
    let command: readonly ArgWord[] = [];
    if (string === undefined && spec.grammar.permute === false) {
      // `flock [opts] FILE -c STR` or `flock [opts] FILE cmd args...`
      const after = scan.next + (spec.operands ?? 0);
      const option = words[after]?.word.value;
      if (option !== undefined && spec.shellString?.includes(option) === true) string = words[after + 1];
      else command = words.slice(after);
    } else if (string === undefined && program === "runuser" && optionsOf(scan).has("-u")) {
      command = words.slice(scanOptions(plainWords, { ...spec.grammar, permute: false }, 1).next);
    }
    if (string !== undefined) {
      const host = this.emit(words, base, ctx);
      this.shellString(string, program, host, base, this.hostCtx(ctx, program, host, false), "shell-string", false);
      return undefined;
    }
    if (command.length > 0) return wrapped(command, { state: copyState(ctx.state) });
    const host = this.emit(words, base, ctx);
    // `echo 'rm -rf /' | su`: the shell it starts reads stdin
    if (spec.stdinShell === true) this.stdinCode("shell", program, host, base, this.hostCtx(ctx, program, host, false, base), ctx);
    return undefined;
  }

  /**
   * GNU parallel runs its command line through a shell once per input: `parallel rm ::: a b` runs
   * `rm a` and `rm b`; `{}` is replaced by the input; without a command the inputs are the command
   * lines. Without `:::` inputs the arguments come from stdin (run-time arguments).
   */
  private parallel(program: string, spec: WrapperSpec, words: readonly ArgWord[], base: Base, ctx: Ctx): void {
    const scan = scanOptions(
      words.map((w) => w.word),
      spec.grammar,
      1,
    );
    const rest = words.slice(scan.next);
    const sep = rest.findIndex((w) => PARALLEL_SEPARATORS.includes(w.word.value ?? ""));
    const command = sep < 0 ? rest : rest.slice(0, sep);
    const inputs: ArgWord[] = [];
    let fromFiles = false;
    let group = "";
    for (const w of sep < 0 ? [] : rest.slice(sep)) {
      const v = w.word.value ?? "";
      if (PARALLEL_SEPARATORS.includes(v)) {
        group = v;
        fromFiles ||= v.startsWith("::::");
      } else if (!group.startsWith("::::")) inputs.push(w);
    }
    const host = this.emit(words, base, ctx);
    const hostCtx: Ctx = { ...this.hostCtx(ctx, program, host, false), runtimeArgs: ctx.runtimeArgs || inputs.length === 0 || fromFiles };
    if (command.length === 0) {
      for (const line of inputs) this.shellString(line, program, host, base, hostCtx, "shell-string", false);
      return;
    }
    const line = joinWords(command);
    if (inputs.length === 0) {
      this.shellString(line, program, host, base, hostCtx, "shell-string", false);
      return;
    }
    for (const input of inputs) {
      const template = line.word.value;
      const value = template === undefined || input.word.value === undefined ? undefined : template.includes("{}") ? template.replaceAll("{}", input.word.value) : `${template} ${input.word.value}`;
      const word: ShellWord = { text: `${line.word.text} ${input.word.text}`, value, glob: false };
      this.shellString({ word, producers: [...line.producers, ...input.producers], substitution: undefined }, program, host, base, hostCtx, "shell-string", false);
    }
  }

  /** `env -S STR`: the string split into words (parsed, never split by hand); `undefined` when it is not one plain command. */
  private splitString(word: ShellWord, text: string): ArgWord[] | undefined {
    if (word.value === undefined) {
      this.report("dynamic-code", text);
      return undefined;
    }
    const script = parse(word.value);
    const statement = script.commands[0];
    const command = statement?.command;
    if (script.errors !== undefined || script.commands.length !== 1 || command?.type !== "Command" || statement?.background === true || command.prefix.length > 0 || command.suffix.some((s) => s.type !== "Word")) {
      this.report("env-split-string", text);
      return undefined;
    }
    const env: WordEnv = { home: this.options.home, pwd: this.options.cwd, positional: undefined };
    const out: ArgWord[] = [];
    for (const w of [command.name, ...command.suffix]) {
      if (w === undefined || w.type !== "Word") continue;
      if (w.parts?.some((p) => p.type === "CommandExpansion" || p.type === "ProcessSubstitution" || p.type === "ArithmeticExpansion") === true) {
        this.report("env-split-string", text);
        return undefined;
      }
      out.push(...resolveWord(w, env).words.map(plain));
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // find

  private find(words: readonly ArgWord[], base: Base, ctx: Ctx): void {
    const values = words.map((w) => w.word.value);
    let i = 1;
    // global options: -H -L -P -D debugopts -Olevel
    while (i < words.length) {
      const v = values[i];
      if (v === "-H" || v === "-L" || v === "-P" || v?.startsWith("-O") === true) i++;
      else if (v === "-D") i += 2;
      else break;
    }
    const roots: ShellWord[] = [];
    while (i < words.length) {
      const v = values[i];
      if (v !== undefined && (v.startsWith("-") || v === "(" || v === "!" || v === ")" || v === ",")) break;
      roots.push((words[i] as ArgWord).word);
      i++;
    }
    if (roots.length === 0) roots.push(syntheticWord("."));
    const groups: { words: ArgWord[]; dir: boolean }[] = [];
    let deletes = false;
    while (i < words.length) {
      const v = values[i];
      if (v === "-delete") deletes = true;
      if (v === "-exec" || v === "-execdir" || v === "-ok" || v === "-okdir") {
        const group: ArgWord[] = [];
        let j = i + 1;
        for (; j < words.length; j++) {
          const w = values[j];
          if (w === ";" || (w === "+" && values[j - 1] === "{}")) break;
          group.push(words[j] as ArgWord);
        }
        groups.push({ words: group, dir: v.endsWith("dir") });
        i = j + 1;
        continue;
      }
      i++;
    }
    const index = this.emit(words, base, ctx, deletes || groups.length > 0 ? roots : undefined);
    for (const group of groups) {
      if (group.words.length === 0) continue;
      const state = copyState(ctx.state);
      if (group.dir) Object.assign(state, { cwd: undefined, pwd: undefined });
      const inner: Ctx = {
        ...ctx,
        via: withVia(ctx, "find-exec"),
        wrappers: [...ctx.wrappers, "find"],
        runtimeArgs: true,
        searchRoots: roots,
        launchedBy: index,
        state,
        redirects: [],
      };
      this.execute(group.words, { assignments: [], redirects: [], stdinRedirects: [], text: base.text }, { ...inner, stdinRedirects: [] });
    }
  }

  // ---------------------------------------------------------------------------------------------
  // code: eval, source, shells and interpreters

  private evalCommand(program: string, words: readonly ArgWord[], base: Base, ctx: Ctx): void {
    const host = this.emit(words, base, ctx);
    const args = words.slice(1);
    if (args.length === 0) return;
    // eval runs in this shell: its `cd` and assignments stay
    const inner: Ctx = { ...ctx, launchedBy: host, redirects: [] };
    this.shellString(args.length === 1 ? (args[0] as ArgWord) : joinWords(args), program, host, base, inner, "shell-string", true);
  }

  private sourceCommand(program: string, words: readonly ArgWord[], base: Base, ctx: Ctx): void {
    const host = this.emit(words, base, ctx);
    const file = words[1];
    if (file === undefined) return;
    if (file.substitution === "process") this.addCode("shell", program, host, "process-substitution", undefined, file.producers);
    else this.addCode("shell", program, host, "file", undefined, []);
  }

  private interpreter(read: NonNullable<ReturnType<typeof readInterpreter>>, words: readonly ArgWord[], base: Base, ctx: Ctx): void {
    const host = this.emit(words, base, ctx);
    const args = words.slice(1);
    const language = read.spec.language;
    const input = read.input;
    // a heredoc that is the interpreter's own code is not stdin for the commands inside it
    const hostCtx = this.hostCtx(ctx, undefined, host, false, input.kind === "stdin" ? undefined : base);
    switch (input.kind) {
      case "none":
        return;
      case "code": {
        if (input.words.length === 0) {
          // `curl x | xargs -0 sh -c`: the code is a run-time argument, read from stdin by xargs
          if (ctx.runtimeArgs && ctx.stdin !== undefined) this.addCode(language, read.name, host, "stdin", undefined, [...new Set(ctx.stdin.upstream)]);
          else if (ctx.runtimeArgs) this.codeSource(language, read.name, host, plain({ text: base.text, value: undefined, glob: false }), base.text);
          return;
        }
        const pieces = input.words.map((i) => args[i] ?? plain(syntheticWord("")));
        const code = pieces.length === 1 ? (pieces[0] as ArgWord) : joinWords(pieces, "\n");
        const positional = language === "shell" ? args.slice(input.argsFrom).map((a) => a.word.value) : undefined;
        this.runCode(language, code, read.name, host, base, { ...hostCtx, positional: positional ?? hostCtx.positional }, "shell-string");
        return;
      }
      case "script": {
        const script = args[input.index] as ArgWord;
        if (script.substitution === "process") this.addCode(language, read.name, host, "process-substitution", undefined, script.producers);
        else this.addCode(language, read.name, host, "file", undefined, []);
        return;
      }
      case "stdin": {
        const positional = language === "shell" ? ["", ...args.slice(input.argsFrom).map((a) => a.word.value)] : undefined;
        this.stdinCode(language, read.name, host, base, { ...hostCtx, positional: positional ?? hostCtx.positional }, ctx);
        return;
      }
      default: {
        const unknown: never = input;
        this.report("unknown-node", base.text, String(unknown));
      }
    }
  }

  /** Code read from stdin: a heredoc or herestring, a `<` file, or what the pipeline feeds in. */
  private stdinCode(language: CodeLanguage, interpreter: string, host: number, base: Base, hostCtx: Ctx, ctx: Ctx): void {
    const redirect = base.stdinRedirects.at(-1) ?? ctx.stdinRedirects.at(-1);
    if (redirect !== undefined) {
      if (redirect.kind === "file") this.addCode(language, interpreter, host, "file", undefined, []);
      else this.runCode(language, redirect.word, interpreter, host, base, hostCtx, "shell-string");
      return;
    }
    const stdin = ctx.stdin;
    if (stdin === undefined) return;
    const literal = this.literalOutput(stdin.immediate);
    if (literal !== undefined) {
      this.runCode(language, plain(syntheticWord(literal)), interpreter, host, base, hostCtx, "shell-string");
      return;
    }
    this.addCode(language, interpreter, host, "stdin", undefined, [...new Set(stdin.upstream)]);
  }

  /** The output of a lone `echo`/`printf` with static arguments, else `undefined`. */
  private literalOutput(producers: readonly number[]): string | undefined {
    if (producers.length !== 1) return undefined;
    const producer = this.commands[producers[0] as number];
    if (producer === undefined || producer.program === undefined || !LITERAL_PRODUCERS.includes(producer.program)) return undefined;
    const args = producer.args.map((a) => a.value);
    if (args.some((a) => a === undefined)) return undefined;
    return producer.program === "echo" ? echoOutput(args as string[]) : printfOutput(args as string[]);
  }

  private addCode(language: CodeLanguage, interpreter: string, command: number, source: CodeExecution["source"], code: string | undefined, producers: readonly number[]): void {
    this.code.push({ language, interpreter, command, source, code, producers });
  }

  /** Code given as a word: literal → analysed; substitution → its producers; else dynamic. */
  private runCode(language: CodeLanguage, word: ArgWord, interpreter: string, host: number, base: Base, ctx: Ctx, via: Via): void {
    if (language === "shell") {
      this.shellString(word, interpreter, host, base, ctx, via, false);
      return;
    }
    const code = word.word.value;
    if (code === undefined) {
      this.codeSource(language, interpreter, host, word, base.text);
      return;
    }
    this.addCode(language, interpreter, host, "literal", code, []);
    this.interpreterCode(language, code, host, ctx);
  }

  /** Records a non-literal code word: a substitution's producers, or an unknown value. */
  private codeSource(language: CodeLanguage, interpreter: string, host: number, word: ArgWord, text: string): void {
    if (word.substitution === "command") this.addCode(language, interpreter, host, "command-substitution", undefined, word.producers);
    else if (word.substitution === "process") this.addCode(language, interpreter, host, "process-substitution", undefined, word.producers);
    else {
      this.addCode(language, interpreter, host, "dynamic", undefined, word.producers);
      this.report("dynamic-code", text);
    }
  }

  /** A shell string (`bash -c`, `eval`, `su -c`, `ssh host ...`): parsed and walked one level deeper. */
  private shellString(word: ArgWord, interpreter: string, host: number, base: Base, ctx: Ctx, via: Via, sameShell: boolean): void {
    const code = word.word.value;
    if (code === undefined) {
      this.codeSource("shell", interpreter, host, word, base.text);
      return;
    }
    this.addCode("shell", interpreter, host, "literal", code, []);
    if (ctx.depth + 1 > this.maxDepth) {
      this.stop("depth-limit", code);
      return;
    }
    const state = sameShell ? ctx.state : copyState(ctx.state);
    for (const a of base.assignments) if (!sameShell) this.assignVariable(a.name, a.value.value, state);
    this.parseAndWalk(code, { ...ctx, via: withVia(ctx, via), depth: ctx.depth + 1, state, launchedBy: host, frames: sameShell ? ctx.frames : [] });
  }

  /** Interpreter code: API calls from the tables, and the shell commands they run. */
  private interpreterCode(language: CodeLanguage, code: string, host: number, ctx: Ctx): void {
    if (language === "shell") return;
    const lang: CodeTokenLanguage = language;
    // tokens are cheap next to syntax nodes: charge one node per eight tokens
    const found = findCalls(code, lang, (units) => this.tick(Math.ceil(units / 8)));
    if (found === undefined) {
      this.report("interpreter-code", code);
      return;
    }
    for (const call of found) {
      this.calls.push({ language, command: host, api: call.api, access: call.access, recursive: call.recursive, args: call.args });
      const exec = call.exec;
      if (exec === undefined) continue;
      const inner: Ctx = { ...ctx, via: withVia(ctx, "interpreter"), depth: ctx.depth + 1, state: copyState(ctx.state), launchedBy: host, positional: undefined, redirects: [] };
      const base: Base = { assignments: [], redirects: [], stdinRedirects: [], text: call.text };
      if (exec.kind === "shell") {
        if (exec.code === undefined) {
          this.addCode("shell", call.api, host, "dynamic", undefined, []);
          this.report("dynamic-code", call.text);
          continue;
        }
        this.addCode("shell", call.api, host, "literal", exec.code, []);
        if (ctx.depth + 1 > this.maxDepth) {
          this.stop("depth-limit", call.text);
          continue;
        }
        this.parseAndWalk(exec.code, inner);
        continue;
      }
      if (ctx.depth + 1 > this.maxDepth) {
        this.stop("depth-limit");
        continue;
      }
      const argv = exec.argv.map((a) => plain({ text: a.text, value: a.value, glob: false }));
      if (argv.length > 0) this.execute(argv, base, { ...inner, source: call.text });
    }
  }
}

/** The word is exactly one command substitution (maybe double-quoted) or one process substitution. */
function wholeSubstitution(word: Word): ArgWord["substitution"] {
  const parts = word.parts;
  if (parts === undefined || parts.length !== 1) return undefined;
  const part = parts[0] as WordPart;
  if (part.type === "CommandExpansion") return "command";
  if (part.type === "ProcessSubstitution") return "process";
  if (part.type === "DoubleQuoted" && part.parts.length === 1 && part.parts[0]?.type === "CommandExpansion") return "command";
  return undefined;
}

/** Words joined by spaces (`eval a b`, `ssh host rm -rf /`): dynamic when any piece is. */
function joinWords(words: readonly ArgWord[], separator = " "): ArgWord {
  const values = words.map((w) => w.word.value);
  const value = values.some((v) => v === undefined) ? undefined : values.join(separator);
  return { word: { text: words.map((w) => w.word.text).join(separator), value, glob: false }, producers: words.flatMap((w) => w.producers), substitution: undefined };
}

function isAssignmentWord(word: ShellWord): boolean {
  const v = word.value;
  if (v === undefined) return false;
  const eq = v.indexOf("=");
  if (eq <= 0) return false;
  const name = v.slice(0, eq);
  return [...name].every((c, i) => c === "_" || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (i > 0 && c >= "0" && c <= "9"));
}

function unknownState(): State {
  return { cwd: undefined, home: undefined, pwd: undefined };
}

/** Two possible states after a branch: what they agree on stays known. */
function mergeStates(a: State, b: State): State {
  return { cwd: a.cwd === b.cwd ? a.cwd : undefined, home: a.home === b.home ? a.home : undefined, pwd: a.pwd === b.pwd ? a.pwd : undefined };
}

/** The left side of `||` is one plain `cd`/`pushd`: when it fails, nothing changed. */
function isPlainCd(nodes: readonly PipelineNode[]): boolean {
  if (nodes.length !== 1) return false;
  const node = nodes[0] as PipelineNode;
  const command = node.type === "Pipeline" && node.commands.length === 1 ? node.commands[0] : node;
  return command?.type === "Command" && (command.name?.value === "cd" || command.name?.value === "pushd");
}

/** The node always leaves the shell (`exit`, `return`, or a group ending with one). */
function exits(node: PipelineNode): boolean {
  if (node.type === "Command") return node.name?.value === "exit" || node.name?.value === "return";
  if (node.type === "BraceGroup") {
    const last = node.body.commands.at(-1)?.command;
    return last !== undefined && last.type !== "AndOr" && exits(last);
  }
  if (node.type === "Pipeline" && node.commands.length === 1) return exits(node.commands[0] as PipelineNode);
  return false;
}

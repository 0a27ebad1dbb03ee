/**
 * The traversal behind `analyzeShell`: visits every node of the unbash AST (each `switch` over
 * node kinds is exhaustive; an unknown kind is reported as `unknown-node`, never skipped),
 * threads the value environment (`State`) through lists, branches and loops, resolves words, and
 * hands each simple command to `execute`, which expands aliases and functions and dispatches to
 * the handler of the program's family (the registry in `../handlers/index.ts`). What commands
 * mean lives in the handlers, which see this walker only as the `Walk` of
 * `../handlers/contract.ts`; this file only knows the shell's grammar.
 */
import { posix } from "node:path";
import { parse } from "unbash";
import type {
  AndOr,
  ArithmeticExpression,
  Assignment,
  CommandNode,
  CompoundList,
  Command as UCommand,
  DoubleQuotedChild,
  HereDoc,
  LogicalOperator,
  ParsedScript,
  PipelineNode,
  Redirection,
  Statement,
  TestExpression,
  Word,
  WordPart,
} from "unbash";
import { resolveWord, runtimeNames, syntheticWord, withNames, type Binding, type WordEnv } from "../words.ts";
import type { Slot, Walk } from "../handlers/contract.ts";
import { dispatch, judgeStored, runnerOptions, storedFiles, unwrap } from "../handlers/index.ts";
import { remoteCodeIn } from "../handlers/remote-code.ts";
import { listedRoots } from "../handlers/xargs.ts";
import { WRAPPERS } from "../tables/wrappers.ts";
import { ARGUMENT_PRINTERS, ENVIRONMENT_PRINTERS } from "../tables/network.ts";
import type {
  AnalyzeOptions,
  RedirectKind,
  ShellAnalysis,
  ShellCommand,
  ShellRedirect,
  ShellWord,
  Via,
} from "../types.ts";
import { BudgetExceeded, Collector } from "./collector.ts";
import {
  assign,
  copyState,
  emptyBase,
  mergeStates,
  plain,
  sameState,
  synthetic,
  unknownState,
  varValue,
  withVia,
  isName,
  userHome,
  loginName,
  topCtx,
  type ArgWord,
  type Base,
  type Ctx,
  type FunctionInfo,
  type Mutable,
  type State,
  type Stdin,
  type StdinRedirect,
} from "./context.ts";

/** Guards the unwrap loop against wrappers wrapping themselves forever (`nice nice nice ...`). */
const MAX_UNWRAP = 64;
/** A `for` loop over a literal list runs its body once per item up to this many items. */
const MAX_LOOP_ITEMS = 16;

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

/** XDG base directory variables and their defaults under the home directory (`$XDG_CACHE_HOME/pip`). */
const XDG_DIRS: readonly (readonly [string, string])[] = [
  ["XDG_CONFIG_HOME", ".config"],
  ["XDG_CACHE_HOME", ".cache"],
  ["XDG_DATA_HOME", ".local/share"],
  ["XDG_STATE_HOME", ".local/state"],
];
/** The walker. One instance per `analyzeShell` call. */
export class Walker extends Collector implements Walk {
  /** The word environment of each state. */
  private readonly envs = new WeakMap<State, WordEnv>();
  /** Function definitions with the context they were defined in. */
  private readonly uncalled: { info: FunctionInfo; ctx: Ctx }[] = [];
  /** Work that runs when the script ends (`trap` handlers), walked after the whole source. */
  private readonly exitWork: (() => void)[] = [];
  /** Aliases defined on the line (`alias x='...'`). */
  private readonly aliases = new Map<string, string>();
  /** The memory of each program family that keeps some for the line (see `Slot`). */
  private readonly memos = new Map<Slot<unknown>, unknown>();
  /** Background jobs started so far (`cmd &`), to tell loops that spawn them. */
  private backgroundJobs = 0;
  /** Static outputs of command substitution parts, by part. */
  private readonly substitutions = new Map<object, string | undefined>();

  /** Walks the whole source, converting budget exhaustion and crashes into results. */
  run(): ShellAnalysis {
    return this.guarded(() => {
      const state = this.initialState();
      const top = topCtx(this.source, state);
      this.parseAndWalk(this.source, top);
      for (let i = 0; i < this.exitWork.length; i++) this.exitWork[i]?.();
      // a function never called does not run, unless something the walk cannot see may call it
      const unseen = this.unseenCaller();
      for (let i = 0; i < this.uncalled.length; i++) {
        const { info, ctx } = this.uncalled[i] as { info: FunctionInfo; ctx: Ctx };
        if (!info.called && (unseen || this.exported(info.name))) this.walkFunction(info, ctx, undefined);
      }
      // files the line wrote that hold code a tool runs later (a Makefile, a git hook)
      storedFiles(this, topCtx(this.source, this.initialState()));
    });
  }

  /**
   * Judges the code a file tool stores (`Write` of a Makefile, an `Edit` of package.json): the
   * file at `path` gets `text`, replacing `before`. The call is one command without a program
   * (`tool`, shown as `tool path`) that starts the stored code.
   */
  runStored(tool: string, path: string, text: string, before: string | undefined): ShellAnalysis {
    return this.guarded(() => {
      const ctx = topCtx(this.source, this.initialState());
      const base = emptyBase(`${tool} ${path}`);
      const host = this.emit([], base, ctx);
      judgeStored(this, { path, text, before, host, base, ctx, interpreter: tool });
    });
  }

  /** The state a line starts in: the home, the working directory, the login and XDG variables. */
  private initialState(): State {
    const vars = new Map<string, Binding | undefined>([
      ["HOME", { set: true, value: this.options.home }],
      ["PWD", { set: true, value: this.options.cwd }],
    ]);
    // the login name is the home directory's name where homes live by name (`/home/$USER`)
    // `$SHELL -c STR`, `$BASH -c STR`: the user's shell, which one does not matter to what STR runs
    for (const name of ["SHELL", "BASH"]) vars.set(name, { set: true, value: "/bin/bash" });
    const user = loginName(this.options.home);
    if (user !== undefined) for (const name of ["USER", "LOGNAME"]) vars.set(name, { set: true, value: user });
    // the XDG base directories, at their specified defaults under the home directory
    for (const [name, dir] of XDG_DIRS) vars.set(name, { set: true, value: `${this.options.home}/${dir}` });
    return { cwd: this.options.cwd, vars, positional: undefined };
  }

  /** Runs `walk`, converting budget exhaustion and crashes into results. */
  private guarded(walk: () => void): ShellAnalysis {
    try {
      walk();
    } catch (error) {
      // a broken install (the built bundle's data file missing or from another build) is not a
      // command lanes cannot analyse: it blocks every call until lanes is installed again
      if (error instanceof Error && error.name === "LanesInstallError") throw error;
      if (error instanceof BudgetExceeded) this.stop("node-budget");
      else if (error instanceof RangeError) this.stop("stack-overflow");
      else this.report("internal-error", this.source, error instanceof Error ? error.message : undefined);
    }
    return this.result();
  }

  /**
   * True when the line runs something that may call a function the walk did not see called: a
   * command named only at run time (`"$@"`, `$CMD`), code read from a file or a variable (`source
   * lib.sh`, `eval "$X"`), or anything else the analysis could not represent.
   */
  private unseenCaller(): boolean {
    return this.unrepresentable.length > 0 || this.code.some((c) => c.source !== "literal");
  }

  /** `export -f NAME`, `declare -fx NAME`: the function is in the environment of every child shell. */
  private exported(name: string): boolean {
    return this.commands.some(
      (c) =>
        (c.program === "export" || c.program === "declare" || c.program === "typeset") &&
        c.args.some((a) => a.value?.startsWith("-") === true && a.value.includes("f")) &&
        c.args.some((a) => a.value === name),
    );
  }

  atExit(run: () => void): void {
    this.exitWork.push(run);
  }

  defineAlias(name: string, text: string | undefined): void {
    if (text === undefined) this.aliases.delete(name);
    else this.aliases.set(name, text);
  }

  memo<T>(slot: Slot<T>): T {
    if (!this.memos.has(slot)) this.memos.set(slot, slot.create());
    return this.memos.get(slot) as T;
  }

  // ---------------------------------------------------------------------------------------------
  // scripts, lists and pipelines

  /** Parses `source` and walks it in `ctx`. */
  parseAndWalk(source: string, ctx: Ctx): void {
    this.tickText(source);
    this.script(parse(source), { ...ctx, source });
  }

  private script(script: ParsedScript, ctx: Ctx): void {
    const source = script.source ?? ctx.source;
    this.tickText(source);
    for (const error of script.errors ?? []) this.report("parse-error", source, error.message);
    // a line the POSIX parser cannot read may be PowerShell (`iex (irm URL)`)
    if ((script.errors ?? []).length > 0)
      remoteCodeIn(this, { language: "powershell", code: source, ctx, host: ctx.launchedBy });
    this.statements(script.commands, { ...ctx, source });
  }

  private statements(list: readonly Statement[], ctx: Ctx): void {
    const inner = list.length > 1 && ctx.via.at(-1) !== "list" ? { ...ctx, via: withVia(ctx, "list") } : ctx;
    for (const statement of list) this.statement(statement, inner);
  }

  compoundList(list: CompoundList, ctx: Ctx): void {
    this.tick();
    this.statements(list.commands, ctx);
  }

  private statement(statement: Statement, ctx: Ctx): void {
    this.tick();
    if (statement.background === true) this.backgroundJobs++;
    // a background job runs in a subshell: its `cd` and assignments do not leak
    if (statement.background === true)
      this.pipelineOrList(statement.command, { ...ctx, state: copyState(ctx.state), forking: true });
    else this.pipelineOrList(statement.command, ctx);
  }

  private pipelineOrList(node: PipelineNode | AndOr, ctx: Ctx): void {
    this.tick();
    switch (node.type) {
      case "AndOr":
        this.andOr(node.commands, node.operators, ctx);
        return;
      case "Pipeline": {
        let inner = ctx;
        if (node.prefixes.some((p) => p.type === "Time"))
          inner = { ...ctx, wrappers: [...ctx.wrappers, "time"], via: withVia(ctx, "wrapper") };
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
   * after a failed plain `cd` the state is unchanged, otherwise unknown. Afterwards the state is
   * known only where every way through agrees (or the `||` side exits).
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
      const stdin: Stdin | undefined =
        previous === undefined ? ctx.stdin : { immediate: previous, upstream: [...upstream] };
      const stdinRedirects = previous === undefined ? ctx.stdinRedirects : [];
      this.commandNode(element, {
        ...ctx,
        via,
        sink,
        stdin,
        stdinRedirects,
        state: copyState(ctx.state),
        forking: true,
      });
      if (previous !== undefined) for (const from of previous) for (const to of sink) this.pipes.push({ from, to });
      for (const i of sink) upstream.push(i, ...(this.subProducers.get(i) ?? []));
      previous = sink;
      last = sink;
    }
    ctx.sink.push(...last);
  }

  // ---------------------------------------------------------------------------------------------
  // command nodes

  commandNode(node: CommandNode, ctx: Ctx): void {
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
      case "While": {
        if (node.kind === "while" && this.readLoop(node.clause, node.body, ctx)) return;
        const start = this.commands.length;
        const jobs = this.backgroundJobs;
        let clauseEnd = start;
        const choosing = selects(node.body);
        this.loop(ctx, (inner) => {
          this.compoundList(node.clause, inner);
          clauseEnd = this.commands.length;
          // `... | while read c; do [ ... ] && docker rm "$c"; done`: the body picks some lines only
          if (choosing)
            for (const [name, b] of inner.state.vars)
              if (b?.set === true && b.listed !== undefined) assign(inner.state, name, undefined);
          this.compoundList(node.body, inner);
        });
        const clause = this.commands.slice(start, clauseEnd);
        const forever =
          clause.length === 1 &&
          clause[0]?.args.length === 0 &&
          (node.kind === "while"
            ? clause[0].program === "true" || clause[0].program === ":"
            : clause[0]?.program === "false");
        this.recordLoop(forever, start, jobs, ctx.source.slice(node.pos, node.end));
        return;
      }
      case "For":
      case "Select": {
        const name = node.name.value;
        // `for f; do`: the positional parameters, as `for f in "$@"` (when they are known)
        const positional = ctx.state.positional?.slice(1);
        const items: ArgWord[] | undefined =
          node.wordlist !== undefined
            ? node.wordlist.flatMap((w) => this.argWord(w, ctx))
            : positional?.every((v) => v !== undefined)
              ? positional.map((value) => plain({ text: value, value, glob: false }))
              : undefined;
        if (node.type === "For" && items !== undefined && items.length <= MAX_LOOP_ITEMS) {
          // a loop over a literal list: the body once per item, with the variable bound
          this.loop(ctx, (inner) => {
            if (items.length === 0) return;
            const ends: State[] = [];
            const before = copyState(inner.state);
            for (const item of items) {
              const state = copyState(before);
              // `for f in ~/*`: the variable stands for each match of the glob
              // `for c in $(docker ps -aq)`: the variable stands for each item the substitution lists
              const listed =
                item.substitution === "command" && item.word.value === undefined && !selects(node.body)
                  ? item.producers
                  : [];
              assign(state, name, {
                set: true,
                value: item.word.value,
                ...(item.word.glob && { glob: true }),
                ...(listed.length > 0 && { listed }),
              });
              this.compoundList(node.body, { ...inner, state });
              ends.push(state);
            }
            Object.assign(inner.state, ends.reduce(mergeStates));
          });
          return;
        }
        this.loop(ctx, (inner) => {
          assign(inner.state, name, undefined);
          this.compoundList(node.body, inner);
        });
        return;
      }
      case "ArithmeticFor": {
        for (const e of [node.initialize, node.test, node.update]) if (e !== undefined) this.arithmeticSubs(e, ctx, []);
        const start = this.commands.length;
        const jobs = this.backgroundJobs;
        this.loop(ctx, (inner) => this.compoundList(node.body, inner));
        this.recordLoop(node.test === undefined, start, jobs, ctx.source.slice(node.pos, node.end));
        return;
      }
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
        this.commandNode(node.command, {
          ...ctx,
          redirects: [...ctx.redirects, ...redirects],
          stdinRedirects: [...ctx.stdinRedirects, ...stdinRedirects],
        });
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
        this.report("unknown-node", ctx.source, String((unknown as { type?: unknown }).type));
      }
    }
  }

  private ifNode(
    clause: CompoundList,
    then: CompoundList,
    elifs: readonly { clause: CompoundList; then: CompoundList }[],
    otherwise: CompoundList | undefined,
    ctx: Ctx,
  ): void {
    const inner = { ...ctx, via: withVia(ctx, "control-flow") };
    const before = copyState(ctx.state);
    this.compoundList(clause, inner);
    const afterClause = copyState(ctx.state);
    // a failed plain `cd` changes nothing; any other clause that changed the state leaves it unknown
    const plainCd =
      clause.commands.length === 1 &&
      clause.commands[0]?.command !== undefined &&
      clause.commands[0].command.type !== "AndOr" &&
      isPlainCd([clause.commands[0].command]);
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

  /** Records a `while`/`until`/`for ((;;))` loop: endless when its condition always holds and nothing in it leaves. */
  private recordLoop(forever: boolean, start: number, jobs: number, text: string): void {
    const leaves = this.commands
      .slice(start)
      .some((c) => c.program === "break" || c.program === "exit" || c.program === "return");
    this.loops.push({ unbounded: forever && !leaves, backgroundSpawn: this.backgroundJobs > jobs, text });
  }

  /**
   * `... | while read [-r] A B; do BODY; done`, `while read x; do ...; done <<< STR`: when the loop
   * reads a known text, the body runs once per line with the variables bound (the last one takes
   * the rest of the line), as a `for` loop over a literal list does. False when it does not apply.
   */
  private readLoop(clause: CompoundList, body: CompoundList, ctx: Ctx): boolean {
    const only = clause.commands.length === 1 ? clause.commands[0]?.command : undefined;
    const command = only?.type === "Pipeline" && only.commands.length === 1 ? only.commands[0] : only;
    if (command?.type !== "Command" || command.name?.value !== "read") return false;
    // `IFS= read -r x`: the whole line, unsplit; another IFS or prefix is not emulated
    const whole = command.prefix.length === 1;
    const ifs = command.prefix[0];
    if (
      command.prefix.length > 1 ||
      (ifs !== undefined &&
        (ifs.type !== "Assignment" || ifs.name !== "IFS" || ifs.value.type !== "Word" || ifs.value.value !== ""))
    )
      return false;
    const args = command.suffix.map((x) => (x.type === "Word" ? x.value : undefined));
    let raw = false;
    // `read -d ''`: NUL-separated input (`find -print0`, `git ls-files -z`); only a listing's loop reads it
    let delimited = false;
    const names: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === "-d" && i + 1 < args.length) {
        delimited = true;
        i++;
        continue;
      }
      if (a === undefined || (a.startsWith("-") && !/^-[rs]+$/.test(a))) return false;
      if (a.startsWith("-")) raw ||= a.includes("r");
      else if (isName(a)) names.push(a);
      else return false;
    }
    const text = this.stdinText(emptyBase(""), ctx);
    if (text === undefined) return this.listingLoop(clause, body, names, ctx);
    if (delimited) return false;
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    if (lines.length > MAX_LOOP_ITEMS) return false;
    const start = this.commands.length;
    const jobs = this.backgroundJobs;
    this.loop(ctx, (inner) => {
      this.compoundList(clause, inner);
      const before = copyState(inner.state);
      const ends: State[] = [before];
      for (const line of lines) {
        const state = copyState(before);
        const text = raw ? line : line.replace(/\\(.)/g, "$1");
        const fields = whole ? [text] : readFields(text, Math.max(names.length, 1));
        (names.length === 0 ? ["REPLY"] : names).forEach((name, i) =>
          assign(state, name, { set: true, value: names.length === 0 ? line : (fields[i] ?? "") }),
        );
        this.compoundList(body, { ...inner, state });
        ends.push(state);
      }
      Object.assign(inner.state, ends.reduce(mergeStates));
    });
    this.recordLoop(false, start, jobs, ctx.source.slice(clause.pos, body.end));
    return true;
  }

  /**
   * `find . -name '*.ts' | while read -r f; do sed -i … "$f"; done` (or `git ls-files | while …`):
   * the one variable stands for each listed file, as `xargs` gives it (`{}`, under the lister's
   * search roots). False when the loop reads anything else.
   */
  private listingLoop(clause: CompoundList, body: CompoundList, names: readonly string[], ctx: Ctx): boolean {
    const roots = names.length <= 1 ? listedRoots(this, ctx) : undefined;
    const lister = ctx.stdin?.immediate[0];
    if (roots === undefined || lister === undefined) return false;
    const start = this.commands.length;
    const jobs = this.backgroundJobs;
    this.loop(ctx, (inner) => {
      this.compoundList(clause, inner);
      const state = copyState(inner.state);
      assign(state, names[0] ?? "REPLY", { set: true, value: "{}" });
      this.compoundList(body, { ...inner, state, runtimeArgs: true, searchRoots: roots, lister });
      Object.assign(inner.state, mergeStates(copyState(inner.state), state));
    });
    this.recordLoop(false, start, jobs, ctx.source.slice(clause.pos, body.end));
    return true;
  }

  /** A loop body may run many times: when it changes the directory, every command in it loses its cwd. */
  private loop(ctx: Ctx, body: (inner: Ctx) => void): void {
    const start = this.commands.length;
    const before = copyState(ctx.state);
    body({ ...ctx, via: withVia(ctx, "control-flow") });
    if (before.cwd !== ctx.state.cwd)
      for (let i = start; i < this.commands.length; i++) (this.commands[i] as Mutable<ShellCommand>).cwd = undefined;
    Object.assign(ctx.state, mergeStates(before, ctx.state));
  }

  private testCommand(expression: TestExpression, pos: number, end: number, ctx: Ctx): void {
    const words: ArgWord[] = [synthetic("[[")];
    const visit = (e: TestExpression): void => {
      this.tick();
      switch (e.type) {
        case "TestUnary":
          words.push(synthetic(e.operator), this.argWord(e.operand, ctx)[0] ?? synthetic(""));
          return;
        case "TestBinary":
          words.push(...this.argWord(e.left, ctx), synthetic(e.operator), ...this.argWord(e.right, ctx));
          return;
        case "TestLogical":
          e.operands.forEach((o, i) => {
            if (i > 0) words.push(synthetic(e.operator));
            visit(o);
          });
          return;
        case "TestNot":
          words.push(synthetic("!"));
          visit(e.operand);
          return;
        case "TestGroup":
          words.push(synthetic("("));
          visit(e.expression);
          words.push(synthetic(")"));
          return;
        default: {
          const unknown: never = e;
          this.report("unknown-node", ctx.source, String((unknown as { type?: unknown }).type));
        }
      }
    };
    visit(expression);
    words.push(synthetic("]]"));
    this.emit(words, emptyBase(ctx.source.slice(pos, end)), ctx);
  }

  /**
   * A function definition: the body is walked at each call, with the caller's state and
   * arguments; a function of the command line never called is walked once at the end, as it was
   * defined (what it would run if something the analysis cannot see called it).
   */
  private defineFunction(nameWord: Word, body: CommandNode | CompoundList, ctx: Ctx): void {
    const info: FunctionInfo = {
      name: nameWord.value,
      recursive: false,
      forks: false,
      called: false,
      body,
      source: ctx.source,
      wrapped: ctx.wrappers.length,
      origin: ctx.origin?.text === ctx.source ? ctx.origin : undefined,
    };
    // a function of a file read from disk that nothing calls does not run: the call's shell ends with the line
    if (ctx.origin === undefined) this.uncalled.push({ info, ctx: { ...ctx, state: copyState(ctx.state), sink: [] } });
    const previous = this.functions.get(info.name);
    if (previous !== undefined) this.functionOrder.splice(this.functionOrder.indexOf(previous), 1);
    this.functions.set(info.name, info);
    this.functionOrder.push(info);
  }

  /** Walks a function body; a call passes its arguments as the positional parameters. */
  walkFunction(info: FunctionInfo, ctx: Ctx, args: readonly (string | undefined)[] | undefined): void {
    const state = ctx.state;
    const saved = state.positional;
    state.positional = args === undefined ? undefined : [state.positional?.[0] ?? info.name, ...args];
    const inner: Ctx = {
      ...ctx,
      source: info.source,
      via: withVia(ctx, "function-body"),
      forking: false,
      frames: [...ctx.frames, info],
      ...(info.origin !== undefined && { origin: info.origin }),
    };
    if (info.body.type === "CompoundList") this.compoundList(info.body, inner);
    else this.commandNode(info.body, inner);
    state.positional = saved;
  }

  // ---------------------------------------------------------------------------------------------
  // words and substitutions

  /** The word environment of a state (one per state: it reads the state as it changes). */
  env(ctx: Ctx): WordEnv {
    const state = ctx.state;
    let env = this.envs.get(state);
    if (env === undefined) {
      const substitutions = this.substitutions;
      const home = this.options.home;
      env = {
        get home() {
          return varValue(state, "HOME");
        },
        get pwd() {
          return varValue(state, "PWD");
        },
        get positional() {
          return state.positional;
        },
        lookup: (name) => state.vars.get(name),
        substitution: (part) => substitutions.get(part),
        homeOf: (user) => userHome(user, home),
      };
      this.envs.set(state, env);
    }
    return env;
  }

  /** Resolves a word (brace expansion and field splitting may yield several) after walking its substitutions. */
  argWord(word: Word, ctx: Ctx): ArgWord[] {
    this.tick(1 + (word.parts?.length ?? 0));
    const producers = this.wordSubs(word, ctx);
    const resolved = resolveWord(word, this.env(ctx));
    if (resolved.limited) this.report("brace-expansion-limit", word.text);
    const whole = wholeSubstitution(word);
    const substitution = whole?.kind;
    const output = whole === undefined ? undefined : this.substitutions.get(whole.part);
    const printed = this.printedNames(producers);
    const words = printed.length === 0 ? resolved.words : resolved.words.map((w) => withNames(w, printed));
    // `"$c"` of a loop over a listing: each listed item, as the substitution itself would give them
    const name = whole === undefined ? wholeVariable(word) : undefined;
    const bound = name === undefined ? undefined : ctx.state.vars.get(name);
    if (bound?.set === true && bound.listed !== undefined && words.length === 1)
      return [{ word: words[0]!, producers: [...producers, ...bound.listed], substitution: "command" }];
    // `"s3://b/$k"` in the loop: the word's run-time part comes from the listing
    const listed = whole === undefined && name === undefined ? listedIn(word, ctx) : [];
    if (listed.length > 0)
      return words.map((w) => ({ word: w, producers: [...producers, ...listed], substitution, output }));
    return words.map((w) => ({ word: w, producers, substitution, output }));
  }

  /**
   * Run-time variables that commands inside a word's substitutions print: `echo`/`printf`
   * arguments (`$(echo $TOKEN | base64)`), `printenv NAME`, and `*` for the whole environment
   * (`$(env)`, `$(printenv)`).
   */
  private printedNames(producers: readonly number[]): string[] {
    const names = new Set<string>();
    for (const at of producers) {
      const cmd = this.commands[at];
      const program = cmd?.program;
      if (cmd === undefined || program === undefined) continue;
      if (ARGUMENT_PRINTERS.includes(program)) for (const arg of cmd.args) for (const n of arg.env ?? []) names.add(n);
      if (!Object.hasOwn(ENVIRONMENT_PRINTERS, program)) continue;
      const operands = cmd.args.filter((w) => w.value === undefined || !w.value.startsWith("-"));
      if (operands.length === 0) names.add("*");
      else if (ENVIRONMENT_PRINTERS[program] === "names")
        for (const w of operands) if (w.value !== undefined) names.add(w.value);
    }
    return [...names];
  }

  private assignmentWord(
    a: Assignment,
    ctx: Ctx,
  ): { name: string; value: ShellWord; arg: ArgWord; binding: Binding | undefined } {
    this.tick();
    if (a.value.type === "ArrayValue") {
      const elements = a.value.elements.flatMap((e) => this.argWord(e, ctx).map((w) => w.word.value));
      const value: ShellWord = { text: ctx.source.slice(a.value.pos, a.value.end), value: undefined, glob: false };
      const binding: Binding | undefined = a.append === true ? undefined : { set: true, value: elements[0], elements };
      return {
        name: a.name,
        value,
        binding,
        arg: {
          word: { text: a.text, value: undefined, glob: false },
          producers: [],
          substitution: undefined,
          assignment: { name: a.name, value, binding },
        },
      };
    }
    const producers = this.wordSubs(a.value, ctx);
    // assignments do not split fields: the value is the word's joined value
    const resolved = resolveWord(a.value, this.env(ctx)).words;
    const value: ShellWord =
      resolved.length === 1
        ? (resolved[0] as ShellWord)
        : {
            text: a.value.text,
            value:
              resolved.length === 0
                ? ""
                : resolved.some((w) => w.value === undefined)
                  ? undefined
                  : resolved.map((w) => w.value).join(" "),
            glob: false,
          };
    const previous = a.append === true ? varValue(ctx.state, a.name) : "";
    const full =
      a.index !== undefined || previous === undefined || value.value === undefined ? undefined : previous + value.value;
    const binding: Binding | undefined =
      full !== undefined ? { set: true, value: full } : runtimeBinding(a, value, producers);
    const word: ShellWord = {
      text: a.text,
      value: value.value === undefined ? undefined : `${a.name}${a.append === true ? "+=" : "="}${value.value}`,
      glob: false,
    };
    return {
      name: a.name,
      value,
      binding,
      arg: { word, producers, substitution: undefined, assignment: { name: a.name, value, binding } },
    };
  }

  /** Walks the substitutions inside a word; returns the indices of the commands they ran. */
  wordSubs(word: Word, ctx: Ctx): number[] {
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
          // `${X:=v}` assigns X when it is unset or empty
          if (op.type === "Default" && (op.operator === ":=" || op.operator === "="))
            this.defaultAssign(part.parameter, op.operator, op.operand, ctx);
        }
        for (const w of words) out.push(...this.wordSubs(w, ctx));
        return;
      }
      case "CommandExpansion":
        out.push(...this.substitution(part, part.script, part.text, "command-substitution", ctx));
        return;
      case "ProcessSubstitution":
        out.push(...this.substitution(part, part.script, part.text, "process-substitution", ctx));
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

  private defaultAssign(name: string, operator: ":=" | "=", operand: Word, ctx: Ctx): void {
    const b = ctx.state.vars.get(name);
    if (!ctx.state.vars.has(name) && name !== "HOME" && name !== "PWD") {
      assign(ctx.state, name, undefined);
      return;
    }
    if (b === undefined) return;
    const absent = !b.set || (operator === ":=" && b.value === "");
    if (!absent) return;
    const value = resolveWord(operand, this.env(ctx)).words[0]?.value;
    assign(ctx.state, name, value === undefined ? undefined : { set: true, value });
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
        out.push(...this.substitution(e, e.script, e.text, "command-substitution", ctx));
        return;
      default: {
        const unknown: never = e;
        this.report("unknown-node", ctx.source, String((unknown as { type?: unknown }).type));
      }
    }
  }

  /** Walks a `$(...)` or `<(...)` script in a subshell; records its static output; returns the commands it ran. */
  private substitution(
    part: object,
    script: ParsedScript | undefined,
    text: string,
    via: "command-substitution" | "process-substitution",
    ctx: Ctx,
  ): number[] {
    if (script === undefined) {
      this.report("parse-error", text);
      return [];
    }
    const start = this.commands.length;
    const sink: number[] = [];
    this.script(script, {
      ...ctx,
      via: withVia(ctx, via),
      state: copyState(ctx.state),
      sink,
      redirects: [],
      stdinRedirects: [],
      stdin: undefined,
    });
    const output = this.outputOf(sink);
    // `$(...)` drops trailing newlines; `<(...)` is the text as printed
    this.substitutions.set(
      part,
      output === undefined || via === "process-substitution" ? output : output.replace(/\n+$/, ""),
    );
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
        const word = r.target === undefined ? synthetic("") : (this.argWord(r.target, ctx)[0] ?? synthetic(""));
        return {
          redirect: { op: r.operator, kind: "herestring", fd, target: word.word },
          stdin: fd === undefined || fd === 0 ? { kind: "herestring", word } : undefined,
        };
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
            const isFd =
              v !== undefined &&
              (v === "-" ||
                (v.length > 0 && [...(v.endsWith("-") ? v.slice(0, -1) : v)].every((c) => c >= "0" && c <= "9")));
            // `>& file` (no fd number) redirects stdout and stderr to a file
            kind =
              isFd || op === "<&" || target === undefined || (v === undefined && fd !== undefined) ? "dup" : "write";
            break;
          }
          default: {
            const unknown: never = op;
            this.report("unknown-node", ctx.source, String(unknown));
            kind = "dup";
          }
        }
        const stdin: StdinRedirect | undefined =
          kind === "read" && (fd === undefined || fd === 0) && word !== undefined ? { kind: "file", word } : undefined;
        return { redirect: { op: r.operator, kind, fd, target }, stdin };
      }
      default: {
        const unknown: never = r;
        this.report("unknown-node", ctx.source, String((unknown as { type?: unknown }).type));
        return { redirect: { op: "?", kind: "dup", fd: undefined, target: undefined }, stdin: undefined };
      }
    }
  }

  private heredoc(
    r: HereDoc,
    fd: number | undefined,
    ctx: Ctx,
  ): { redirect: ShellRedirect; stdin: StdinRedirect | undefined } {
    const out: number[] = [];
    const quoted = r.delimiter?.quoted === true;
    // an unquoted heredoc expands its body: its `$(...)` run in this shell
    if (!quoted) for (const part of r.body.parts ?? []) this.partSubs(part, ctx, out);
    const raw = r.operator === "<<-" ? stripTabs(r.body.text) : r.body.text;
    // the text the command reads: an unquoted body with expansions is known only when they are
    const expanded =
      quoted || r.body.parts === undefined || r.body.parts.every((p) => p.type === "Literal")
        ? raw
        : heredocValue(r, this.env(ctx));
    const names = quoted ? [] : runtimeNames(r.body.parts, this.env(ctx));
    const word: ShellWord = withNames({ text: r.body.text, value: expanded ?? raw, glob: false }, names);
    const arg: ArgWord = { word, producers: out, substitution: undefined };
    return {
      redirect: { op: r.operator, kind: "heredoc", fd, target: word },
      stdin: fd === undefined || fd === 0 ? { kind: "heredoc", word: arg } : undefined,
    };
  }

  // ---------------------------------------------------------------------------------------------
  // simple commands

  private simpleCommand(node: UCommand, at: Ctx): void {
    const ctx = located(at, node.pos);
    const text = ctx.source.slice(node.pos, node.end);
    const assignments: { name: string; value: ShellWord; binding: Binding | undefined }[] = [];
    const redirects: ShellRedirect[] = [];
    const stdinRedirects: StdinRedirect[] = [];
    const argv: ArgWord[] = [];
    for (const item of node.prefix) {
      if (item.type === "Assignment") {
        const a = this.assignmentWord(item, ctx);
        assignments.push({ name: a.name, value: a.value, binding: a.binding });
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
    const base: Base = {
      assignments: assignments.map((a) => ({ name: a.name, value: a.value })),
      redirects,
      stdinRedirects,
      text,
    };
    this.unsetVariant(node, argv, base, ctx);
    if (argv.length === 0) {
      // `P=/srv`, `HOME=/x`: the assignment stays for the rest of the list
      for (const a of assignments) assign(ctx.state, a.name, a.binding);
      if (redirects.length > 0 || ctx.redirects.length > 0) this.emit([], base, ctx);
      return;
    }
    // `FOO=1 cmd`: the command sees the assignment, the shell does not keep it
    if (assignments.length > 0) {
      const state = copyState(ctx.state);
      for (const a of assignments) assign(state, a.name, a.binding);
      this.execute(argv, base, { ...ctx, state }, ctx.state);
      return;
    }
    this.execute(argv, base, ctx);
  }

  /**
   * `rm -rf "${TARGET:-$HOME}"`: a word whose value is unknown only because an environment
   * variable may be set also runs, when it is not set, with the default. That variant is walked
   * too (in a copy of the state), so a known payload behind a default is seen.
   */
  private unsetVariant(node: UCommand, argv: readonly ArgWord[], base: Base, ctx: Ctx): void {
    if (!argv.some((a) => a.word.value === undefined && a.word.text.includes("${"))) return;
    const env: WordEnv = { ...this.env(ctx), unsetDefaults: true };
    const words = [node.name, ...node.suffix].flatMap((item) =>
      item === undefined || item.type !== "Word" ? [] : resolveWord(item, env).words,
    );
    if (words.length !== argv.length || words.every((w, i) => w.value === argv[i]?.word.value)) return;
    const variant = words.map((w, i): ArgWord => ({ ...(argv[i] as ArgWord), word: w }));
    this.execute(variant, base, { ...ctx, state: copyState(ctx.state) });
  }

  /**
   * Expands aliases and functions, unwraps wrappers, then dispatches on the program. `shellState`
   * is the state builtins change (`cd`, `export`) when `ctx.state` is a per-command copy.
   */
  execute(argv: readonly ArgWord[], base: Base, ctx: Ctx, shellState: State = ctx.state): void {
    let words = argv;
    let c = ctx;
    let b = base;
    for (let guard = 0; guard < MAX_UNWRAP; guard++) {
      const first = words[0];
      const program = this.programName(first?.word);
      if (program === undefined) {
        this.emit(words, b, c);
        this.report("dynamic-command-name", b.text);
        return;
      }
      if (guard === 0 && first !== undefined && this.expandAlias(first, words, b, c)) return;
      let spec = Object.hasOwn(WRAPPERS, program) ? WRAPPERS[program] : undefined;
      // `pnpm install` is pnpm itself; `pnpm exec x` wraps `x`, and so does `pnpm -C web exec x`
      if (spec?.subcommands !== undefined && !spec.subcommands.includes(words[1]?.word.value ?? "")) {
        const runner = runnerOptions({ program, words, base: b, ctx: c, shell: c.state }, spec);
        if (runner !== undefined) {
          ({ words, ctx: c, base: b } = runner);
          continue;
        }
        spec = undefined;
      }
      if (spec === undefined) {
        const fn = this.functions.get(first?.word.value ?? "");
        if (fn !== undefined && guard === 0 && c.wrappers.length === fn.wrapped) {
          this.callFunction(fn, words, b, c, shellState);
          return;
        }
        dispatch(this, {
          program,
          words,
          base: b,
          ctx: c,
          shell: guard === 0 || c.state === ctx.state ? shellState : c.state,
        });
        return;
      }
      const next = unwrap(this, { program, words, base: b, ctx: c, shell: c.state }, spec);
      if (next === undefined) return;
      ({ words, ctx: c, base: b } = next);
    }
    this.emit(words, b, c);
  }

  /** `alias ll='rm -rf'; ll /`: the alias text replaces the name, then the line is read again. */
  private expandAlias(first: ArgWord, words: readonly ArgWord[], base: Base, ctx: Ctx): boolean {
    const name = first.word.text;
    const value = this.aliases.get(name);
    if (value === undefined || first.word.value !== name || ctx.aliasing.includes(name)) return false;
    if (ctx.depth + 1 > this.maxDepth) {
      this.stop("depth-limit", base.text);
      return true;
    }
    const rest = words.slice(1).map((w) => w.word.text);
    this.parseAndWalk([value, ...rest].join(" "), {
      ...ctx,
      via: withVia(ctx, "alias"),
      aliasing: [...ctx.aliasing, name],
      depth: ctx.depth + 1,
    });
    return true;
  }

  /** A call of a function defined earlier: its body runs with the arguments, in this shell. */
  private callFunction(fn: FunctionInfo, words: readonly ArgWord[], base: Base, ctx: Ctx, shellState: State): void {
    if (ctx.frames.includes(fn)) {
      this.emit(words, base, ctx);
      return;
    }
    fn.called = true;
    this.tick();
    const host = this.emit(words, base, ctx);
    this.walkFunction(
      fn,
      { ...ctx, state: shellState, launchedBy: host },
      words.slice(1).map((w) => w.word.value),
    );
  }
}

/** Where each line of a file's text starts, by text (a file's commands are located by binary search). */
const LINE_STARTS = new Map<string, number[]>();

/**
 * The context of a command at `pos` of `ctx.source`: when the source is the text of a file read
 * from disk (`ctx.origin.text`), the origin names the command's own line, which the commands
 * nested in it keep (their text is not the file's).
 */
function located(ctx: Ctx, pos: number): Ctx {
  const origin = ctx.origin;
  if (origin?.text === undefined || origin.text !== ctx.source) return ctx;
  let starts = LINE_STARTS.get(origin.text);
  if (starts === undefined) {
    starts = [0];
    for (let i = origin.text.indexOf("\n"); i >= 0; i = origin.text.indexOf("\n", i + 1)) starts.push(i + 1);
    if (LINE_STARTS.size > 32) LINE_STARTS.clear();
    LINE_STARTS.set(origin.text, starts);
  }
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= pos) lo = mid;
    else hi = mid - 1;
  }
  return { ...ctx, origin: { file: origin.file, line: origin.line + lo } };
}

/** `read A B C` splitting with the default IFS: blanks separate, the last name takes the rest. */
function readFields(line: string, count: number): string[] {
  const fields: string[] = [];
  let rest = line.replace(/^[ \t]+/, "");
  while (fields.length < count - 1 && rest.length > 0) {
    const m = /^([^ \t]*)[ \t]*/.exec(rest) as RegExpExecArray;
    fields.push(m[1] as string);
    rest = rest.slice(m[0].length);
  }
  fields.push(rest.replace(/[ \t]+$/, ""));
  return fields;
}

/** The expanded text of an unquoted heredoc whose expansions are all static, else `undefined`. */
function heredocValue(r: HereDoc, env: WordEnv): string | undefined {
  const resolved = resolveWord(
    {
      type: "Word",
      pos: r.body.pos,
      end: r.body.end,
      text: r.body.text,
      value: r.body.text,
      parts: [{ type: "DoubleQuoted", pos: r.body.pos, end: r.body.end, text: r.body.text, parts: r.body.parts ?? [] }],
    } as unknown as Word,
    env,
  ).words[0];
  const value = resolved?.value;
  return value === undefined ? undefined : r.operator === "<<-" ? stripTabs(value) : value;
}

/**
 * A plain assignment of a run-time value that still says something: `ids=$(docker ps -aq)` holds
 * what the substitution lists (`$ids` stands for each item), `r="+$(x):main"` its written start and end.
 */
function runtimeBinding(a: Assignment, value: ShellWord, producers: readonly number[]): Binding | undefined {
  if (a.index !== undefined || a.append === true || a.value.type !== "Word" || value.value !== undefined)
    return undefined;
  if (wholeSubstitution(a.value)?.kind === "command" && producers.length > 0)
    return { set: true, value: undefined, listed: producers };
  const env = value.env !== undefined && value.env.length > 0 ? { env: value.env } : {};
  if (value.known !== undefined) return { set: true, value: undefined, known: value.known, ...env };
  return value.env !== undefined && value.env.length > 0 ? { set: true, value: undefined, ...env } : undefined;
}

/** Commands whose presence in a loop body means it may act on some items only. */
const SELECTORS: readonly string[] = [
  "[",
  "test",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "continue",
  "break",
  "exit",
  "return",
];

/**
 * True when a loop body may pick some items of what it loops over: a test or a `grep`, `continue`,
 * or any compound command (`if`, `case`, `[[ ]]`, a nested loop, a group) in it.
 */
function selects(body: CompoundList): boolean {
  const node = (n: PipelineNode | AndOr): boolean => {
    if (n.type === "AndOr" || n.type === "Pipeline") return n.commands.some(node);
    if (n.type !== "Command") return true;
    const name = n.name?.value;
    return name === undefined || SELECTORS.includes(name);
  };
  return body.commands.some((statement) => node(statement.command));
}

/** The listings of the variables a word uses in part (`"s3://b/$k"` in a loop over a listing). */
function listedIn(word: Word, ctx: Ctx): number[] {
  const out: number[] = [];
  const visit = (part: WordPart | DoubleQuotedChild): void => {
    if (part.type === "DoubleQuoted") {
      for (const child of part.parts) visit(child);
      return;
    }
    const name =
      part.type === "SimpleExpansion"
        ? part.text.slice(1)
        : part.type === "ParameterExpansion" && part.operation === undefined && part.prefix === undefined
          ? part.parameter
          : undefined;
    const bound = name === undefined ? undefined : ctx.state.vars.get(name);
    if (bound?.set === true && bound.listed !== undefined) out.push(...bound.listed);
  };
  for (const part of word.parts ?? []) visit(part);
  return out;
}

/** The variable a word expands as a whole (`$c`, `${c}`, `"$c"`), or `undefined`. */
function wholeVariable(word: Word): string | undefined {
  const parts = word.parts;
  if (parts === undefined || parts.length !== 1) return undefined;
  let part = parts[0] as WordPart | DoubleQuotedChild;
  if (part.type === "DoubleQuoted") {
    if (part.parts.length !== 1) return undefined;
    part = part.parts[0] as DoubleQuotedChild;
  }
  if (part.type === "SimpleExpansion") return part.text.slice(1);
  if (
    part.type === "ParameterExpansion" &&
    part.prefix === undefined &&
    part.operation === undefined &&
    part.index === undefined
  )
    return part.parameter;
  return undefined;
}

/** The word is exactly one command substitution (maybe double-quoted) or one process substitution. */
function wholeSubstitution(word: Word): { kind: "command" | "process"; part: object } | undefined {
  const parts = word.parts;
  if (parts === undefined || parts.length !== 1) return undefined;
  const part = parts[0] as WordPart;
  if (part.type === "CommandExpansion") return { kind: "command", part };
  if (part.type === "ProcessSubstitution") return { kind: "process", part };
  if (part.type === "DoubleQuoted" && part.parts.length === 1 && part.parts[0]?.type === "CommandExpansion")
    return { kind: "command", part: part.parts[0] };
  return undefined;
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

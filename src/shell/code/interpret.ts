/**
 * Reads Python and JavaScript code (the code model of `ast.ts`) for what it calls, following
 * values as the shell analysis does: assignments (flow by flow: a branch leaves a choice), imports
 * and their aliases, function arguments of the code's own functions (each called function is read
 * with the values it is called with; one never called is not read unless something else may call
 * it), f-strings and template literals, concatenation and formatting, path joins, the home and
 * working directory, the environment, and loops over listings and globs (an entry of `os.listdir(d)`
 * is `*`, so `os.path.join(d, f)` is `d/*`, every entry). The result is the list of library calls
 * made, each with its arguments as values (`CodeEvent`); `library.ts` says what they do.
 */
import type { Arg, Expr, FunctionDef, ImportName, Program, Stmt, Target } from "./ast.ts";
import {
  absolute,
  asText,
  basename,
  choice,
  concat,
  dirname,
  distribute,
  expandUser,
  format,
  joinPaths,
  lib,
  NONE,
  options,
  str,
  taint,
  union,
  UNKNOWN,
  unknownFrom,
  type CallArgs,
  type Value,
} from "./value.ts";
import { ENVIRON_NAMES, FACTORY_METHODS, NODE_MODULES, VALUE_CALLS, type ValueOp } from "../tables/code-values.ts";

/** What the code's process starts with. */
export interface CodeEnv {
  readonly home: string | undefined;
  readonly cwd: string | undefined;
  /** The temporary directory (`/tmp` unless said otherwise). */
  readonly tmp?: string;
  /** The arguments after the code (`python -c CODE a b`: `sys.argv[1:]`), when known. */
  readonly argv?: readonly (string | undefined)[];
  /** The script's file, for code read from one (`__file__`, `__dirname`); code given inline has none. */
  readonly script?: string;
}

/** One library call the code makes. */
export interface CodeEvent {
  /**
   * The canonical name of what is called: a function (`shutil.rmtree`), a method of a library
   * value with the calls that made it (`boto3.client().delete_bucket`), of a path
   * (`pathlib.Path.unlink`), or of a value not known (`?.unlink`).
   */
  readonly name: string;
  /** The library value called, with the arguments of the calls in its chain. */
  readonly callee: Value;
  /** The receiver of a method of a path or an unknown value. */
  readonly recv: Value | undefined;
  readonly args: readonly Value[];
  readonly kw: ReadonlyMap<string, Value>;
  readonly isNew: boolean;
  /** The call as written. */
  readonly text: string;
}

/** What reading the code found. */
export interface Interpretation {
  readonly events: readonly CodeEvent[];
  /** Evaluation steps taken, for the analysis budget. */
  readonly steps: number;
  /** False when the reading stopped at its bound (steps or calls): what follows was not read. */
  readonly complete: boolean;
}

type Language = "python" | "node";

class Frame {
  readonly vars = new Map<string, Value>();
  constructor(readonly parent: Frame | undefined) {}
  lookup(name: string): Value | undefined {
    for (let f: Frame | undefined = this; f !== undefined; f = f.parent) {
      const v = f.vars.get(name);
      if (v !== undefined) return v;
    }
    return undefined;
  }
  /** The frame that holds `name` (JavaScript assigns to an outer binding; Python to its own frame). */
  owner(name: string, language: Language): Frame {
    if (language === "python") return this;
    for (let f: Frame | undefined = this; f !== undefined; f = f.parent) if (f.vars.has(name)) return f;
    return this;
  }
}

const MAX_STEPS = 40_000;
const MAX_CALLS_PER_FUNCTION = 6;
const MAX_DEPTH = 6;
const MAX_ITEMS = 16;
const MAX_EVENTS = 2000;

/** Type checks in a condition (`p.is_dir()`, `os.path.isfile(f)`): they select by kind, not by name. */
const KIND_TESTS = new Set([
  "is_dir",
  "is_file",
  "is_symlink",
  "exists",
  "isdir",
  "isfile",
  "islink",
  "lexists",
  "isDirectory",
  "isFile",
  "isSymbolicLink",
  "existsSync",
]);

class Budget extends Error {}

/** Python builtins and JavaScript globals that are library names, not the code's own. */
const PYTHON_LOADERS = new Set(["__import__", "importlib.import_module"]);

export class Interpreter {
  readonly events: CodeEvent[] = [];
  steps = 0;
  private complete = true;
  private depth = 0;
  private readonly called = new Map<FunctionDef, number>();
  private readonly escaped = new Map<FunctionDef, Extract<Value, { t: "func" }>>();
  private readonly stars: string[] = [];
  private returns: Value[] | undefined;
  private readonly table: Readonly<Record<string, ValueOp>>;
  private readonly environNames: readonly string[];

  constructor(
    readonly language: Language,
    readonly code: string,
    readonly env: CodeEnv,
    /** A canonical name some table knows (to resolve names a star import brings). */
    readonly known: (name: string) => boolean,
  ) {
    this.table = VALUE_CALLS[language];
    this.environNames = ENVIRON_NAMES[language];
  }

  tick(n = 1): void {
    this.steps += n;
    if (this.steps > MAX_STEPS) throw new Budget();
  }

  run(program: Program): Interpretation {
    const top = new Frame(undefined);
    try {
      this.block(program.body, top);
      // functions something else may call (callbacks, decorated handlers, methods): read once with unknown arguments
      for (let round = 0; round < 3 && this.escaped.size > 0; round++) {
        const pending = [...this.escaped];
        this.escaped.clear();
        for (const [def, fn] of pending) if (!this.called.has(def)) this.invoke(fn, [], new Map(), true);
      }
    } catch (error) {
      if (!(error instanceof Budget)) throw error;
      this.complete = false;
    }
    return { events: this.events, steps: this.steps, complete: this.complete && this.events.length < MAX_EVENTS };
  }

  // ------------------------------------------------------------------ statements

  private block(body: readonly Stmt[], frame: Frame): void {
    // JavaScript function declarations are hoisted
    if (this.language === "node")
      for (const s of body)
        if (s.k === "def" && s.def.name !== undefined) frame.vars.set(s.def.name, this.funcValue(s.def, frame));
    for (const s of body) this.stmt(s, frame);
  }

  private stmt(s: Stmt, frame: Frame): void {
    this.tick();
    switch (s.k) {
      case "expr":
        this.expr(s.e, frame);
        return;
      case "assign": {
        let value = this.expr(s.value, frame);
        if (s.op !== undefined) {
          const [first] = s.targets;
          const current = first === undefined ? UNKNOWN : this.targetValue(first, frame);
          value = this.binary(s.op, current, value);
        }
        for (const t of s.targets) this.bind(t, value, frame);
        return;
      }
      case "import":
        for (const n of s.names) this.importName(n, frame);
        return;
      case "def": {
        const fn = this.funcValue(s.def, frame);
        if (s.def.name !== undefined) frame.vars.set(s.def.name, fn);
        if (s.def.decorated) this.escape(fn);
        return;
      }
      case "class": {
        // methods run when something calls them: read once each
        const inner = new Frame(frame);
        for (const m of s.body) {
          if (m.k === "def") this.escape(this.funcValue(m.def, inner));
          else this.stmt(m, inner);
        }
        frame.vars.set(s.name, UNKNOWN);
        return;
      }
      case "if": {
        this.expr(s.test, frame);
        const narrowed = this.narrow(s.test, frame);
        const before = new Map(frame.vars);
        for (const [name, v] of narrowed) frame.vars.set(name, v);
        this.block(s.then, frame);
        for (const [name] of narrowed)
          if (frame.vars.get(name) === narrowed.get(name)) frame.vars.set(name, before.get(name) as Value);
        const afterThen = new Map(frame.vars);
        frame.vars.clear();
        for (const [k, v] of before) frame.vars.set(k, v);
        this.block(s.else, frame);
        this.merge(frame, afterThen);
        return;
      }
      case "for": {
        const iter = this.expr(s.iter, frame);
        const before = new Map(frame.vars);
        this.bind(s.target, this.element(iter), frame);
        this.block(s.body, frame);
        this.merge(frame, before);
        return;
      }
      case "loop": {
        if (s.test !== undefined) this.expr(s.test, frame);
        const before = new Map(frame.vars);
        this.block(s.body, frame);
        this.merge(frame, before);
        return;
      }
      case "with":
        for (const item of s.items) {
          const v = this.expr(item.e, frame);
          if (item.target !== undefined) this.bind(item.target, v, frame);
        }
        this.block(s.body, frame);
        return;
      case "block": {
        const before = new Map(frame.vars);
        let merged: Map<string, Value> | undefined;
        for (const part of s.parts) {
          frame.vars.clear();
          for (const [k, v] of merged ?? before) frame.vars.set(k, v);
          this.block(part, frame);
          merged = new Map(frame.vars);
        }
        return;
      }
      case "return": {
        const v = s.e === undefined ? NONE : this.expr(s.e, frame);
        this.returns?.push(v);
        return;
      }
      default: {
        const unknown: never = s;
        return unknown;
      }
    }
  }

  /** Joins the variables of `frame` with those of another path through the code. */
  private merge(frame: Frame, other: ReadonlyMap<string, Value>): void {
    for (const [k, v] of other) {
      const mine = frame.vars.get(k);
      if (mine === undefined) frame.vars.set(k, v);
      else if (mine !== v) frame.vars.set(k, choice([mine, v]));
    }
  }

  private importName(n: ImportName, frame: Frame): void {
    const module = this.moduleName(n.module);
    if (n.local === "*") {
      this.stars.push(module);
      return;
    }
    // JavaScript's default import of a CommonJS module is the module
    const name =
      n.name === undefined || (this.language === "node" && n.name === "default") ? module : `${module}.${n.name}`;
    frame.vars.set(n.local, this.libValue(name, []));
  }

  private moduleName(raw: string): string {
    if (this.language === "python") return raw;
    const bare = raw.startsWith("node:") ? raw.slice(5) : raw;
    return NODE_MODULES[bare] ?? bare;
  }

  // ------------------------------------------------------------------ binding

  private bind(t: Target, v: Value, frame: Frame): void {
    switch (t.k) {
      case "name":
        frame.owner(t.name, this.language).vars.set(t.name, v);
        return;
      case "tuple": {
        t.items.forEach((item, i) => {
          const part = i === t.rest ? { t: "list" as const, items: [], of: this.element(v) } : this.item(v, i);
          this.bind(item, part, frame);
        });
        return;
      }
      case "object":
        for (const p of t.props) this.bind(p.target, this.attr(v, p.key), frame);
        return;
      case "attr":
      case "index":
        this.expr(t.obj, frame);
        if (t.k === "index") this.expr(t.index, frame);
        if (v.t === "func") this.escape(v);
        return;
      case "none":
        return;
      default: {
        const unknown: never = t;
        return unknown;
      }
    }
  }

  private targetValue(t: Target, frame: Frame): Value {
    if (t.k === "name") return frame.lookup(t.name) ?? UNKNOWN;
    if (t.k === "attr") return this.attr(this.expr(t.obj, frame), t.name);
    if (t.k === "index") return this.index(this.expr(t.obj, frame), this.expr(t.index, frame));
    return UNKNOWN;
  }

  /** The `i`th item of a value being destructured. */
  private item(v: Value, i: number): Value {
    return distribute([v], ([x]) => {
      const o = x as Value;
      if (o.t === "list") return o.items[i] ?? (o.of === undefined ? UNKNOWN : this.element(o));
      if (o.t === "lib") return this.libValue(`${o.name}[]`, o.calls);
      return unknownFrom(taint(o));
    });
  }

  /** An element of what a loop iterates. */
  private element(v: Value): Value {
    return distribute([v], ([x]) => {
      const o = x as Value;
      switch (o.t) {
        case "list":
          return choice([...o.items.slice(0, MAX_ITEMS), ...(o.of === undefined ? [] : [o.of])]);
        case "dict":
          return choice([...o.entries.keys()].slice(0, MAX_ITEMS).map((k) => str(k)));
        case "lib":
          return this.libValue(`${o.name}[]`, o.calls);
        case "environ":
          return UNKNOWN;
        case "str":
          return o.glob === true ? o : UNKNOWN;
        case "path":
          return o;
        default:
          return unknownFrom(taint(o));
      }
    });
  }

  // ------------------------------------------------------------------ narrowing

  /**
   * What a condition tells of the entries a loop goes through: `f.endswith(".pyc")` makes `*`
   * into `*.pyc` in the branch it guards; another test of an entry marks it filtered.
   */
  private narrow(test: Expr, frame: Frame): Map<string, Value> {
    const out = new Map<string, Value>();
    const subject = (e: Expr): { name: string; v: Value } | undefined => {
      let inner = e;
      if (inner.k === "attr" && (inner.name === "name" || inner.name === "suffix")) inner = inner.obj;
      if (inner.k !== "name") return undefined;
      const v = frame.lookup(inner.name);
      return v !== undefined && globOf(v) !== undefined ? { name: inner.name, v } : undefined;
    };
    const set = (s: { name: string; v: Value }, f: (last: string) => string): void => {
      out.set(
        s.name,
        distribute([s.v], ([x]) => reglob(x as Value, f)),
      );
    };
    const visit = (e: Expr): void => {
      if (e.k === "bin" && (e.op === "and" || e.op === "&&")) {
        visit(e.l);
        visit(e.r);
        return;
      }
      if (e.k === "call" && e.fn.k === "attr" && e.args.length === 1 && e.args[0]?.value.k === "str") {
        const s = subject(e.fn.obj);
        const lit = (e.args[0].value as { v: string }).v;
        if (s !== undefined && (e.fn.name === "endswith" || e.fn.name === "endsWith"))
          return set(s, (l) => `${l.replace(/\*$/, "")}*${lit}`);
        if (s !== undefined && (e.fn.name === "startswith" || e.fn.name === "startsWith"))
          return set(s, (l) => `${lit}*`);
      }
      if (e.k === "bin" && (e.op === "==" || e.op === "===") && e.r.k === "str") {
        const s = subject(e.l);
        const lit = e.r.v;
        if (s !== undefined && e.l.k === "attr" && e.l.name === "suffix") return set(s, () => `*${lit}`);
        if (s !== undefined) return set(s, () => lit);
      }
      // any other test of an entry: some entries, not known which
      for (const name of namesIn(e)) {
        const v = frame.lookup(name);
        if (v === undefined || globOf(v) === undefined || out.has(name)) continue;
        if (
          e.k === "call" &&
          ((e.fn.k === "attr" && KIND_TESTS.has(e.fn.name)) ||
            (e.fn.k === "attr" && e.fn.obj.k === "attr" && KIND_TESTS.has(e.fn.name)))
        )
          continue;
        if (e.k === "not") continue;
        out.set(
          name,
          distribute([v], ([x]) => filtered(x as Value)),
        );
      }
    };
    visit(test);
    return out;
  }

  // ------------------------------------------------------------------ expressions

  expr(e: Expr, frame: Frame): Value {
    this.tick();
    switch (e.k) {
      case "str":
        return str(e.v);
      case "num":
        return { t: "num", v: e.v };
      case "const":
        return e.v === null ? NONE : { t: "bool", v: e.v };
      case "tmpl": {
        let out: Value = str("");
        for (const p of e.parts)
          out = concat(out, typeof p === "string" ? str(p) : asText(this.expr(p, frame), this.language));
        return out;
      }
      case "name":
        return this.name(e.name, frame);
      case "attr":
        return this.attr(this.expr(e.obj, frame), e.name);
      case "index":
        return this.index(this.expr(e.obj, frame), this.expr(e.index, frame));
      case "call":
        return this.call(e, frame);
      case "bin": {
        const l = this.expr(e.l, frame);
        const r = this.expr(e.r, frame);
        return this.binary(e.op, l, r);
      }
      case "not":
        this.expr(e.e, frame);
        return UNKNOWN;
      case "cond": {
        this.expr(e.test, frame);
        return choice([this.expr(e.then, frame), this.expr(e.else, frame)]);
      }
      case "list": {
        const items: Value[] = [];
        let of: Value | undefined;
        for (const item of e.items) {
          if (item.k === "spread") {
            const inner = this.expr(item.e, frame);
            if (inner.t === "list" && inner.of === undefined) items.push(...inner.items);
            else of = of === undefined ? this.element(inner) : choice([of, this.element(inner)]);
          } else items.push(this.expr(item, frame));
        }
        return of === undefined ? { t: "list", items } : { t: "list", items, of };
      }
      case "dict": {
        const entries = new Map<string, Value>();
        let rest: Value | undefined;
        for (const entry of e.entries) {
          const v = this.expr(entry.value, frame);
          if (v.t === "func") this.escape(v);
          if (entry.key === undefined) {
            if (v.t === "dict") for (const [k, x] of v.entries) entries.set(k, x);
            else rest = rest === undefined ? v : choice([rest, v]);
          } else if (typeof entry.key === "string") entries.set(entry.key, v);
          else {
            const key = this.expr(entry.key, frame);
            if (key.t === "str") entries.set(key.v, v);
            else rest = rest === undefined ? v : choice([rest, v]);
          }
        }
        return rest === undefined ? { t: "dict", entries } : { t: "dict", entries, rest };
      }
      case "spread":
        return this.expr(e.e, frame);
      case "func":
        return this.funcValue(e.def, frame);
      case "comp": {
        const inner = new Frame(frame);
        for (const clause of e.clauses) {
          this.bind(clause.target, this.element(this.expr(clause.iter, inner)), inner);
          for (const c of clause.conds) {
            this.expr(c, inner);
            for (const [name, v] of this.narrow(c, inner)) inner.vars.set(name, v);
          }
        }
        const elt = this.expr(e.elt, inner);
        return { t: "list", items: [], of: elt };
      }
      case "assign": {
        const v = this.expr(e.value, frame);
        this.bind(e.target, v, frame);
        return v;
      }
      case "unknown": {
        const parts = e.children.map((c) => this.expr(c, frame));
        for (const p of parts) if (p.t === "func") this.escape(p);
        return unknownFrom(union(parts.map((p) => taint(p))));
      }
      default: {
        const unknown: never = e;
        return unknown;
      }
    }
  }

  private name(name: string, frame: Frame): Value {
    const bound = frame.lookup(name);
    if (bound !== undefined) return bound;
    // a script's own path; node runs inline code (`node -e`) with `__dirname` the working directory
    const script = this.env.script;
    if (name === "__file__" || name === "__filename") return script === undefined ? UNKNOWN : str(script);
    if (name === "__name__") return UNKNOWN;
    if (this.language === "node" && name === "__dirname")
      return script !== undefined ? dirname(str(script)) : this.env.cwd === undefined ? UNKNOWN : str(this.env.cwd);
    // a name a star import brought (`from shutil import *; rmtree(...)`)
    for (const module of this.stars) if (this.known(`${module}.${name}`)) return this.libValue(`${module}.${name}`, []);
    return this.libValue(name, []);
  }

  /** A library value by name; the environment and argument vectors are values of their own. */
  private libValue(name: string, calls: readonly CallArgs[]): Value {
    if (calls.length === 0) {
      if (this.environNames.includes(name)) return { t: "environ" };
      if (this.table[name] === "argv") return this.argv();
      if (this.table[name] === "ppid" && this.language === "node") return unknownFrom(["PPID"]);
      if (this.table[name] === "interpreter") return this.interpreterName();
    }
    return lib(name, calls);
  }

  private argv(): Value {
    const given = this.env.argv;
    const args: Value[] = (given ?? []).map((a) => (a === undefined ? UNKNOWN : str(a)));
    // `sys.argv[0]` is the script (`-c`), node's `process.argv` starts with node and the script
    const head: Value[] = this.language === "python" ? [str("-c")] : [str("node"), UNKNOWN];
    return given === undefined ? { t: "list", items: head, of: UNKNOWN } : { t: "list", items: [...head, ...args] };
  }

  /** The interpreter running the code (`sys.executable`, `process.execPath`), by its program name. */
  private interpreterName(): Value {
    return str(this.language === "python" ? "python3" : "node");
  }

  private envVar(name: Value): Value {
    return distribute([name], ([n]) => {
      const key = n as Value;
      if (key.t !== "str") return unknownFrom(["*"]);
      if (key.v === "HOME" && this.env.home !== undefined) return str(this.env.home);
      if (key.v === "PWD" && this.env.cwd !== undefined) return str(this.env.cwd);
      return unknownFrom([key.v]);
    });
  }

  attr(v: Value, name: string): Value {
    return distribute([v], ([x]) => {
      const o = x as Value;
      switch (o.t) {
        case "lib": {
          const full = `${o.name}.${name}`;
          if (o.calls.length === 0 && this.environNames.includes(full)) return { t: "environ" };
          if (o.calls.length === 0 && this.table[full] === "argv") return this.argv();
          if (o.calls.length === 0 && this.table[full] === "ppid" && this.language === "node")
            return unknownFrom(["PPID"]);
          if (o.calls.length === 0 && this.table[full] === "interpreter") return this.interpreterName();
          return { ...o, name: full };
        }
        case "environ":
          return this.language === "node" ? this.envVar(str(name)) : { t: "method", recv: o, name };
        case "dict":
          return (
            o.entries.get(name) ??
            (o.rest !== undefined && this.language === "node" ? o.rest : { t: "method", recv: o, name })
          );
        case "path":
          if (name === "name") return basename(o.p);
          if (name === "stem") return unknownFrom(taint(o.p));
          if (name === "suffix") return unknownFrom(taint(o.p));
          if (name === "parent") return { t: "path", p: dirname(o.p) };
          return { t: "method", recv: o, name };
        case "func":
        case "none":
          return UNKNOWN;
        default:
          if (name === "length") return UNKNOWN;
          return { t: "method", recv: o, name };
      }
    });
  }

  index(v: Value, i: Value): Value {
    return distribute([v, i], ([x, k]) => {
      const o = x as Value;
      const key = k as Value;
      switch (o.t) {
        case "environ":
          return this.envVar(key);
        case "dict":
          if (key.t === "str") return o.entries.get(key.v) ?? o.rest ?? UNKNOWN;
          return choice([...o.entries.values(), ...(o.rest === undefined ? [] : [o.rest])].slice(0, MAX_ITEMS));
        case "list":
          if (key.t === "num" && Number.isInteger(key.v)) {
            const at = key.v < 0 ? o.items.length + key.v : key.v;
            if (o.of === undefined || at < o.items.length) return o.items[at] ?? UNKNOWN;
            return o.of;
          }
          return this.element(o);
        case "lib":
          return this.libValue(`${o.name}[]`, o.calls);
        default:
          return unknownFrom(taint(o));
      }
    });
  }

  binary(op: string, l: Value, r: Value): Value {
    switch (op) {
      case "+":
        return distribute([l, r], ([a, b]) => {
          const x = a as Value;
          const y = b as Value;
          if (x.t === "list" && y.t === "list")
            return {
              t: "list",
              items: [...x.items, ...y.items],
              ...(x.of !== undefined || y.of !== undefined ? { of: choice([x.of ?? UNKNOWN, y.of ?? UNKNOWN]) } : {}),
            };
          if (x.t === "num" && y.t === "num") return { t: "num", v: x.v + y.v };
          if (isText(x) || isText(y) || this.language === "node")
            return concat(asText(x, this.language), asText(y, this.language));
          return unknownFrom(union([taint(x), taint(y)]));
        });
      case "/":
        return distribute([l, r], ([a, b]) => {
          const x = a as Value;
          if (x.t === "path") return { t: "path", p: joinPaths([x.p, asText(b as Value, this.language)]) };
          return unknownFrom(union([taint(x), taint(b as Value)]));
        });
      case "%":
        return distribute([l], ([a]) => {
          const x = a as Value;
          if (this.language !== "python" || x.t !== "str") return unknownFrom(union([taint(x), taint(r)]));
          const values = r.t === "list" ? r.items : r.t === "dict" ? [] : [r];
          return format(x.v, values, r.t === "dict" ? r.entries : new Map(), true, this.language);
        });
      case "or":
      case "||":
      case "??":
        if (op !== "??" && l.t === "str" && l.v !== "") return l;
        if (
          op === "??" &&
          (l.t === "str" || l.t === "num" || l.t === "bool" || l.t === "path" || l.t === "list" || l.t === "dict")
        )
          return l;
        if (l.t === "none") return r;
        return choice([l, r]);
      case "and":
      case "&&":
        return r;
      default:
        return unknownFrom(union([taint(l), taint(r)]));
    }
  }

  // ------------------------------------------------------------------ calls

  private args(args: readonly Arg[], frame: Frame): { args: Value[]; kw: Map<string, Value> } {
    const out: Value[] = [];
    const kw = new Map<string, Value>();
    for (const a of args) {
      const v = this.expr(a.value, frame);
      if (v.t === "func") this.escape(v);
      if (a.name !== undefined) kw.set(a.name, v);
      else if (a.spread === "list") {
        if (v.t === "list" && v.of === undefined) out.push(...v.items);
        else out.push(this.element(v));
      } else if (a.spread === "dict") {
        if (v.t === "dict") for (const [k, x] of v.entries) kw.set(k, x);
        else kw.set("**", v);
      } else out.push(v);
    }
    return { args: out, kw };
  }

  private call(e: Extract<Expr, { k: "call" }>, frame: Frame): Value {
    const callee = this.expr(e.fn, frame);
    const { args, kw } = this.args(e.args, frame);
    const text = this.code.slice(e.from, e.to);
    const result = distribute([callee], ([c]) => this.apply(c as Value, args, kw, e.isNew, text));
    // `s.connect(addr)`, `cmd.append(x)`: methods that change the value they are called on
    if (e.fn.k === "attr" && e.fn.obj.k === "name") {
      const name = e.fn.obj.name;
      const method = e.fn.name;
      const recv = frame.lookup(name);
      if (recv !== undefined) {
        const changed = this.mutate(recv, method, args, kw);
        if (changed !== undefined) frame.owner(name, this.language).vars.set(name, changed);
      }
    }
    return result;
  }

  /** The value a method call leaves its receiver with, when it changes it. */
  private mutate(
    recv: Value,
    method: string,
    args: readonly Value[],
    kw: ReadonlyMap<string, Value>,
  ): Value | undefined {
    if (recv.t === "lib" && (method === "connect" || method === "bind" || method === "connect_ex")) {
      const state = new Map(recv.state ?? []);
      state.set(method === "connect_ex" ? "connect" : method, { args, kw });
      return { ...recv, state };
    }
    if (recv.t === "list" && (method === "append" || method === "push") && args.length > 0)
      return recv.of === undefined && recv.items.length < MAX_ITEMS * 4
        ? { t: "list", items: [...recv.items, ...args] }
        : { ...recv, of: choice([recv.of ?? UNKNOWN, ...args]) };
    if (recv.t === "list" && (method === "extend" || method === "unshift") && args[0] !== undefined) {
      const more = args[0];
      return more.t === "list" && more.of === undefined && recv.of === undefined
        ? { t: "list", items: [...recv.items, ...more.items] }
        : { ...recv, of: choice([recv.of ?? UNKNOWN, this.element(more)]) };
    }
    if (recv.t === "dict" && method === "update" && args[0]?.t === "dict")
      return { t: "dict", entries: new Map([...recv.entries, ...args[0].entries]) };
    if (recv.t === "dict" && method === "update")
      return { ...recv, rest: choice([recv.rest ?? UNKNOWN, ...args, ...kw.values()]) };
    return undefined;
  }

  private record(
    name: string,
    callee: Value,
    recv: Value | undefined,
    args: readonly Value[],
    kw: ReadonlyMap<string, Value>,
    isNew: boolean,
    text: string,
  ): void {
    if (this.events.length < MAX_EVENTS) this.events.push({ name, callee, recv, args, kw, isNew, text });
  }

  private apply(callee: Value, args: Value[], kw: Map<string, Value>, isNew: boolean, text: string): Value {
    switch (callee.t) {
      case "func":
        return this.invoke(callee, args, kw, false);
      case "lib":
        return this.libCall(callee, args, kw, isNew, text);
      case "method":
        return this.methodCall(callee.recv, callee.name, args, kw, text);
      case "environ":
        return UNKNOWN;
      default:
        // a call of something unknown: what it gets may come back, and callbacks may run
        return unknownFrom(union([taint(callee), ...args.map((a) => taint(a))]));
    }
  }

  private libCall(
    callee: Extract<Value, { t: "lib" }>,
    args: Value[],
    kw: Map<string, Value>,
    isNew: boolean,
    text: string,
  ): Value {
    const name = callee.name;
    // a promise's callback runs with what the promise resolves to: the value before `.then`
    const dot = name.lastIndexOf(".");
    const method = name.slice(dot + 1);
    if ((method === "then" || method === "catch" || method === "finally") && args[0]?.t === "func" && dot > 0)
      return this.invoke(args[0], [{ ...callee, name: name.slice(0, dot) }], new Map(), false);
    this.record(name, callee, undefined, args, kw, isNew, text);
    // loaders: `require('fs')`, `__import__('os')`
    if ((this.language === "node" && name === "require") || (this.language === "python" && PYTHON_LOADERS.has(name))) {
      const m = args[0];
      return m?.t === "str" ? this.libValue(this.moduleName(m.v), []) : UNKNOWN;
    }
    if (callee.calls.length === 0 && Object.hasOwn(this.table, name)) {
      const v = this.valueOp(this.table[name] as ValueOp, args, kw);
      // `Path.home()`, `Path.cwd()` are paths (`Path.home() / ".ssh"`)
      return name.startsWith("pathlib.") && v.t !== "path" ? { t: "path", p: v } : v;
    }
    // `kc.makeApiClient(k8s.CoreV1Api)`: an instance of the class given
    const given = args[0];
    if (FACTORY_METHODS.includes(method) && given?.t === "lib")
      return this.libValue(`${given.name}()`, [...given.calls, { args: [], kw: new Map() }]);
    // `boto3.client("s3")`: the value is named by the call that made it (a socket's `fileno()` keeps its peer)
    const made = this.libValue(`${name}()`, [...callee.calls, { args, kw }]);
    return made.t === "lib" && callee.state !== undefined ? { ...made, state: callee.state } : made;
  }

  private valueOp(op: ValueOp, args: Value[], kw: Map<string, Value>): Value {
    const [a, b] = args;
    const env = this.env;
    switch (op) {
      case "join":
        return args.length === 0 ? UNKNOWN : joinPaths(args.map((x) => asText(x, this.language)));
      case "resolve":
        return joinPaths(
          args.map((x) => asText(x, this.language)),
          env.cwd,
        );
      case "home":
        return env.home === undefined ? str("~") : str(env.home);
      case "cwd":
        return env.cwd === undefined ? UNKNOWN : str(env.cwd);
      case "tmpdir":
        return str(env.tmp ?? "/tmp");
      case "mkdtemp": {
        const prefix =
          a?.t === "str" ? a.v : kw.get("prefix")?.t === "str" ? (kw.get("prefix") as { v: string }).v : undefined;
        const dir = kw.get("dir");
        if (this.language === "node")
          return prefix !== undefined && prefix.startsWith("/") ? str(`${prefix}XXXXXX`) : UNKNOWN;
        const base = dir?.t === "str" ? dir.v : (env.tmp ?? "/tmp");
        return str(`${base}/${prefix ?? "tmp"}XXXXXXXX`);
      }
      case "getenv": {
        const v = a === undefined ? UNKNOWN : this.envVar(a);
        const fallback = b ?? kw.get("default");
        return fallback === undefined || (v.t === "str" && v.v !== "") ? v : choice([v, fallback]);
      }
      case "expanduser":
        return a === undefined ? UNKNOWN : expandUser(asText(a, this.language), env.home);
      case "abspath":
        return a === undefined ? UNKNOWN : absolute(expandUser(asText(a, this.language), undefined), env.cwd);
      case "dirname":
        return a === undefined ? UNKNOWN : dirname(asText(a, this.language));
      case "basename":
        return a === undefined ? UNKNOWN : basename(asText(a, this.language));
      case "path":
        return { t: "path", p: args.length === 0 ? str(".") : joinPaths(args.map((x) => asText(x, this.language))) };
      case "listdir": {
        const dir = a === undefined ? str(".") : asText(a, this.language);
        // `readdirSync(d, { withFileTypes: true })` gives entries whose `.name` is the name
        return { t: "list", items: [], of: globIn(dir, "*", false) };
      }
      case "scandir":
        return { t: "list", items: [], of: globIn(a === undefined ? str(".") : asText(a, this.language), "*", true) };
      case "walk": {
        const root = a === undefined ? str(".") : asText(a, this.language);
        const dirpath = distribute([root], ([r]) =>
          (r as Value).t === "str" ? str(`${(r as { v: string }).v.replace(/\/+$/, "")}/**`, true) : (r as Value),
        );
        const names: Value = { t: "list", items: [], of: str("*", true) };
        return { t: "list", items: [], of: { t: "list", items: [dirpath, names, names] } };
      }
      case "glob": {
        const pattern = a === undefined ? UNKNOWN : a.t === "list" ? this.element(a) : asText(a, this.language);
        const root = kw.get("root_dir") ?? kw.get("cwd");
        const full = root === undefined ? pattern : joinPaths([asText(root, this.language), pattern]);
        return {
          t: "list",
          items: [],
          of: distribute([full], ([p]) =>
            (p as Value).t === "str" ? str((p as { v: string }).v, true) : (p as Value),
          ),
        };
      }
      case "identity":
        return a ?? str("");
      case "base64":
        return a?.t === "str" ? decodeBase64(a.v) : unknownFrom(a === undefined ? [] : taint(a));
      case "buffer":
        return a?.t === "str" && b?.t === "str" && b.v === "base64" ? decodeBase64(a.v) : (a ?? UNKNOWN);
      case "environ":
        return { t: "environ" };
      case "derived":
        return unknownFrom(union([...args, ...kw.values()].map((x) => (x.t === "environ" ? ["*"] : taint(x)))));
      case "argv":
        return this.argv();
      case "shell-join": {
        if (a?.t !== "list" || a.of !== undefined) return unknownFrom(a === undefined ? [] : taint(a));
        return a.items.reduce<Value>(
          (acc, item, i) => concat(i === 0 ? acc : concat(acc, str(" ")), asText(item, this.language)),
          str(""),
        );
      }
      case "names":
        return { t: "list", items: [], of: UNKNOWN };
      case "ppid":
        return unknownFrom(["PPID"]);
      case "interpreter":
        return this.interpreterName();
      default: {
        const unknown: never = op;
        return unknown;
      }
    }
  }

  private methodCall(recv: Value, name: string, args: Value[], kw: Map<string, Value>, text: string): Value {
    const [a, b] = args;
    const language = this.language;
    // a promise's callback runs with what it resolves to
    if (name === "then" || name === "finally" || name === "catch") {
      const cb = a;
      return cb?.t === "func" ? this.invoke(cb, [recv], new Map(), false) : recv;
    }
    switch (recv.t) {
      case "str":
      case "part":
      case "unknown": {
        if (name === "join" && a !== undefined) return this.joinWith(recv, a);
        if (name === "format" && recv.t === "str") return format(recv.v, args, kw, false, language);
        if ((name === "replace" || name === "replaceAll") && recv.t === "str" && a?.t === "str" && b?.t === "str")
          return str(recv.v.split(a.v).join(b.v), recv.glob === true);
        if (/^(strip|lstrip|rstrip|trim|trimStart|trimEnd|toString|encode|decode|valueOf)$/.test(name)) {
          if (recv.t !== "str" || args.length > 1) return recv;
          const v =
            name === "strip" || name === "trim"
              ? recv.v.trim()
              : name === "rstrip" || name === "trimEnd"
                ? recv.v.trimEnd()
                : name === "lstrip" || name === "trimStart"
                  ? recv.v.trimStart()
                  : recv.v;
          return str(v, recv.glob === true);
        }
        if ((name === "lower" || name === "toLowerCase") && recv.t === "str") return str(recv.v.toLowerCase());
        if ((name === "upper" || name === "toUpperCase") && recv.t === "str") return str(recv.v.toUpperCase());
        if (name === "concat") return args.reduce<Value>((acc, x) => concat(acc, asText(x, language)), recv);
        if (name === "split" || name === "splitlines") return { t: "list", items: [], of: unknownFrom(taint(recv)) };
        if (recv.t === "unknown" && recv.env.length === 0) {
          this.record(`?.${name}`, recv, recv, args, kw, false, text);
          return unknownFrom(union(args.map((x) => taint(x))));
        }
        return unknownFrom(union([taint(recv), ...args.map((x) => taint(x))]));
      }
      case "list": {
        if (name === "join" && language === "node") return this.joinWith(a ?? str(","), recv);
        if (
          name === "map" ||
          name === "flatMap" ||
          name === "forEach" ||
          name === "filter" ||
          name === "some" ||
          name === "every" ||
          name === "find"
        ) {
          if (a?.t !== "func") return recv;
          const el = this.element(recv);
          const out = this.invoke(a, [el, UNKNOWN], new Map(), false);
          if (name === "map" || name === "flatMap")
            return { t: "list", items: [], of: name === "flatMap" ? this.element(out) : out };
          if (name === "filter") return { t: "list", items: [], of: this.filterElement(a, el) };
          return name === "find" ? el : UNKNOWN;
        }
        if (name === "slice" || name === "copy" || name === "sort" || name === "reverse" || name === "concat")
          return recv;
        if (name === "pop" || name === "shift") return this.element(recv);
        return unknownFrom(taint(recv));
      }
      case "dict": {
        if (name === "get" && a !== undefined) {
          const found = this.index(recv, a);
          return b === undefined ? found : choice([found, b]);
        }
        if (name === "items")
          return {
            t: "list",
            items: [...recv.entries].slice(0, MAX_ITEMS).map(([k, v]) => ({ t: "list" as const, items: [str(k), v] })),
          };
        if (name === "keys")
          return { t: "list", items: [...recv.entries.keys()].slice(0, MAX_ITEMS).map((k) => str(k)) };
        if (name === "values") return { t: "list", items: [...recv.entries.values()].slice(0, MAX_ITEMS) };
        if (name === "copy") return recv;
        return unknownFrom(taint(recv));
      }
      case "environ": {
        if (name === "get" && a !== undefined) {
          const v = this.envVar(a);
          return b === undefined || (v.t === "str" && v.v !== "") ? v : choice([v, b]);
        }
        if (name === "copy") return recv;
        if (name === "items") return { t: "list", items: [], of: { t: "list", items: [UNKNOWN, unknownFrom(["*"])] } };
        if (name === "values") return { t: "list", items: [], of: unknownFrom(["*"]) };
        if (name === "keys") return { t: "list", items: [], of: UNKNOWN };
        return UNKNOWN;
      }
      case "path":
        return this.pathMethod(recv, name, args, kw, text);
      default:
        return unknownFrom(union([taint(recv), ...args.map((x) => taint(x))]));
    }
  }

  /** What `filter(cb)` keeps of an entry: narrowed by the callback's test when it is one the analysis reads. */
  private filterElement(cb: Extract<Value, { t: "func" }>, el: Value): Value {
    const body = cb.def.body;
    const param = cb.def.params[0]?.target;
    if (Array.isArray(body) || param?.k !== "name" || globOf(el) === undefined) return el;
    const frame = new Frame(cb.scope as Frame);
    frame.vars.set(param.name, el);
    return this.narrow(body as Expr, frame).get(param.name) ?? filtered(el);
  }

  private joinWith(sep: Value, list: Value): Value {
    if (list.t !== "list" || list.of !== undefined || sep.t !== "str")
      return unknownFrom(union([taint(sep), taint(list)]));
    return list.items.reduce<Value>(
      (acc, item, i) => concat(i === 0 ? acc : concat(acc, sep), asText(item, this.language)),
      str(""),
    );
  }

  private pathMethod(
    recv: Extract<Value, { t: "path" }>,
    name: string,
    args: Value[],
    kw: Map<string, Value>,
    text: string,
  ): Value {
    const p = recv.p;
    switch (name) {
      case "joinpath":
        return { t: "path", p: joinPaths([p, ...args.map((x) => asText(x, this.language))]) };
      case "expanduser":
        return { t: "path", p: expandUser(p, this.env.home) };
      case "resolve":
      case "absolute":
        return { t: "path", p: absolute(p, this.env.cwd) };
      case "iterdir":
        return { t: "list", items: [], of: { t: "path", p: globIn(p, "*", true) } };
      case "glob":
      case "rglob": {
        const pattern = args[0]?.t === "str" ? args[0].v : "*";
        return {
          t: "list",
          items: [],
          of: { t: "path", p: globIn(p, name === "rglob" ? `**/${pattern}` : pattern, true) },
        };
      }
      case "with_name":
      case "with_suffix":
      case "with_stem":
        return { t: "path", p: unknownFrom(taint(p)) };
      default:
        this.record(`pathlib.Path.${name}`, recv, recv, args, kw, false, text);
        if (name === "rename" || name === "replace")
          return { t: "path", p: args[0] === undefined ? UNKNOWN : asText(args[0], this.language) };
        if (name === "open") return lib("open()", [{ args: [p, ...args], kw }]);
        return UNKNOWN;
    }
  }

  // ------------------------------------------------------------------ functions

  private funcValue(def: FunctionDef, frame: Frame): Extract<Value, { t: "func" }> {
    return { t: "func", def, scope: frame };
  }

  private escape(fn: Extract<Value, { t: "func" }>): void {
    if (!this.called.has(fn.def) && !this.escaped.has(fn.def)) this.escaped.set(fn.def, fn);
  }

  private invoke(
    fn: Extract<Value, { t: "func" }>,
    args: readonly Value[],
    kw: ReadonlyMap<string, Value>,
    generic: boolean,
  ): Value {
    const count = this.called.get(fn.def) ?? 0;
    if (this.depth >= MAX_DEPTH || count >= MAX_CALLS_PER_FUNCTION)
      return unknownFrom(union(args.map((a) => taint(a))));
    this.called.set(fn.def, count + 1);
    this.escaped.delete(fn.def);
    const frame = new Frame(fn.scope as Frame);
    let at = 0;
    for (const p of fn.def.params) {
      let v: Value;
      if (p.rest === "list") v = generic ? { t: "list", items: [], of: UNKNOWN } : { t: "list", items: args.slice(at) };
      else if (p.rest === "dict") v = { t: "dict", entries: new Map(kw) };
      else {
        const name = p.target.k === "name" ? p.target.name : undefined;
        const given = name !== undefined && kw.has(name) ? kw.get(name) : args[at];
        at++;
        v = given ?? (p.default !== undefined ? this.expr(p.default, frame) : generic ? UNKNOWN : NONE);
        if (generic && given === undefined && p.default !== undefined) v = choice([v, UNKNOWN]);
      }
      this.bind(p.target, v, frame);
    }
    const saved = this.returns;
    this.returns = [];
    this.depth++;
    try {
      if (Array.isArray(fn.def.body)) this.block(fn.def.body as readonly Stmt[], frame);
      else this.returns.push(this.expr(fn.def.body as Expr, frame));
      return this.returns.length === 0 ? NONE : choice(this.returns);
    } finally {
      this.depth--;
      this.returns = saved;
    }
  }
}

const isText = (v: Value): boolean => v.t === "str" || v.t === "part";

/** The glob string a value holds, if it is one (a listing's entry). */
export function globOf(v: Value): string | undefined {
  const inner = v.t === "path" ? v.p : v;
  if (inner.t === "str" && inner.glob === true) return inner.v;
  if (inner.t === "choice") for (const o of inner.options) if (globOf(o) !== undefined) return globOf(o);
  return undefined;
}

/** The entries `pattern` matches in `dir`, as a glob path (or name, when `full` is false and `dir` is known). */
function globIn(dir: Value, pattern: string, full: boolean): Value {
  return distribute([dir], ([d]) => {
    const x = d as Value;
    const inner = x.t === "path" ? x.p : x;
    if (!full) return str(pattern, true);
    if (inner.t === "str")
      return str(inner.v === "." || inner.v === "" ? pattern : `${inner.v.replace(/\/+$/, "")}/${pattern}`, true);
    if (inner.t === "part") return { ...inner, tail: `${inner.tail}/${pattern}` };
    return inner;
  });
}

/** A glob value whose last part `f` changes (`*` → `*.pyc`). */
function reglob(v: Value, f: (last: string) => string): Value {
  if (v.t === "path") return { t: "path", p: reglob(v.p, f) };
  if (v.t !== "str" || v.glob !== true) return v;
  const slash = v.v.lastIndexOf("/");
  return str(v.v.slice(0, slash + 1) + f(v.v.slice(slash + 1)), true);
}

function filtered(v: Value): Value {
  if (v.t === "path") return { t: "path", p: filtered(v.p) };
  return v.t === "str" && v.glob === true ? { ...v, filtered: true } : v;
}

function namesIn(e: Expr, out: Set<string> = new Set()): Set<string> {
  switch (e.k) {
    case "name":
      out.add(e.name);
      break;
    case "attr":
      namesIn(e.obj, out);
      break;
    case "index":
      namesIn(e.obj, out);
      namesIn(e.index, out);
      break;
    case "call":
      namesIn(e.fn, out);
      for (const a of e.args) namesIn(a.value, out);
      break;
    case "bin":
      namesIn(e.l, out);
      namesIn(e.r, out);
      break;
    case "not":
      namesIn(e.e, out);
      break;
    case "unknown":
      for (const c of e.children) namesIn(c, out);
      break;
    default:
      break;
  }
  return out;
}

function decodeBase64(text: string): Value {
  const compact = text.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) return UNKNOWN;
  return str(Buffer.from(compact, "base64").toString("utf8"));
}

/** Reads `program` (of `language`) and returns the library calls it makes. */
export function interpret(
  program: Program,
  language: Language,
  code: string,
  env: CodeEnv,
  known: (name: string) => boolean,
): Interpretation {
  return new Interpreter(language, code, env, known).run(program);
}

export { options as valueOptions };

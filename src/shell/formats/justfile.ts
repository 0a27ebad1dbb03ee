/**
 * A reader of justfiles for what `just` would run: assignments (strings, backticks, `+` and `/`,
 * `if` expressions, the functions recipes use), settings (`shell`, `positional-arguments`,
 * `export`), aliases, recipes with their parameters, dependencies (before and after `&&`, with
 * arguments) and attributes, the default recipe, and each recipe's body with its `{{...}}`
 * interpolations, as the shell text `just` runs line by line (or as one script for a `#!` recipe
 * and `[script]`). `import` and `mod` files come from a callback.
 *
 * As in the Makefile reader, a value only known at run time stays run time in the shell text: an
 * environment variable becomes `${NAME}`, a backtick `$(CMD)`.
 */
import { cached } from "./cache.ts";

/** One recipe line to run, or a whole script. */
export interface JustLine {
  readonly code: string;
  readonly line: number;
  readonly file: string;
}

/** What running one recipe runs. */
export interface JustRun {
  readonly recipe: string;
  readonly lines: readonly JustLine[];
  /** A `#!` recipe or `[script]`: the body is one script for this interpreter (`python3`), else shell lines. */
  readonly script: string | undefined;
  /** With `set positional-arguments`: the recipe's arguments as `$1`, `$2`, ... (`undefined`: run-time). */
  readonly positional: readonly (string | undefined)[] | undefined;
  /** Variables the recipe's shells get in their environment (`export`, `set export`, `$param`). */
  readonly env: ReadonlyMap<string, string | undefined>;
}

export interface JustPlan {
  readonly runs: readonly JustRun[];
  /** Backticks and `shell()` calls evaluated while the justfile is read. */
  readonly parseShells: readonly JustLine[];
  /** The recipes named on the command line that the justfile does not have (just stops). */
  readonly missing: readonly string[];
  /** `set shell` names another shell than a POSIX one. */
  readonly shell: string | undefined;
  readonly included: readonly string[];
  readonly unread: readonly { readonly file: string; readonly why: string }[];
  readonly limited: boolean;
}

export interface JustInput {
  readonly text: string;
  readonly file: string;
  /** The command line's words after just's options: `NAME=VALUE` overrides, recipes and their arguments (`undefined`: run-time). */
  readonly args: readonly (string | undefined)[];
  readonly overrides: ReadonlyMap<string, string | undefined>;
  /** The environment as known (`HOME`). */
  readonly env: ReadonlyMap<string, string | undefined>;
  readonly dir: string;
  readonly home: string;
  readonly include: (path: string) => { text: string; file: string } | "missing" | { why: string };
  readonly tick: (units: number) => void;
  /** Plan every recipe (code stored for later), each without arguments. */
  readonly all?: boolean;
}

const MAX_RECIPES = 128;
const MAX_LINES = 1000;
const MAX_DEPTH = 32;

/** A value: its text, and whether it holds run-time pieces. */
interface Value {
  readonly text: string;
  readonly known: boolean;
}

interface Param {
  readonly name: string;
  readonly default: string | undefined;
  readonly variadic: boolean;
}

interface Dep {
  readonly name: string;
  readonly args: readonly string[];
}

interface Recipe {
  readonly name: string;
  readonly params: readonly Param[];
  readonly before: readonly Dep[];
  readonly after: readonly Dep[];
  readonly body: readonly { text: string; line: number }[];
  readonly attributes: readonly string[];
  readonly file: string;
}

interface Parsed {
  readonly recipes: Recipe[];
  readonly assignments: { name: string; expr: string; line: number; exported: boolean }[];
  readonly aliases: Map<string, string>;
  readonly settings: Map<string, string>;
  readonly imports: { path: string; optional: boolean }[];
}

const unknownEnv = (name: string): Value => ({
  text: /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `\${${name}}` : "${__just_runtime_value}",
  known: false,
});

/** Parses a justfile's text into its items (cached by content). */
function parse(text: string, file: string): Parsed {
  return cached(`justfile:${file}`, text, () => {
    const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
    const parsed: Parsed = { recipes: [], assignments: [], aliases: new Map(), settings: new Map(), imports: [] };
    let attributes: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      const raw = lines[i] as string;
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) continue;
      if (/^[ \t]/.test(raw)) continue;
      if (line.startsWith("[")) {
        attributes.push(
          ...line
            .slice(1, line.lastIndexOf("]"))
            .split(",")
            .map((a) => a.trim()),
        );
        continue;
      }
      const imp = /^(import|mod)(\?)?\s+(.*)$/.exec(line);
      if (imp !== null) {
        const rest = (imp[3] as string).trim();
        const quoted = /(['"])(.*?)\1/.exec(rest);
        const path = quoted !== null ? (quoted[2] as string) : imp[1] === "mod" ? `${rest.split(/\s+/)[0]}.just` : rest;
        parsed.imports.push({ path, optional: imp[2] === "?" });
        attributes = [];
        continue;
      }
      const set = /^set\s+([\w-]+)\s*(?::=\s*(.*))?$/.exec(line);
      if (set !== null) {
        parsed.settings.set(set[1] as string, (set[2] ?? "true").trim());
        continue;
      }
      const alias = /^alias\s+([\w-]+)\s*:=\s*([\w-]+)/.exec(line);
      if (alias !== null) {
        parsed.aliases.set(alias[1] as string, alias[2] as string);
        continue;
      }
      const assign = /^(export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(.*)$/.exec(line);
      if (assign !== null) {
        let expr = assign[3] as string;
        // a `'''` or `"""` string, or a backtick block, may span lines
        for (const fence of ["'''", '"""', "```"])
          if (expr.includes(fence) && expr.split(fence).length === 2)
            while (i + 1 < lines.length) {
              expr += `\n${lines[++i]}`;
              if ((lines[i] as string).includes(fence)) break;
            }
        parsed.assignments.push({ name: assign[2] as string, expr, line: i + 1, exported: assign[1] !== undefined });
        continue;
      }
      const header = /^@?([A-Za-z_][\w-]*)(.*?):(?!=)(.*)$/.exec(line);
      if (header === null) continue;
      const name = header[1] as string;
      const params = parseParams(header[2] as string);
      const depText = (header[3] as string).replace(/#.*$/, "");
      const [beforeText, afterText] = depText.split("&&");
      const body: { text: string; line: number }[] = [];
      let indent: string | undefined;
      while (i + 1 < lines.length) {
        const next = lines[i + 1] as string;
        if (next.trim() === "") {
          body.push({ text: "", line: i + 2 });
          i++;
          continue;
        }
        if (!/^[ \t]/.test(next)) break;
        indent ??= (/^[ \t]+/.exec(next) as RegExpExecArray)[0];
        body.push({ text: next.startsWith(indent) ? next.slice(indent.length) : next.trimStart(), line: i + 2 });
        i++;
      }
      while (body.length > 0 && body.at(-1)?.text === "") body.pop();
      parsed.recipes.push({
        name,
        params,
        before: parseDeps(beforeText ?? ""),
        after: parseDeps(afterText ?? ""),
        body,
        attributes,
        file,
      });
      attributes = [];
    }
    return parsed;
  });
}

function parseParams(text: string): Param[] {
  const out: Param[] = [];
  const re = /([+*]?)\$?([A-Za-z_][\w-]*)(?:\s*=\s*('(?:[^']*)'|"(?:[^"\\]|\\.)*"|`[^`]*`|[^\s]+))?/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const value = m[3];
    out.push({
      name: m[2] as string,
      default: value === undefined ? undefined : value.replace(/^['"`]|['"`]$/g, ""),
      variadic: m[1] !== "",
    });
  }
  return out;
}

function parseDeps(text: string): Dep[] {
  const out: Dep[] = [];
  const re = /\(([^)]*)\)|([A-Za-z_][\w-]*)/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[2] !== undefined) out.push({ name: m[2], args: [] });
    else {
      const parts = (m[1] as string).match(/'[^']*'|"(?:[^"\\]|\\.)*"|[^\s]+/g) ?? [];
      if (parts.length > 0)
        out.push({ name: parts[0] as string, args: parts.slice(1).map((p) => p.replace(/^['"]|['"]$/g, "")) });
    }
  }
  return out;
}

/** Reads a justfile and plans what `just ARGS` runs. */
export function planJust(input: JustInput): JustPlan {
  const included: string[] = [];
  const unread: { file: string; why: string }[] = [];
  const parseShells: JustLine[] = [];
  let limited = false;
  const root = parse(input.text, input.file);
  input.tick(1 + Math.floor(input.text.length / 64));
  const recipes = new Map<string, Recipe>();
  const assignments: Parsed["assignments"][number][] = [];
  const assignmentFile = new Map<string, string>();
  const aliases = new Map<string, string>();
  const settings = new Map<string, string>();
  const order: string[] = [];
  const addParsed = (p: Parsed, file: string, depth: number): void => {
    for (const r of p.recipes) {
      if (!recipes.has(r.name)) order.push(r.name);
      recipes.set(r.name, r);
    }
    for (const a of p.assignments) {
      assignments.push(a);
      assignmentFile.set(a.name, file);
    }
    for (const [k, v] of p.aliases) aliases.set(k, v);
    for (const [k, v] of p.settings) settings.set(k, v);
    for (const imp of p.imports) {
      if (depth > 4) {
        limited = true;
        continue;
      }
      const read = input.include(imp.path);
      if (read === "missing") {
        if (!imp.optional) unread.push({ file: imp.path, why: "does not exist (just stops)" });
        continue;
      }
      if ("why" in read) {
        unread.push({ file: imp.path, why: read.why });
        continue;
      }
      included.push(read.file);
      input.tick(1 + Math.floor(read.text.length / 64));
      addParsed(parse(read.text, read.file), read.file, depth + 1);
    }
  };
  addParsed(root, input.file, 0);

  // variables: the command line's override the file's; every assignment is evaluated (backticks run)
  const vars = new Map<string, Value>();
  const exported = new Set<string>();
  const evaluator = new Evaluator(input, vars, (code, line, file) => parseShells.push({ code, line, file }));
  for (const a of assignments) {
    if (input.overrides.has(a.name)) {
      const v = input.overrides.get(a.name);
      vars.set(a.name, v === undefined ? unknownEnv(a.name) : { text: v, known: true });
      continue;
    }
    vars.set(a.name, evaluator.evaluate(a.expr, { line: a.line, file: assignmentFile.get(a.name) ?? input.file }));
    if (a.exported) exported.add(a.name);
  }

  const runs: JustRun[] = [];
  const missing: string[] = [];
  const done = new Set<string>();
  let lineCount = 0;
  const shellSetting = settings.get("shell");
  const shell = shellSetting === undefined ? undefined : /["']([^"']+)["']/.exec(shellSetting)?.[1];
  const positional = settings.has("positional-arguments");
  const exportAll = settings.get("export") === "true";
  const run = (name: string, args: readonly (string | undefined)[], depth: number): void => {
    const recipe = recipes.get(aliases.get(name) ?? name);
    if (recipe === undefined) {
      missing.push(name);
      return;
    }
    const key = `${recipe.name}\u0000${args.join("\u0000")}`;
    if (done.has(key)) return;
    if (done.size >= MAX_RECIPES || depth > MAX_DEPTH) {
      limited = true;
      return;
    }
    done.add(key);
    input.tick(1);
    const scope = new Map(vars);
    recipe.params.forEach((p, i) => {
      const value = p.variadic ? args.slice(i) : [args[i]];
      const given = value.length > 0 && value.every((v) => v !== undefined);
      scope.set(
        p.name,
        args[i] !== undefined || given
          ? { text: (value as string[]).join(" "), known: true }
          : args.length > i || (input.all === true && p.default === undefined)
            ? unknownEnv(p.name)
            : { text: p.default ?? "", known: true },
      );
    });
    const local = new Evaluator(input, scope, (code, line, file) => parseShells.push({ code, line, file }));
    for (const dep of recipe.before)
      run(
        dep.name,
        dep.args.map((a) => local.evaluate(a, { line: 0, file: recipe.file }).text),
        depth + 1,
      );
    const lines: JustLine[] = [];
    for (const b of recipe.body) {
      if (++lineCount > MAX_LINES) {
        limited = true;
        break;
      }
      lines.push({
        code: local.interpolate(b.text, { line: b.line, file: recipe.file }),
        line: b.line,
        file: recipe.file,
      });
    }
    const first = lines.find((l) => l.code.trim() !== "")?.code.trim();
    const script =
      first?.startsWith("#!") === true
        ? first
        : recipe.attributes.some((a) => a.startsWith("script"))
          ? "sh"
          : undefined;
    const env = new Map<string, string | undefined>();
    for (const [k, v] of scope)
      if (exportAll || exported.has(k) || (recipe.params.some((p) => p.name === k) && exportAll))
        env.set(k, v.known ? v.text : undefined);
    const base = { recipe: recipe.name, positional: positional ? args : undefined, env };
    if (script !== undefined) runs.push({ ...base, lines, script });
    else {
      // each line runs in its own shell; `\` at the end joins the next line
      const joined: JustLine[] = [];
      let pending: JustLine | undefined;
      for (const l of lines) {
        if (l.code.trim() === "" || l.code.trimStart().startsWith("#")) {
          if (pending === undefined) continue;
        }
        const code = pending === undefined ? l.code : `${pending.code}\n${l.code}`;
        const current = { code, line: pending?.line ?? l.line, file: l.file };
        if (code.endsWith("\\")) pending = current;
        else {
          pending = undefined;
          joined.push({ ...current, code: current.code.replace(/^[@-]+/, "") });
        }
      }
      if (pending !== undefined) joined.push(pending);
      runs.push({ ...base, lines: joined, script: undefined });
    }
    for (const dep of recipe.after)
      run(
        dep.name,
        dep.args.map((a) => local.evaluate(a, { line: 0, file: recipe.file }).text),
        depth + 1,
      );
  };

  // the command line: recipes, each followed by as many arguments as it takes
  const args = input.args;
  if (input.all === true) for (const name of order) run(name, [], 0);
  else if (args.length === 0) {
    const first =
      order.find((n) => recipes.get(n)?.attributes.includes("default") === true) ??
      order.find((n) => !n.startsWith("_"));
    if (first !== undefined) run(first, [], 0);
  } else
    for (let i = 0; i < args.length;) {
      const name = args[i];
      i++;
      if (name === undefined) {
        missing.push("");
        break;
      }
      const recipe = recipes.get(aliases.get(name) ?? name);
      const takes =
        recipe === undefined
          ? 0
          : recipe.params.some((p) => p.variadic)
            ? args.length - i
            : Math.min(recipe.params.length, args.length - i);
      run(name, args.slice(i, i + takes), 0);
      i += takes;
    }
  return {
    runs,
    parseShells,
    missing,
    shell:
      shell === undefined || ["sh", "bash", "zsh", "dash"].includes(shell.slice(shell.lastIndexOf("/") + 1))
        ? undefined
        : shell,
    included,
    unread,
    limited,
  };
}

/** Evaluates just expressions and interpolations against a scope. */
class Evaluator {
  constructor(
    private readonly input: JustInput,
    private readonly scope: Map<string, Value>,
    private readonly shell: (code: string, line: number, file: string) => void,
  ) {}

  /** A recipe line with its `{{ expr }}` interpolated (`{{{{` is a literal `{{`). */
  interpolate(text: string, at: { line: number; file: string }): string {
    let out = "";
    for (let i = 0; i < text.length;) {
      if (text.startsWith("{{{{", i)) {
        out += "{{";
        i += 4;
        continue;
      }
      if (text.startsWith("{{", i)) {
        const end = text.indexOf("}}", i + 2);
        if (end < 0) {
          out += text.slice(i);
          break;
        }
        out += this.evaluate(text.slice(i + 2, end), at).text;
        i = end + 2;
        continue;
      }
      out += text[i];
      i++;
    }
    return out;
  }

  /** The value of an expression. */
  evaluate(expr: string, at: { line: number; file: string }): Value {
    this.input.tick(1);
    const p = new ExprParser(expr, this, at);
    try {
      return p.expression();
    } catch {
      return { text: "${__just_runtime_value}", known: false };
    }
  }

  variable(name: string): Value {
    return this.scope.get(name) ?? unknownEnv(name);
  }

  env(name: string, fallback: Value | undefined): Value {
    if (this.input.env.has(name)) {
      const v = this.input.env.get(name);
      return v === undefined ? unknownEnv(name) : { text: v, known: true };
    }
    if (fallback !== undefined) return { text: `\${${name}:-${fallback.text}}`, known: false };
    return unknownEnv(name);
  }

  backtick(code: string, at: { line: number; file: string }): Value {
    this.shell(code, at.line, at.file);
    return { text: `$(${code})`, known: false };
  }

  call(name: string, args: Value[], at: { line: number; file: string }): Value {
    const known = args.every((a) => a.known);
    const arg = (i: number): string => args[i]?.text ?? "";
    const result = (text: string): Value => ({ text, known });
    switch (name) {
      case "env_var":
      case "env":
        return this.env(arg(0), args[1]);
      case "env_var_or_default":
        return this.env(arg(0), args[1] ?? { text: "", known: true });
      case "justfile_directory":
      case "justfile_dir":
      case "invocation_directory":
      case "invocation_directory_native":
      case "source_directory":
        return { text: this.input.dir, known: true };
      case "justfile":
      case "source_file":
        return { text: `${this.input.dir}/${this.input.file}`, known: true };
      case "home_directory":
      case "home_dir":
        return { text: this.input.home, known: true };
      case "cache_directory":
      case "cache_dir":
        return { text: `${this.input.home}/.cache`, known: true };
      case "config_directory":
      case "config_dir":
        return { text: `${this.input.home}/.config`, known: true };
      case "data_directory":
      case "data_dir":
        return { text: `${this.input.home}/.local/share`, known: true };
      case "join":
        return result(args.map((a) => a.text).join("/"));
      case "quote":
        return result(`'${arg(0).replaceAll("'", "'\\''")}'`);
      case "replace":
        return result(arg(1) === "" ? arg(0) : arg(0).split(arg(1)).join(arg(2)));
      case "trim":
        return result(arg(0).trim());
      case "uppercase":
        return result(arg(0).toUpperCase());
      case "lowercase":
        return result(arg(0).toLowerCase());
      case "parent_directory":
        return result(arg(0).includes("/") ? arg(0).slice(0, arg(0).lastIndexOf("/")) || "/" : "");
      case "file_name":
        return result(arg(0).slice(arg(0).lastIndexOf("/") + 1));
      case "absolute_path":
        return result(arg(0).startsWith("/") ? arg(0) : `${this.input.dir}/${arg(0)}`);
      case "clean":
        return result(arg(0));
      case "os":
        return { text: "linux", known: true };
      case "os_family":
        return { text: "unix", known: true };
      case "arch":
        return { text: "x86_64", known: true };
      case "shell":
        return this.backtick([arg(0), ...args.slice(1).map((a) => a.text)].join(" "), at);
      case "error":
        return { text: "", known: true };
      default:
        return { text: "${__just_runtime_value}", known: false };
    }
  }
}

/** A recursive-descent parser of just expressions (`a + "/" + b`, `if x == "y" { a } else { b }`, `f(x)`). */
class ExprParser {
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly ev: Evaluator,
    private readonly at: { line: number; file: string },
  ) {}

  private ws(): void {
    while (this.i < this.text.length && /[ \t\n\r]/.test(this.text[this.i] as string)) this.i++;
  }

  private peek(s: string): boolean {
    this.ws();
    return this.text.startsWith(s, this.i);
  }

  private eat(s: string): boolean {
    if (!this.peek(s)) return false;
    this.i += s.length;
    return true;
  }

  expression(): Value {
    this.ws();
    if (this.text.startsWith("if", this.i) && /[\s(]/.test(this.text[this.i + 2] ?? "")) {
      this.i += 2;
      const left = this.sum();
      let op = "";
      for (const o of ["==", "!=", "=~"]) if (this.eat(o)) op = o;
      const right = this.sum();
      this.eat("{");
      const then = this.expression();
      this.eat("}");
      let otherwise: Value = { text: "", known: true };
      if (this.eat("else")) {
        if (this.peek("if")) otherwise = this.expression();
        else {
          this.eat("{");
          otherwise = this.expression();
          this.eat("}");
        }
      }
      if (!left.known || !right.known || op === "=~")
        return { text: `${then.text} ${otherwise.text}`.trim(), known: false };
      const equal = left.text === right.text;
      return (op === "==" ? equal : !equal) ? then : otherwise;
    }
    return this.sum();
  }

  private sum(): Value {
    let left = this.atom();
    for (;;) {
      if (this.eat("+")) {
        const right = this.atom();
        left = { text: left.text + right.text, known: left.known && right.known };
      } else if (this.eat("/")) {
        const right = this.atom();
        left = { text: `${left.text}/${right.text}`, known: left.known && right.known };
      } else return left;
    }
  }

  private atom(): Value {
    this.ws();
    const t = this.text;
    const c = t[this.i];
    if (c === "(") {
      this.i++;
      const v = this.expression();
      this.eat(")");
      return v;
    }
    if (t.startsWith("'''", this.i) || t.startsWith('"""', this.i) || t.startsWith("```", this.i)) {
      const fence = t.slice(this.i, this.i + 3);
      const end = t.indexOf(fence, this.i + 3);
      const body = t.slice(this.i + 3, end < 0 ? t.length : end);
      this.i = end < 0 ? t.length : end + 3;
      return fence === "```" ? this.ev.backtick(body.trim(), this.at) : { text: body.replace(/^\n/, ""), known: true };
    }
    if (c === "'") {
      const end = t.indexOf("'", this.i + 1);
      const v = t.slice(this.i + 1, end < 0 ? t.length : end);
      this.i = end < 0 ? t.length : end + 1;
      return { text: v, known: true };
    }
    if (c === '"') {
      let out = "";
      let j = this.i + 1;
      for (; j < t.length && t[j] !== '"'; j++) {
        if (t[j] === "\\") {
          const n = t[++j];
          out += n === "n" ? "\n" : n === "t" ? "\t" : (n ?? "");
        } else out += t[j];
      }
      this.i = j + 1;
      return { text: out, known: true };
    }
    if (c === "`") {
      const end = t.indexOf("`", this.i + 1);
      const code = t.slice(this.i + 1, end < 0 ? t.length : end);
      this.i = end < 0 ? t.length : end + 1;
      return this.ev.backtick(code, this.at);
    }
    const m = /^[A-Za-z_][\w-]*/.exec(t.slice(this.i));
    if (m === null) throw new Error("expression");
    this.i += m[0].length;
    if (this.eat("(")) {
      const args: Value[] = [];
      while (!this.eat(")")) {
        args.push(this.expression());
        this.eat(",");
        if (this.i >= t.length) break;
      }
      return this.ev.call(m[0], args, this.at);
    }
    return this.ev.variable(m[0]);
  }
}

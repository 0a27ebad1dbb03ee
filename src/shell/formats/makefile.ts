/**
 * A reader of GNU Makefiles for what `make` would run: variables (every flavour, `override`,
 * `define`, target-specific ones, the command line's and the environment's), conditionals,
 * `include`, rules (explicit, double-colon, static pattern and pattern rules), `.DEFAULT_GOAL`,
 * `.ONESHELL`, and the recipes a goal reaches through its prerequisites, expanded to the shell text
 * each recipe line runs (with the functions make has: `$(shell)`, `$(call)`, `$(foreach)`,
 * `$(patsubst)`, `$(wildcard)`, ...).
 *
 * What make only knows at run time stays run time in the shell text: a variable defined nowhere
 * comes from the environment and becomes `${NAME}` (the shell reads the same environment), and
 * `$(shell CMD)` becomes `$(CMD)`, whose command the shell analysis walks and whose static output
 * it uses (`$(shell echo ~)`). A condition that depends on such a value takes both branches.
 *
 * Pure: files it includes come from the `include` callback (the handler reads them from disk), and
 * every bound is a count (`MAX_*`), never the clock.
 */
import { posix } from "node:path";
import { cached } from "./cache.ts";

/** A line of a recipe, as make hands it to the shell, and where it is written. */
export interface RecipeLine {
  /** The shell text, expanded (prefix characters `@`, `-`, `+` removed). */
  readonly code: string;
  readonly file: string;
  readonly line: number;
  /** Prefixed with `+`, or uses `$(MAKE)`: runs under `make -n` too. */
  readonly always: boolean;
}

/** A recipe that runs for one target, in order. */
export interface RecipeRun {
  readonly target: string;
  readonly lines: readonly RecipeLine[];
}

/** A shell command make runs while it reads the makefile (`X := $(shell CMD)`, `X != CMD`). */
export interface ParseShell {
  readonly code: string;
  readonly file: string;
  readonly line: number;
}

/** The result of reading a makefile for some goals. */
export interface MakePlan {
  /** The goals make builds (the command line's, else the default goal); empty when there is none. */
  readonly goals: readonly string[];
  readonly runs: readonly RecipeRun[];
  readonly parseShells: readonly ParseShell[];
  /** `.ONESHELL`: each recipe runs as one shell script. */
  readonly oneShell: boolean;
  /** The shell recipes run with (`SHELL`), when set to something else than a POSIX shell. */
  readonly shell: string | undefined;
  /** Files the makefile includes (shown as the callback named them), and those it could not read. */
  readonly included: readonly string[];
  readonly unread: readonly { readonly file: string; readonly why: string }[];
  /** A bound was reached: the plan is incomplete. */
  readonly limited: boolean;
  /** Variables the recipes' shells get in their environment (`undefined`: a run-time value). */
  readonly exported: ReadonlyMap<string, string | undefined>;
}

/** What the reader needs: the files, the command line, the environment. */
export interface MakeInput {
  /** The makefiles, in order (`-f A -f B`), as `{ text, file }` (file as shown in messages). */
  readonly makefiles: readonly { readonly text: string; readonly file: string }[];
  /** The directory make runs in (`CURDIR`). */
  readonly dir: string;
  /** Goals on the command line. */
  readonly goals: readonly string[];
  /** `VAR=value` on the command line (`undefined`: a run-time value). */
  readonly overrides: ReadonlyMap<string, string | undefined>;
  /** The environment as known (`HOME`); a name absent is unknown, `undefined` a run-time value. */
  readonly env: ReadonlyMap<string, string | undefined>;
  /** `make -e`: the environment overrides the makefile's assignments. */
  readonly envOverrides: boolean;
  /** `--eval` texts, read before the makefiles. */
  readonly evals: readonly string[];
  /** Reads an included file (a path as written, relative to `dir`); a text, `missing`, or why it cannot be read. */
  readonly include: (path: string) => { text: string; file: string } | "missing" | { why: string };
  /** Charges work against the analysis' bound. */
  readonly tick: (units: number) => void;
  /** The value of `$(MAKE)` (`make -n` under a dry run: a recursive make only prints too). */
  readonly make: string;
  /** Plan every target (code stored for later: any target may be built), not only the goals. */
  readonly all?: boolean;
}

/** Bounds of one read: nested expansions, targets visited, recipe lines produced, files included. */
const MAX_EXPANSION_DEPTH = 32;
const MAX_TARGETS = 256;
const MAX_LINES = 1000;
const MAX_INCLUDES = 32;
const MAX_LINE_CHARS = 16_384;

/** The text the shell reads for a make value known only at run time (an unset shell variable). */
const UNKNOWN = "${__make_runtime_value}";

/** Make's default variables (`make -p` of GNU make, the ones recipes use). */
const DEFAULTS: Readonly<Record<string, string>> = {
  MAKE: "make",
  CC: "cc",
  CXX: "g++",
  CPP: "$(CC) -E",
  AR: "ar",
  ARFLAGS: "rv",
  AS: "as",
  LD: "ld",
  LEX: "lex",
  YACC: "yacc",
  FC: "f77",
  RM: "rm -f",
  SHELL: "/bin/sh",
  MAKEINFO: "makeinfo",
  TEX: "tex",
  OUTPUT_OPTION: "-o $@",
  "COMPILE.c": "$(CC) $(CFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c",
  "LINK.c": "$(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH)",
  "COMPILE.cc": "$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(TARGET_ARCH) -c",
  "LINK.o": "$(CC) $(LDFLAGS) $(TARGET_ARCH)",
  MAKEFLAGS: "",
  MFLAGS: "",
  MAKELEVEL: "0",
  ".RECIPEPREFIX": "",
  ".SHELLFLAGS": "-c",
};

/** Variables make leaves empty unless set (flags): `$(CFLAGS)` is nothing, not the environment's. */
const EMPTY_DEFAULTS = new Set([
  "CFLAGS",
  "CXXFLAGS",
  "CPPFLAGS",
  "LDFLAGS",
  "LDLIBS",
  "TARGET_ARCH",
  "ASFLAGS",
  "FFLAGS",
  "LFLAGS",
  "YFLAGS",
  "LOADLIBES",
  "DESTDIR",
]);

/** One physical-line-joined line of a makefile, with the line it starts on. */
interface LogicalLine {
  /** For a recipe line: the text after the prefix tab, continuations kept (`\\\n`); else continuations joined by a space. */
  readonly text: string;
  /** The raw first physical line starts with a tab (or the recipe prefix). */
  readonly tab: boolean;
  readonly line: number;
  /** The raw text, continuations kept, for recipe lines. */
  readonly raw: string;
}

/** Splits a makefile into logical lines (cached by content). */
function logicalLines(text: string): readonly LogicalLine[] {
  return cached("makefile-lines", text, () => {
    const physical = text.split("\n");
    const out: LogicalLine[] = [];
    for (let i = 0; i < physical.length; i++) {
      const start = i;
      let raw = (physical[i] as string).replace(/\r$/, "");
      while (endsWithContinuation(raw) && i + 1 < physical.length) {
        i++;
        raw += `\n${(physical[i] as string).replace(/\r$/, "")}`;
      }
      const tab = raw.startsWith("\t");
      // outside recipes a continuation and the blanks around it are one space
      const joined = raw.replace(/[ \t]*\\\n[ \t]*/g, " ");
      out.push({ text: joined, tab, line: start + 1, raw });
    }
    return out;
  });
}

/** The line ends with an odd number of backslashes (a continuation). */
function endsWithContinuation(line: string): boolean {
  let n = 0;
  for (let i = line.length - 1; i >= 0 && line[i] === "\\"; i--) n++;
  return n % 2 === 1;
}

/** A `#` comment removed (outside recipes; `\#` is a literal `#`). */
function stripComment(line: string): string {
  let out = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "\\" && line[i + 1] === "#") {
      out += "#";
      i++;
      continue;
    }
    if (c === "#") break;
    out += c;
  }
  return out;
}

interface Variable {
  /** `recursive`: expanded at each use; `simple`: expanded once, when assigned. */
  readonly flavor: "recursive" | "simple";
  readonly value: string;
  /** The expanded value holds run-time pieces (for a simple variable). */
  readonly known: boolean;
  readonly origin: "default" | "environment" | "file" | "command line" | "override" | "automatic";
  readonly exported?: boolean;
}

interface Rule {
  readonly prereqs: string[];
  readonly recipe: { text: string; line: number; file: string }[];
  readonly file: string;
  readonly line: number;
  /** Target-specific variables. */
  readonly vars: Map<string, Variable>;
  /** For a static pattern rule, the stem of this target. */
  readonly stem?: string;
}

interface PatternRule {
  readonly targets: readonly string[];
  readonly prereqs: readonly string[];
  readonly recipe: { text: string; line: number; file: string }[];
}

/** An expansion: the text, and whether it holds values only known at run time. */
interface Expanded {
  readonly text: string;
  readonly known: boolean;
}

const words = (text: string): string[] => text.split(/[ \t\n]+/).filter((w) => w.length > 0);

const isShellName = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);

/** `%`-pattern matching: the stem, or `undefined`. */
function matchPattern(pattern: string, word: string): string | undefined {
  const at = pattern.indexOf("%");
  if (at < 0) return pattern === word ? "" : undefined;
  const head = pattern.slice(0, at);
  const tail = pattern.slice(at + 1);
  if (word.length < head.length + tail.length || !word.startsWith(head) || !word.endsWith(tail)) return undefined;
  return word.slice(head.length, word.length - tail.length);
}

const substitutePattern = (pattern: string, stem: string): string =>
  pattern.includes("%") ? pattern.replace("%", stem) : pattern;

/** Splits `a,b,c` at top-level commas (`$(f a,$(g b,c))`), at most `max` pieces. */
function splitArgs(text: string, max: number): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "(" || c === "{") depth++;
    else if (c === ")" || c === "}") depth--;
    if (c === "," && depth === 0 && out.length < max - 1) {
      out.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  out.push(current);
  return out;
}

/** The index of the `)` or `}` closing the reference opened at `open` (`$(` or `${`), or -1. */
function closing(text: string, open: number): number {
  const opener = text[open] as string;
  const closer = opener === "(" ? ")" : "}";
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === opener) depth++;
    else if (c === closer) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The assignment operators, longest first. */
const OPERATORS = [":::=", "::=", ":=", "?=", "+=", "!=", "="] as const;

/** Where the first top-level `:` or assignment operator of a line is, and which. */
function firstOperator(line: string): { at: number; op: string } | undefined {
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "$" && (line[i + 1] === "(" || line[i + 1] === "{")) {
      const end = closing(line, i + 1);
      if (end < 0) return undefined;
      i = end;
      continue;
    }
    if (c === "(" || c === "{") depth++;
    else if (c === ")" || c === "}") depth--;
    if (depth > 0) continue;
    for (const op of OPERATORS) if (line.startsWith(op, i)) return { at: i, op };
    if (c === ":") return { at: i, op: line[i + 1] === ":" ? "::" : ":" };
    if (c === ";") return undefined;
  }
  return undefined;
}

/** Reads the makefiles of `input` and plans what building the goals runs. */
export function planMake(input: MakeInput): MakePlan {
  return new MakeReader(input).plan();
}

class MakeReader {
  private readonly vars = new Map<string, Variable>();
  private readonly rules = new Map<string, Rule[]>();
  private readonly patterns: PatternRule[] = [];
  private readonly parseShells: ParseShell[] = [];
  private readonly included: string[] = [];
  private readonly unread: { file: string; why: string }[] = [];
  private firstTarget: string | undefined;
  private limited = false;
  private includes = 0;
  /** Files being read (an include of itself is not read again). */
  private readonly reading: string[] = [];
  /** The last rules read (their targets), which recipe lines belong to. */
  private current: Rule[] = [];
  private currentPatterns: PatternRule[] = [];
  private oneShell = false;
  private exportAll = false;

  constructor(private readonly input: MakeInput) {
    for (const [name, value] of Object.entries(DEFAULTS))
      this.vars.set(name, { flavor: "recursive", value, known: true, origin: "default" });
    this.vars.set("MAKE", { flavor: "simple", value: input.make, known: true, origin: "default" });
    this.vars.set("CURDIR", { flavor: "simple", value: input.dir, known: true, origin: "default" });
    this.vars.set("MAKECMDGOALS", { flavor: "simple", value: input.goals.join(" "), known: true, origin: "default" });
    for (const [name, value] of input.env)
      this.vars.set(name, {
        flavor: "recursive",
        value: value ?? UNKNOWN,
        known: value !== undefined,
        origin: "environment",
      });
    for (const [name, value] of input.overrides)
      this.vars.set(name, {
        flavor: "simple",
        value: value ?? UNKNOWN,
        known: value !== undefined,
        origin: "command line",
      });
  }

  plan(): MakePlan {
    for (const text of this.input.evals) this.read(text, "--eval");
    for (const m of this.input.makefiles) {
      this.setList(m.file);
      this.read(m.text, m.file);
    }
    const shell = this.lookup("SHELL");
    const shellName = shell === undefined ? "sh" : posix.basename(words(shell.value)[0] ?? "sh");
    const goal = this.lookup(".DEFAULT_GOAL");
    const goals =
      this.input.all === true
        ? [...this.rules.keys()].filter((t) => !(t.startsWith(".") && !t.includes("/")))
        : this.input.goals.length > 0
          ? [...this.input.goals]
          : goal !== undefined && goal.value.trim() !== ""
            ? words(this.expand(goal.value, undefined).text)
            : this.firstTarget === undefined
              ? []
              : [this.firstTarget];
    const runs = this.walkGoals(goals);
    return {
      goals,
      runs,
      exported: this.exported(),
      parseShells: this.parseShells,
      oneShell: this.oneShell,
      shell: ["sh", "bash", "dash", "zsh", "ksh", "ash"].includes(shellName) ? undefined : shellName,
      included: this.included,
      unread: this.unread,
      limited: this.limited,
    };
  }

  private setList(file: string): void {
    const list = this.vars.get("MAKEFILE_LIST")?.value ?? "";
    this.vars.set("MAKEFILE_LIST", { flavor: "simple", value: `${list} ${file}`.trim(), known: true, origin: "file" });
  }

  private lookup(name: string): Variable | undefined {
    return this.vars.get(name);
  }

  // ---------------------------------------------------------------------------------------------
  // reading

  /** Reads a makefile's text (`file` as shown in messages); `evaluated`: text of `$(eval)`, read where it is. */
  private read(text: string, file: string, evaluated = false): void {
    if (!evaluated && this.reading.includes(file)) return;
    if (this.reading.length > MAX_INCLUDES) {
      this.limited = true;
      return;
    }
    this.reading.push(file);
    const lines = logicalLines(text);
    this.input.tick(1 + Math.floor(text.length / 64));
    // the conditional stack: whether each level's current branch is read (`true`), not read
    // (`false`), or may be either (`undefined`: a condition on a run-time value)
    const stack: { active: boolean | undefined; done: boolean | undefined }[] = [];
    const reading = (): boolean => stack.every((s) => s.active !== false);
    let define:
      { name: string; op: string; body: string[]; line: number; override: boolean; exported: boolean } | undefined;
    this.current = [];
    this.currentPatterns = [];
    for (const logical of lines) {
      if (logical.text.length > MAX_LINE_CHARS) {
        this.limited = true;
        continue;
      }
      if (define !== undefined) {
        const trimmed = logical.text.trim();
        if (trimmed === "endef" || trimmed.startsWith("endef ") || trimmed.startsWith("endef#")) {
          if (reading())
            this.assign(
              define.name,
              define.op,
              define.body.join("\n"),
              file,
              define.line,
              define.override,
              define.exported,
            );
          define = undefined;
        } else define.body.push(logical.raw);
        continue;
      }
      const prefix = this.lookup(".RECIPEPREFIX")?.value ?? "";
      const isRecipe = prefix === "" ? logical.tab : logical.raw.startsWith(prefix[0] as string);
      if (isRecipe && (this.current.length > 0 || this.currentPatterns.length > 0)) {
        if (!reading()) continue;
        const body = logical.raw.slice(1).replace(/\\\n\t/g, "\\\n");
        for (const rule of this.current) rule.recipe.push({ text: body, line: logical.line, file });
        for (const rule of this.currentPatterns) rule.recipe.push({ text: body, line: logical.line, file });
        continue;
      }
      const line = stripComment(logical.text).trim();
      if (line === "") continue;
      // conditionals are read even in branches not taken (they nest)
      const directive = line.split(/[ \t(]/, 1)[0] as string;
      if (directive === "ifeq" || directive === "ifneq" || directive === "ifdef" || directive === "ifndef") {
        const value = reading() ? this.condition(directive, line.slice(directive.length).trim()) : false;
        stack.push({ active: value, done: value });
        continue;
      }
      if (directive === "else") {
        const top = stack.at(-1);
        if (top === undefined) continue;
        const rest = line.slice(4).trim();
        const parentReading = stack.slice(0, -1).every((s) => s.active !== false);
        if (rest === "") {
          top.active = top.done === true ? false : top.done === false ? true : undefined;
          top.done = true;
          continue;
        }
        const sub = rest.split(/[ \t(]/, 1)[0] as string;
        const value = !parentReading || top.done === true ? false : this.condition(sub, rest.slice(sub.length).trim());
        // after a branch that may have been taken, this one may be taken at most
        const active = value === false ? false : top.done === undefined ? undefined : value;
        top.active = active;
        if (active === true) top.done = true;
        else if (active === undefined) top.done = undefined;
        continue;
      }
      if (directive === "endif") {
        stack.pop();
        continue;
      }
      if (!reading()) continue;
      // a rule's context ends at any other line
      this.current = [];
      this.currentPatterns = [];
      const defineMatch = /^((?:override|export|private)\s+)*define\s+(\S+)\s*(=|:=|::=|:::=|\?=|\+=|!=)?\s*$/.exec(
        line,
      );
      if (defineMatch !== null) {
        define = {
          name: defineMatch[2] as string,
          op: defineMatch[3] ?? "=",
          body: [],
          line: logical.line,
          override: line.includes("override"),
          exported: /\bexport\b/.test(line.split("define")[0] ?? ""),
        };
        continue;
      }
      if (/^-?include\s|^sinclude\s/.test(line)) {
        this.include(line, { file, line: logical.line });
        continue;
      }
      if (directive === "vpath" || directive === "unexport" || directive === "undefine") {
        if (directive === "undefine")
          this.vars.delete(
            line
              .slice(8)
              .replace(/^override\s+/, "")
              .trim(),
          );
        continue;
      }
      if (line === "export") {
        this.exportAll = true;
        continue;
      }
      this.statement(line, logical, file);
    }
    if (define !== undefined) this.limited = true;
    this.reading.pop();
  }

  private include(line: string, at: { file: string; line: number }): void {
    const optional = line.startsWith("-") || line.startsWith("s");
    const names = words(this.expand(line.replace(/^-?s?include\s+/, ""), undefined, at).text);
    for (const name of names) {
      if (++this.includes > MAX_INCLUDES) {
        this.limited = true;
        return;
      }
      if (name.includes("$") || /[*?[]/.test(name)) {
        this.unread.push({ file: name, why: "is named by a pattern or a run-time value" });
        continue;
      }
      const read = this.input.include(name);
      if (read === "missing") {
        if (!optional) this.unread.push({ file: name, why: "does not exist (make stops)" });
        continue;
      }
      if ("why" in read) {
        this.unread.push({ file: name, why: read.why });
        continue;
      }
      this.included.push(read.file);
      this.setList(read.file);
      const saved = { current: this.current, patterns: this.currentPatterns };
      this.read(read.text, read.file);
      this.current = saved.current;
      this.currentPatterns = saved.patterns;
    }
  }

  /** An assignment or a rule line. */
  private statement(line: string, logical: LogicalLine, file: string): void {
    let text = line;
    let override = false;
    let exported = false;
    for (;;) {
      const m = /^(override|export|private)\s+/.exec(text);
      if (m === null) break;
      if (m[1] === "override") override = true;
      if (m[1] === "export") exported = true;
      text = text.slice(m[0].length);
    }
    const op = firstOperator(text);
    if (op === undefined) {
      // `export NAME ...` names what to export; a line of references (`$(eval ...)`) is expanded for what it does
      if (!exported) this.expand(text, undefined, { file, line: logical.line });
      return;
    }
    if (op.op !== ":" && op.op !== "::") {
      const name = this.expand(text.slice(0, op.at).trim(), undefined, { file, line: logical.line }).text;
      const value = text.slice(op.at + op.op.length).replace(/^[ \t]+/, "");
      this.assign(name, op.op, value, file, logical.line, override, exported);
      return;
    }
    this.rule(text, op, logical, file);
  }

  /** Records `name op value`. */
  private assign(
    name: string,
    op: string,
    value: string,
    file: string,
    line: number,
    override: boolean,
    exported: boolean,
    into: Map<string, Variable> = this.vars,
  ): void {
    const previous = into.get(name) ?? (into === this.vars ? undefined : this.vars.get(name));
    // the command line wins over the makefile unless `override`; `make -e`: so does the environment
    if (!override && previous !== undefined && previous.origin === "command line") return;
    if (!override && this.input.envOverrides && previous?.origin === "environment") return;
    const origin = override ? "override" : "file";
    switch (op) {
      case "?=":
        if (previous !== undefined && previous.origin !== "default") return;
        into.set(name, { flavor: "recursive", value, known: true, origin, exported });
        return;
      case "+=": {
        if (previous === undefined || previous.origin === "default") {
          into.set(name, { flavor: "recursive", value, known: true, origin, exported });
          return;
        }
        if (previous.flavor === "simple") {
          const expanded = this.expand(value, undefined, { file, line });
          into.set(name, {
            ...previous,
            value: `${previous.value} ${expanded.text}`,
            known: previous.known && expanded.known,
            origin,
          });
        } else into.set(name, { ...previous, value: `${previous.value} ${value}`, origin });
        return;
      }
      case "!=": {
        const code = this.expand(value, undefined, { file, line });
        this.parseShells.push({ code: code.text, file, line });
        into.set(name, { flavor: "simple", value: `$(${code.text})`, known: false, origin, exported });
        return;
      }
      case ":=":
      case "::=":
      case ":::=": {
        const expanded = this.expand(value, undefined, { file, line });
        into.set(name, { flavor: "simple", value: expanded.text, known: expanded.known, origin, exported });
        return;
      }
      default:
        into.set(name, { flavor: "recursive", value, known: true, origin, exported });
    }
  }

  /** A rule line: `targets : prereqs [; recipe]`, static pattern rules, target-specific variables. */
  private rule(text: string, op: { at: number; op: string }, logical: LogicalLine, file: string): void {
    const at = { file, line: logical.line };
    const targets = words(this.expand(text.slice(0, op.at), undefined, at).text);
    let rest = text.slice(op.at + op.op.length);
    // `target: VAR = value`: a target-specific variable
    const assign = firstOperator(rest);
    if (assign !== undefined && assign.op !== ":" && assign.op !== "::") {
      let varText = rest;
      let override = false;
      let exported = false;
      for (;;) {
        const m = /^\s*(override|export|private)\s+/.exec(varText);
        if (m === null) break;
        if (m[1] === "override") override = true;
        if (m[1] === "export") exported = true;
        varText = varText.slice(m[0].length);
      }
      const at = firstOperator(varText);
      if (at !== undefined && at.op !== ":" && at.op !== "::") {
        const name = varText.slice(0, at.at).trim();
        const value = varText.slice(at.at + at.op.length).trim();
        for (const target of targets) {
          const rule = this.ruleFor(target, file, logical.line);
          this.assign(name, at.op, value, file, logical.line, override, exported, rule.vars);
        }
      }
      this.current = [];
      return;
    }
    let recipe: string | undefined;
    const semicolon = topLevelSemicolon(rest);
    if (semicolon >= 0) {
      recipe = rest.slice(semicolon + 1).replace(/^[ \t]+/, "");
      rest = rest.slice(0, semicolon);
    }
    // static pattern rule: `targets: target-pattern: prereq-patterns`
    const second = firstOperator(rest);
    let staticPattern: { pattern: string; prereqs: string } | undefined;
    if (second !== undefined && second.op === ":") {
      staticPattern = { pattern: rest.slice(0, second.at).trim(), prereqs: rest.slice(second.at + 1) };
    }
    const prereqText = staticPattern === undefined ? rest : staticPattern.prereqs;
    const prereqs = words(this.expand(prereqText.replace("|", " "), undefined, at).text);
    this.current = [];
    this.currentPatterns = [];
    for (const target of targets) {
      if (target === ".ONESHELL") this.oneShell = true;
      if (target === ".EXPORT_ALL_VARIABLES") this.exportAll = true;
      if (target.includes("%") && staticPattern === undefined) {
        const pattern: PatternRule = { targets: [target], prereqs, recipe: [] };
        this.patterns.push(pattern);
        this.currentPatterns.push(pattern);
        continue;
      }
      let ruleP = prereqs;
      let stem: string | undefined;
      if (staticPattern !== undefined) {
        const s = matchPattern(staticPattern.pattern, target);
        if (s === undefined) continue;
        stem = s;
        ruleP = prereqs.map((p) => substitutePattern(p, s));
      }
      const rule: Rule = {
        prereqs: ruleP,
        recipe: [],
        file,
        line: logical.line,
        vars: new Map(),
        ...(stem !== undefined && { stem }),
      };
      const existing = this.rules.get(target) ?? [];
      existing.push(rule);
      this.rules.set(target, existing);
      this.current.push(rule);
      if (this.firstTarget === undefined && !(target.startsWith(".") && !target.includes("/")))
        this.firstTarget = target;
    }
    if (recipe !== undefined) {
      for (const rule of this.current) rule.recipe.push({ text: recipe, line: logical.line, file });
      for (const rule of this.currentPatterns) rule.recipe.push({ text: recipe, line: logical.line, file });
    }
  }

  /** The rule holding a target's own variables (made when the target has none yet). */
  private ruleFor(target: string, file: string, line: number): Rule {
    const existing = this.rules.get(target);
    if (existing !== undefined && existing.length > 0) return existing[0] as Rule;
    const rule: Rule = { prereqs: [], recipe: [], file, line, vars: new Map() };
    this.rules.set(target, [rule]);
    return rule;
  }

  /** A conditional's value: `true`/`false`, or `undefined` when it depends on a run-time value. */
  private condition(kind: string, text: string): boolean | undefined {
    if (kind === "ifdef" || kind === "ifndef") {
      const name = this.expand(text, undefined).text.trim();
      const v = this.lookup(name);
      if (v !== undefined && v.origin === "environment" && !v.known) return undefined;
      // a name defined nowhere may come from the environment
      if (v === undefined) return undefined;
      const defined = v.value !== "";
      return kind === "ifdef" ? defined : !defined;
    }
    if (kind !== "ifeq" && kind !== "ifneq") return undefined;
    let a: string;
    let b: string;
    if (text.startsWith("(") && text.endsWith(")")) {
      const parts = splitArgs(text.slice(1, -1), 2);
      if (parts.length !== 2) return undefined;
      a = (parts[0] as string).trim();
      b = (parts[1] as string).trim();
    } else {
      const m = /^(["'])(.*?)\1\s+(["'])(.*?)\3$/.exec(text);
      if (m === null) return undefined;
      a = m[2] as string;
      b = m[4] as string;
    }
    const x = this.expand(a, undefined);
    const y = this.expand(b, undefined);
    if (!x.known || !y.known) return undefined;
    const equal = x.text.trim() === y.text.trim();
    return kind === "ifeq" ? equal : !equal;
  }

  // ---------------------------------------------------------------------------------------------
  // expansion

  /**
   * Expands make references in `text`. `auto`: the automatic variables of the recipe being
   * expanded. `at`: where the text is (to record `$(shell)` run while reading).
   */
  expand(
    text: string,
    auto: ReadonlyMap<string, string> | undefined,
    at?: { file: string; line: number },
    depth = 0,
    local?: ReadonlyMap<string, Variable>,
  ): Expanded {
    if (depth > MAX_EXPANSION_DEPTH) {
      this.limited = true;
      return { text: UNKNOWN, known: false };
    }
    if (!text.includes("$")) return { text, known: true };
    let out = "";
    let known = true;
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (c !== "$") {
        out += c;
        continue;
      }
      const next = text[i + 1];
      if (next === undefined) break;
      if (next === "$") {
        out += "$";
        i++;
        continue;
      }
      let ref: string;
      if (next === "(" || next === "{") {
        const end = closing(text, i + 1);
        if (end < 0) {
          out += text.slice(i);
          break;
        }
        ref = text.slice(i + 2, end);
        i = end;
      } else {
        ref = next;
        i++;
      }
      const value = this.reference(ref, auto, at, depth, local);
      out += value.text;
      known &&= value.known;
    }
    return { text: out, known };
  }

  /** The value of one reference (`NAME`, `@`, `fn args`, `VAR:a=b`). */
  private reference(
    ref: string,
    auto: ReadonlyMap<string, string> | undefined,
    at: { file: string; line: number } | undefined,
    depth: number,
    local: ReadonlyMap<string, Variable> | undefined,
  ): Expanded {
    this.input.tick(1);
    const space = ref.search(/[ \t]/);
    const head = space < 0 ? ref : ref.slice(0, space);
    if (space > 0 && FUNCTIONS.has(head)) return this.call(head, ref.slice(space + 1), auto, at, depth, local);
    const expandedName = this.expand(ref, auto, at, depth + 1, local);
    if (!expandedName.known) return { text: UNKNOWN, known: false };
    let name = expandedName.text;
    // `$(VAR:.c=.o)`: a substitution reference
    const colon = name.indexOf(":");
    let substitution: [string, string] | undefined;
    if (colon > 0 && name.includes("=", colon)) {
      const eq = name.indexOf("=", colon);
      substitution = [name.slice(colon + 1, eq), name.slice(eq + 1)];
      name = name.slice(0, colon);
    }
    const value = this.variable(name, auto, at, depth, local);
    if (substitution === undefined) return value;
    const [from, to] = substitution;
    const pattern = from.includes("%") ? from : `%${from}`;
    const replacement = from.includes("%") ? to : `%${to}`;
    return {
      text: words(value.text)
        .map((w) => {
          const stem = matchPattern(pattern, w);
          return stem === undefined ? w : substitutePattern(replacement, stem);
        })
        .join(" "),
      known: value.known,
    };
  }

  /** A variable's expanded value; a name defined nowhere comes from the environment (`${NAME}`). */
  private variable(
    name: string,
    auto: ReadonlyMap<string, string> | undefined,
    at: { file: string; line: number } | undefined,
    depth: number,
    local: ReadonlyMap<string, Variable> | undefined,
  ): Expanded {
    const automatic = auto?.get(name);
    if (automatic !== undefined) return { text: automatic, known: true };
    // `$(@D)`, `$(<F)`
    if (auto !== undefined && name.length === 2 && (name[1] === "D" || name[1] === "F")) {
      const base = auto.get(name[0] as string);
      if (base !== undefined) {
        const parts = words(base).map((w) => (name[1] === "D" ? posix.dirname(w) : posix.basename(w)));
        return { text: parts.join(" "), known: true };
      }
    }
    const v = local?.get(name) ?? this.vars.get(name);
    if (v === undefined) {
      if (EMPTY_DEFAULTS.has(name)) return { text: "", known: true };
      // the environment's: the recipe's shell reads the same variable
      return { text: isShellName(name) ? `\${${name}}` : UNKNOWN, known: false };
    }
    if (v.flavor === "simple") return { text: v.value, known: v.known };
    const expanded = this.expand(v.value, auto, at, depth + 1, local);
    return { text: expanded.text, known: expanded.known && v.known };
  }

  /** A function call (`$(patsubst %.c,%.o,$(SRCS))`). */
  private call(
    fn: string,
    argText: string,
    auto: ReadonlyMap<string, string> | undefined,
    at: { file: string; line: number } | undefined,
    depth: number,
    local: ReadonlyMap<string, Variable> | undefined,
  ): Expanded {
    const e = (t: string): Expanded => this.expand(t, auto, at, depth + 1, local);
    const arity = FUNCTIONS.get(fn) ?? 1;
    const raw = splitArgs(argText, arity);
    // `if`, `or`, `and`, `foreach`, `call` expand their arguments themselves
    switch (fn) {
      case "if": {
        const cond = e((raw[0] ?? "").trim());
        if (!cond.known) {
          const a = e(raw[1] ?? "");
          const b = e(raw[2] ?? "");
          return { text: `${a.text} ${b.text}`.trim(), known: false };
        }
        return cond.text !== "" ? e(raw[1] ?? "") : e(raw[2] ?? "");
      }
      case "or":
      case "and": {
        let last: Expanded = { text: "", known: true };
        for (const piece of raw) {
          last = e(piece.trim());
          if (!last.known) return last;
          if (fn === "or" ? last.text !== "" : last.text === "") return last;
        }
        return last;
      }
      case "foreach": {
        const name = e((raw[0] ?? "").trim());
        const list = e(raw[1] ?? "");
        if (!name.known || !list.known) return { text: UNKNOWN, known: false };
        const items = words(list.text).slice(0, 64);
        const scope = new Map(local ?? []);
        const out: string[] = [];
        let known = true;
        for (const item of items) {
          scope.set(name.text, { flavor: "simple", value: item, known: true, origin: "automatic" });
          const piece = this.expand(raw[2] ?? "", auto, at, depth + 1, scope);
          out.push(piece.text);
          known &&= piece.known;
        }
        return { text: out.join(" "), known };
      }
      case "call": {
        const name = e((raw[0] ?? "").trim());
        if (!name.known) return { text: UNKNOWN, known: false };
        const v = this.vars.get(name.text);
        if (v === undefined) return { text: "", known: true };
        const scope = new Map(local ?? []);
        let known = true;
        raw.slice(1).forEach((arg, i) => {
          const value = e(arg);
          known &&= value.known;
          scope.set(String(i + 1), { flavor: "simple", value: value.text, known: value.known, origin: "automatic" });
        });
        for (let i = raw.length; i <= 9; i++)
          scope.set(String(i), { flavor: "simple", value: "", known: true, origin: "automatic" });
        scope.set("0", { flavor: "simple", value: name.text, known: true, origin: "automatic" });
        const body = this.expand(v.value, auto, at, depth + 1, scope);
        return { text: body.text, known: known && body.known };
      }
      case "value": {
        const name = e(argText.trim());
        return { text: this.vars.get(name.text)?.value ?? "", known: name.known };
      }
      case "eval": {
        // the text is read as makefile lines now (rules and variables it defines)
        const value = e(argText);
        if (!value.known) {
          this.limited = true;
          return { text: "", known: true };
        }
        const saved = { current: this.current, patterns: this.currentPatterns };
        this.read(value.text, at?.file ?? "$(eval)", true);
        this.current = saved.current;
        this.currentPatterns = saved.patterns;
        return { text: "", known: true };
      }
      case "shell": {
        const code = e(argText);
        if (at !== undefined) this.parseShells.push({ code: code.text, file: at.file, line: at.line });
        return { text: `$(${code.text})`, known: false };
      }
      case "origin":
      case "flavor": {
        const name = e(argText.trim());
        const v = this.vars.get(name.text);
        if (fn === "flavor") return { text: v === undefined ? "undefined" : v.flavor, known: name.known };
        return { text: v === undefined ? "undefined" : v.origin, known: name.known };
      }
      case "error":
      case "warning":
      case "info":
        return { text: "", known: true };
      default:
        break;
    }
    const args = raw.map((a) => e(a));
    const known = args.every((a) => a.known);
    const arg = (i: number): string => args[i]?.text ?? "";
    const list = (i: number): string[] => words(arg(i));
    const result = (text: string): Expanded => ({ text, known });
    switch (fn) {
      case "subst":
        return result(arg(0) === "" ? arg(2) : arg(2).split(arg(0)).join(arg(1)));
      case "patsubst":
        return result(
          list(2)
            .map((w) => {
              const stem = matchPattern(arg(0).trim(), w);
              return stem === undefined ? w : substitutePattern(arg(1).trim(), stem);
            })
            .join(" "),
        );
      case "strip":
        return result(list(0).join(" "));
      case "findstring":
        return result(arg(1).includes(arg(0)) ? arg(0) : "");
      case "filter":
      case "filter-out": {
        const patterns = list(0);
        const keep = (w: string) => patterns.some((p) => matchPattern(p, w) !== undefined);
        return result(
          list(1)
            .filter((w) => (fn === "filter" ? keep(w) : !keep(w)))
            .join(" "),
        );
      }
      case "sort":
        return result([...new Set(list(0))].sort().join(" "));
      case "word": {
        const n = Number(arg(0).trim());
        return result(list(1)[n - 1] ?? "");
      }
      case "wordlist": {
        const from = Number(arg(0).trim());
        const to = Number(arg(1).trim());
        return result(
          list(2)
            .slice(from - 1, to)
            .join(" "),
        );
      }
      case "words":
        return result(String(list(0).length));
      case "firstword":
        return result(list(0)[0] ?? "");
      case "lastword":
        return result(list(0).at(-1) ?? "");
      case "dir":
        return result(
          list(0)
            .map((w) => (w.includes("/") ? w.slice(0, w.lastIndexOf("/") + 1) : "./"))
            .join(" "),
        );
      case "notdir":
        return result(
          list(0)
            .map((w) => w.slice(w.lastIndexOf("/") + 1))
            .join(" "),
        );
      case "suffix":
      case "basename":
        return result(
          list(0)
            .map((w) => {
              const dot = w.lastIndexOf(".");
              const has = dot > w.lastIndexOf("/");
              return fn === "suffix" ? (has ? w.slice(dot) : "") : has ? w.slice(0, dot) : w;
            })
            .filter((w) => w !== "")
            .join(" "),
        );
      case "addsuffix":
        return result(
          list(1)
            .map((w) => w + arg(0).trim())
            .join(" "),
        );
      case "addprefix":
        return result(
          list(1)
            .map((w) => arg(0).trim() + w)
            .join(" "),
        );
      case "join": {
        const a = list(0);
        const b = list(1);
        return result(
          Array.from({ length: Math.max(a.length, b.length) }, (_, i) => (a[i] ?? "") + (b[i] ?? "")).join(" "),
        );
      }
      case "wildcard":
        // the pattern as written: in a recipe the shell expands it the same way
        return result(list(0).join(" "));
      case "abspath":
      case "realpath":
        return result(
          list(0)
            .map((w) => posix.normalize(w.startsWith("/") ? w : posix.join(this.input.dir, w)))
            .join(" "),
        );
      case "file":
        return result("");
      default:
        return { text: UNKNOWN, known: false };
    }
  }

  // ---------------------------------------------------------------------------------------------
  // planning

  /** The recipes building `goals` runs, prerequisites first, each target once. */
  private walkGoals(goals: readonly string[]): RecipeRun[] {
    const runs: RecipeRun[] = [];
    const done = new Set<string>();
    let lines = 0;
    const visit = (target: string, depth: number): void => {
      if (done.has(target) || this.limited) return;
      if (done.size >= MAX_TARGETS || depth > 64) {
        this.limited = true;
        return;
      }
      done.add(target);
      this.input.tick(1);
      const explicit = (this.rules.get(target) ?? []).filter((r) => r.prereqs.length > 0 || r.recipe.length > 0);
      let recipe: { text: string; line: number; file: string }[] = [];
      let prereqs: string[] = [];
      let stem = "";
      let vars: Map<string, Variable> | undefined;
      for (const rule of explicit) {
        prereqs.push(...rule.prereqs);
        if (rule.recipe.length > 0) recipe = [...recipe, ...rule.recipe];
        if (rule.stem !== undefined) stem = rule.stem;
        if (rule.vars.size > 0) vars = new Map([...(vars ?? []), ...rule.vars]);
      }
      const own = this.rules.get(target)?.[0]?.vars;
      if (own !== undefined && own.size > 0) vars = new Map([...(vars ?? []), ...own]);
      if (recipe.length === 0) {
        // an implicit rule: the first pattern rule with a recipe whose target matches
        for (const pattern of this.patterns) {
          if (pattern.recipe.length === 0) continue;
          const s = pattern.targets.map((t) => matchPattern(t, target)).find((x) => x !== undefined);
          if (s === undefined) continue;
          stem = s;
          recipe = pattern.recipe;
          prereqs = [...pattern.prereqs.map((p) => substitutePattern(p, s)), ...prereqs];
          break;
        }
      }
      if (recipe.length === 0 && explicit.length === 0 && !this.rules.has(target)) {
        const fallback = this.rules.get(".DEFAULT")?.find((r) => r.recipe.length > 0);
        if (fallback !== undefined && !target.includes("*")) recipe = fallback.recipe;
      }
      const unique = [...new Set(prereqs)];
      for (const p of unique) visit(p, depth + 1);
      if (recipe.length === 0) return;
      const auto = new Map<string, string>([
        ["@", target],
        ["<", unique[0] ?? ""],
        ["^", unique.join(" ")],
        ["+", prereqs.join(" ")],
        ["?", unique.join(" ")],
        ["*", stem],
        ["|", ""],
      ]);
      const out: RecipeLine[] = [];
      for (const line of recipe) {
        if (++lines > MAX_LINES) {
          this.limited = true;
          break;
        }
        let body = line.text;
        let always = false;
        for (;;) {
          const c = body[0];
          if (c === "@" || c === "-" || c === " " || c === "\t") body = body.slice(1);
          else if (c === "+") {
            always = true;
            body = body.slice(1);
          } else break;
        }
        if (/\$[({]MAKE[)}]/.test(body)) always = true;
        const expanded = this.expand(body, auto, { file: line.file, line: line.line }, 0, vars);
        out.push({ code: expanded.text, file: line.file, line: line.line, always });
      }
      runs.push({ target, lines: out });
    };
    for (const goal of goals) visit(goal, 0);
    return runs;
  }

  /** Variables the recipes' shells get in their environment (`export NAME = value`, `.EXPORT_ALL_VARIABLES`). */
  private exported(): Map<string, string | undefined> {
    const out = new Map<string, string | undefined>();
    for (const [name, v] of this.vars) {
      if (!(v.exported === true || (this.exportAll && v.origin === "file")) || !isShellName(name)) continue;
      const value = v.flavor === "simple" ? { text: v.value, known: v.known } : this.expand(v.value, undefined);
      out.set(name, value.known ? value.text : undefined);
    }
    return out;
  }
}

/** A `;` outside references, which starts a recipe on the rule's line. */
function topLevelSemicolon(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "$" && (text[i + 1] === "(" || text[i + 1] === "{")) {
      const end = closing(text, i + 1);
      if (end < 0) return -1;
      i = end;
      continue;
    }
    if (text[i] === ";") return i;
  }
  return -1;
}

/** Make's functions and how many arguments each splits its text into (the last takes the rest). */
const FUNCTIONS = new Map<string, number>([
  ["subst", 3],
  ["patsubst", 3],
  ["strip", 1],
  ["findstring", 2],
  ["filter", 2],
  ["filter-out", 2],
  ["sort", 1],
  ["word", 2],
  ["wordlist", 3],
  ["words", 1],
  ["firstword", 1],
  ["lastword", 1],
  ["dir", 1],
  ["notdir", 1],
  ["suffix", 1],
  ["basename", 1],
  ["addsuffix", 2],
  ["addprefix", 2],
  ["join", 2],
  ["wildcard", 1],
  ["realpath", 1],
  ["abspath", 1],
  ["error", 1],
  ["warning", 1],
  ["info", 1],
  ["shell", 1],
  ["origin", 1],
  ["flavor", 1],
  ["foreach", 3],
  ["if", 3],
  ["or", 64],
  ["and", 64],
  ["call", 64],
  ["eval", 1],
  ["value", 1],
  ["file", 2],
  ["let", 3],
  ["intcmp", 5],
  ["guile", 1],
]);

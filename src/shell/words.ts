/**
 * Static word resolution over unbash word parts: quote removal, `~`/`$HOME`/`$PWD`, positional
 * parameters of a `sh -c` string, glob detection and brace expansion. Nothing here looks at raw
 * shell text: the parts the parser produced are the only input (brace contents are split into
 * their literal characters and the parts unbash found inside them).
 */
import type { DoubleQuotedChild, Word, WordPart } from "unbash";
import type { ShellWord } from "./types.ts";

/**
 * What a parameter is bound to: `set: false` when it is known to be unset (or empty-unset), else
 * its value (`undefined` when only known at run time); arrays carry their elements.
 */
export type Binding =
  | { readonly set: false }
  | {
      readonly set: true;
      readonly value: string | undefined;
      readonly elements?: readonly (string | undefined)[] | undefined;
      /** The value is a glob pattern standing for one of its matches (`for f in ~/*`). */
      readonly glob?: boolean;
      /**
       * The value is one item of what these commands print (`for c in $(docker ps -aq)`,
       * `docker ps -aq | while read c`): the word `"$c"` stands for each of them, like the substitution.
       */
      readonly listed?: readonly number[];
      /** A run-time value partly written out (`r="+$(git rev-parse HEAD):main"`): what it starts and ends with. */
      readonly known?: { readonly head: string; readonly tail: string };
      /**
       * The run-time variables the value was made of (`T=$GITHUB_TOKEN`, `A="Bearer $TOKEN"`): a word
       * expanding the variable lists them too, so a secret is followed through the copy.
       */
      readonly env?: readonly string[];
    };

/** What static resolution may substitute. */
export interface WordEnv {
  /** `~` and `$HOME`; `undefined` once HOME was reassigned to a run-time value. */
  readonly home: string | undefined;
  /** `$PWD` and `~+`. */
  readonly pwd: string | undefined;
  /** `$0`, `$1`, ... (`sh -c STR $0 $1`, `set -- a b`, function calls); `undefined` when unknown. */
  readonly positional: readonly (string | undefined)[] | undefined;
  /** A named parameter's binding; `undefined` when it is only known at run time (the environment). */
  readonly lookup?: (name: string) => Binding | undefined;
  /** The statically known output of a command substitution part (trailing newlines removed). */
  readonly substitution?: (part: object) => string | undefined;
  /** `~user`: that user's home directory, when lanes knows where homes live. */
  readonly homeOf?: (user: string) => string | undefined;
  /**
   * Parameters only known at run time count as unset where a default applies (`${X:-d}`,
   * `${X=d}`): the variant of the line where the environment does not set them.
   */
  readonly unsetDefaults?: boolean;
}

/** The most words one brace expansion may produce before the analysis gives up on it. */
export const MAX_BRACE_WORDS = 64;

/** The words one source word becomes; `limited` when brace expansion hit {@link MAX_BRACE_WORDS}. */
export interface ResolvedWords {
  readonly words: readonly ShellWord[];
  readonly limited: boolean;
}

interface Segment {
  readonly value: string | undefined;
  readonly glob: boolean;
  /** For an unknown value: the text it is known to start with (`"+$x"` → `+`). */
  readonly head?: string;
  /** For an unknown value: the text it is known to end with (`"$x:main"` → `:main`). */
  readonly tail?: string;
}

/** A brace-expansion unit: one character (special unless quoted or escaped) or one opaque part. */
type Atom = { readonly ch: string; readonly special: boolean } | { readonly part: WordPart };

const isCharAtom = (a: Atom): a is { readonly ch: string; readonly special: boolean } => "ch" in a;

const isName = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
const isDigits = (name: string): boolean => name.length > 0 && [...name].every((c) => c >= "0" && c <= "9");

/** The binding of `$NAME` / `${NAME}`; `undefined` when only known at run time. */
function binding(name: string, env: WordEnv): Binding | undefined {
  if (isDigits(name) || name === "@" || name === "*" || name === "#") {
    const positional = env.positional;
    if (positional === undefined) return undefined;
    if (name === "#") return { set: true, value: String(Math.max(0, positional.length - 1)) };
    if (name === "@" || name === "*") {
      const rest = positional.slice(1);
      return { set: true, value: rest.some((v) => v === undefined) ? undefined : rest.join(" "), elements: rest };
    }
    const index = Number(name);
    return index < positional.length ? { set: true, value: positional[index] } : { set: false };
  }
  const bound = env.lookup?.(name);
  if (bound !== undefined) return bound;
  if (name === "HOME") return { set: true, value: env.home };
  if (name === "PWD") return { set: true, value: env.pwd };
  return undefined;
}

/** Resolves `$NAME` / `${NAME}` to what lanes knows statically. */
function parameter(name: string, env: WordEnv): string | undefined {
  const b = binding(name, env);
  if (b === undefined) return undefined;
  return b.set ? b.value : "";
}

/** The elements `"$@"` / `"${a[@]}"` expand to, or `undefined` when not such a part or unknown. */
export function elementsOf(
  part: WordPart | DoubleQuotedChild,
  env: WordEnv,
): readonly (string | undefined)[] | undefined {
  if (part.type === "SimpleExpansion")
    return part.text === "$@" || part.text === "$*" ? elementsBinding("@", env) : undefined;
  if (part.type !== "ParameterExpansion" || part.prefix !== undefined || part.operation !== undefined) return undefined;
  if (part.parameter === "@" || part.parameter === "*")
    return part.index === undefined ? elementsBinding("@", env) : undefined;
  const index = part.index?.value;
  if (index !== "@" && index !== "*") return undefined;
  return elementsBinding(part.parameter, env);
}

function elementsBinding(name: string, env: WordEnv): readonly (string | undefined)[] | undefined {
  const b = binding(name, env);
  if (b === undefined) return undefined;
  if (!b.set) return [];
  return b.elements ?? [b.value];
}

/** Shortest/longest prefix/suffix removal with a pattern of literal text, `*` and `?`. */
function removePattern(value: string, pattern: string, operator: "#" | "##" | "%" | "%%"): string {
  const matches = (text: string): boolean => globMatch(pattern, text);
  if (operator === "#" || operator === "##") {
    const lengths = [...Array(value.length + 1).keys()];
    if (operator === "##") lengths.reverse();
    for (const n of lengths) if (matches(value.slice(0, n))) return value.slice(n);
    return value;
  }
  const starts = [...Array(value.length + 1).keys()];
  if (operator === "%") starts.reverse();
  for (const n of starts) if (matches(value.slice(n))) return value.slice(0, n);
  return value;
}

/** Matches `*` and `?` wildcards (no brackets: callers give up on those). */
function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === "?" || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      mark = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}

/** `${NAME}` with an operation: defaults, checks, alternatives, prefix/suffix removal, length. */
function expansion(part: Extract<DoubleQuotedChild, { type: "ParameterExpansion" }>, env: WordEnv): string | undefined {
  const elements = elementsOf(part, env);
  if (elements !== undefined)
    return joined(elements.map((e) => e ?? undefined)) === undefined ? undefined : elements.join(" ");
  if (part.index !== undefined) {
    const b = env.lookup?.(part.parameter);
    const index = part.index.value;
    if (b === undefined || part.prefix !== undefined || part.operation !== undefined || !isDigits(index))
      return undefined;
    if (!b.set) return "";
    const elementsOrValue = b.elements ?? [b.value];
    return Number(index) < elementsOrValue.length ? elementsOrValue[Number(index)] : "";
  }
  const b = binding(part.parameter, env);
  if (part.prefix === "#" && part.operation === undefined) {
    if (b === undefined) return undefined;
    const v = b.set ? b.value : "";
    return v === undefined ? undefined : String(v.length);
  }
  // `${!name}`: the variable whose name `name` holds
  if (part.prefix === "!" && part.operation === undefined && b !== undefined && b.set && b.value !== undefined)
    return isName(b.value) ? parameter(b.value, env) : undefined;
  if (part.prefix !== undefined) return undefined;
  const op = part.operation;
  if (op === undefined) return b === undefined ? undefined : b.set ? b.value : "";
  const operand = (o: {
    readonly value: string;
    readonly parts?: readonly unknown[] | undefined;
  }): string | undefined =>
    joined(
      (o.parts ?? [{ type: "Literal", value: o.value } as DoubleQuotedChild]).map((p) =>
        childValue(p as DoubleQuotedChild, env),
      ),
    );
  if (b === undefined) {
    const defaults = op.type === "Default" && ["-", ":-", "=", ":="].includes(op.operator);
    return env.unsetDefaults === true && defaults ? operand(op.operand) : undefined;
  }
  const value = b.set ? b.value : undefined;
  switch (op.type) {
    case "Default": {
      const colon = op.operator.startsWith(":");
      // unset, or empty with `:`: the alternative applies
      const absent = !b.set || (colon && value === "");
      if (b.set && colon && value === undefined) return undefined;
      switch (op.operator) {
        case "-":
        case ":-":
        case "=":
        case ":=":
          return absent ? operand(op.operand) : value;
        case "+":
        case ":+":
          return absent ? "" : operand(op.operand);
        case "?":
        case ":?":
          // unset: the command does not run; set: its value
          return value;
        default:
          return undefined;
      }
    }
    case "Remove": {
      const pattern = op.operand.value;
      if (
        value === undefined ||
        op.operand.parts?.some((p) => p.type !== "Literal" && p.type !== "Glob" && p.type !== "SingleQuoted") ===
          true ||
        pattern.includes("[")
      )
        return undefined;
      return removePattern(value, pattern, op.operator);
    }
    case "Slice": {
      // `${x:offset}`, `${x:offset:length}` with literal numbers
      const offset = Number(op.offset.value.trim());
      const length = op.length === undefined ? undefined : Number(op.length.value.trim());
      if (value === undefined || !Number.isInteger(offset) || (length !== undefined && !Number.isInteger(length)))
        return undefined;
      const start = offset < 0 ? Math.max(0, value.length + offset) : offset;
      if (length === undefined) return value.slice(start);
      return length < 0
        ? value.slice(start, Math.max(start, value.length + length))
        : value.slice(start, start + length);
    }
    case "Replace": {
      // `${x/pat/rep}` with literal text (no glob characters in the pattern)
      const pattern = op.pattern.value;
      const replacement = op.replacement.value;
      if (
        value === undefined ||
        pattern === "" ||
        /[*?[\\]/.test(pattern) ||
        op.pattern.parts?.some((p) => p.type !== "Literal" && p.type !== "SingleQuoted") === true
      )
        return undefined;
      if (op.replacement.parts?.some((p) => p.type !== "Literal" && p.type !== "SingleQuoted") === true)
        return undefined;
      switch (op.operator) {
        case "/":
          return value.replace(pattern, () => replacement);
        case "//":
          return value.split(pattern).join(replacement);
        case "/#":
          return value.startsWith(pattern) ? replacement + value.slice(pattern.length) : value;
        case "/%":
          return value.endsWith(pattern) ? value.slice(0, -pattern.length) + replacement : value;
        default:
          return undefined;
      }
    }
    case "CaseModification": {
      if (value === undefined || op.operand !== undefined) return undefined;
      switch (op.operator) {
        case "^^":
          return value.toUpperCase();
        case ",,":
          return value.toLowerCase();
        case "^":
          return value.slice(0, 1).toUpperCase() + value.slice(1);
        case ",":
          return value.slice(0, 1).toLowerCase() + value.slice(1);
        default:
          return undefined;
      }
    }
    default:
      return undefined;
  }
}

function childValue(part: DoubleQuotedChild, env: WordEnv): string | undefined {
  switch (part.type) {
    case "Literal":
      return part.value;
    case "SimpleExpansion":
      return parameter(part.text.slice(1), env);
    case "ParameterExpansion":
      return expansion(part, env);
    case "CommandExpansion":
      return env.substitution?.(part);
    case "ArithmeticExpansion":
      return undefined;
    default: {
      const unknown: never = part;
      return unknown;
    }
  }
}

function joined(values: readonly (string | undefined)[]): string | undefined {
  let out = "";
  for (const v of values) {
    if (v === undefined) return undefined;
    out += v;
  }
  return out;
}

const isBlank = (c: string): boolean => c === " " || c === "\t" || c === "\n";
const hasGlob = (v: string): boolean => v.includes("*") || v.includes("?") || v.includes("[");

/** The field separators: `IFS` as assigned on the line (`IFS=_`), else blanks and newlines. */
function ifsOf(env: WordEnv): string {
  const b = env.lookup?.("IFS");
  return b !== undefined && b.set && b.value !== undefined ? b.value : " \t\n";
}

/** An unquoted expansion inside a larger word: field splitting would cut it, so a value with separators is unknown. */
function unquoted(value: string | undefined, env: WordEnv): Segment {
  const ifs = ifsOf(env);
  if (value === undefined || [...value].some((c) => ifs.includes(c))) return { value: undefined, glob: false };
  return { value, glob: hasGlob(value) };
}

/** Field splitting on IFS: its blanks separate runs and trim, its other characters each end a field. */
function fields(value: string, env: WordEnv): string[] {
  const ifs = ifsOf(env);
  const out: string[] = [];
  let current = "";
  let pending = false;
  for (const c of value) {
    if (!ifs.includes(c)) {
      current += c;
      pending = true;
    } else if (isBlank(c)) {
      if (pending) out.push(current);
      current = "";
      pending = false;
    } else {
      out.push(current);
      current = "";
      pending = false;
    }
  }
  if (pending) out.push(current);
  return out;
}

/**
 * A word that is one expansion as a whole: `"$@"` and `"${a[@]}"` become one word per element;
 * an unquoted `$x`, `${x}` or `$(...)` is split into fields (`c="git reset"; $c --hard`).
 * `undefined` for any other shape or an unknown value.
 */
function wholeExpansion(word: Word, env: WordEnv): ShellWord[] | undefined {
  const parts = word.parts;
  if (parts === undefined || parts.length !== 1) return undefined;
  const part = parts[0] as WordPart;
  if (part.type === "DoubleQuoted") {
    if (part.parts.length !== 1) return undefined;
    const elements = elementsOf(part.parts[0] as DoubleQuotedChild, env);
    if (elements === undefined) return undefined;
    return elements.map((value) => ({ text: word.text, value, glob: false }));
  }
  let values: readonly (string | undefined)[] | undefined;
  if (part.type === "SimpleExpansion" || part.type === "ParameterExpansion")
    values = elementsOf(part, env) ?? [childValue(part, env)];
  else if (part.type === "CommandExpansion") values = [env.substitution?.(part)];
  else return undefined;
  if (values.some((v) => v === undefined)) return undefined;
  return (values as string[])
    .flatMap((v) => fields(v, env))
    .map((value) => ({ text: word.text, value, glob: hasGlob(value) }));
}

/** `$f` / `${f}` of a variable bound to a glob's match (`for f in *`): the word stands for that match. */
function globBound(part: WordPart | DoubleQuotedChild, env: WordEnv): boolean {
  if (part.type === "SimpleExpansion") return isGlobBinding(part.text.slice(1), env);
  if (part.type !== "ParameterExpansion" || part.prefix !== undefined || part.operation !== undefined) return false;
  return part.index === undefined && isGlobBinding(part.parameter, env);
}

function isGlobBinding(name: string, env: WordEnv): boolean {
  const b = env.lookup?.(name);
  return b !== undefined && b.set && b.glob === true;
}

/** The value and glob flag of one part (brace expansion is handled before this). */
function partSegment(part: WordPart, env: WordEnv): Segment {
  switch (part.type) {
    case "Literal":
    case "SingleQuoted":
    case "AnsiCQuoted":
      return { value: part.value, glob: false };
    case "Glob":
    case "ExtendedGlob":
      return { value: part.text, glob: true };
    case "DoubleQuoted":
    case "LocaleString": {
      const values = part.parts.map((c) => childValue(c, env));
      const glob = part.parts.some((c) => globBound(c, env));
      const value = joined(values);
      return value === undefined
        ? { value, glob, ...edges(values, (i) => knownOf(part.parts[i] as DoubleQuotedChild, env)) }
        : { value, glob };
    }
    case "SimpleExpansion":
    case "ParameterExpansion": {
      const segment = unquoted(childValue(part, env), env);
      const known = segment.value === undefined ? knownOf(part, env) : undefined;
      if (known !== undefined) return { ...segment, ...known };
      return globBound(part, env) ? { ...segment, glob: true } : segment;
    }
    case "CommandExpansion":
      return unquoted(env.substitution?.(part), env);
    case "ArithmeticExpansion":
    case "ProcessSubstitution":
      return { value: undefined, glob: false };
    case "BraceExpansion":
      // only reached when the brace could not be expanded (too many words): unknown at analysis time
      return { value: undefined, glob: true };
    default: {
      const unknown: never = part;
      return unknown;
    }
  }
}

/**
 * Tilde expansion of a leading unquoted literal: `~` and `~/x` → home, `~+` → PWD, `~user` → that user's home;
 * `~-` is a run-time value. Returns the literal's value with the prefix replaced, or `null` when
 * the literal has no tilde prefix; `~user` resolves through `env.homeOf`. Like bash, `~"/x"` (prefix followed by quoted text) is not expanded.
 */
function tilde(literalText: string, literalValue: string, isLast: boolean, env: WordEnv): string | undefined | null {
  if (!literalText.startsWith("~")) return null;
  const slash = literalText.indexOf("/");
  if (slash < 0 && !isLast) return null;
  const prefix = slash < 0 ? literalText : literalText.slice(0, slash);
  const rest = slash < 0 ? "" : literalValue.slice(literalValue.indexOf("/"));
  if (prefix === "~") return env.home === undefined ? undefined : env.home + rest;
  if (prefix === "~+") return env.pwd === undefined ? undefined : env.pwd + rest;
  const user = prefix.slice(1);
  // `~-`: the previous directory
  if (user === "-") {
    const previous = env.lookup?.("OLDPWD");
    return previous !== undefined && previous.set && previous.value !== undefined ? previous.value + rest : undefined;
  }
  if (user.length === 0) return undefined;
  const home = env.homeOf?.(user);
  return home === undefined ? undefined : home + rest;
}

/** Segments of a word without brace expansion. */
function segments(word: Word, env: WordEnv): Segment[] {
  const parts = word.parts;
  if (parts === undefined) {
    const expanded = tilde(word.text, word.value, true, env);
    return [{ value: expanded === null ? word.value : expanded, glob: false }];
  }
  return parts.map((part, i) => {
    if (i === 0 && part.type === "Literal") {
      const expanded = tilde(part.text, part.value, parts.length === 1, env);
      if (expanded !== null) return { value: expanded, glob: false };
    }
    return partSegment(part, env);
  });
}

/**
 * The known text before the first unknown piece and after the last one (`"+$(x):main"` → `+`,
 * `:main`); what lies between may be any text.
 */
function edges(
  values: readonly (string | undefined)[],
  known: (index: number) => { head: string; tail: string } | undefined,
): { head: string; tail: string } {
  const first = values.indexOf(undefined);
  const last = values.lastIndexOf(undefined);
  return {
    head: values.slice(0, first).join("") + (known(first)?.head ?? ""),
    tail: (known(last)?.tail ?? "") + values.slice(last + 1).join(""),
  };
}

/** What is known of a variable holding a partly written run-time value (`$r`, `${r}`). */
function knownOf(part: WordPart | DoubleQuotedChild, env: WordEnv): { head: string; tail: string } | undefined {
  const name =
    part.type === "SimpleExpansion"
      ? part.text.slice(1)
      : part.type === "ParameterExpansion" &&
          part.prefix === undefined &&
          part.operation === undefined &&
          part.index === undefined
        ? part.parameter
        : undefined;
  const b = name === undefined ? undefined : env.lookup?.(name);
  return b !== undefined && b.set && b.value === undefined ? b.known : undefined;
}

function toWord(text: string, segs: readonly Segment[]): ShellWord {
  const value = joined(segs.map((s) => s.value));
  const glob = segs.some((s) => s.glob);
  if (value !== undefined || glob) return { text, value, glob };
  const first = segs.findIndex((s) => s.value === undefined);
  const last = segs.findLastIndex((s) => s.value === undefined);
  const head =
    segs
      .slice(0, first)
      .map((s) => s.value)
      .join("") + (segs[first]?.head ?? "");
  const tail =
    (segs[last]?.tail ?? "") +
    segs
      .slice(last + 1)
      .map((s) => s.value)
      .join("");
  return head === "" && tail === "" ? { text, value, glob } : { text, value, glob, known: { head, tail } };
}

/** Characters of literal text as atoms; a backslash quotes the next character. */
function charAtoms(text: string, special: boolean, out: Atom[]): void {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "\\" && i + 1 < text.length) {
      out.push({ ch: text[i + 1] as string, special: false });
      i++;
    } else {
      out.push({ ch, special });
    }
  }
}

/** A brace part as atoms: its own text, with the parts unbash found inside kept opaque. */
function braceAtoms(part: Extract<WordPart, { type: "BraceExpansion" }>, out: Atom[]): void {
  const inner = part.parts ?? [];
  let at = 0;
  for (const child of inner) {
    const start = child.pos - part.pos;
    if (start < at || start > part.text.length) continue;
    charAtoms(part.text.slice(at, start), true, out);
    if (child.type === "Literal") charAtoms(child.text, true, out);
    else out.push({ part: child });
    at = child.end - part.pos;
  }
  charAtoms(part.text.slice(at), true, out);
}

function wordAtoms(word: Word): Atom[] {
  const out: Atom[] = [];
  for (const part of word.parts ?? []) {
    if (part.type === "BraceExpansion") braceAtoms(part, out);
    else out.push({ part });
  }
  return out;
}

const isSpecial = (a: Atom | undefined, ch: string): boolean =>
  a !== undefined && isCharAtom(a) && a.special && a.ch === ch;

/** `{a..e}`, `{1..10}`, `{01..10..2}`: the items, or `undefined` when not a valid sequence. */
function sequence(content: readonly Atom[], limit: number): string[] | undefined | "limit" {
  if (!content.every(isCharAtom)) return undefined;
  const text = content.map((a) => (a as { ch: string }).ch).join("");
  const pieces = text.split("..");
  if (pieces.length !== 2 && pieces.length !== 3) return undefined;
  const [from, to, stepText] = pieces as [string, string, string | undefined];
  const isInt = (s: string): boolean => {
    const digits = s.startsWith("-") ? s.slice(1) : s;
    return digits.length > 0 && [...digits].every((c) => c >= "0" && c <= "9");
  };
  const padded = (s: string): boolean =>
    (s.startsWith("-") ? s.slice(1) : s).startsWith("0") && s.replace("-", "").length > 1;
  const step = stepText === undefined ? 1 : isInt(stepText) ? Math.abs(Number(stepText)) || 1 : Number.NaN;
  if (Number.isNaN(step)) return undefined;
  if (isInt(from) && isInt(to)) {
    const a = Number(from);
    const b = Number(to);
    const count = Math.floor(Math.abs(b - a) / step) + 1;
    if (count > limit) return "limit";
    const width = padded(from) || padded(to) ? Math.max(from.length, to.length) : 0;
    const out: string[] = [];
    for (let i = 0, n = a; i < count; i++, n += a <= b ? step : -step) {
      const digits = String(Math.abs(n)).padStart(width - (n < 0 ? 1 : 0), "0");
      out.push(n < 0 ? `-${digits}` : digits);
    }
    return out;
  }
  if (from.length === 1 && to.length === 1) {
    const a = from.charCodeAt(0);
    const b = to.charCodeAt(0);
    const count = Math.floor(Math.abs(b - a) / step) + 1;
    if (count > limit) return "limit";
    const out: string[] = [];
    for (let i = 0, n = a; i < count; i++, n += a <= b ? step : -step) out.push(String.fromCharCode(n));
    return out;
  }
  return undefined;
}

/** Index of the `}` closing the `{` at `open`, or -1. */
function closing(atoms: readonly Atom[], open: number): number {
  let depth = 0;
  for (let i = open; i < atoms.length; i++) {
    if (isSpecial(atoms[i], "{")) depth++;
    else if (isSpecial(atoms[i], "}")) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Top-level comma positions between `open` and `close`. */
function commas(atoms: readonly Atom[], open: number, close: number): number[] {
  const out: number[] = [];
  let depth = 0;
  for (let i = open + 1; i < close; i++) {
    if (isSpecial(atoms[i], "{")) depth++;
    else if (isSpecial(atoms[i], "}")) depth--;
    else if (depth === 0 && isSpecial(atoms[i], ",")) out.push(i);
  }
  return out;
}

/** Bash brace expansion over atoms; `"limit"` once more than `limit` words would result. */
function expandBraces(atoms: readonly Atom[], limit: number): Atom[][] | "limit" {
  for (let open = 0; open < atoms.length; open++) {
    if (!isSpecial(atoms[open], "{")) continue;
    const close = closing(atoms, open);
    if (close < 0) continue;
    const prefix = atoms.slice(0, open);
    const suffix = atoms.slice(close + 1);
    const splits = commas(atoms, open, close);
    let alternatives: Atom[][];
    if (splits.length > 0) {
      alternatives = [];
      let from = open + 1;
      for (const at of [...splits, close]) {
        alternatives.push(atoms.slice(from, at));
        from = at + 1;
      }
    } else {
      const items = sequence(atoms.slice(open + 1, close), limit);
      if (items === "limit") return "limit";
      if (items === undefined) continue;
      alternatives = items.map((item) => [...item].map((ch) => ({ ch, special: false })));
    }
    const out: Atom[][] = [];
    for (const alternative of alternatives) {
      const expanded = expandBraces([...prefix, ...alternative, ...suffix], limit);
      if (expanded === "limit") return "limit";
      out.push(...expanded);
      if (out.length > limit) return "limit";
    }
    return out;
  }
  return [atoms.slice()];
}

/** Segments of an expanded atom list: runs of characters become literal segments. */
function atomSegments(atoms: readonly Atom[], env: WordEnv): Segment[] {
  const out: Segment[] = [];
  let run = "";
  let runGlob = false;
  const flush = (): void => {
    if (run.length > 0) out.push({ value: run, glob: runGlob });
    run = "";
    runGlob = false;
  };
  atoms.forEach((atom, i) => {
    if (isCharAtom(atom)) {
      run += atom.ch;
      // an unquoted glob character written inside a brace (`{*.ts,x}`) still globs
      if (atom.special && (atom.ch === "*" || atom.ch === "?" || atom.ch === "[")) runGlob = true;
      return;
    }
    flush();
    const part = atom.part;
    const expanded = i === 0 && part.type === "Literal" ? tilde(part.text, part.value, atoms.length === 1, env) : null;
    out.push(expanded === null ? partSegment(part, env) : { value: expanded, glob: false });
  });
  flush();
  // a leading `~` that came out of a brace (`{~,x}/a`) is left as written: bash would expand it
  return out;
}

/**
 * Resolves one source word into the words it becomes: one word, or several after a static brace
 * expansion (`{a,b}c` → `ac`, `bc`). Over {@link MAX_BRACE_WORDS} the word stays one word with an
 * unknown value and `limited` set.
 */
export function resolveWord(word: Word, env: WordEnv): ResolvedWords {
  const whole = wholeExpansion(word, env);
  if (whole !== undefined) return { words: whole, limited: false };
  const parts = word.parts;
  const names = runtimeNames(parts, env);
  const named = (w: ShellWord): ShellWord => withNames(w, names);
  if (parts === undefined || !parts.some((p) => p.type === "BraceExpansion")) {
    return { words: [named(toWord(word.text, segments(word, env)))], limited: false };
  }
  const expanded = expandBraces(wordAtoms(word), MAX_BRACE_WORDS);
  if (expanded === "limit") return { words: [named({ text: word.text, value: undefined, glob: true })], limited: true };
  return { words: expanded.map((atoms) => named(toWord(word.text, atomSegments(atoms, env)))), limited: false };
}

/** `word` with these run-time variables added to the ones it lists. */
export function withNames(word: ShellWord, names: readonly string[]): ShellWord {
  if (names.length === 0) return word;
  const known = word.env ?? [];
  const added = names.filter((n) => !known.includes(n));
  return added.length === 0 ? word : { ...word, env: [...known, ...added] };
}

/** The name `$NAME` / `${NAME}` / `${NAME:-d}` expands, when it is a plain variable (not `${#NAME}`, `${!NAME}`). */
function expandedName(part: WordPart | DoubleQuotedChild): string | undefined {
  if (part.type === "SimpleExpansion") return part.text.slice(1);
  // `${X:+set}` expands to the word, never to X's value
  if (part.type === "ParameterExpansion" && part.prefix === undefined)
    return part.operation?.type === "Default" && (part.operation.operator === "+" || part.operation.operator === ":+")
      ? undefined
      : part.parameter;
  return undefined;
}

/**
 * The variables a word expands whose value is only known at run time (the environment's, or
 * assigned on the line from a run-time value): `"token=$GITHUB_TOKEN"` → `GITHUB_TOKEN`.
 * Variables assigned a static value on the line are left out.
 */
export function runtimeNames(parts: readonly WordPart[] | undefined, env: WordEnv): readonly string[] {
  if (parts === undefined) return [];
  const names: string[] = [];
  const visit = (part: WordPart | DoubleQuotedChild): void => {
    if (part.type === "DoubleQuoted" || part.type === "LocaleString") {
      for (const child of part.parts) visit(child);
      return;
    }
    const name = expandedName(part);
    if (name === undefined || !isName(name) || names.includes(name)) return;
    const b = binding(name, env);
    // the environment's, or assigned on the line from a run-time value (`T=$(gh auth token)`), with
    // the variables that value was made of (`T=$GITHUB_TOKEN`)
    if (b === undefined || (b.set && b.value === undefined && b.glob !== true)) names.push(name);
    if (b?.set === true && b.value === undefined)
      for (const source of b.env ?? []) if (!names.includes(source)) names.push(source);
  };
  for (const part of parts) visit(part);
  return names;
}

/** A word made up by the analysis (a default operand, a split string), not written in the source. */
export function syntheticWord(value: string): ShellWord {
  return { text: value, value, glob: false };
}

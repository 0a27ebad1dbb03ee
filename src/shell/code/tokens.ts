/**
 * A small tokenizer for interpreter one-liners (python, node, perl, ruby, php): strings with their
 * static values, comments, names, variables, numbers and punctuation. It exists to find calls of
 * destructive standard-library APIs (`calls.ts`); it is not a parser and never sees shell text.
 * Input it cannot make sense of (an unterminated string or comment) yields `undefined`.
 */
import type { CodeTokenLanguage } from "../types.ts";

export type { CodeTokenLanguage };

/** One token. */
export interface CodeToken {
  /**
   * - `string`: a string literal (`value` is its static value, `undefined` when interpolated);
   * - `exec`: a string run by the shell (perl/ruby/php backticks, `qx//`, `%x()`);
   * - `words`: a word list literal (`qw(a b)`, `%w(a b)`), items in `items`;
   * - `name`, `var` (`$x`, `@x`), `number`, `regex`, `punct`, `newline` (ruby statement end).
   */
  readonly kind: "name" | "var" | "string" | "exec" | "words" | "number" | "regex" | "punct" | "newline";
  readonly text: string;
  readonly value: string | undefined;
  readonly items?: readonly string[];
  readonly pos: number;
  readonly end: number;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
const isAlpha = (c: string | undefined): boolean =>
  c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_");
const isNameChar = (c: string | undefined): boolean => isAlpha(c) || isDigit(c);
const isSpace = (c: string | undefined): boolean => c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v";

const MULTI_PUNCT = [
  "===",
  "!==",
  "...",
  "::",
  "->",
  "=>",
  "==",
  "!=",
  "<=",
  ">=",
  "=~",
  "!~",
  "**",
  "&&",
  "||",
  "<<",
  ">>",
  "?.",
];
const PAIRS: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}", "<": ">" };
const PERL_QUOTE_OPS = new Set(["q", "qq", "qw", "qx", "m", "qr", "s", "tr", "y"]);
const PERL_QUOTE_DELIMS = new Set([
  "/",
  "{",
  "(",
  "[",
  "<",
  "|",
  "!",
  "#",
  "~",
  "'",
  '"',
  "^",
  "%",
  ":",
  "+",
  "@",
  ",",
]);
const REGEX_AFTER_NAMES = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "instanceof",
  "yield",
  "await",
  "split",
  "grep",
  "map",
  "join",
  "if",
  "unless",
  "while",
  "until",
  "and",
  "or",
  "not",
  "when",
  "x",
  "lt",
  "gt",
  "le",
  "ge",
  "eq",
  "ne",
  "cmp",
]);

class Failure extends Error {}

/** Decodes the common backslash escapes of double-quoted strings; unknown escapes keep the backslash. */
function unescape(body: string, keepUnknown: boolean): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== "\\" || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[++i] as string;
    const simple: Record<string, string> = {
      n: "\n",
      t: "\t",
      r: "\r",
      "0": "\0",
      a: "\x07",
      b: "\b",
      f: "\f",
      v: "\v",
      e: "\x1b",
      "\\": "\\",
      "'": "'",
      '"': '"',
      "`": "`",
      $: "$",
      "@": "@",
      "/": "/",
    };
    if (n in simple) out += simple[n] as string;
    else if (n === "\n") continue;
    else if (n === "x" && /^[0-9a-fA-F]{2}$/.test(body.slice(i + 1, i + 3))) {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (n === "u" && /^[0-9a-fA-F]{4}$/.test(body.slice(i + 1, i + 5))) {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 5), 16));
      i += 4;
    } else out += keepUnknown ? `\\${n}` : n;
  }
  return out;
}

/** Single-quoted strings of perl, ruby and php: only `\\` and `\'` are escapes. */
function unescapeSingle(body: string, quote: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === "\\" && (body[i + 1] === "\\" || body[i + 1] === quote)) {
      out += body[i + 1] as string;
      i++;
    } else out += c;
  }
  return out;
}

/** True when a double-quoted perl/php string interpolates (`$x`, `@x`, `${`). */
function interpolates(body: string, sigils: readonly string[]): boolean {
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === "\\") {
      i++;
      continue;
    }
    if (sigils.includes(c)) {
      const n = body[i + 1];
      if (isNameChar(n) || n === "{" || n === ":" || (c === "$" && n !== undefined && "_!@$0&".includes(n)))
        return true;
    }
  }
  return false;
}

class Lexer {
  readonly tokens: CodeToken[] = [];
  private i = 0;

  constructor(
    private readonly src: string,
    private readonly lang: CodeTokenLanguage,
  ) {}

  private push(kind: CodeToken["kind"], start: number, value: string | undefined, items?: readonly string[]): void {
    const token: CodeToken =
      items === undefined
        ? { kind, text: this.src.slice(start, this.i), value, pos: start, end: this.i }
        : { kind, text: this.src.slice(start, this.i), value, items, pos: start, end: this.i };
    this.tokens.push(token);
  }

  private last(): CodeToken | undefined {
    return this.tokens[this.tokens.length - 1];
  }

  /** True when a `/` here starts a regex literal rather than a division. */
  private regexAllowed(): boolean {
    const prev = this.last();
    if (prev === undefined) return true;
    if (prev.kind === "name") return REGEX_AFTER_NAMES.has(prev.text);
    if (
      prev.kind === "number" ||
      prev.kind === "string" ||
      prev.kind === "var" ||
      prev.kind === "regex" ||
      prev.kind === "exec" ||
      prev.kind === "words"
    )
      return false;
    return !(prev.text === ")" || prev.text === "]" || prev.text === "}");
  }

  /** Scans to the unescaped `close`, honouring nesting when `open` differs; returns the body. */
  private delimited(open: string, close: string): string {
    const start = this.i;
    let depth = 1;
    while (this.i < this.src.length) {
      const c = this.src[this.i] as string;
      if (c === "\\") {
        this.i += 2;
        continue;
      }
      if (open !== close && c === open) depth++;
      else if (c === close) {
        depth--;
        if (depth === 0) {
          const body = this.src.slice(start, this.i);
          this.i++;
          return body;
        }
      }
      this.i++;
    }
    throw new Failure(`unterminated ${open}`);
  }

  /** A quoted string starting at the quote; handles interpolation holes that need nested lexing. */
  private quoted(quote: string, hole: string | undefined): { body: string; holes: boolean } {
    this.i++;
    const start = this.i;
    let holes = false;
    while (this.i < this.src.length) {
      const c = this.src[this.i] as string;
      if (c === "\\") {
        this.i += 2;
        continue;
      }
      if (c === quote) {
        const body = this.src.slice(start, this.i);
        this.i++;
        return { body, holes };
      }
      if (hole !== undefined && c === hole[0] && this.src[this.i + 1] === "{") {
        holes = true;
        this.i += 2;
        this.run(true);
        continue;
      }
      this.i++;
    }
    throw new Failure("unterminated string");
  }

  private skipLineComment(): void {
    while (this.i < this.src.length && this.src[this.i] !== "\n") this.i++;
  }

  private blockComment(): void {
    const end = this.src.indexOf("*/", this.i + 2);
    if (end < 0) throw new Failure("unterminated comment");
    this.i = end + 2;
  }

  private pythonString(prefix: string, start: number): void {
    const quote = this.src[this.i] as string;
    const triple = this.src.startsWith(quote.repeat(3), this.i);
    const delim = triple ? quote.repeat(3) : quote;
    this.i += delim.length;
    const bodyStart = this.i;
    const raw = prefix.toLowerCase().includes("r");
    const fmt = prefix.toLowerCase().includes("f");
    while (this.i < this.src.length) {
      if (this.src[this.i] === "\\") {
        this.i += 2;
        continue;
      }
      if (this.src.startsWith(delim, this.i)) {
        const body = this.src.slice(bodyStart, this.i);
        this.i += delim.length;
        let value: string | undefined = raw ? body : unescape(body, true);
        if (fmt)
          value = value.replaceAll("{{", "").replaceAll("}}", "").includes("{")
            ? undefined
            : value.replaceAll("{{", "{").replaceAll("}}", "}");
        this.push("string", start, value);
        return;
      }
      if (!triple && this.src[this.i] === "\n") throw new Failure("unterminated string");
      this.i++;
    }
    throw new Failure("unterminated string");
  }

  /** Perl quote-like operators (`q{}`, `qq//`, `qw()`, `qx//`, `m//`, `s///`, `tr///`). */
  private perlQuoteLike(op: string, start: number): void {
    while (isSpace(this.src[this.i])) this.i++;
    const open = this.src[this.i] as string;
    const close = PAIRS[open] ?? open;
    this.i++;
    const body = this.delimited(open, close);
    if (op === "s" || op === "tr" || op === "y") {
      if (open !== close) {
        while (isSpace(this.src[this.i]) || this.src[this.i] === "\n") this.i++;
        const open2 = this.src[this.i] as string;
        this.i++;
        this.delimited(open2, PAIRS[open2] ?? open2);
      } else this.delimited(open, close);
    }
    while (isAlpha(this.src[this.i])) this.i++;
    if (op === "q") this.push("string", start, unescapeSingle(body, close));
    else if (op === "qq") this.push("string", start, interpolates(body, ["$", "@"]) ? undefined : unescape(body, true));
    else if (op === "qw")
      this.push(
        "words",
        start,
        body,
        body.split(/\s+/).filter((w) => w.length > 0),
      );
    else if (op === "qx") this.push("exec", start, open === "'" || !interpolates(body, ["$", "@"]) ? body : undefined);
    else this.push("regex", start, undefined);
  }

  /** Ruby `%q()`, `%Q()`, `%()`, `%w()`, `%i()`, `%x()`, `%r()`; returns false when `%` is an operator. */
  private rubyPercent(start: number): boolean {
    let type = this.src[this.i + 1] as string;
    let at = this.i + 2;
    if (!isAlpha(type)) {
      type = "Q";
      at = this.i + 1;
    }
    const open = this.src[at];
    // `puts %x(ls)`: after a name, a space before `%` and none after it make a literal
    const prev = this.last();
    const spacedAfterName = prev?.kind === "name" && isSpace(this.src[this.i - 1]);
    if (
      open === undefined ||
      isNameChar(open) ||
      isSpace(open) ||
      open === "\n" ||
      !"qQwWiIxrs".includes(type) ||
      !(this.regexAllowed() || spacedAfterName)
    )
      return false;
    this.i = at + 1;
    const body = this.delimited(open, PAIRS[open] ?? open);
    const hole = body.includes("#{");
    if (type === "q") this.push("string", start, unescapeSingle(body, PAIRS[open] ?? open));
    else if (type === "Q") this.push("string", start, hole ? undefined : unescape(body, true));
    else if (type === "w" || type === "W" || type === "i" || type === "I")
      this.push(
        "words",
        start,
        body,
        body.split(/\s+/).filter((w) => w.length > 0),
      );
    else if (type === "x") this.push("exec", start, hole ? undefined : body);
    else {
      while (isAlpha(this.src[this.i])) this.i++;
      this.push("regex", start, undefined);
    }
    return true;
  }

  /** Lexes until the end, or (inside an interpolation hole) the `}` that closes it. */
  run(inHole: boolean): void {
    let braces = 0;
    const src = this.src;
    while (this.i < src.length) {
      const c = src[this.i] as string;
      const start = this.i;
      const n = src[this.i + 1];
      if (c === "\n") {
        this.i++;
        if (this.lang === "ruby") this.push("newline", start, "\n");
        continue;
      }
      if (isSpace(c)) {
        this.i++;
        continue;
      }
      // comments
      if (
        (c === "#" && this.lang !== "node") ||
        (c === "/" && n === "/" && (this.lang === "node" || this.lang === "php"))
      ) {
        this.skipLineComment();
        continue;
      }
      if (c === "/" && n === "*" && (this.lang === "node" || this.lang === "php")) {
        this.blockComment();
        continue;
      }
      if (inHole && c === "}" && braces === 0) {
        this.i++;
        return;
      }
      if (c === "{") braces++;
      if (c === "}") braces--;
      // strings
      if (c === "'" || c === '"' || c === "`") {
        if (this.lang === "python") {
          if (c === "`") throw new Failure("backtick in python");
          this.pythonString("", start);
          continue;
        }
        if (this.lang === "node") {
          const { body, holes } = this.quoted(c, c === "`" ? "${" : undefined);
          this.push("string", start, holes ? undefined : unescape(body, false));
          continue;
        }
        const sigils = this.lang === "php" ? ["$"] : this.lang === "perl" ? ["$", "@"] : [];
        const hole = this.lang === "ruby" && c !== "'" ? "#{" : undefined;
        const { body, holes } = this.quoted(c, hole);
        const dynamic = holes || (c !== "'" && interpolates(body, sigils));
        if (c === "'") this.push("string", start, unescapeSingle(body, "'"));
        else if (c === "`") this.push("exec", start, dynamic ? undefined : unescape(body, true));
        else this.push("string", start, dynamic ? undefined : unescape(body, true));
        continue;
      }
      // numbers
      if (isDigit(c)) {
        while (isNameChar(src[this.i]) || src[this.i] === ".") this.i++;
        this.push("number", start, src.slice(start, this.i));
        continue;
      }
      // variables
      if (
        (c === "$" && this.lang !== "node") ||
        ((c === "@" || c === "%") &&
          (this.lang === "perl" || this.lang === "ruby") &&
          (isAlpha(n) || n === "@" || n === "_"))
      ) {
        if (this.lang === "ruby" && c === "%" && this.rubyPercent(start)) continue;
        this.i++;
        if (this.lang === "perl" && c === "$" && n === "#") this.i++;
        if (src[this.i] === "@") this.i++;
        if (isNameChar(src[this.i]) || src[this.i] === ":") {
          while (isNameChar(src[this.i]) || (src[this.i] === ":" && src[this.i + 1] === ":"))
            this.i += src[this.i] === ":" ? 2 : 1;
        } else if (src[this.i] !== undefined && src[this.i] !== "{" && !isSpace(src[this.i])) this.i++;
        this.push("var", start, src.slice(start, this.i));
        continue;
      }
      if (c === "%" && this.lang === "ruby" && this.rubyPercent(start)) continue;
      // names (and prefixed strings / quote-like operators)
      if (isAlpha(c) || (c === "$" && this.lang === "node")) {
        while (isNameChar(src[this.i]) || (this.lang === "node" && src[this.i] === "$")) this.i++;
        const name = src.slice(start, this.i);
        const next = src[this.i];
        if (this.lang === "python" && (next === "'" || next === '"') && /^(r|u|b|f|br|rb|fr|rf)$/i.test(name)) {
          this.pythonString(name, start);
          continue;
        }
        const prev = this.last();
        const fileTest = prev?.text === "-" && prev.end === start;
        if (this.lang === "perl" && PERL_QUOTE_OPS.has(name) && prev?.text !== "->" && !fileTest) {
          let at = this.i;
          while (isSpace(src[at])) at++;
          const delim = src[at];
          const fatComma = delim === "=" && src[at + 1] === ">";
          if (
            delim !== undefined &&
            PERL_QUOTE_DELIMS.has(delim) &&
            !fatComma &&
            !(delim === "," || (delim === "}" && this.last()?.text === "{"))
          ) {
            if (!(at > this.i && (delim === "#" || delim === "="))) {
              this.perlQuoteLike(name, start);
              continue;
            }
          }
        }
        this.push("name", start, name);
        continue;
      }
      // regex literals
      if (c === "/" && this.lang !== "python" && this.lang !== "php" && this.regexAllowed()) {
        this.i++;
        let inClass = false;
        while (this.i < src.length) {
          const d = src[this.i] as string;
          if (d === "\\") {
            this.i += 2;
            continue;
          }
          if (d === "\n" && this.lang === "node") throw new Failure("unterminated regex");
          if (d === "[") inClass = true;
          else if (d === "]") inClass = false;
          else if (d === "/" && !inClass) break;
          this.i++;
        }
        if (this.i >= src.length) throw new Failure("unterminated regex");
        this.i++;
        while (isAlpha(src[this.i])) this.i++;
        this.push("regex", start, undefined);
        continue;
      }
      const multi = MULTI_PUNCT.find((p) => src.startsWith(p, this.i));
      this.i += multi?.length ?? 1;
      this.push("punct", start, multi ?? c);
    }
    if (inHole) throw new Failure("unterminated interpolation");
  }
}

/** Tokens of `code`, or `undefined` when it cannot be tokenized. */
export function tokenizeCode(code: string, language: CodeTokenLanguage): CodeToken[] | undefined {
  const lexer = new Lexer(code, language);
  try {
    lexer.run(false);
  } catch (error) {
    if (error instanceof Failure) return undefined;
    throw error;
  }
  return lexer.tokens;
}

/**
 * Values known before interpreter code runs: the home directory and the working directory however
 * the language spells them (`os.path.expanduser('~')`, `Path.home()`, `os.homedir()`,
 * `process.env.HOME`, `Dir.home`, `$ENV{HOME}`, `os.getcwd()`), path joins of known parts
 * (`os.path.join`, `path.join`, `File.join`) and variables assigned a string once
 * (`p = '/srv'; shutil.rmtree(p)`). Each is rewritten into a string token, so the call matcher
 * (`calls.ts`) sees a literal argument. Nothing is guessed: what is not known stays as written.
 */
import { posix } from "node:path";
import { tokenizeCode, type CodeToken, type CodeTokenLanguage } from "./tokens.ts";

/** What the code's process starts with. */
export interface CodeEnv {
  readonly home: string | undefined;
  readonly cwd: string | undefined;
}

/** How a known expression gets its value. */
type Known =
  /** A call without arguments, or a property, that is the home or working directory. */
  | { readonly kind: "home" | "cwd" }
  /** The temporary directory (`tempfile.gettempdir()`, `os.tmpdir()`): `/tmp` unless TMPDIR says otherwise. */
  | { readonly kind: "tmp" }
  /** A fresh temporary directory (`tempfile.mkdtemp()`, `fs.mkdtempSync(prefix)`): its name is random, its place is not. */
  | { readonly kind: "mkdtemp" }
  /** Reads an environment variable: a call with the name as argument, or a subscript. */
  | { readonly kind: "env-call" | "env-index" }
  /** `~` expanded in its one argument (`os.path.expanduser`), made absolute (`abspath`) or both. */
  | { readonly kind: "expand"; readonly tilde: boolean; readonly absolute: boolean }
  /** Joins its arguments as paths (`os.path.join`); `resolve` starts from the working directory. */
  | { readonly kind: "join"; readonly resolve: boolean }
  /** Decodes base64 text (`base64.b64decode(s)`, `atob(s)`, `Buffer.from(s, 'base64')`), then `.decode()`/`.toString()`. */
  | { readonly kind: "base64"; readonly encodingArg?: boolean };

const BASE64: Known = { kind: "base64" };

const HOME: Known = { kind: "home" };
const CWD: Known = { kind: "cwd" };
const ENV_CALL: Known = { kind: "env-call" };
const ENV_INDEX: Known = { kind: "env-index" };
const JOIN: Known = { kind: "join", resolve: false };

/** Known expressions by canonical dotted name (after import aliases), per language. */
const KNOWN: Readonly<Record<CodeTokenLanguage, Readonly<Record<string, Known>>>> = {
  python: {
    "os.path.expanduser": { kind: "expand", tilde: true, absolute: false },
    "os.path.abspath": { kind: "expand", tilde: false, absolute: true },
    "os.path.realpath": { kind: "expand", tilde: false, absolute: true },
    "pathlib.Path.home": HOME,
    "Path.home": HOME,
    "os.getcwd": CWD,
    "pathlib.Path.cwd": CWD,
    "Path.cwd": CWD,
    "os.getenv": ENV_CALL,
    "os.environ.get": ENV_CALL,
    "os.environ": ENV_INDEX,
    "os.path.join": JOIN,
    str: JOIN,
    "base64.b64decode": BASE64,
    "base64.standard_b64decode": BASE64,
    "tempfile.gettempdir": { kind: "tmp" },
    "tempfile.mkdtemp": { kind: "mkdtemp" },
  },
  node: {
    "os.homedir": HOME,
    "process.cwd": CWD,
    "Deno.cwd": CWD,
    "Deno.env.get": ENV_CALL,
    "process.env": ENV_INDEX,
    "Bun.env": ENV_INDEX,
    "path.join": JOIN,
    "path.resolve": { kind: "join", resolve: true },
    atob: BASE64,
    "Buffer.from": { kind: "base64", encodingArg: true },
    "os.tmpdir": { kind: "tmp" },
    "fs.mkdtempSync": { kind: "mkdtemp" },
  },
  ruby: {
    "Dir.home": HOME,
    "Dir.pwd": CWD,
    "Dir.getwd": CWD,
    "ENV.fetch": ENV_CALL,
    ENV: ENV_INDEX,
    "File.expand_path": { kind: "expand", tilde: true, absolute: true },
    "File.join": JOIN,
    "Base64.decode64": BASE64,
    "Base64.strict_decode64": BASE64,
    "Dir.tmpdir": { kind: "tmp" },
  },
  perl: { getcwd: CWD, cwd: CWD, "Cwd.getcwd": CWD, "Cwd.cwd": CWD, $ENV: ENV_INDEX },
  php: {
    getcwd: CWD,
    getenv: ENV_CALL,
    $_SERVER: ENV_INDEX,
    $_ENV: ENV_INDEX,
    base64_decode: BASE64,
    sys_get_temp_dir: { kind: "tmp" },
  },
};

/** Words that continue an expression after a value (`p = 'a' if x else 'b'`). */
const CONTINUERS = new Set(["if", "else", "and", "or", "in", "not", "is", "for", "unless", "rescue"]);

/** Words that declare a variable before its name (`const p = ...`, `my $p = ...`). */
const DECLARERS = new Set(["const", "let", "var", "my", "our", "local"]);

const isPunct = (t: CodeToken | undefined, text: string): boolean =>
  t !== undefined && t.kind === "punct" && t.text === text;

const stringToken = (from: CodeToken, to: CodeToken, text: string, value: string): CodeToken => ({
  kind: "string",
  text,
  value,
  pos: from.pos,
  end: to.end,
});

/** The index of the bracket closing the one at `open`, or -1. */
function closing(tokens: readonly CodeToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i] as CodeToken;
    if (t.kind !== "punct") continue;
    if (t.text === "(" || t.text === "[" || t.text === "{") depth++;
    else if (t.text === ")" || t.text === "]" || t.text === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The arguments between brackets when each is one string token, else `undefined`. */
function stringArgs(tokens: readonly CodeToken[], open: number, close: number): string[] | undefined {
  const out: string[] = [];
  for (let i = open + 1; i < close; i++) {
    const t = tokens[i] as CodeToken;
    if (t.kind !== "string" || t.value === undefined) return undefined;
    out.push(t.value);
    if (i + 1 < close && !isPunct(tokens[i + 1], ",")) return undefined;
    i++;
  }
  return out;
}

/** The variables the process sees before the code changes them. */
function envValue(name: string | undefined, env: CodeEnv): string | undefined {
  if (name === "HOME") return env.home;
  if (name === "PWD") return env.cwd;
  return undefined;
}

/** `~` and `~/x` as the home directory. */
function expandTilde(path: string, env: CodeEnv): string | undefined {
  if (path !== "~" && !path.startsWith("~/")) return path;
  return env.home === undefined ? undefined : posix.join(env.home, path.slice(1));
}

/** A path made absolute from the working directory. */
function absolute(path: string, env: CodeEnv): string | undefined {
  if (path.startsWith("/")) return posix.normalize(path);
  return env.cwd === undefined ? undefined : posix.join(env.cwd, path);
}

/** The value of a known expression whose dotted name ends at `end` (exclusive), and where it ends. */
function evaluate(
  known: Known,
  tokens: readonly CodeToken[],
  end: number,
  env: CodeEnv,
): { value: string | undefined; last: number } | undefined {
  const next = tokens[end];
  const call = isPunct(next, "(") ? closing(tokens, end) : -1;
  const args = call < 0 ? undefined : stringArgs(tokens, end, call);
  switch (known.kind) {
    case "home":
    case "cwd": {
      const value = known.kind === "home" ? env.home : env.cwd;
      if (call >= 0) return args?.length === 0 ? { value, last: call } : undefined;
      // ruby `Dir.home`, `Dir.pwd`: a call without parentheses
      return { value, last: end - 1 };
    }
    case "env-call":
      return call >= 0 && args !== undefined && args.length >= 1
        ? { value: envValue(args[0], env), last: call }
        : undefined;
    case "env-index": {
      // `os.environ['HOME']`, `ENV["HOME"]`, `$ENV{HOME}`, `process.env.HOME`
      if (isPunct(next, "[") || isPunct(next, "{")) {
        const close = closing(tokens, end);
        const key = tokens[end + 1];
        if (close !== end + 2 || key === undefined || (key.kind !== "string" && key.kind !== "name")) return undefined;
        return { value: envValue(key.kind === "string" ? key.value : key.text, env), last: close };
      }
      if (isPunct(next, ".") && tokens[end + 1]?.kind === "name" && !isPunct(tokens[end + 2], "("))
        return { value: envValue(tokens[end + 1]?.text, env), last: end + 1 };
      return undefined;
    }
    case "expand": {
      if (args?.length !== 1) return undefined;
      let value: string | undefined = args[0] as string;
      if (known.tilde) value = expandTilde(value, env);
      if (known.absolute && value !== undefined) value = absolute(value, env);
      return { value, last: call };
    }
    case "tmp":
      return call >= 0 && args?.length === 0 ? { value: "/tmp", last: call } : undefined;
    case "mkdtemp":
      if (call < 0 || args === undefined || args.length > 1) return undefined;
      if (args.length === 0) return { value: "/tmp/tmpXXXXXXXX", last: call };
      return (args[0] as string).startsWith("/") ? { value: `${args[0] as string}XXXXXX`, last: call } : undefined;
    case "base64": {
      // `Buffer.from(s, 'base64')` needs its encoding; the others take the text alone
      if (args === undefined || args.length !== (known.encodingArg === true ? 2 : 1)) return undefined;
      if (known.encodingArg === true && args[1] !== "base64") return undefined;
      const text = (args[0] as string).replace(/\s+/g, "");
      if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return undefined;
      const value = Buffer.from(text, "base64").toString("utf8");
      // `.decode()`, `.decode('utf-8')`, `.toString()`, `.toString('utf8')`
      let last = call;
      const method = tokens[call + 2];
      if (
        isPunct(tokens[call + 1], ".") &&
        method?.kind === "name" &&
        (method.text === "decode" || method.text === "toString") &&
        isPunct(tokens[call + 3], "(")
      ) {
        const close = closing(tokens, call + 3);
        if (close > 0) last = close;
      }
      return { value, last };
    }
    case "join": {
      if (args === undefined || args.length === 0) return undefined;
      const joined = posix.join(...args);
      return { value: known.resolve ? absolute(joined, env) : joined, last: call };
    }
    default: {
      const unknown: never = known;
      return unknown;
    }
  }
}

/**
 * The dotted names starting at `at` (`os`, `os.path`, `os.path.join`), resolved through the
 * aliases, each with the index after it; longest last.
 */
function chainsAt(
  tokens: readonly CodeToken[],
  at: number,
  names: ReadonlyMap<string, string>,
): { name: string; end: number }[] {
  const first = tokens[at];
  if (first === undefined || (first.kind !== "name" && first.kind !== "var")) return [];
  const before = tokens[at - 1];
  if (before !== undefined && before.kind === "punct" && (before.text === "." || before.text === "::")) return [];
  let name = (names.get(first.text) ?? first.text).replace(/^node:/, "");
  let i = at + 1;
  // `require('os').homedir()`: the module is the first segment
  if ((first.text === "require" || first.text === "__import__") && isPunct(tokens[i], "(")) {
    const module = tokens[i + 1];
    if (module?.kind !== "string" || module.value === undefined || !isPunct(tokens[i + 2], ")")) return [];
    name = module.value.replace(/^node:/, "");
    i += 3;
  }
  const out = [{ name, end: i }];
  while ((isPunct(tokens[i], ".") || isPunct(tokens[i], "::")) && tokens[i + 1]?.kind === "name") {
    name += `.${tokens[i + 1]?.text ?? ""}`;
    i += 2;
    out.push({ name, end: i });
  }
  return out;
}

/** One pass over the tokens: known expressions become string tokens. */
function rewriteExpressions(
  tokens: readonly CodeToken[],
  table: Readonly<Record<string, Known>>,
  names: ReadonlyMap<string, string>,
  env: CodeEnv,
): { tokens: CodeToken[]; changed: boolean } {
  const out: CodeToken[] = [];
  let changed = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as CodeToken;
    // the longest known prefix of the chain (`process.env` in `process.env.HOME`)
    const chains = chainsAt(tokens, i, names).reverse();
    const hit = chains.find((c) => Object.hasOwn(table, c.name));
    const found = hit === undefined ? undefined : evaluate(table[hit.name] as Known, tokens, hit.end, env);
    if (found === undefined || found.value === undefined) {
      out.push(t);
      continue;
    }
    const last = tokens[found.last] as CodeToken;
    const text = tokens
      .slice(i, found.last + 1)
      .map((x) => x.text)
      .join("");
    out.push(stringToken(t, last, text, found.value));
    i = found.last;
    changed = true;
  }
  return { tokens: out, changed };
}

/** Variables assigned exactly once, at the top level, to a string: their value. */
function stringVariables(tokens: readonly CodeToken[]): Map<string, { value: string; at: number }> {
  const assigned = new Map<string, { value: string | undefined; at: number }>();
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as CodeToken;
    if (t.kind === "punct" && (t.text === "(" || t.text === "[" || t.text === "{")) depth++;
    else if (t.kind === "punct" && (t.text === ")" || t.text === "]" || t.text === "}")) depth--;
    if (depth !== 0 || (t.kind !== "name" && t.kind !== "var") || !isPunct(tokens[i + 1], "=")) continue;
    const before = tokens[i - 1];
    if (before !== undefined && before.kind === "punct" && (before.text === "." || before.text === ",")) continue;
    const value = tokens[i + 2];
    const after = tokens[i + 3];
    // the value is the whole right side: a statement end follows (python's newlines are not tokens)
    const complete =
      after === undefined ||
      after.kind === "newline" ||
      isPunct(after, ";") ||
      (after.kind === "name" && !CONTINUERS.has(after.text));
    const known = value?.kind === "string" && value.value !== undefined && complete ? value.value : undefined;
    assigned.set(t.text, assigned.has(t.text) ? { value: undefined, at: i } : { value: known, at: i + 2 });
  }
  const out = new Map<string, { value: string; at: number }>();
  for (const [name, a] of assigned) if (a.value !== undefined) out.set(name, { value: a.value, at: a.at });
  return out;
}

/** The longest call inlined for a variable (tokens). */
const MAX_INLINED = 48;

/**
 * Variables assigned exactly once, at the top level, to one call (`my @keys = glob("~/.ssh/*")`):
 * each later use, where a value is read, becomes that call (`unlink @keys` → `unlink
 * glob("~/.ssh/*")`), so what a call of the tables takes is known through the variable.
 */
function inlineCalls(tokens: readonly CodeToken[]): { tokens: CodeToken[]; changed: boolean } {
  const assigned = new Map<string, { call: CodeToken[] | undefined; at: number }>();
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as CodeToken;
    if (t.kind === "punct" && (t.text === "(" || t.text === "[" || t.text === "{")) depth++;
    else if (t.kind === "punct" && (t.text === ")" || t.text === "]" || t.text === "}")) depth--;
    if (depth !== 0 || t.kind !== "var" || !isPunct(tokens[i + 1], "=")) continue;
    const head = tokens[i + 2];
    const close = head?.kind === "name" && isPunct(tokens[i + 3], "(") ? closing(tokens, i + 3) : -1;
    const after = close < 0 ? undefined : tokens[close + 1];
    const complete = close > 0 && (after === undefined || after.kind === "newline" || isPunct(after, ";"));
    const call = complete && close - i - 1 <= MAX_INLINED ? tokens.slice(i + 2, close + 1) : undefined;
    assigned.set(t.text, assigned.has(t.text) ? { call: undefined, at: i } : { call, at: close });
  }
  const calls = [...assigned].filter(([, a]) => a.call !== undefined);
  if (calls.length === 0) return { tokens: [...tokens], changed: false };
  const by = new Map(calls);
  let changed = false;
  const out: CodeToken[] = [];
  tokens.forEach((t, i) => {
    const a = t.kind === "var" ? by.get(t.text) : undefined;
    const before = tokens[i - 1];
    if (
      a?.call === undefined ||
      i <= a.at ||
      isPunct(tokens[i + 1], "=") ||
      (before !== undefined && before.kind === "name" && DECLARERS.has(before.text))
    ) {
      out.push(t);
      return;
    }
    changed = true;
    out.push(...a.call);
  });
  return { tokens: out, changed };
}

/** Uses of variables assigned a string once become that string. */
function rewriteVariables(tokens: readonly CodeToken[]): { tokens: CodeToken[]; changed: boolean } {
  const vars = stringVariables(tokens);
  if (vars.size === 0) return { tokens: [...tokens], changed: false };
  let changed = false;
  const out = tokens.map((t, i) => {
    const v = vars.get(t.text);
    if (v === undefined || i <= v.at || (t.kind !== "name" && t.kind !== "var")) return t;
    const before = tokens[i - 1];
    const next = tokens[i + 1];
    if (before !== undefined && before.kind === "punct" && (before.text === "." || before.text === "::")) return t;
    if (before !== undefined && before.kind === "name" && DECLARERS.has(before.text)) return t;
    if (isPunct(next, "=") || isPunct(next, "(") || isPunct(next, "[") || isPunct(next, "{") || isPunct(next, "."))
      return t;
    changed = true;
    return { kind: "string" as const, text: t.text, value: v.value, pos: t.pos, end: t.end };
  });
  return { tokens: out, changed };
}

/**
 * The pieces of an interpolated string: node template literals (`` `rm -rf ${dir}` ``) and python
 * f-strings (`f"rm -rf {home}"`); `undefined` for other strings, escapes and format specs.
 */
function templatePieces(
  token: CodeToken,
  language: CodeTokenLanguage,
): { literal: boolean; text: string }[] | undefined {
  const text = token.text;
  let body: string;
  let open: string;
  if (language === "node" && text.startsWith("`") && text.endsWith("`") && text.length >= 2) {
    body = text.slice(1, -1);
    open = "${";
  } else if (language === "python" && /^[fF]["']/.test(text) && !/^[fF]("""|''')/.test(text)) {
    body = text.slice(2, -1);
    open = "{";
  } else return undefined;
  if (body.includes("\\")) return undefined;
  const out: { literal: boolean; text: string }[] = [];
  let at = 0;
  while (at < body.length) {
    const start = body.indexOf(open, at);
    if (start < 0) {
      out.push({ literal: true, text: body.slice(at) });
      break;
    }
    if (open === "{" && body[start + 1] === "{") return undefined;
    out.push({ literal: true, text: body.slice(at, start) });
    const end = body.indexOf("}", start);
    if (end < 0) return undefined;
    const expression = body.slice(start + open.length, end);
    // `{x!r}`, `{x:>10}`: conversions and format specs are not emulated
    if (open === "{" && /[!:]/.test(expression.replace(/\([^)]*\)/g, ""))) return undefined;
    out.push({ literal: false, text: expression });
    at = end + 1;
  }
  return out;
}

/** Interpolated strings whose holes are all known become plain strings (their hole tokens go). */
function rewriteTemplates(
  tokens: readonly CodeToken[],
  language: CodeTokenLanguage,
  table: Readonly<Record<string, Known>>,
  names: ReadonlyMap<string, string>,
  env: CodeEnv,
): { tokens: CodeToken[]; changed: boolean } {
  const vars = stringVariables(tokens);
  const out: CodeToken[] = [];
  let changed = false;
  for (const t of tokens) {
    const pieces = t.kind === "string" && t.value === undefined ? templatePieces(t, language) : undefined;
    let value: string | undefined = pieces === undefined ? undefined : "";
    for (const piece of pieces ?? []) {
      if (value === undefined) break;
      if (piece.literal) {
        value += piece.text;
        continue;
      }
      const inner = tokenizeCode(piece.text, language);
      const rewritten = inner === undefined ? undefined : rewriteExpressions(inner, table, names, env).tokens;
      const only = rewritten?.length === 1 ? rewritten[0] : undefined;
      const known =
        only?.kind === "string"
          ? only.value
          : only !== undefined && (only.kind === "name" || only.kind === "var")
            ? vars.get(only.text)?.value
            : undefined;
      value = known === undefined ? undefined : value + known;
    }
    if (value === undefined) {
      out.push(t);
      continue;
    }
    // the hole's own tokens came before the string: they are part of it
    while (out.length > 0 && (out.at(-1) as CodeToken).pos >= t.pos) out.pop();
    out.push({ ...t, value });
    changed = true;
  }
  return { tokens: out, changed };
}

/**
 * The tokens with known expressions and string variables rewritten into string tokens. `names`
 * are the import aliases (`from os import path` → `path` is `os.path`).
 */
export function knownValues(
  tokens: readonly CodeToken[],
  language: CodeTokenLanguage,
  names: ReadonlyMap<string, string>,
  env: CodeEnv,
): CodeToken[] {
  const table = KNOWN[language];
  let current = [...tokens];
  // a few rounds: a variable may hold a known expression, a join may take a variable
  for (let round = 0; round < 3; round++) {
    const expressions = rewriteExpressions(current, table, names, env);
    const inlined = round === 0 ? inlineCalls(expressions.tokens) : { tokens: expressions.tokens, changed: false };
    const variables = rewriteVariables(inlined.tokens);
    const templates = rewriteTemplates(variables.tokens, language, table, names, env);
    current = templates.tokens;
    if (!expressions.changed && !inlined.changed && !variables.changed && !templates.changed) break;
  }
  return current;
}

/**
 * Finds calls of the APIs in `tables/apis.ts` in Perl, Ruby and PHP code, over the tokens of
 * `tokens.ts` (Python and JavaScript are parsed: `analysis.ts`): dotted call chains (`shutil.rmtree(...)`, `require('fs').rmSync(...)`,
 * `Path('/x').unlink()`), import aliases, paren-less perl/ruby calls and backtick strings.
 */
import { withHome } from "./home.ts";
import { tokenizeCode, type CodeToken, type CodeTokenLanguage } from "./tokens.ts";
import { knownValues, type CodeEnv } from "./values.ts";
import { LANGUAGE_APIS, type ApiSpec, type LanguageApis } from "../tables/apis.ts";
import type { FoundCall, FoundExec } from "./library.ts";

type Arg =
  | { readonly kind: "string"; readonly value: string | undefined; readonly text: string }
  | { readonly kind: "list"; readonly items: readonly { readonly text: string; readonly value: string | undefined }[] }
  | { readonly kind: "keyword"; readonly name: string; readonly tokens: readonly CodeToken[] }
  | { readonly kind: "object"; readonly entries: ReadonlyMap<string, readonly CodeToken[]> }
  | { readonly kind: "other" };

const isPunct = (t: CodeToken | undefined, text: string): boolean =>
  t !== undefined && t.kind === "punct" && t.text === text;
const OPEN: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}" };
const SEPARATORS = new Set([".", "::", "?."]);
const STATEMENT_WORDS = new Set(["or", "and", "if", "unless", "while", "until", "do", "then"]);
const DEFINERS = new Set(["def", "function", "sub", "class"]);

/** Index of the bracket closing the one at `open`, or -1. */
function matching(tokens: readonly CodeToken[], open: number): number {
  const stack: string[] = [];
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i] as CodeToken;
    if (t.kind !== "punct") continue;
    if (t.text in OPEN) stack.push(OPEN[t.text] as string);
    else if (t.text === ")" || t.text === "]" || t.text === "}") {
      if (stack.pop() !== t.text) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** Index of the bracket opening the one at `close`, or -1. */
function matchingBack(tokens: readonly CodeToken[], close: number): number {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    const t = tokens[i] as CodeToken;
    if (t.kind !== "punct") continue;
    if (t.text === ")" || t.text === "]" || t.text === "}") depth++;
    else if (t.text in OPEN) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Splits tokens at top-level commas (and perl's `=>`). */
function splitArgs(tokens: readonly CodeToken[]): CodeToken[][] {
  const out: CodeToken[][] = [];
  let current: CodeToken[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (t.kind === "newline") continue;
    if (t.kind === "punct" && t.text in OPEN) depth++;
    if (t.kind === "punct" && (t.text === ")" || t.text === "]" || t.text === "}")) depth--;
    if (depth === 0 && isPunct(t, ",")) {
      out.push(current);
      current = [];
      continue;
    }
    current.push(t);
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** A string expression: string tokens joined by `+`, `.` or adjacency (`'a' 'b'`). */
function stringValue(tokens: readonly CodeToken[]): { value: string | undefined; text: string } | undefined {
  let value: string | undefined = "";
  let sawString = false;
  for (const t of tokens) {
    if (t.kind === "string") {
      sawString = true;
      value = value === undefined || t.value === undefined ? undefined : value + t.value;
    } else if (t.kind === "punct" && (t.text === "+" || t.text === ".")) continue;
    else if (t.kind === "var" || t.kind === "name") value = undefined;
    else return undefined;
  }
  return sawString ? { value, text: tokens.map((t) => t.text).join(" ") } : undefined;
}

function classify(tokens: readonly CodeToken[], language: CodeTokenLanguage): Arg {
  const first = tokens[0];
  if (first === undefined) return { kind: "other" };
  if (language === "python" && first.kind === "name" && isPunct(tokens[1], "="))
    return { kind: "keyword", name: first.text, tokens: tokens.slice(2) };
  if (tokens.length === 1 && first.kind === "words")
    return { kind: "list", items: (first.items ?? []).map((w) => ({ text: w, value: w })) };
  if (isPunct(first, "[") && matching(tokens, 0) === tokens.length - 1) {
    const items = splitArgs(tokens.slice(1, -1)).map((item) => {
      const s = stringValue(item);
      return { text: item.map((t) => t.text).join(" "), value: s?.value };
    });
    return { kind: "list", items };
  }
  if (isPunct(first, "{") && matching(tokens, 0) === tokens.length - 1) {
    const entries = new Map<string, readonly CodeToken[]>();
    for (const entry of splitArgs(tokens.slice(1, -1))) {
      const key = entry[0];
      if (
        key !== undefined &&
        (key.kind === "name" || key.kind === "string") &&
        (isPunct(entry[1], ":") || isPunct(entry[1], "=>"))
      ) {
        entries.set(key.kind === "string" ? (key.value ?? "") : key.text, entry.slice(2));
      } else if (key !== undefined && key.kind === "name" && entry.length === 1) entries.set(key.text, [key]);
    }
    return { kind: "object", entries };
  }
  const s = stringValue(tokens);
  if (s !== undefined) return { kind: "string", value: s.value, text: s.text };
  return { kind: "other" };
}

const isTrue = (tokens: readonly CodeToken[] | undefined): boolean =>
  tokens?.length === 1 && (tokens[0]?.text === "true" || tokens[0]?.text === "True" || tokens[0]?.text === "1");

/** Import aliases: local name → canonical dotted prefix. */
function aliases(tokens: readonly CodeToken[], language: CodeTokenLanguage, apis: LanguageApis): Map<string, string> {
  const out = new Map<string, string>();
  const moduleName = (raw: string): string => apis.modules?.[raw] ?? raw.replaceAll("/", ".");
  const dotted = (from: number): { name: string; next: number } => {
    let name = tokens[from]?.text ?? "";
    let i = from + 1;
    while (isPunct(tokens[i], ".") && tokens[i + 1]?.kind === "name") {
      name += `.${tokens[i + 1]?.text ?? ""}`;
      i += 2;
    }
    return { name, next: i };
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as CodeToken;
    if (
      language === "python" &&
      t.kind === "name" &&
      t.text === "import" &&
      tokens[i - 2]?.text !== "from" &&
      tokens[i - 1]?.text !== "from"
    ) {
      let j = i + 1;
      while (tokens[j]?.kind === "name") {
        const { name, next } = dotted(j);
        j = next;
        if (tokens[j]?.text === "as" && tokens[j + 1]?.kind === "name") {
          out.set(tokens[j + 1]?.text ?? "", name);
          j += 2;
        }
        if (!isPunct(tokens[j], ",")) break;
        j++;
      }
    }
    if (language === "python" && t.kind === "name" && t.text === "from" && tokens[i + 1]?.kind === "name") {
      const { name: module, next } = dotted(i + 1);
      if (tokens[next]?.text !== "import") continue;
      let j = next + 1;
      if (isPunct(tokens[j], "(")) j++;
      while (tokens[j]?.kind === "name") {
        const imported = tokens[j]?.text ?? "";
        let local = imported;
        j++;
        if (tokens[j]?.text === "as" && tokens[j + 1]?.kind === "name") {
          local = tokens[j + 1]?.text ?? "";
          j += 2;
        }
        out.set(local, `${module}.${imported}`);
        if (!isPunct(tokens[j], ",")) break;
        j++;
      }
    }
    if (language === "node") {
      // X = require('M')  /  { a, b: c } = require('M')
      if (
        t.kind === "name" &&
        (t.text === "require" || t.text === "import") &&
        isPunct(tokens[i + 1], "(") &&
        tokens[i + 2]?.kind === "string" &&
        isPunct(tokens[i + 3], ")") &&
        isPunct(tokens[i - 1], "=")
      ) {
        const module = moduleName(tokens[i + 2]?.value ?? "");
        const target = tokens[i - 2];
        if (target?.kind === "name") out.set(target.text, module);
        else if (isPunct(target, "}")) {
          const open = matchingBack(tokens, i - 2);
          if (open >= 0)
            for (const [local, imported] of destructured(tokens.slice(open + 1, i - 2)))
              out.set(local, `${module}.${imported}`);
        }
      }
      // import X from 'M'; import * as X from 'M'; import { a as b } from 'M'
      if (t.kind === "name" && t.text === "import" && !isPunct(tokens[i + 1], "(")) {
        let j = i + 1;
        while (j < tokens.length && !(tokens[j]?.kind === "name" && tokens[j]?.text === "from")) j++;
        const source = tokens[j + 1];
        if (source?.kind !== "string" || source.value === undefined) continue;
        const module = moduleName(source.value);
        const clause = tokens.slice(i + 1, j);
        for (let k = 0; k < clause.length; k++) {
          const c = clause[k] as CodeToken;
          if (isPunct(c, "*") && clause[k + 1]?.text === "as" && clause[k + 2]?.kind === "name")
            out.set(clause[k + 2]?.text ?? "", module);
          else if (c.kind === "name" && k === 0) out.set(c.text, module);
          else if (isPunct(c, "{")) {
            const close = matching(clause, k);
            if (close < 0) break;
            for (const [local, imported] of destructured(clause.slice(k + 1, close), "as"))
              out.set(local, `${module}.${imported}`);
            k = close;
          }
        }
      }
    }
  }
  return out;
}

/** `a, b: c` (or `a, b as c`) → [[a, a], [c, b]]. */
function destructured(tokens: readonly CodeToken[], renamer = ":"): [string, string][] {
  const out: [string, string][] = [];
  for (const entry of splitArgs(tokens)) {
    const [first, sep, second] = entry;
    if (first?.kind !== "name") continue;
    if (sep !== undefined && sep.text === renamer && second?.kind === "name") out.push([second.text, first.text]);
    else if (sep === undefined) out.push([first.text, first.text]);
  }
  return out;
}

interface Callee {
  readonly segments: readonly string[];
  /** Arguments of a receiver call (`Path('/x')` in `Path('/x').unlink()`), with the receiver's name. */
  readonly receiver: { readonly name: string; readonly args: readonly CodeToken[][] } | undefined;
  readonly start: number;
}

/** The dotted chain ending with the name at `at`. */
function callee(
  tokens: readonly CodeToken[],
  at: number,
  names: ReadonlyMap<string, string>,
  apis: LanguageApis,
): Callee {
  const segments = [tokens[at]?.text ?? ""];
  let receiver: Callee["receiver"];
  let j = at - 1;
  let start = at;
  while (j >= 0 && tokens[j]?.kind === "punct" && SEPARATORS.has(tokens[j]?.text ?? "")) {
    const k = j - 1;
    const t = tokens[k];
    if (t?.kind === "name") {
      segments.unshift(t.text);
      start = k;
      j = k - 1;
      continue;
    }
    if (isPunct(t, ")")) {
      const open = matchingBack(tokens, k);
      if (open > 0 && tokens[open - 1]?.kind === "name") {
        const inner = callee(tokens, open - 1, names, apis);
        const innerName = resolve(inner.segments, names);
        const args = splitArgs(tokens.slice(open + 1, k));
        start = inner.start;
        if (apis.loaders?.includes(innerName) === true) {
          const module = stringValue(args[0] ?? [])?.value;
          segments.unshift(module === undefined ? "?" : (apis.modules?.[module] ?? module.replaceAll("/", ".")));
          return { segments, receiver: undefined, start };
        }
        return { segments: [innerName, ...segments], receiver: { name: innerName, args }, start };
      }
    }
    break;
  }
  return { segments, receiver, start };
}

/** The canonical dotted name of a chain, with its first segment resolved through the aliases. */
function resolve(segments: readonly string[], names: ReadonlyMap<string, string>): string {
  const [first, ...rest] = segments;
  const head = first === undefined ? "" : (names.get(first) ?? first);
  return [head, ...rest].join(".");
}

/** Table lookup by dotted name (`File::Path::rmtree` is looked up as `File.Path.rmtree`). */
function lookup(apis: LanguageApis): Map<string, string> {
  const out = new Map<string, string>();
  for (const key of Object.keys(apis.apis)) out.set(key.replaceAll("::", "."), key);
  return out;
}

function execOf(spec: ApiSpec, args: readonly Arg[], language: CodeTokenLanguage): FoundExec {
  const [first, second] = args;
  const shellOption = args.some(
    (a) =>
      (a.kind === "keyword" && a.name === "shell" && isTrue(a.tokens)) ||
      (a.kind === "object" && isTrue(a.entries.get("shell"))),
  );
  const listAt = (i: number): Arg | undefined => (args[i]?.kind === "list" ? args[i] : undefined);
  if (spec.exec === "shell") return { kind: "shell", code: first?.kind === "string" ? first.value : undefined };
  if (spec.exec === "code") return { kind: "code", code: first?.kind === "string" ? first.value : undefined };
  if (spec.exec === "auto") {
    if (first?.kind === "list" && !shellOption) return { kind: "argv", argv: first.items };
    if (first?.kind === "list") return { kind: "shell", code: first.items[0]?.value };
    return { kind: "shell", code: first?.kind === "string" ? first.value : undefined };
  }
  // argv form: a list; a program and a list; several strings; one string (perl/ruby: a shell command)
  if (first?.kind === "list") return { kind: "argv", argv: first.items };
  // `new Deno.Command('git', { args: [...] })`, `Deno.run({ cmd: [...] })`
  const entry = (a: Arg | undefined, key: string): Arg | undefined => {
    const tokens = a?.kind === "object" ? a.entries.get(key) : undefined;
    return tokens === undefined ? undefined : classify(tokens, language);
  };
  const cmd = entry(first, "cmd");
  if (cmd?.kind === "list") return { kind: "argv", argv: cmd.items };
  const listed = entry(second, "args");
  if (first?.kind === "string" && listed?.kind === "list")
    return { kind: "argv", argv: [{ text: first.text, value: first.value }, ...listed.items] };
  if (first?.kind !== "string") return { kind: "shell", code: undefined };
  const list = listAt(1);
  const program = { text: first.text, value: first.value };
  if (list?.kind === "list") {
    if (shellOption)
      return {
        kind: "shell",
        code: [first.value, ...list.items.map((i) => i.value)].some((v) => v === undefined)
          ? undefined
          : [first.value, ...list.items.map((i) => i.value)].join(" "),
      };
    return { kind: "argv", argv: [program, ...list.items] };
  }
  const strings = args.filter((a): a is Extract<Arg, { kind: "string" }> => a.kind === "string");
  if (strings.length > 1) return { kind: "argv", argv: strings.map((s) => ({ text: s.text, value: s.value })) };
  if (shellOption || language === "perl" || language === "ruby" || second?.kind === "object") {
    return shellOption || language !== "node"
      ? { kind: "shell", code: first.value }
      : { kind: "argv", argv: [program] };
  }
  return { kind: "argv", argv: [program] };
}

/** An integer literal argument (`-1`, `9`, `(-1)`), as text; undefined for anything else. */
function integerValue(tokens: readonly CodeToken[]): string | undefined {
  let inner = tokens;
  while (inner.length > 2 && isPunct(inner[0], "(") && matching(inner, 0) === inner.length - 1)
    inner = inner.slice(1, -1);
  const [a, b] = inner;
  if (inner.length === 1 && a?.kind === "number" && /^\d+$/.test(a.text)) return a.text;
  if (inner.length === 2 && isPunct(a, "-") && b?.kind === "number" && /^\d+$/.test(b.text)) return `-${b.text}`;
  return undefined;
}

/** A signal call as the command `kill -- <pid>...` (see the `signal` form of `tables/apis.ts`). */
function signalOf(spec: ApiSpec, argTokens: readonly CodeToken[][]): FoundExec {
  const pids =
    spec.paths === "from-1"
      ? argTokens.slice(1)
      : (Array.isArray(spec.paths) ? spec.paths : [0]).map((i) => argTokens[i] ?? []);
  const operands = (pids.length === 0 ? [[]] : pids).map((tokens) => {
    const value = integerValue(tokens);
    return { text: value ?? tokens.map((t) => t.text).join(""), value };
  });
  return { kind: "argv", argv: [{ text: "kill", value: "kill" }, { text: "--", value: "--" }, ...operands] };
}

function pathArgs(spec: ApiSpec, args: readonly Arg[]): (string | undefined)[] {
  const value = (a: Arg | undefined): string | undefined => (a?.kind === "string" ? a.value : undefined);
  const positional = args.filter((a) => a.kind !== "keyword" && a.kind !== "object");
  if (spec.paths === "all") return positional.length === 0 ? [undefined] : positional.map(value);
  if (spec.paths === "from-1") return positional.length <= 1 ? [undefined] : positional.slice(1).map(value);
  return (spec.paths ?? [0]).map((i) => value(positional[i]));
}

function callOf(
  api: string,
  spec: ApiSpec,
  argTokens: readonly CodeToken[][],
  text: string,
  language: CodeTokenLanguage,
  receiverPath?: CodeToken[],
): FoundCall {
  const args = argTokens.map((t) => classify(spec.access === "exec" ? t : withHome(t, language), language));
  let access = spec.access;
  const name = api.toLowerCase();
  let overwrite = access === "write" && name.includes("write") && !name.includes("append");
  if (spec.mode !== undefined) {
    const mode = args[spec.mode.index];
    const modeText = mode?.kind === "string" ? mode.value : mode === undefined ? "" : undefined;
    if (modeText === undefined || [...spec.mode.write].some((c) => modeText.includes(c))) access = "write";
    // `open(p, "w")`, perl `open(F, ">", p)`: the file starts empty
    overwrite =
      modeText !== undefined &&
      (modeText.includes("w") || (modeText.startsWith(">") && !modeText.startsWith(">>")) || modeText === "+>");
  }
  const recursive =
    spec.recursive === true ||
    (spec.recursiveOption !== undefined &&
      args.some((a) => a.kind === "object" && isTrue(a.entries.get(spec.recursiveOption as string))));
  if (spec.access === "exec") {
    const exec = spec.exec === "signal" ? signalOf(spec, argTokens) : execOf(spec, args, language);
    const shown = exec.kind === "argv" ? exec.argv.map((a) => a.value) : [exec.code];
    return { api, access, recursive: false, overwrite: false, args: shown, exec, text };
  }
  const receiver = receiverPath === undefined ? undefined : stringValue(withHome(receiverPath, language))?.value;
  const paths =
    receiverPath === undefined
      ? pathArgs(spec, args)
      : spec.receiver === "first"
        ? [receiver, ...pathArgs(spec, args)]
        : spec.receiver === "last"
          ? [...pathArgs(spec, args), receiver]
          : [receiver];
  return { api, access, recursive, overwrite, args: paths, exec: undefined, text };
}

/** The end (exclusive) of a paren-less perl/ruby call's arguments starting at `from`. */
function statementEnd(tokens: readonly CodeToken[], from: number): number {
  let depth = 0;
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i] as CodeToken;
    if (t.kind === "punct" && t.text in OPEN) depth++;
    else if (t.kind === "punct" && (t.text === ")" || t.text === "]" || t.text === "}")) {
      if (depth === 0) return i;
      depth--;
    } else if (
      depth === 0 &&
      (t.kind === "newline" || isPunct(t, ";") || (t.kind === "name" && STATEMENT_WORDS.has(t.text)))
    )
      return i;
  }
  return tokens.length;
}

const startsArgument = (t: CodeToken | undefined): boolean =>
  t !== undefined &&
  (t.kind === "string" ||
    t.kind === "var" ||
    t.kind === "words" ||
    t.kind === "exec" ||
    t.kind === "number" ||
    (t.kind === "name" && !STATEMENT_WORDS.has(t.text)) ||
    isPunct(t, "["));

/**
 * Every API call of the tables found in `code` by its tokens (perl, ruby, php), or `undefined`
 * when the code cannot be tokenized. `charge` is called with the number of tokens (it may throw
 * to stop the analysis).
 */
export function findTokenCalls(
  code: string,
  language: CodeTokenLanguage,
  charge: (units: number) => void,
  env?: CodeEnv,
): FoundCall[] | undefined {
  const written = tokenizeCode(code, language);
  if (written === undefined) return undefined;
  charge(written.length);
  const apis = LANGUAGE_APIS[language];
  const names = aliases(written, language, apis);
  // the home and working directory however spelled, joins and string variables, as literals
  const tokens = env === undefined ? written : knownValues(written, language, names, env);
  const table = lookup(apis);
  const found: FoundCall[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as CodeToken;
    if (t.kind === "exec") {
      found.push({
        api: apis.backticks ?? "backticks",
        access: "exec",
        recursive: false,
        overwrite: false,
        args: [t.value],
        exec: { kind: "shell", code: t.value },
        text: t.text,
      });
      continue;
    }
    if (t.kind !== "name") continue;
    const next = tokens[i + 1];
    if (next !== undefined && next.kind === "punct" && SEPARATORS.has(next.text) && tokens[i + 2]?.kind === "name")
      continue;
    const before = tokens[i - 1];
    if (before?.kind === "name" && DEFINERS.has(before.text)) continue;
    const chain = callee(tokens, i, names, apis);
    const name = resolve(chain.segments, names);
    const single = chain.segments.length === 1 && chain.receiver === undefined;
    let key = table.get(name) ?? (single ? table.get((apis.bare?.[name] ?? "").replaceAll("::", ".")) : undefined);
    let receiverPath: CodeToken[] | undefined;
    if (key === undefined && chain.segments.length >= 2) {
      const method = apis.methods?.[chain.segments.at(-1) as string];
      if (method !== undefined && table.has(method)) {
        const receiverName = chain.receiver?.name;
        const pathReceiver =
          receiverName !== undefined &&
          (apis.pathReceivers?.includes(receiverName) === true || receiverName === "Path");
        const knownModule = receiverName === undefined && names.has(chain.segments[0] ?? "");
        if (!knownModule) {
          key = table.get(method);
          receiverPath = pathReceiver ? (chain.receiver?.args[0] ?? []) : [];
        }
      }
    }
    if (key === undefined) continue;
    // `Path('/x').unlink()`: the path is the receiver's argument
    const receiver = chain.receiver;
    if (
      receiverPath === undefined &&
      receiver !== undefined &&
      (apis.pathReceivers?.includes(receiver.name) === true || receiver.name === "Path")
    )
      receiverPath = receiver.args[0] ?? [];
    const spec = apis.apis[key] as ApiSpec;
    let argTokens: CodeToken[][];
    let end: number;
    if (isPunct(next, "(")) {
      const close = matching(tokens, i + 1);
      if (close < 0) continue;
      argTokens = splitArgs(tokens.slice(i + 2, close));
      end = close;
    } else if ((language === "perl" || language === "ruby") && startsArgument(next)) {
      const stop = statementEnd(tokens, i + 1);
      argTokens = splitArgs(tokens.slice(i + 1, stop));
      end = stop - 1;
    } else continue;
    const text = code.slice(tokens[chain.start]?.pos ?? t.pos, tokens[end]?.end ?? t.end);
    found.push(callOf(key, spec, argTokens, text, language, receiverPath));
  }
  return found;
}

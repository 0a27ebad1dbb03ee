/**
 * What the library calls of Python and JavaScript code do (`interpret.ts` finds them): file
 * effects and the processes they start from `tables/apis.ts`; cloud, Kubernetes and database SDK
 * calls, and SQL run through drivers, as the CLI commands that do the same (`tables/libraries.ts`);
 * network requests with what they send; reverse shells (a socket tied to a shell). Values become
 * the words of those commands: known, known in part (`head`/`tail`), or only known at run time.
 */
import { posix } from "node:path";
import type { CodeEvent } from "./interpret.ts";
import { globOf } from "./interpret.ts";
import { asText, options, taint, union, UNKNOWN, type Value } from "./value.ts";
import { LANGUAGE_APIS, type ApiSpec } from "../tables/apis.ts";
import { AWS_SERVICES, AZURE_GROUPS, LIBRARIES, METADATA_KEYS, SHELL_PROGRAMS } from "../tables/libraries.ts";
import { urlPeer } from "../url.ts";
import type { InterpreterCall, NetworkPeer } from "../types.ts";

type Language = "python" | "node";

/** A word of a command a call runs: its value when known, else what is known of it. */
export interface CodeWord {
  readonly text: string;
  readonly value: string | undefined;
  readonly env?: readonly string[];
  readonly known?: { readonly head: string; readonly tail: string };
}

/** What an exec API runs. */
export type FoundExec =
  | { readonly kind: "shell"; readonly code: string | undefined }
  /** Code of the call's own language (`exec('...')`), followed when literal. */
  | { readonly kind: "code"; readonly code: string | undefined }
  | { readonly kind: "argv"; readonly argv: readonly CodeWord[] };

/** What is known of one path argument beyond its value. */
export interface PathDetail {
  /** A pattern for the entries of a listing (`/srv/*`). */
  readonly glob?: boolean;
  /** Some of those entries, selected by a test the analysis does not follow. */
  readonly filtered?: boolean;
}

/** One API call found in the code. */
export interface FoundCall {
  readonly api: string;
  readonly access: InterpreterCall["access"];
  readonly recursive: boolean;
  /** A write that replaces the content: a `write...` API that does not append, or an open mode `w`/`>`. */
  readonly overwrite: boolean;
  /** Path arguments (file APIs) or the command (exec APIs), as static strings or `undefined`. */
  readonly args: readonly (string | undefined)[];
  /** Per path argument, when one is a pattern. */
  readonly details?: readonly PathDetail[];
  readonly exec: FoundExec | undefined;
  /** The directory the command runs in, when the call names one (`subprocess.run(..., cwd="infra")`). */
  readonly cwd?: string;
  /** The call as written. */
  readonly text: string;
  /** For a write: the text it writes, when known (`appendFileSync(p, "...")`, `open(p, "a").write("...")`). */
  readonly content?: string;
  /** Only the content it stores is news: the path's write is another call's (`open(p, "a")` of `open(p, "a").write(...)`). */
  readonly storesOnly?: boolean;
}

/** What code sends to a network peer: where, and the variables whose values go as data. */
export interface CodeSend {
  /** The peers; empty when none is known. */
  readonly peers: NetworkPeer[];
  /** The whole environment goes. */
  readonly environment: boolean;
  /** Variables whose values go as data (not as headers or credentials of the request). */
  readonly names: string[];
}

// ------------------------------------------------------------------ patterns and templates

const PATTERNS = new Map<string, RegExp>();

const ROOT_CACHE = new Map<string, readonly string[]>();

/** The literal starts a name must have to match a pattern (`{requests,httpx}.get`: `requests`, `httpx`). */
function patternRoots(pattern: string): readonly string[] {
  let roots = ROOT_CACHE.get(pattern);
  if (roots === undefined) {
    const head = pattern.startsWith("{") ? pattern.slice(1, pattern.indexOf("}")).split(",") : [pattern];
    roots = head.map((h) => h.slice(0, h.search(/[.*{(]|$/)));
    ROOT_CACHE.set(pattern, roots);
  }
  return roots;
}

/** Whether a canonical call name matches a table pattern (see `tables/libraries.ts`). */
export function matchName(pattern: string, name: string): boolean {
  // most names share no first word with most patterns: no expression is built for them
  if (!patternRoots(pattern).some((r) => name.startsWith(r))) return false;
  let re = PATTERNS.get(pattern);
  if (re === undefined) {
    let source = "";
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern[i] as string;
      if (c === "*" && pattern[i + 1] === "*") {
        source += ".*";
        i++;
      } else if (c === "*") source += "[^.()]*";
      else if (c === "{") source += "(?:";
      else if (c === "}") source += ")";
      else if (c === ",") source += "|";
      else source += c.replace(/[.*+?^$()|[\]\\/]/g, "\\$&");
    }
    re = new RegExp(`^${source}$`);
    PATTERNS.set(pattern, re);
  }
  return re.test(name);
}

/** The steps of a chain name, each with the index of its call when it is one (`a.b().c` → a, b(0), c). */
function steps(name: string): { name: string; call: number | undefined }[] {
  const out: { name: string; call: number | undefined }[] = [];
  let calls = 0;
  for (const raw of name.split(".")) {
    const m = /^([^()[\]]*)((?:\(\)|\[\])*)$/.exec(raw);
    const base = m === null ? raw : (m[1] as string);
    const count = m === null ? 0 : ((m[2] as string).match(/\(\)/g) ?? []).length;
    if (count === 0) out.push({ name: base, call: undefined });
    for (let i = 0; i < count; i++) out.push({ name: i === 0 ? base : "", call: calls++ });
  }
  return out;
}

/** The calls of a chain and their arguments, by index and by the step's name. */
function chainCalls(e: CodeEvent): {
  byIndex: readonly { args: readonly Value[]; kw: ReadonlyMap<string, Value> }[];
  byName: Map<string, number>;
} {
  const callee = e.callee;
  const calls = callee.t === "lib" ? callee.calls : [];
  const byName = new Map<string, number>();
  if (callee.t === "lib")
    for (const s of steps(callee.name)) if (s.call !== undefined && s.name !== "") byName.set(s.name, s.call);
  return { byIndex: calls, byName };
}

/** The value a reference (`$Bucket.0`, `$.url`, `$1.0`) names, when given. */
function reference(ref: string, e: CodeEvent): Value | undefined {
  const dot = ref.indexOf(".");
  if (!ref.startsWith("$") || dot < 0) return undefined;
  const which = ref.slice(1, dot);
  const key = ref.slice(dot + 1);
  let call: { args: readonly Value[]; kw: ReadonlyMap<string, Value> } | undefined;
  if (which === "") call = { args: e.args, kw: e.kw };
  else {
    const { byIndex, byName } = chainCalls(e);
    const at = /^\d+$/.test(which) ? Number(which) : byName.get(which);
    call = at === undefined ? undefined : byIndex[at];
  }
  if (call === undefined) return undefined;
  return /^\d+$/.test(key) ? call.args[Number(key)] : call.kw.get(key);
}

/** A template's value: literal text and references (`s3://{$Bucket.0|$Bucket.name}`). */
function template(text: string, e: CodeEvent, language: Language): Value {
  let out: Value = { t: "str", v: "" };
  let at = 0;
  for (let open = text.indexOf("{", at); open >= 0; open = text.indexOf("{", at)) {
    const close = text.indexOf("}", open);
    if (close < 0) break;
    out = concatText(out, { t: "str", v: text.slice(at, open) });
    const refs = text.slice(open + 1, close).split("|");
    const found = refs.map((r) => reference(r, e)).find((v) => v !== undefined);
    out = concatText(out, found === undefined ? UNKNOWN : asText(found, language));
    at = close + 1;
  }
  return concatText(out, { t: "str", v: text.slice(at) });
}

function concatText(a: Value, b: Value): Value {
  if (a.t === "str" && b.t === "str") return { t: "str", v: a.v + b.v };
  const env = union([taint(a), taint(b)]);
  const head = a.t === "str" ? (b.t === "part" ? a.v + b.head : a.v) : a.t === "part" ? a.head : "";
  const tail = b.t === "str" ? (a.t === "part" ? a.tail + b.v : b.v) : b.t === "part" ? b.tail : "";
  return head === "" && tail === "" ? { t: "unknown", env } : { t: "part", head, tail, env };
}

// ------------------------------------------------------------------ words

/** A value as a word (a choice is not known: the caller expands choices first). */
export function word(v: Value, language: Language): CodeWord {
  const t = asText(v, language);
  if (t.t === "str")
    return t.env === undefined || t.env.length === 0
      ? { text: t.v, value: t.v }
      : { text: t.v, value: t.v, env: t.env };
  const env = taint(t);
  const shown =
    t.t === "part" ? `${t.head}<dynamic>${t.tail}` : env.length === 1 ? `$${env[0] as string}` : "<dynamic>";
  return {
    text: shown,
    value: undefined,
    ...(env.length > 0 && { env }),
    ...(t.t === "part" && { known: { head: t.head, tail: t.tail } }),
  };
}

/** The items of a list value when their number is known. */
function items(v: Value): readonly Value[] | undefined {
  return v.t === "list" && v.of === undefined ? v.items : undefined;
}

/** Every combination of the options of `values` (at most a few). */
function combinations(values: readonly Value[]): Value[][] {
  let out: Value[][] = [[]];
  for (const v of values) {
    const next: Value[][] = [];
    for (const c of out) for (const o of options(v)) next.push([...c, o]);
    out = next;
    if (out.length > 4) return [values.map((v) => (v.t === "choice" ? UNKNOWN : v))];
  }
  return out;
}

/**
 * A shell command string from a value: known in full, or with each unknown part as a variable
 * the shell leaves unknown (`"rm -rf " + x` is `rm -rf $LANES_CODE_1`; a part read from `$TOKEN`
 * is `$TOKEN`), unless such a part would sit inside single quotes, where no variable expands.
 */
function shellText(v: Value, language: Language): string | undefined {
  const t = asText(v, language);
  if (t.t === "str") return t.v;
  if (t.t !== "part") return undefined;
  const env = taint(t).filter((n) => n !== "*");
  const hole =
    env.length === 1 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(env[0] as string)
      ? `\${${env[0] as string}}`
      : "${LANES_CODE_VALUE}";
  if (insideSingleQuotes(t.head)) return undefined;
  return `${t.head}${hole}${t.tail}`;
}

/** Whether the shell text `prefix` ends inside single quotes (or after a backslash). */
function insideSingleQuotes(prefix: string): boolean {
  let single = false;
  let double = false;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix[i];
    if (single) {
      if (c === "'") single = false;
    } else if (c === "\\") {
      if (i === prefix.length - 1) return true;
      i++;
    } else if (c === "'" && !double) single = true;
    else if (c === '"') double = !double;
  }
  return single;
}

// ------------------------------------------------------------------ files and processes

const kebab = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .replaceAll("_", "-")
    .toLowerCase();

function isTrue(v: Value | undefined): boolean {
  return v !== undefined && ((v.t === "bool" && v.v) || (v.t === "num" && v.v === 1));
}

const ROOTS = new Map<Language, Set<string>>();

/** The first names of the table's APIs (`os`, `shutil`, `fs`). */
function apiRoots(language: Language): Set<string> {
  let roots = ROOTS.get(language);
  if (roots === undefined) {
    roots = new Set(Object.keys(LANGUAGE_APIS[language].apis).map((k) => k.split(".")[0] as string));
    ROOTS.set(language, roots);
  }
  return roots;
}

/** The table key an event's name stands for: the name itself, a bare name, or a method of any receiver. */
function apiKey(name: string, language: Language): string | undefined {
  const apis = LANGUAGE_APIS[language];
  const key = name.replaceAll("::", ".");
  if (Object.hasOwn(apis.apis, key)) return key;
  if (!key.includes(".") && !key.includes("(") && apis.bare !== undefined && Object.hasOwn(apis.bare, key))
    return apis.bare[key];
  // a method of a value not known (`p.unlink()`), or of a name the code never bound to a module
  const parts = key.split(".");
  const unbound =
    parts.length === 2 &&
    !key.includes("(") &&
    !Object.keys(apis.apis).some((k) => k.startsWith(`${parts[0] as string}.`));
  if (key.startsWith("?.") || unbound) {
    const method = parts.at(-1) as string;
    return apis.methods !== undefined && Object.hasOwn(apis.methods, method) ? apis.methods[method] : undefined;
  }
  return undefined;
}

/** A path argument's value and what is known of it. */
function pathArg(v: Value | undefined, language: Language): { value: string | undefined; detail: PathDetail }[] {
  if (v === undefined) return [{ value: undefined, detail: {} }];
  const list = items(v);
  // `deleteAsync(["dist/**", "!dist/keep"])`, `rimraf([...])`: each pattern is a path
  if (list !== undefined)
    return list.flatMap((x) => (x.t === "str" && x.v.startsWith("!") ? [] : pathArg(x, language)));
  if (v.t === "list") return pathArg(v.of, language);
  return options(v).map((o) => {
    const inner = o.t === "path" ? o.p : o;
    const glob = globOf(o) !== undefined;
    const filtered = inner.t === "str" && inner.filtered === true;
    if (inner.t === "str") return { value: inner.v, detail: { ...(glob && { glob }), ...(filtered && { filtered }) } };
    // a path known in part (`/home/${user}`): its known start and end, any text between
    if (inner.t === "part" && (inner.head.startsWith("/") || inner.head.startsWith("~")) && inner.head.length > 1) {
      const escape = (s: string): string => s.replace(/[*?[\]]/g, "\\$&");
      return { value: `${escape(inner.head)}*${escape(inner.tail)}`, detail: { glob: true } };
    }
    return { value: undefined, detail: {} };
  });
}

function fileCalls(e: CodeEvent, key: string, spec: ApiSpec, language: Language): FoundCall[] {
  const positional = e.args;
  let access = spec.access;
  const lower = key.toLowerCase();
  let overwrite =
    spec.overwrite === true || (access === "write" && lower.includes("write") && !lower.includes("append"));
  const recv = e.recv?.t === "path" ? e.recv : undefined;
  // `Path(p).open("w")`: the mode is the method's first argument
  const modeArgs = recv !== undefined && key.endsWith(".open") ? [recv.p, ...positional] : positional;
  if (spec.mode !== undefined) {
    const mode = modeArgs[spec.mode.index] ?? e.kw.get("mode") ?? e.kw.get("flag");
    const modeText = mode === undefined ? "" : mode.t === "str" ? mode.v : undefined;
    if (modeText === undefined || [...spec.mode.write].some((c) => modeText.includes(c))) access = "write";
    overwrite =
      modeText !== undefined &&
      (modeText.includes("w") || (modeText.startsWith(">") && !modeText.startsWith(">>")) || modeText === "+>");
  }
  const opts = positional.find((a) => a.t === "dict");
  const recursive =
    spec.recursive === true ||
    (spec.recursiveOption !== undefined &&
      (isTrue(e.kw.get(spec.recursiveOption)) ||
        (opts?.t === "dict" && isTrue(opts.entries.get(spec.recursiveOption)))));
  // `Path(link).symlink_to(target)`: the receiver's path goes among the arguments' (apis.ts `receiver`)
  const withReceiver =
    recv === undefined || spec.receiver === undefined || !(spec.paths === undefined || Array.isArray(spec.paths))
      ? undefined
      : ((given: (Value | undefined)[]) => (spec.receiver === "first" ? [recv.p, ...given] : [...given, recv.p]))(
          ((spec.paths as readonly number[] | undefined) ?? [0]).map((i) => positional[i]),
        );
  const values: (Value | undefined)[] =
    withReceiver !== undefined
      ? withReceiver
      : recv !== undefined && spec.paths === undefined
        ? [recv.p]
        : spec.paths === "all"
          ? positional.filter((a) => a.t !== "dict")
          : spec.paths === "from-1"
            ? positional.slice(1)
            : (spec.paths ?? [0]).map((i) =>
                recv !== undefined
                  ? [recv.p, ...positional][i]
                  : (positional[i] ?? e.kw.get(["path", "src", "dst"][i] ?? "")),
              );
  const paths = (values.length === 0 ? [undefined] : values)
    .flatMap((v) => pathArg(v, language))
    .map((p) =>
      spec.glob === true && p.value !== undefined && /[*?[]/.test(p.value)
        ? { ...p, detail: { ...p.detail, glob: true } }
        : p,
    );
  const main: FoundCall = {
    api: key,
    access,
    recursive,
    overwrite,
    args: paths.map((p) => p.value),
    ...(paths.some((p) => p.detail.glob === true) && { details: paths.map((p) => p.detail) }),
    exec: undefined,
    text: e.text,
  };
  // `fs.appendFileSync(p, TEXT)`, `Path(p).write_text(TEXT)`: the text the write stores
  const written = access === "write" ? positional[recv !== undefined ? 0 : 1] : undefined;
  const out = [written?.t === "str" && spec.mode === undefined ? { ...main, content: written.v } : main];
  // copies and moves also write their destination
  if (spec.also !== undefined) {
    const all = recv !== undefined ? [recv.p, ...positional] : positional;
    const dest = spec.also.paths.flatMap((i) => pathArg(all[i] ?? e.kw.get(i === 1 ? "dst" : "dest"), language));
    out.push({
      api: key,
      access: spec.also.access,
      recursive: spec.also.recursive === true,
      overwrite: spec.also.access === "write",
      args: dest.map((p) => p.value),
      exec: undefined,
      text: e.text,
    });
  }
  return out;
}

/** Argument words of a list or of several strings (`spawn("git", ["push"])`, `os.execlp("rm", "rm", "-rf")`). */
function argvOf(values: readonly Value[], language: Language): CodeWord[][] | undefined {
  const flat: Value[] = [];
  for (const v of values) {
    const list = items(v);
    if (list !== undefined) flat.push(...list);
    else if (v.t === "list") return undefined;
    else flat.push(v);
  }
  if (flat.length === 0) return undefined;
  return combinations(flat).map((c) => c.map((x) => word(x, language)));
}

function execCalls(e: CodeEvent, key: string, spec: ApiSpec, language: Language): FoundCall[] {
  const [first, second] = e.args;
  const opts = e.args.find((a) => a.t === "dict");
  const shellOption = isTrue(e.kw.get("shell")) || (opts?.t === "dict" && isTrue(opts.entries.get("shell")));
  const cwdValue = e.kw.get("cwd") ?? (opts?.t === "dict" ? opts.entries.get("cwd") : undefined);
  const cwd =
    cwdValue !== undefined && asText(cwdValue, language).t === "str"
      ? (asText(cwdValue, language) as { v: string }).v
      : undefined;
  const base = {
    api: key,
    access: "exec" as const,
    recursive: false,
    overwrite: false,
    text: e.text,
    ...(cwd !== undefined && { cwd }),
  };
  const shell = (v: Value | undefined): FoundCall[] =>
    (v === undefined ? [UNKNOWN] : options(v)).map((o) => {
      const code = shellText(o, language);
      return { ...base, args: [code], exec: { kind: "shell", code } };
    });
  const argv = (values: readonly Value[]): FoundCall[] => {
    const all = argvOf(values, language);
    if (all === undefined) return [{ ...base, args: [undefined], exec: { kind: "shell", code: undefined } }];
    return all.map((words) => ({ ...base, args: words.map((w) => w.value), exec: { kind: "argv", argv: words } }));
  };
  if (spec.exec === "signal") {
    if (spec.pids === "every") {
      const every = [
        { text: "kill", value: "kill" },
        { text: "--", value: "--" },
        { text: "-1", value: "-1" },
      ];
      return [{ ...base, args: every.map((w) => w.value), exec: { kind: "argv", argv: every } }];
    }
    const made = e.callee.t === "lib" ? e.callee.calls[0]?.args[0] : undefined;
    const pids =
      spec.pids === "constructor"
        ? [made ?? UNKNOWN]
        : spec.paths === "from-1"
          ? e.args.slice(1)
          : (Array.isArray(spec.paths) ? spec.paths : [0]).map((i) => e.args[i] ?? UNKNOWN);
    const words = (pids.length === 0 ? [UNKNOWN] : pids).map((p): CodeWord => {
      const integer =
        p.t === "num" && Number.isInteger(p.v) ? String(p.v) : p.t === "str" && /^-?\d+$/.test(p.v) ? p.v : undefined;
      if (integer !== undefined) return { text: integer, value: integer };
      // `os.getppid()`: the shell's `$PPID`
      const env = taint(p);
      return env.length === 1
        ? { text: `$${env[0] as string}`, value: undefined, env }
        : { text: "<pid>", value: undefined };
    });
    const argvWords = [{ text: "kill", value: "kill" }, { text: "--", value: "--" }, ...words];
    return [{ ...base, args: argvWords.map((w) => w.value), exec: { kind: "argv", argv: argvWords } }];
  }
  if (spec.exec === "shell") return shell(first ?? e.kw.get("command") ?? e.kw.get("cmd"));
  if (spec.exec === "code") {
    const code = first?.t === "str" ? first.v : undefined;
    return [{ ...base, args: [code], exec: { kind: "code", code } }];
  }
  const cmd = first ?? e.kw.get("args") ?? e.kw.get("cmd");
  if (spec.exec === "auto") {
    if (cmd !== undefined && cmd.t === "list" && !shellOption) return argv([cmd]);
    if (cmd !== undefined && cmd.t === "list") return shell(items(cmd)?.[0]);
    return shell(cmd);
  }
  // argv form: a list; a program and a list (`spawn("git", ["push"])`); several strings; an options object
  if (cmd?.t === "list") return argv([cmd]);
  if (cmd?.t === "dict") {
    const list = cmd.entries.get("cmd") ?? cmd.entries.get("args");
    return list === undefined ? argv([]) : argv([list]);
  }
  const listed = second?.t === "dict" ? second.entries.get("args") : undefined;
  if (cmd !== undefined && listed !== undefined) return argv([cmd, listed]);
  if (cmd !== undefined && second?.t === "list") {
    if (shellOption) {
      const joined = [cmd, ...(items(second) ?? [])].map((x) => shellText(x, language));
      const code = joined.some((x) => x === undefined) ? undefined : joined.join(" ");
      return [{ ...base, args: [code], exec: { kind: "shell", code } }];
    }
    return argv([cmd, second]);
  }
  const strings = e.args.filter((a) => a.t !== "dict" && a.t !== "func");
  if (strings.length > 1) return argv(strings);
  if (cmd === undefined) return [];
  if (shellOption || language !== "node" || key.startsWith("execa.execaCommand") || key === "zx.$") return shell(cmd);
  return argv([cmd]);
}

// ------------------------------------------------------------------ commands of SDKs and drivers

function command(
  e: CodeEvent,
  words: readonly (string | Value)[],
  language: Language,
  extra: readonly CodeWord[] = [],
): FoundCall[] {
  const values = words.map((w) => (typeof w === "string" ? { t: "str" as const, v: w } : w));
  return combinations(values).map((c) => {
    const argvWords = [...c.map((x) => word(x, language)), ...extra];
    return {
      api: e.name,
      access: "exec",
      recursive: false,
      overwrite: false,
      args: argvWords.map((w) => w.value),
      exec: { kind: "argv", argv: argvWords },
      text: e.text,
    };
  });
}

/** Keyword arguments as CLI options (`Bucket="x"` → `--bucket x`; `DryRun=True` → `--dry-run`). */
function optionWords(kw: ReadonlyMap<string, Value>, dict: Value | undefined, language: Language): CodeWord[] {
  const entries = [...kw, ...(dict?.t === "dict" ? dict.entries : [])];
  const out: CodeWord[] = [];
  for (const [k, v] of entries) {
    if (k === "**") continue;
    const option = `--${kebab(k)}`;
    if (v.t === "bool") {
      if (v.v) out.push({ text: option, value: option });
      continue;
    }
    const t = asText(v, language);
    if (t.t === "str" || t.t === "part") out.push({ text: option, value: option }, word(t, language));
  }
  return out;
}

function awsService(raw: string): string {
  const lower = raw.toLowerCase();
  return AWS_SERVICES[lower] ?? lower.replaceAll("-", "");
}

function sdkCalls(e: CodeEvent, language: Language): FoundCall[] {
  const lib = LIBRARIES[language];
  const out: FoundCall[] = [];
  const name = e.name;
  const op = name.slice(name.lastIndexOf(".") + 1);
  for (const family of lib.sdks) {
    if (!matchName(family.call, name)) continue;
    switch (family.kind) {
      case "aws": {
        let service: Value;
        const before = name.slice(0, name.lastIndexOf("."));
        if (family.service === "class")
          service = { t: "str", v: awsService(before.replace(/^aws-sdk\./, "").replace(/\(\)$/, "")) };
        else if (family.service === "module")
          service = { t: "str", v: awsService(/aws-sdk\/clients\/([^.()]+)/.exec(name)?.[1] ?? "") };
        else if (family.service === "package")
          service = { t: "str", v: awsService(/@aws-sdk\/client-([^.]+)/.exec(name)?.[1] ?? "") };
        else if (family.service.includes("{")) {
          const v = template(family.service, e, language);
          service = v.t === "str" ? { t: "str", v: awsService(v.v) } : v;
        } else service = { t: "str", v: family.service };
        if (op === "promise" || op === "send" || op === "then" || (op.startsWith("get_") && op === "get_paginator"))
          continue;
        out.push(...command(e, ["aws", service, kebab(op)], language, optionWords(e.kw, e.args[0], language)));
        break;
      }
      case "aws-command": {
        const cmd = e.args[0];
        if (cmd?.t !== "lib") continue;
        const m = /^@aws-sdk\/(?:client-|lib-)([^.]+)\.([A-Za-z0-9]+)Command\(\)$/.exec(cmd.name);
        if (m === null) continue;
        const input = cmd.calls.at(-1)?.args[0];
        out.push(
          ...command(
            e,
            ["aws", awsService(m[1] as string), kebab(m[2] as string)],
            language,
            optionWords(new Map(), input, language),
          ),
        );
        break;
      }
      case "aws-resource": {
        const s = steps(name);
        const last = s.at(-1)?.name ?? "";
        if (!/^(delete|terminate|purge|destroy|remove|stop|reboot|empty|delete_objects)$/.test(last)) continue;
        const service = reference("$resource.0", e) ?? reference("$resource.service_name", e);
        // the kind: the last capitalized call (`Bucket()`), or the collection (`instances`)
        const kind = [...s.slice(0, -1)]
          .reverse()
          .find(
            (x) =>
              /^[A-Z]/.test(x.name) ||
              (x.call === undefined && !/^(all|filter|limit|page_size)$/.test(x.name) && x.name !== "resource"),
          );
        if (kind === undefined || service === undefined) continue;
        out.push(
          ...command(
            e,
            [
              "aws",
              service.t === "str" ? { t: "str", v: awsService(service.v) } : service,
              `${kebab(last)}-${kebab(kind.name)}`,
            ],
            language,
          ),
        );
        break;
      }
      case "kubernetes": {
        const m = /^delete[_]?(collection[_]?)?(namespaced[_]?)?(.+)$/i.exec(op);
        if (m === null) continue;
        const kind = (m[3] as string).replaceAll("_", "").toLowerCase();
        const collection = m[1] !== undefined;
        const namespaced = m[2] !== undefined;
        const [a0, a1] = e.args;
        const obj = a0?.t === "dict" ? a0 : undefined;
        const nameValue =
          obj !== undefined ? obj.entries.get("name") : collection ? undefined : (a0 ?? e.kw.get("name"));
        const nsValue =
          obj !== undefined
            ? obj.entries.get("namespace")
            : collection
              ? (a0 ?? e.kw.get("namespace"))
              : (a1 ?? e.kw.get("namespace"));
        const words: (string | Value)[] = ["kubectl", "delete", kind];
        if (collection) words.push("--all");
        else if (nameValue !== undefined) words.push(nameValue);
        if (namespaced && nsValue !== undefined) words.push("-n", nsValue);
        out.push(...command(e, words, language));
        break;
      }
      case "azure": {
        const s = steps(name);
        const group = s.at(-2)?.name ?? "";
        const service = /^azure\.mgmt\.([a-z]+)/.exec(name)?.[1] ?? "resource";
        const cli = AZURE_GROUPS[group] ?? `${service} ${kebab(group)}`;
        out.push(
          ...command(
            e,
            ["az", ...cli.split(" "), "delete", ...(e.args[0] === undefined ? [] : ["--name", e.args[0]])],
            language,
          ),
        );
        break;
      }
      case "gcloud": {
        const s = steps(name);
        const client = [...s].reverse().find((x) => x.name.endsWith("Client"));
        const product = /^google\.cloud\.([a-z_0-9]+)/.exec(name)?.[1]?.replace(/_v\d+\w*$/, "") ?? "";
        const things = kebab((client?.name ?? "").replace(/Client$/, "")) || product;
        const verb = op === "delete" ? "delete" : kebab(op);
        out.push(...command(e, ["gcloud", product, things, verb], language));
        break;
      }
      default: {
        const unknown: never = family;
        return unknown;
      }
    }
    break;
  }
  return out;
}

function unlessHit(name: string, unless: readonly string[] | undefined): boolean {
  return unless !== undefined && steps(name).some((s) => unless.includes(s.name));
}

function rowCommands(e: CodeEvent, language: Language): FoundCall[] {
  const lib = LIBRARIES[language];
  for (const row of lib.commands) {
    if (!matchName(row.call, e.name) || unlessHit(e.name, row.unless)) continue;
    return command(
      e,
      row.argv.map((w) => (w.includes("{") ? template(w, e, language) : w)),
      language,
      row.options === true ? optionWords(e.kw, undefined, language) : [],
    );
  }
  return [];
}

/** SQL the statement of a driver call holds, with a name where a part is only known at run time. */
function sqlText(v: Value, language: Language): string | undefined {
  const t = asText(v, language);
  if (t.t === "str") return t.v;
  if (t.t === "part") return `${t.head} lanes_value ${t.tail}`;
  return undefined;
}

function sqlCalls(e: CodeEvent, language: Language): FoundCall[] {
  for (const row of LIBRARIES[language].sql) {
    if (!matchName(row.call, e.name) || unlessHit(e.name, row.unless)) continue;
    const statement = template(row.sql, e, language);
    const out: FoundCall[] = [];
    for (const o of options(statement)) {
      const sql = sqlText(o, language);
      if (sql === undefined) continue;
      const words: (string | Value)[] =
        row.client === "sqlite3" || row.client === "duckdb"
          ? [row.client, row.database === undefined ? UNKNOWN : template(row.database, e, language), sql]
          : row.client === "mysql"
            ? ["mysql", "-e", sql]
            : ["psql", "-c", sql];
      out.push(...command(e, words, language));
    }
    return out;
  }
  return [];
}

// ------------------------------------------------------------------ network

function peersOf(v: Value | undefined, language: Language): NetworkPeer[] {
  if (v === undefined) return [];
  return options(v).flatMap((o): NetworkPeer[] => {
    if (o.t === "dict") {
      const host = o.entries.get("hostname") ?? o.entries.get("host") ?? o.entries.get("url");
      return host === undefined ? [] : peersOf(host, language);
    }
    if (o.t === "list") return o.items[0] === undefined ? [] : peersOf(o.items[0], language);
    if (o.t === "lib") return o.calls.length > 0 ? peersOf(o.calls.at(-1)?.args[0], language) : [];
    const t = asText(o, language);
    const text = t.t === "str" ? t.v : t.t === "part" ? t.head : undefined;
    if (text === undefined || text === "") return [{ host: undefined, path: "" }];
    return [text.includes("://") ? urlPeer(text) : urlPeer(`tcp://${text}`)];
  });
}

/** The variables a request's data carries: every argument but metadata (headers, auth). */
function payloadTaint(e: CodeEvent, skip: readonly string[]): string[] {
  const keep = (k: string): boolean => !skip.includes(k) && !METADATA_KEYS.includes(k);
  const of = (v: Value, depth: number): string[] => {
    if (v.t === "dict") return union([...v.entries].filter(([k]) => keep(k)).map(([, x]) => of(x, depth + 1)));
    if (v.t === "choice") return union(v.options.map((o) => of(o, depth)));
    if (v.t === "lib")
      return union(
        v.calls.flatMap((c) => [
          ...c.args.map((a) => of(a, depth + 1)),
          ...[...c.kw].filter(([k]) => keep(k)).map(([, x]) => of(x, depth + 1)),
        ]),
      );
    return taint(v);
  };
  return union([
    ...e.args.filter((_, i) => keep(String(i))).map((a) => of(a, 0)),
    ...[...e.kw].filter(([k]) => keep(k)).map(([, v]) => of(v, 0)),
  ]);
}

function sendOf(e: CodeEvent, language: Language): CodeSend | undefined {
  for (const row of LIBRARIES[language].network) {
    if (!matchName(row.call, e.name)) continue;
    const sent = payloadTaint(e, row.skip ?? []);
    const peerValue = row.peer === undefined ? undefined : template(row.peer, e, language);
    let peers =
      peerValue === undefined
        ? []
        : peersOf(peerValue.t === "unknown" ? firstGiven(row.peer ?? "", e) : peerValue, language);
    // a socket's peer is what `connect` was given
    const callee = e.callee;
    if (callee.t === "lib" && callee.state?.get("connect") !== undefined)
      peers = peersOf(callee.state.get("connect")?.args[0], language);
    else if (peers.length === 0 && callee.t === "lib" && callee.calls[0] !== undefined)
      peers = peersOf(callee.calls[0].args[0] ?? callee.calls[0].kw.get("url"), language);
    if (sent.length === 0) return undefined;
    return { peers, environment: sent.includes("*"), names: sent.filter((n) => n !== "*") };
  }
  return undefined;
}

/** The raw value a template's first reference names (a dict of request options, a tuple). */
function firstGiven(text: string, e: CodeEvent): Value | undefined {
  const inner = /\{([^}]*)\}/.exec(text)?.[1];
  return inner
    ?.split("|")
    .map((r) => reference(r, e))
    .find((v) => v !== undefined);
}

// ------------------------------------------------------------------ reverse shells

/** A value made from a socket (`s`, `s.fileno()`, `socket.makefile()`). */
function socketOf(v: Value | undefined, language: Language): Extract<Value, { t: "lib" }> | undefined {
  if (v === undefined) return undefined;
  for (const o of options(v)) {
    if (o.t !== "lib") continue;
    for (const s of LIBRARIES[language].sockets) {
      const prefix = s.call.replace(/\(\)$/, "");
      if (matchName(`${prefix}()**`, o.name) || matchName(s.call, o.name)) return o;
    }
  }
  return undefined;
}

function programOf(e: CodeEvent, language: Language): string | undefined {
  const v = e.args[0] ?? e.kw.get("args") ?? e.kw.get("cmd");
  const first = v === undefined ? undefined : (items(v)?.[0] ?? v);
  if (first === undefined) return undefined;
  const t = asText(first, language);
  if (t.t !== "str") return undefined;
  const program = posix.basename(t.v.trim().split(/\s+/)[0] ?? "");
  return SHELL_PROGRAMS.includes(program) ? t.v.trim().split(/\s+/)[0] : undefined;
}

function reverseShells(events: readonly CodeEvent[], language: Language): FoundCall[] {
  const lib = LIBRARIES[language];
  let tied: Extract<Value, { t: "lib" }> | undefined;
  for (const e of events) {
    if (lib.dup.includes(e.name)) tied ??= socketOf(e.args[0], language);
    if (lib.pipes.some((p) => e.name.endsWith(`.${p}`))) {
      const from = e.callee.t === "lib" ? { ...e.callee, name: e.callee.name.replace(/\.[^.]+$/, "") } : undefined;
      tied ??= socketOf(from, language) ?? socketOf(e.args[0], language);
    }
  }
  const out: FoundCall[] = [];
  for (const e of events) {
    const key = apiKey(e.name, language);
    const spec = key === undefined ? undefined : LANGUAGE_APIS[language].apis[key];
    if (spec?.access !== "exec" || spec.exec === "signal" || spec.exec === "code") continue;
    const program = programOf(e, language);
    if (program === undefined) continue;
    const stdio = [e.kw.get("stdin"), e.kw.get("stdout"), e.kw.get("stderr")]
      .map((v) => socketOf(v, language))
      .find((s) => s !== undefined);
    const socket = stdio ?? tied;
    if (socket === undefined) continue;
    const connect = socket.state?.get("connect")?.args[0] ?? socket.calls[0]?.args[0];
    const row = lib.sockets.find(
      (s) => matchName(s.call.replace(/\(\)$/, "") + "()**", socket.name) || matchName(s.call, socket.name),
    );
    const peer =
      row?.peer !== undefined && socket.state?.get("connect") === undefined
        ? template(row.peer, { ...e, callee: socket, args: [], kw: new Map() }, language)
        : connect;
    const host = peer === undefined ? UNKNOWN : peer.t === "list" ? (peer.items[0] ?? UNKNOWN) : peer;
    const port = peer?.t === "list" ? (peer.items[1] ?? UNKNOWN) : UNKNOWN;
    out.push(...command(e, ["nc", "-e", program, host, port], language));
  }
  return out;
}

// ------------------------------------------------------------------ all together

/** The calls of the tables among the code's library calls. */
export function libraryCalls(events: readonly CodeEvent[], language: Language): FoundCall[] {
  const out: FoundCall[] = [];
  const apis = LANGUAGE_APIS[language];
  for (const e of events) {
    // `open(p, "a").write(TEXT)`, `with open(p, "w") as f: f.write(TEXT)`: the text stored at `p`
    if (language === "python" && e.name === "open().write" && e.callee.t === "lib") {
      const [path, mode] = e.callee.calls[0]?.args ?? [];
      const text = e.args[0];
      const modeText = mode === undefined ? "r" : mode.t === "str" ? mode.v : "";
      if (path?.t === "str" && text?.t === "str" && /[wa]/.test(modeText))
        out.push({
          api: "open().write",
          access: "write",
          recursive: false,
          overwrite: modeText.includes("w"),
          args: [path.v],
          exec: undefined,
          text: e.text,
          content: text.v,
          storesOnly: true,
        });
    }
    const key = apiKey(e.name, language);
    if (key !== undefined) {
      const spec = apis.apis[key] as ApiSpec;
      out.push(...(spec.access === "exec" ? execCalls(e, key, spec, language) : fileCalls(e, key, spec, language)));
      continue;
    }
    const commands = rowCommands(e, language);
    if (commands.length > 0) {
      out.push(...commands);
      continue;
    }
    const sql = sqlCalls(e, language);
    if (sql.length > 0) {
      out.push(...sql);
      continue;
    }
    out.push(...sdkCalls(e, language));
  }
  out.push(...reverseShells(events, language));
  return out;
}

/** What the code's network requests send. */
export function librarySends(events: readonly CodeEvent[], language: Language): CodeSend[] {
  const out: CodeSend[] = [];
  for (const e of events) {
    const sent = sendOf(e, language);
    if (sent !== undefined) out.push(sent);
  }
  return out;
}

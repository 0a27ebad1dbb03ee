/**
 * The values the interpreter analysis (`interpret.ts`) follows through code: strings known in full,
 * in part (`"/home/" + user`), or not at all, with the environment variables they carry; lists and
 * dicts; paths (pathlib objects); the entries of a directory listing (`*`); library objects named
 * by the calls that made them (`boto3.client("s3")`); functions; and a choice of several values
 * when a branch decides. Nothing is guessed: an operation on an unknown value gives an unknown.
 */
import { posix } from "node:path";
import type { FunctionDef } from "./ast.ts";

/** A call in a library value's chain: its positional and keyword arguments. */
export interface CallArgs {
  readonly args: readonly Value[];
  readonly kw: ReadonlyMap<string, Value>;
}

/** A value. */
export type Value =
  /** A string; `glob` when it is a pattern for the names a listing or glob returns (`/srv/*`). */
  | {
      readonly t: "str";
      readonly v: string;
      readonly glob?: boolean;
      /** A glob some condition narrows in a way not followed (`if is_old(f)`): not every entry. */
      readonly filtered?: boolean;
      readonly env?: readonly string[];
    }
  /** A string known in part: it starts with `head` and ends with `tail`. */
  | { readonly t: "part"; readonly head: string; readonly tail: string; readonly env: readonly string[] }
  /** Not known before the code runs; `env` lists the variables it comes from (`*`: the whole environment). */
  | { readonly t: "unknown"; readonly env: readonly string[] }
  | { readonly t: "num"; readonly v: number }
  | { readonly t: "bool"; readonly v: boolean }
  | { readonly t: "none" }
  /** A list or tuple; `of` is every element of a list of unknown length (a listing's entries). */
  | { readonly t: "list"; readonly items: readonly Value[]; readonly of?: Value }
  | { readonly t: "dict"; readonly entries: ReadonlyMap<string, Value>; readonly rest?: Value }
  /** A filesystem path object (`pathlib.Path`), holding its string. */
  | { readonly t: "path"; readonly p: Value }
  /** The process environment (`os.environ`, `process.env`). */
  | { readonly t: "environ" }
  /**
   * A library value: a module, function or class by its canonical dotted name, or what calling
   * and reading them made (`boto3.client()`: `name` marks each call with `()`, `calls` holds their
   * arguments in order; `state` what methods called on it set, such as a socket's `connect`).
   */
  | {
      readonly t: "lib";
      readonly name: string;
      readonly calls: readonly CallArgs[];
      readonly state?: ReadonlyMap<string, CallArgs>;
    }
  /** A method read from a value that is not a library value (`"a".join`, `p.unlink` on a path or an unknown). */
  | { readonly t: "method"; readonly recv: Value; readonly name: string }
  /** A function of the code, with the scope it closes over and its bound receiver. */
  | { readonly t: "func"; readonly def: FunctionDef; readonly scope: unknown; readonly self?: Value }
  /** One of several values (an `if`, a default, a conditional expression). */
  | { readonly t: "choice"; readonly options: readonly Value[] };

export const UNKNOWN: Value = { t: "unknown", env: [] };
export const NONE: Value = { t: "none" };
const MAX_OPTIONS = 8;
const MAX_TEXT = 1 << 16;

export const str = (v: string, glob = false): Value => (glob ? { t: "str", v, glob } : { t: "str", v });
export const lib = (name: string, calls: readonly CallArgs[] = []): Value => ({ t: "lib", name, calls });
export const unknownFrom = (env: readonly string[]): Value => (env.length === 0 ? UNKNOWN : { t: "unknown", env });

/** The variables a value carries, its parts' too. */
export function taint(v: Value, depth = 0): string[] {
  if (depth > 6) return [];
  switch (v.t) {
    case "str":
      return [...(v.env ?? [])];
    case "part":
    case "unknown":
      return [...v.env];
    case "list":
      return union([...v.items, ...(v.of === undefined ? [] : [v.of])].map((x) => taint(x, depth + 1)));
    case "dict":
      return union([...v.entries.values(), ...(v.rest === undefined ? [] : [v.rest])].map((x) => taint(x, depth + 1)));
    case "path":
      return taint(v.p, depth + 1);
    case "environ":
      return ["*"];
    case "choice":
      return union(v.options.map((x) => taint(x, depth + 1)));
    default:
      return [];
  }
}

export function union(lists: readonly (readonly string[])[]): string[] {
  const out = new Set<string>();
  for (const l of lists) for (const x of l) out.add(x);
  return [...out];
}

/** One of these values (flattened, duplicates removed, at most a few: beyond, unknown). */
export function choice(values: readonly Value[]): Value {
  const flat: Value[] = [];
  for (const v of values)
    for (const o of v.t === "choice" ? v.options : [v]) if (!flat.some((f) => same(f, o))) flat.push(o);
  if (flat.length === 1) return flat[0] as Value;
  if (flat.length > MAX_OPTIONS) return unknownFrom(union(flat.map((f) => taint(f))));
  return { t: "choice", options: flat };
}

function same(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a.t === "str" && b.t === "str") return a.v === b.v && a.glob === b.glob;
  if (a.t === "none" && b.t === "none") return true;
  if (a.t === "lib" && b.t === "lib") return a.name === b.name && a.calls === b.calls;
  return false;
}

/** The options of a value (itself unless a choice). */
export const options = (v: Value): readonly Value[] => (v.t === "choice" ? v.options : [v]);

/** Applies `f` to every combination of the options of `values`. */
export function distribute(values: readonly Value[], f: (vs: Value[]) => Value): Value {
  if (!values.some((v) => v.t === "choice")) return f([...values]);
  let combos: Value[][] = [[]];
  for (const v of values) {
    const next: Value[][] = [];
    for (const c of combos) for (const o of options(v)) next.push([...c, o]);
    combos = next;
    if (combos.length > MAX_OPTIONS) return unknownFrom(union(values.map((x) => taint(x))));
  }
  return choice(combos.map(f));
}

/** The string a value reads as (`str(x)`, an f-string hole, `+` with a string): known, in part, or unknown. */
export function asText(v: Value, language: "python" | "node"): Value {
  switch (v.t) {
    case "str":
    case "part":
    case "unknown":
      return v;
    case "path":
      return asText(v.p, language);
    case "num":
      return str(String(v.v));
    case "bool":
      return str(language === "python" ? (v.v ? "True" : "False") : String(v.v));
    case "none":
      return str(language === "python" ? "None" : "null");
    case "choice":
      return choice(v.options.map((o) => asText(o, language)));
    default:
      return unknownFrom(taint(v));
  }
}

/** `a + b` on strings, in part when either is. */
export function concat(a: Value, b: Value): Value {
  return distribute([a, b], ([x, y]) => {
    const l = x as Value;
    const r = y as Value;
    const env = union([taint(l), taint(r)]);
    if (l.t === "str" && r.t === "str") {
      const v = l.v + r.v;
      if (v.length > MAX_TEXT) return unknownFrom(env);
      const glob = l.glob === true || r.glob === true;
      const filtered = l.filtered === true || r.filtered === true;
      return { t: "str", v, ...(glob && { glob }), ...(filtered && { filtered }), ...(env.length > 0 && { env }) };
    }
    // what lies between is unknown: a known side keeps its own end
    const head = l.t === "str" ? (r.t === "part" ? l.v + r.head : l.v) : l.t === "part" ? l.head : "";
    const tail = r.t === "str" ? (l.t === "part" ? l.tail + r.v : r.v) : r.t === "part" ? r.tail : "";
    if (head === "" && tail === "") return unknownFrom(env);
    return { t: "part", head, tail, env };
  });
}

/** Joins path parts like `os.path.join` and `path.join` (`resolve`: from `cwd`, as `path.resolve`). */
export function joinPaths(parts: readonly Value[], cwd?: string): Value {
  return distribute(parts, (vs) => {
    let acc: Value = cwd === undefined ? str("") : str(cwd);
    let glob = false;
    let filtered = false;
    for (const p of vs) {
      const text = p.t === "path" ? p.p : p;
      if (text.t === "str") {
        glob ||= text.glob === true;
        filtered ||= text.filtered === true;
        if (text.v.startsWith("/")) acc = str(text.v);
        else if (acc.t === "str" && acc.v === "") acc = str(text.v);
        else acc = concat(acc, str(acc.t === "str" && acc.v.endsWith("/") ? text.v : `/${text.v}`));
      } else if (text.t === "part" && text.head.startsWith("/")) acc = text;
      else if (text.t === "part" || text.t === "unknown") {
        const sep = acc.t === "str" && (acc.v === "" || acc.v.endsWith("/")) ? "" : "/";
        acc = concat(concat(acc, str(sep)), text);
      } else return unknownFrom(taint(p));
    }
    if (acc.t === "str") {
      const normal = acc.v === "" ? "" : posix.normalize(acc.v);
      const v = normal.length > 1 && normal.endsWith("/") ? normal.slice(0, -1) : normal;
      const isGlob = glob || acc.glob === true;
      return filtered && isGlob ? { t: "str", v, glob: true, filtered: true } : str(v, isGlob);
    }
    return acc;
  });
}

/** `~` and `~/x` as the home directory, when known. */
export function expandUser(v: Value, home: string | undefined): Value {
  return distribute([v], ([x]) => {
    const p = x as Value;
    const text = p.t === "path" ? p.p : p;
    if (text.t === "str" && (text.v === "~" || text.v.startsWith("~/")))
      return home === undefined ? text : str(posix.join(home, text.v.slice(1)), text.glob === true);
    if (text.t === "part" && (text.head === "~" || text.head.startsWith("~/")) && home !== undefined)
      return { ...text, head: posix.join(home, text.head.slice(1)) + (text.head.endsWith("/") ? "/" : "") };
    return text;
  });
}

/** A path made absolute from `cwd` and normalized (`os.path.abspath`, `Path.resolve()`). */
export function absolute(v: Value, cwd: string | undefined): Value {
  return distribute([v], ([x]) => {
    const p = x as Value;
    const text = p.t === "path" ? p.p : p;
    if (text.t !== "str")
      return text.t === "part" && !text.head.startsWith("/") && cwd !== undefined ? concat(str(`${cwd}/`), text) : text;
    if (text.v.startsWith("/")) return str(posix.normalize(text.v), text.glob === true);
    return cwd === undefined ? text : str(posix.join(cwd, text.v), text.glob === true);
  });
}

/** The directory part (`os.path.dirname`, `Path.parent`). */
export function dirname(v: Value): Value {
  return distribute([v], ([x]) => {
    const p = x as Value;
    const text = p.t === "path" ? p.p : p;
    if (text.t !== "str") return unknownFrom(taint(text));
    const d = posix.dirname(text.v);
    return str(d, text.glob === true && d.includes("*"));
  });
}

/** The last part (`os.path.basename`, `Path.name`). */
export function basename(v: Value): Value {
  return distribute([v], ([x]) => {
    const p = x as Value;
    const text = p.t === "path" ? p.p : p;
    if (text.t !== "str") return unknownFrom(taint(text));
    const b = posix.basename(text.v);
    return str(b, text.glob === true && b.includes("*"));
  });
}

/** The value a Python `%` format or `str.format` builds, when the template is known. */
export function format(
  template: string,
  values: readonly Value[],
  named: ReadonlyMap<string, Value>,
  percent: boolean,
  language: "python" | "node",
): Value {
  let out: Value = str("");
  let at = 0;
  let next = 0;
  const pattern = percent
    ? /%(?:\(([A-Za-z_]\w*)\))?[-#0 +]*\d*(?:\.\d+)?([sdirfx%])/g
    : /\{\{|\}\}|\{([A-Za-z_]\w*|\d*)\}/g;
  for (let m = pattern.exec(template); m !== null; m = pattern.exec(template)) {
    out = concat(out, str(template.slice(at, m.index)));
    at = m.index + m[0].length;
    if (m[0] === "%%" || m[0] === "{{" || m[0] === "}}") {
      out = concat(out, str(m[0][0] as string));
      continue;
    }
    if (!percent && m[0].startsWith("{") && m[1] === undefined) return unknownFrom(union(values.map((v) => taint(v))));
    const key = m[1];
    const v: Value | undefined =
      key !== undefined && key !== "" && !/^\d+$/.test(key)
        ? named.get(key)
        : values[key !== undefined && key !== "" ? Number(key) : next++];
    out = concat(out, v === undefined ? UNKNOWN : asText(v, language));
  }
  if (!percent && /[{}]/.test(template.slice(at).replaceAll("{{", "").replaceAll("}}", "")))
    return unknownFrom(union(values.map((v) => taint(v))));
  return concat(out, str(template.slice(at)));
}

/**
 * The tasks of a mise configuration (`mise.toml`, `.mise.toml`): `[tasks.NAME]` tables with `run`
 * (a string or a list of strings), `depends` and `dir`, and the shorthand `[tasks]` entries
 * (`NAME = "cmd"`, `NAME = { run = "cmd" }`), read from the TOML subset these use: basic, literal
 * and multi-line strings and arrays of them.
 */
import { cached } from "./cache.ts";

export interface MiseTask {
  readonly name: string;
  readonly run: readonly string[];
  readonly depends: readonly string[];
  readonly dir: string | undefined;
  readonly line: number;
}

/** A TOML string or array of strings starting at `text[at]`: its value and where it ends. */
function value(text: string, at: number): { value: string | string[] | undefined; end: number } {
  let i = at;
  while (text[i] === " " || text[i] === "\t") i++;
  for (const fence of ['"""', "'''"])
    if (text.startsWith(fence, i)) {
      const end = text.indexOf(fence, i + 3);
      const body = text.slice(i + 3, end < 0 ? text.length : end).replace(/^\r?\n/, "");
      return { value: fence === '"""' ? unescape(body) : body, end: end < 0 ? text.length : end + 3 };
    }
  if (text[i] === '"') {
    let out = "";
    let j = i + 1;
    for (; j < text.length && text[j] !== '"' && text[j] !== "\n"; j++)
      out += text[j] === "\\" ? text[j] + (text[++j] ?? "") : text[j];
    return { value: unescape(out), end: j + 1 };
  }
  if (text[i] === "'") {
    const end = text.indexOf("'", i + 1);
    return { value: text.slice(i + 1, end < 0 ? text.length : end), end: end < 0 ? text.length : end + 1 };
  }
  if (text[i] === "[") {
    const items: string[] = [];
    let j = i + 1;
    for (;;) {
      while (j < text.length && /[\s,]/.test(text[j] as string)) j++;
      if (text[j] === "#") {
        while (j < text.length && text[j] !== "\n") j++;
        continue;
      }
      if (j >= text.length || text[j] === "]") return { value: items, end: j + 1 };
      const item = value(text, j);
      if (typeof item.value === "string") items.push(item.value);
      if (item.end <= j) return { value: items, end: j + 1 };
      j = item.end;
    }
  }
  const end = text.indexOf("\n", i);
  return { value: undefined, end: end < 0 ? text.length : end };
}

function unescape(text: string): string {
  return text.replace(/\\(["\\nt])/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c));
}

const lineAt = (text: string, at: number): number => text.slice(0, at).split("\n").length;

/** Reads the tasks of a mise configuration (cached by content). */
export function readMiseTasks(text: string): ReadonlyMap<string, MiseTask> {
  return cached("mise", text, () => {
    const tasks = new Map<string, { run: string[]; depends: string[]; dir: string | undefined; line: number }>();
    const task = (name: string, line: number) => {
      let t = tasks.get(name);
      if (t === undefined) tasks.set(name, (t = { run: [], depends: [], dir: undefined, line }));
      return t;
    };
    let table: string | undefined;
    for (let i = 0; i < text.length;) {
      const eol = text.indexOf("\n", i);
      const line = text.slice(i, eol < 0 ? text.length : eol);
      const trimmed = line.trim();
      const header = /^\[\s*tasks(?:\.(?:"([^"]+)"|'([^']+)'|([\w:.-]+)))?\s*\]/.exec(trimmed);
      if (trimmed.startsWith("[") && !trimmed.startsWith("[[")) {
        table = header === null ? undefined : (header[1] ?? header[2] ?? header[3] ?? "");
        i = eol < 0 ? text.length : eol + 1;
        continue;
      }
      const kv = /^\s*(?:"([^"]+)"|'([^']+)'|([\w:.-]+))\s*=\s*/.exec(line);
      if (table === undefined || kv === null) {
        i = eol < 0 ? text.length : eol + 1;
        continue;
      }
      const key = (kv[1] ?? kv[2] ?? kv[3]) as string;
      const at = i + kv[0].length;
      const line0 = lineAt(text, i);
      if (table === "" && text[at] === "{") {
        // `name = { run = "...", depends = [...] }`
        const end = text.indexOf("}", at);
        const inner = text.slice(at + 1, end < 0 ? text.length : end);
        const t = task(key, line0);
        for (const m of inner.matchAll(/(run|depends|dir)\s*=\s*/g)) {
          const v = value(inner, (m.index as number) + m[0].length).value;
          if (m[1] === "run") t.run.push(...(typeof v === "string" ? [v] : (v ?? [])));
          if (m[1] === "depends") t.depends.push(...(typeof v === "string" ? [v] : (v ?? [])));
          if (m[1] === "dir" && typeof v === "string") t.dir = v;
        }
        i = end < 0 ? text.length : end + 1;
        continue;
      }
      const parsed = value(text, at);
      const list = typeof parsed.value === "string" ? [parsed.value] : (parsed.value ?? []);
      if (table === "") task(key, line0).run.push(...list);
      else {
        const t = task(table, line0);
        if (key === "run") t.run.push(...list);
        else if (key === "depends") t.depends.push(...list);
        else if (key === "dir" && typeof parsed.value === "string") t.dir = parsed.value;
      }
      i = parsed.end;
    }
    return new Map([...tasks].map(([name, t]) => [name, { name, ...t }]));
  });
}

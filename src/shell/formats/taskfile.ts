/**
 * A reader of Taskfiles (go-task, `task`) for what `task NAME` would run: the task's `deps` (run
 * first), its `cmds` (shell commands, calls of other tasks with their `vars`, `defer`red ones),
 * `preconditions` and `status` checks (commands too), `includes` (namespaced `ns:task`), variables
 * (global, the task's, the call's, `VAR=value` on the command line, `sh:` ones, `.CLI_ARGS`) in
 * `{{.NAME}}` templates, and `dir`. The document comes parsed (YAML, `yaml.ts`); includes come
 * from a callback.
 *
 * A template value only known at run time becomes `${NAME}` in the shell text (task also exports
 * its variables to the commands' environment), an `sh:` variable `$(CMD)`.
 */
import { posix } from "node:path";

export interface TaskLine {
  readonly code: string;
  /** The command as the Taskfile writes it (before its templates are expanded). */
  readonly raw: string;
  /** The Taskfile (as shown) and the task the command belongs to. */
  readonly file: string;
  readonly task: string;
  /** The directory it runs in. */
  readonly dir: string;
}

export interface TaskPlan {
  readonly lines: readonly TaskLine[];
  /** Tasks named that the Taskfile does not have (task stops). */
  readonly missing: readonly string[];
  readonly included: readonly string[];
  readonly unread: readonly { readonly file: string; readonly why: string }[];
  /** The document is not a Taskfile (task refuses it). */
  readonly invalid: boolean;
  readonly limited: boolean;
}

export interface TaskInput {
  /** The parsed Taskfile (`undefined`: not valid YAML). */
  readonly document: unknown;
  readonly file: string;
  readonly dir: string;
  readonly tasks: readonly string[];
  readonly vars: ReadonlyMap<string, string | undefined>;
  /** Words after `--` (`.CLI_ARGS`), `undefined` when run-time. */
  readonly cliArgs: string | undefined;
  readonly include: (path: string) => { document: unknown; file: string; dir: string } | "missing" | { why: string };
  readonly tick: (units: number) => void;
}

const MAX_CALLS = 256;
const MAX_DEPTH = 32;

type Data = Record<string, unknown>;
const isObject = (v: unknown): v is Data => typeof v === "object" && v !== null && !Array.isArray(v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

interface Loaded {
  readonly tasks: Data;
  readonly vars: Data;
  readonly file: string;
  readonly dir: string;
}

/** Reads a Taskfile and plans what `task TASKS` runs. */
export function planTask(input: TaskInput): TaskPlan {
  const lines: TaskLine[] = [];
  const missing: string[] = [];
  const included: string[] = [];
  const unread: { file: string; why: string }[] = [];
  let limited = false;
  if (!isObject(input.document)) return { lines, missing, included, unread, invalid: true, limited };
  // every task by its full name (`ns:task`), with the file it comes from
  const tasks = new Map<string, { def: unknown; from: Loaded }>();
  const load = (doc: Data, file: string, dir: string, prefix: string, depth: number): Loaded => {
    const loaded: Loaded = {
      tasks: isObject(doc["tasks"]) ? doc["tasks"] : {},
      vars: isObject(doc["vars"]) ? doc["vars"] : {},
      file,
      dir,
    };
    for (const [name, def] of Object.entries(loaded.tasks)) {
      tasks.set(`${prefix}${name}`, { def, from: loaded });
      if (isObject(def))
        for (const alias of asList(def["aliases"]))
          if (typeof alias === "string") tasks.set(`${prefix}${alias}`, { def, from: loaded });
    }
    if (isObject(doc["includes"]) && depth < 4)
      for (const [ns, spec] of Object.entries(doc["includes"])) {
        const path =
          typeof spec === "string"
            ? spec
            : isObject(spec) && typeof spec["taskfile"] === "string"
              ? spec["taskfile"]
              : undefined;
        if (path === undefined) continue;
        const optional = isObject(spec) && spec["optional"] === true;
        const read = input.include(posix.isAbsolute(path) ? path : posix.join(dir, path));
        if (read === "missing") {
          if (!optional) unread.push({ file: path, why: "does not exist (task stops)" });
          continue;
        }
        if ("why" in read) {
          unread.push({ file: path, why: read.why });
          continue;
        }
        if (!isObject(read.document)) continue;
        included.push(read.file);
        const incDir = isObject(spec) && typeof spec["dir"] === "string" ? posix.join(dir, spec["dir"]) : read.dir;
        load(read.document, read.file, incDir, `${prefix}${ns}:`, depth + 1);
      }
    return loaded;
  };
  const root = load(input.document, input.file, input.dir, "", 0);

  let calls = 0;
  /** Expands `{{.NAME}}` templates. */
  const template = (text: string, vars: ReadonlyMap<string, string | undefined>): string =>
    text.replace(/\{\{-?\s*(.*?)\s*-?\}\}/g, (_, inner: string) => {
      const m = /^\.([A-Za-z_]\w*)$/.exec(inner.trim());
      if (m === null) return "${__task_runtime_value}";
      const name = m[1] as string;
      if (!vars.has(name)) return `\${${name}}`;
      return vars.get(name) ?? `\${${name}}`;
    });
  const varsOf = (
    def: Data | undefined,
    outer: ReadonlyMap<string, string | undefined>,
  ): Map<string, string | undefined> => {
    const out = new Map(outer);
    if (def === undefined) return out;
    for (const [k, v] of Object.entries(def)) {
      if (input.vars.has(k)) continue;
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean")
        out.set(k, template(String(v), out));
      else if (isObject(v) && typeof v["sh"] === "string") {
        const code = template(v["sh"], out);
        lines.push({ code, raw: v["sh"], file: root.file, task: "vars", dir: root.dir });
        out.set(k, `$(${code})`);
      } else out.set(k, undefined);
    }
    return out;
  };
  const globals = varsOf(
    root.vars,
    new Map([
      ...input.vars,
      ["CLI_ARGS", input.cliArgs],
      ["ROOT_DIR", input.dir],
      ["TASKFILE_DIR", input.dir],
      ["USER_WORKING_DIR", input.dir],
    ]),
  );

  const done = new Set<string>();
  const run = (name: string, callVars: ReadonlyMap<string, string | undefined>, depth: number): void => {
    const entry = tasks.get(name);
    if (entry === undefined) {
      missing.push(name);
      return;
    }
    const key = `${name}\u0000${[...callVars].join("\u0000")}`;
    if (done.has(key)) return;
    if (++calls > MAX_CALLS || depth > MAX_DEPTH) {
      limited = true;
      return;
    }
    done.add(key);
    input.tick(1);
    const def = entry.def;
    const task: Data = typeof def === "string" || Array.isArray(def) ? { cmds: def } : isObject(def) ? def : {};
    const vars = varsOf(
      isObject(task["vars"]) ? task["vars"] : undefined,
      new Map([...globals, ...callVars, ["TASK", name]]),
    );
    const dir =
      typeof task["dir"] === "string" ? posix.resolve(entry.from.dir, template(task["dir"], vars)) : entry.from.dir;
    const push = (code: string): void => {
      lines.push({ code: template(code, vars), raw: code, file: entry.from.file, task: name, dir });
    };
    const prefix = name.includes(":") ? name.slice(0, name.lastIndexOf(":") + 1) : "";
    const call = (target: unknown, extra: unknown): void => {
      if (typeof target !== "string") return;
      const t = template(target, vars);
      const v = new Map<string, string | undefined>();
      if (isObject(extra))
        for (const [k, x] of Object.entries(extra))
          v.set(k, typeof x === "string" || typeof x === "number" ? template(String(x), vars) : undefined);
      run(tasks.has(`${prefix}${t}`) ? `${prefix}${t}` : t.replace(/^:/, ""), v, depth + 1);
    };
    for (const dep of asList(task["deps"])) {
      if (typeof dep === "string") call(dep, undefined);
      else if (isObject(dep)) call(dep["task"], dep["vars"]);
    }
    for (const p of asList(task["preconditions"])) {
      if (typeof p === "string") push(p);
      else if (isObject(p) && typeof p["sh"] === "string") push(p["sh"]);
    }
    for (const s of asList(task["status"])) if (typeof s === "string") push(s);
    for (const c of [...asList(task["cmds"]), ...asList(task["cmd"])]) {
      if (typeof c === "string") push(c);
      else if (isObject(c)) {
        if (typeof c["cmd"] === "string") push(c["cmd"]);
        if (c["task"] !== undefined) call(c["task"], c["vars"]);
        const deferred = c["defer"];
        if (typeof deferred === "string") push(deferred);
        else if (isObject(deferred)) {
          if (typeof deferred["cmd"] === "string") push(deferred["cmd"]);
          if (deferred["task"] !== undefined) call(deferred["task"], deferred["vars"]);
        }
      }
    }
  };
  for (const t of input.tasks.length === 0 ? ["default"] : input.tasks) run(t, new Map(), 0);
  return { lines, missing, included, unread, invalid: false, limited };
}

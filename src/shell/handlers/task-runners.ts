/**
 * Task runners whose tasks are code in a file: `just` (a justfile, `formats/justfile.ts`) and
 * `task` (a Taskfile, `formats/taskfile.ts`). The file is read from disk at hook time, searched
 * upward from the working directory as the runner does, and what the named (or default) recipe or
 * task runs, dependencies included, is walked as the shell code it is in the file's directory.
 * Listing, showing and dry-run options run no recipe.
 */
import { posix } from "node:path";
import { parseYaml, planJust, planTask, readMiseTasks, readRakefile, type JustPlan } from "../formats/index.ts";
import type { CodeLanguage } from "../types.ts";
import { emptyBase, varValue, type ArgWord, type Invocation } from "../walk/context.ts";
import { hostCtx, runCode, shebangOf } from "./code.ts";
import type { Walk } from "./contract.ts";
import {
  absolute,
  diskShell,
  findUp,
  hasDisk,
  inDir,
  noteFile,
  readCode,
  unreadCode,
  type CodeFile,
} from "./on-disk.ts";

/** The names `just` looks for, in each directory up from the working one. */
const JUSTFILES = ["justfile", "Justfile", ".justfile", "JUSTFILE"];
/** The names `task` looks for. */
const TASKFILES = [
  "Taskfile.yml",
  "taskfile.yml",
  "Taskfile.yaml",
  "taskfile.yaml",
  "Taskfile.dist.yml",
  "taskfile.dist.yml",
  "Taskfile.dist.yaml",
  "taskfile.dist.yaml",
];

/** `just` options that take a value as the next word. */
const JUST_VALUES = new Set([
  "-f",
  "--justfile",
  "-d",
  "--working-directory",
  "--shell",
  "--shell-arg",
  "--color",
  "--dotenv-filename",
  "--dotenv-path",
  "-E",
  "--list-heading",
  "--list-prefix",
  "--chooser",
  "--command-color",
  "-s",
  "--show",
  "--completions",
  "--timestamp-format",
  "--tempdir",
  "--alias-style",
  "--explain",
  "--one",
]);
/** `just` options after which no recipe runs (listing, showing, formatting, a dry run). */
const JUST_NO_RUN = new Set([
  "-l",
  "--list",
  "--summary",
  "-s",
  "--show",
  "--dump",
  "--fmt",
  "--variables",
  "--evaluate",
  "--choose",
  "--edit",
  "--init",
  "--completions",
  "--groups",
  "--check",
  "-h",
  "--help",
  "-V",
  "--version",
  "--man",
  "--changelog",
  "-n",
  "--dry-run",
  "--usage",
]);

/** `task` options that take a value as the next word. */
const TASK_VALUES = new Set([
  "-t",
  "--taskfile",
  "-d",
  "--dir",
  "-o",
  "--output",
  "-C",
  "--concurrency",
  "-I",
  "--interval",
  "--sort",
  "--output-group-begin",
  "--output-group-end",
]);
/** `task` options after which no task runs. */
const TASK_NO_RUN = new Set([
  "-l",
  "--list",
  "-a",
  "--list-all",
  "--summary",
  "-n",
  "--dry",
  "--status",
  "-i",
  "--init",
  "-h",
  "--help",
  "--version",
  "--json",
]);

/** A runner's command line: its options, `NAME=VALUE` words, its operands, and the words after `--`. */
interface RunnerCall {
  readonly options: Map<string, ArgWord[]>;
  readonly assignments: Map<string, string | undefined>;
  readonly operands: ArgWord[];
  readonly rest: ArgWord[] | undefined;
}

function readRunner(
  words: readonly ArgWord[],
  values: ReadonlySet<string>,
  twoValues: ReadonlySet<string> = new Set(),
): RunnerCall {
  const call: RunnerCall = { options: new Map(), assignments: new Map(), operands: [], rest: undefined };
  let rest: ArgWord[] | undefined;
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as ArgWord;
    const v = word.word.value;
    if (rest !== undefined) {
      rest.push(word);
      continue;
    }
    if (v === "--") {
      rest = [];
      continue;
    }
    if (call.operands.length === 0 && v !== undefined && v.startsWith("-") && v.length > 1) {
      const eq = v.indexOf("=");
      const name = eq > 0 && v.startsWith("--") ? v.slice(0, eq) : v;
      const list = call.options.get(name) ?? [];
      if (eq > 0 && v.startsWith("--")) list.push({ ...word, word: { ...word.word, value: v.slice(eq + 1) } });
      else if (twoValues.has(name)) {
        const key = words[i + 1]?.word.value;
        const value = words[i + 2]?.word.value;
        if (key !== undefined) call.assignments.set(key, value);
        i += 2;
      } else if (values.has(name) && i + 1 < words.length) list.push(words[++i] as ArgWord);
      call.options.set(name, list);
      continue;
    }
    const text = v ?? word.word.text;
    const eq = text.indexOf("=");
    if (call.operands.length === 0 && eq > 0 && /^[A-Za-z_][\w-]*$/.test(text.slice(0, eq))) {
      call.assignments.set(text.slice(0, eq), v === undefined ? undefined : v.slice(eq + 1));
      continue;
    }
    call.operands.push(word);
  }
  return { ...call, rest };
}

/** The environment a runner gets, as far as it is known: the login variables and the command's assignments. */
function knownEnv(inv: Invocation): Map<string, string | undefined> {
  const env = new Map<string, string | undefined>();
  for (const name of ["HOME", "USER", "LOGNAME", "PWD"]) {
    const value = varValue(inv.ctx.state, name);
    if (value !== undefined) env.set(name, value);
  }
  for (const a of inv.base.assignments) env.set(a.name, a.value.value);
  return env;
}

/** Reads a file a runner includes, relative to `dir`, for the readers' `include` callbacks. */
function includer(w: Walk, dir: string) {
  return (path: string): { text: string; file: string; path: string } | "missing" | { why: string } => {
    const file = readCode(w, path, dir);
    if (file === undefined) return { why: "cannot be read" };
    if (file.kind === "missing") return "missing";
    if (file.kind === "unread") return { why: file.why };
    if (file.kind === "binary") return { why: "is not a text file" };
    return { text: file.text, file: file.shown, path: file.path };
  };
}

/** Finds a runner's file: `-f FILE` (relative to the working directory), else the nearest of `names`. */
function runnerFile(
  w: Walk,
  inv: Invocation,
  given: ArgWord | undefined,
  dir: string | undefined,
  names: readonly string[],
): CodeFile | undefined {
  if (given !== undefined) return readCode(w, given.word.value, inv.ctx.state.cwd, given.word.text);
  return findUp(w, dir, names);
}

/** `just [options] [NAME=VALUE...] [recipe [args]...]`: the recipes it runs. */
export function just(w: Walk, inv: Invocation): void {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  if (!hasDisk(w)) return;
  const call = readRunner(inv.words, JUST_VALUES, new Set(["--set"]));
  const as = "justfile";
  const unread = (file: Extract<CodeFile, { kind: "unread" }>): void =>
    unreadCode(w, { file, as, language: "shell", interpreter: "just", host, text: inv.base.text });
  const noRun = [...call.options.keys()].some((o) => JUST_NO_RUN.has(o));
  const workWord = [...(call.options.get("-d") ?? []), ...(call.options.get("--working-directory") ?? [])].at(-1);
  const file = runnerFile(
    w,
    inv,
    [...(call.options.get("-f") ?? []), ...(call.options.get("--justfile") ?? [])].at(-1),
    inv.ctx.state.cwd,
    JUSTFILES,
  );
  if (file === undefined) return;
  if (file.kind === "unread") return unread(file);
  if (file.kind !== "text") {
    noteFile(w, file, as, file.kind === "missing" ? "no justfile: just stops" : undefined);
    return;
  }
  const fileDir = posix.dirname(file.path);
  const dir =
    workWord?.word.value === undefined ? fileDir : (absolute(workWord.word.value, inv.ctx.state.cwd) ?? fileDir);
  // `just --command CMD ...`: the command runs in the justfile's environment
  const command = [...(call.options.get("-c") ?? []), ...(call.options.get("--command") ?? [])];
  const plan = planJust({
    text: file.text,
    file: file.shown,
    args: noRun || command.length > 0 ? [] : [...call.operands, ...(call.rest ?? [])].map((a) => a.word.value),
    overrides: call.assignments,
    env: knownEnv(inv),
    dir,
    home: w.options.home,
    include: includer(w, fileDir),
    tick: (units) => w.tick(units),
  });
  const inner = inDir(hostCtx(inv.ctx, { host }), dir);
  for (const s of plan.parseShells)
    diskShell(w, { code: s.code, shown: s.file, line: s.line, interpreter: "just", host, base: inv.base, ctx: inner });
  for (const u of plan.unread) unread({ kind: "unread", shown: u.file, why: u.why });
  if (plan.limited) unread({ kind: "unread", shown: file.shown, why: "is larger or nests deeper than lanes follows" });
  noteFile(w, file, as, noRun ? "lists or shows recipes: none runs" : recipesDetail(plan));
  for (const f of plan.included) w.noteRead({ path: f, as: "imported justfile", outcome: "read" });
  if (noRun) return;
  if (command.length > 0) {
    const argv = [...command, ...call.operands];
    w.execute(argv, emptyBase(inv.base.text), inner);
    return;
  }
  if (plan.missing.length > 0) return;
  if (plan.shell !== undefined) {
    unread({
      kind: "unread",
      shown: file.shown,
      why: `runs its recipes with \`${plan.shell}\`, which lanes does not read`,
    });
    return;
  }
  for (const run of plan.runs) {
    const ctx = inDir(hostCtx(inv.ctx, { host }), dir);
    for (const [k, v] of run.env) ctx.state.vars.set(k, v === undefined ? undefined : { set: true, value: v });
    if (run.script !== undefined) {
      const text = run.lines.map((l) => l.code).join("\n");
      const language: CodeLanguage | { runs: string } = run.script.startsWith("#!") ? shebangOf(text) : "shell";
      if (typeof language !== "string") {
        unread({
          kind: "unread",
          shown: file.shown,
          why: `has a \`${language.runs}\` recipe, which lanes does not read`,
        });
        continue;
      }
      ctx.state.positional = run.positional === undefined ? undefined : ["just", ...run.positional];
      runCode(w, {
        language,
        word: { word: { text, value: text, glob: false }, producers: [], substitution: undefined },
        interpreter: "just",
        host,
        base: inv.base,
        ctx,
        disk: { shown: run.lines[0]?.file ?? file.shown, line: run.lines[0]?.line ?? 1 },
      });
      continue;
    }
    for (const line of run.lines)
      diskShell(w, {
        code: line.code,
        shown: line.file,
        line: line.line,
        interpreter: "just",
        host,
        base: inv.base,
        ctx,
        ...(run.positional !== undefined && { args: [] }),
      });
  }
}

function recipesDetail(plan: JustPlan): string {
  if (plan.missing.length > 0) return `no recipe \`${plan.missing[0]}\`: just stops`;
  return plan.runs.length === 0 ? "no recipe runs" : `recipes ${plan.runs.map((r) => `\`${r.recipe}\``).join(", ")}`;
}

/** `task [options] [tasks...] [VAR=value] [-- args]`: the tasks it runs (go-task). */
export function task(w: Walk, inv: Invocation): void {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  if (!hasDisk(w)) return;
  const call = readRunner(inv.words, TASK_VALUES);
  const as = "Taskfile";
  const unread = (file: Extract<CodeFile, { kind: "unread" }>): void =>
    unreadCode(w, { file, as, language: "shell", interpreter: "task", host, text: inv.base.text });
  if ([...call.options.keys()].some((o) => TASK_NO_RUN.has(o))) return;
  // `task build VAR=x`: assignments may follow the tasks too
  const names: string[] = [];
  const vars = new Map(call.assignments);
  for (const o of call.operands) {
    const v = o.word.value;
    const eq = v?.indexOf("=") ?? -1;
    if (v !== undefined && eq > 0) vars.set(v.slice(0, eq), v.slice(eq + 1));
    else if (v === undefined)
      return unread({
        kind: "unread",
        shown: "the Taskfile",
        why: `runs a task named only at run time (\`${o.word.text}\`)`,
      });
    else names.push(v);
  }
  const dirWord = [...(call.options.get("-d") ?? []), ...(call.options.get("--dir") ?? [])].at(-1);
  const start = dirWord === undefined ? inv.ctx.state.cwd : absolute(dirWord.word.value ?? "", inv.ctx.state.cwd);
  const given = [...(call.options.get("-t") ?? []), ...(call.options.get("--taskfile") ?? [])].at(-1);
  const file = runnerFile(w, inv, given, start, TASKFILES);
  if (file === undefined) return;
  if (file.kind === "unread") return unread(file);
  if (file.kind !== "text") {
    noteFile(w, file, as, file.kind === "missing" ? "no Taskfile: task stops" : undefined);
    return;
  }
  const dir = posix.dirname(file.path);
  const include = includer(w, dir);
  const cliArgs = call.rest?.map((a) => a.word.value);
  const plan = planTask({
    document: parseYaml(file.text),
    file: file.shown,
    dir,
    tasks: names,
    vars,
    cliArgs: cliArgs === undefined ? "" : cliArgs.some((a) => a === undefined) ? undefined : cliArgs.join(" "),
    include: (path) => {
      const read = include(path);
      return typeof read === "string" || "why" in read
        ? read
        : { document: parseYaml(read.text), file: read.file, dir: posix.dirname(read.path) };
    },
    tick: (units) => w.tick(units),
  });
  if (plan.invalid) {
    noteFile(w, file, as, "not a Taskfile: task stops");
    return;
  }
  for (const u of plan.unread) unread({ kind: "unread", shown: u.file, why: u.why });
  if (plan.limited) unread({ kind: "unread", shown: file.shown, why: "is larger or nests deeper than lanes follows" });
  const ran = [...new Set(plan.lines.map((l) => l.task))];
  noteFile(
    w,
    file,
    as,
    plan.missing.length > 0
      ? `no task \`${plan.missing[0]}\`: task stops`
      : `tasks ${ran.map((t) => `\`${t}\``).join(", ")}`,
  );
  for (const f of plan.included) w.noteRead({ path: f, as: "included Taskfile", outcome: "read" });
  if (plan.missing.length > 0) return;
  for (const line of plan.lines)
    diskShell(w, {
      code: line.code,
      shown: line.file,
      line: line.file === file.shown ? lineOf(file.text, line.raw) : 0,
      interpreter: "task",
      host,
      base: inv.base,
      ctx: inDir(hostCtx(inv.ctx, { host }), line.dir),
    });
}

/** The line (1-based) of the first occurrence of `text` in `file`, 0 when it is not written as such. */
function lineOf(file: string, text: string): number {
  const at = file.indexOf(text.split("\n")[0] ?? text);
  if (at < 0) return 0;
  let line = 1;
  for (let i = file.indexOf("\n"); i >= 0 && i < at; i = file.indexOf("\n", i + 1)) line++;
  return line;
}

/** The names `rake` looks for. */
const RAKEFILES = ["rakefile", "Rakefile", "rakefile.rb", "Rakefile.rb"];
/** `rake` options that take a value as the next word. */
const RAKE_VALUES = new Set([
  "-f",
  "--rakefile",
  "-C",
  "--directory",
  "-I",
  "--libdir",
  "-R",
  "--rakelibdir",
  "-r",
  "--require",
  "-E",
  "--execute-continue",
  "-e",
  "--execute",
  "-p",
  "--execute-print",
  "-j",
  "--jobs",
]);
/** `rake` options after which no task runs (listing, describing, a dry run). */
const RAKE_NO_RUN = new Set([
  "-T",
  "--tasks",
  "-D",
  "--describe",
  "-W",
  "--where",
  "-P",
  "--prereqs",
  "-n",
  "--dry-run",
  "-h",
  "--help",
  "-V",
  "--version",
  "-A",
  "--all",
]);

/** `rake [options] [tasks...] [VAR=value]`: the tasks it runs, prerequisites first, and the Rakefile's own code. */
export function rake(w: Walk, inv: Invocation): void {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  if (!hasDisk(w)) return;
  const call = readRunner(inv.words, RAKE_VALUES);
  const as = "Rakefile";
  const unread = (file: Extract<CodeFile, { kind: "unread" }>): void =>
    unreadCode(w, { file, as, language: "ruby", interpreter: "rake", host, text: inv.base.text });
  if ([...call.options.keys()].some((o) => RAKE_NO_RUN.has(o))) return;
  const dirWord = [...(call.options.get("-C") ?? []), ...(call.options.get("--directory") ?? [])].at(-1);
  const start = dirWord === undefined ? inv.ctx.state.cwd : absolute(dirWord.word.value ?? "", inv.ctx.state.cwd);
  const file = runnerFile(
    w,
    inv,
    [...(call.options.get("-f") ?? []), ...(call.options.get("--rakefile") ?? [])].at(-1),
    start,
    RAKEFILES,
  );
  if (file === undefined) return;
  if (file.kind === "unread") return unread(file);
  if (file.kind !== "text") {
    noteFile(w, file, as, file.kind === "missing" ? "no Rakefile: rake stops" : undefined);
    return;
  }
  const rakefile = readRakefile(file.text);
  const names: string[] = [];
  for (const o of call.operands) {
    const v = o.word.value;
    if (v === undefined)
      return unread({
        kind: "unread",
        shown: file.shown,
        why: `runs a task named only at run time (\`${o.word.text}\`)`,
      });
    // `rake db:seed[prod]`: the task's arguments in brackets
    names.push(v.includes("[") ? v.slice(0, v.indexOf("[")) : v);
  }
  const order: string[] = [];
  const missing: string[] = [];
  const visit = (name: string, depth: number): void => {
    if (order.includes(name) || depth > 32 || order.length > 128) return;
    const t = rakefile.tasks.get(name);
    if (t === undefined) {
      missing.push(name);
      return;
    }
    for (const d of t.deps)
      visit(
        rakefile.tasks.has(`${name.slice(0, name.lastIndexOf(":") + 1)}${d}`)
          ? `${name.slice(0, name.lastIndexOf(":") + 1)}${d}`
          : d,
        depth + 1,
      );
    order.push(name);
  };
  for (const n of names.length === 0 ? ["default"] : names) visit(n, 0);
  noteFile(
    w,
    file,
    as,
    missing.length > 0 ? `no task \`${missing[0]}\`: rake stops` : `tasks ${order.map((t) => `\`${t}\``).join(", ")}`,
  );
  const ctx = inDir(hostCtx(inv.ctx, { host }), posix.dirname(file.path));
  const ruby = (code: string, line: number): void =>
    runCode(w, {
      language: "ruby",
      word: { word: { text: code, value: code, glob: false }, producers: [], substitution: undefined },
      interpreter: "rake",
      host,
      base: inv.base,
      ctx,
      disk: { shown: file.shown, line },
    });
  // rake runs the Rakefile's own code when it loads it, before any task
  if (rakefile.top.trim() !== "") ruby(rakefile.top, 1);
  if (missing.length > 0) return;
  for (const name of order) {
    const t = rakefile.tasks.get(name)!;
    if (t.body.trim() !== "") ruby(t.body, t.line);
  }
}

/** Where mise keeps its configuration and its file tasks, in each directory up from the working one. */
const MISE_CONFIGS = [
  "mise.toml",
  ".mise.toml",
  "mise.local.toml",
  ".mise.local.toml",
  ".config/mise.toml",
  ".config/mise/config.toml",
  "mise/config.toml",
  ".mise/config.toml",
];
const MISE_TASK_DIRS = ["mise-tasks", ".mise-tasks", "mise/tasks", ".mise/tasks", ".config/mise/tasks"];

/** `mise run TASK [args]`, `mise r TASK`, `mise tasks run TASK`: the task, its dependencies first. */
export function mise(w: Walk, inv: Invocation): void {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  if (!hasDisk(w)) return;
  const call = readRunner(inv.words, new Set(["-C", "--cd", "-j", "--jobs", "-E", "--env", "-o", "--output"]));
  const values = call.operands.map((o) => o.word.value);
  const at = values[0] === "run" || values[0] === "r" ? 1 : values[0] === "tasks" && values[1] === "run" ? 2 : -1;
  if (at < 0) return;
  const name = values[at];
  const as = "mise tasks";
  const unread = (file: Extract<CodeFile, { kind: "unread" }>): void =>
    unreadCode(w, { file, as, language: "shell", interpreter: "mise", host, text: inv.base.text });
  if (call.operands[at] === undefined) return;
  if (name === undefined)
    return unread({ kind: "unread", shown: "mise.toml", why: "runs a task named only at run time" });
  const dirWord = [...(call.options.get("-C") ?? []), ...(call.options.get("--cd") ?? [])].at(-1);
  const start = dirWord === undefined ? inv.ctx.state.cwd : absolute(dirWord.word.value ?? "", inv.ctx.state.cwd);
  const config = findUp(w, start, MISE_CONFIGS);
  if (config === undefined) return;
  if (config.kind === "unread") return unread(config);
  const tasks = config.kind === "text" ? readMiseTasks(config.text) : new Map<string, never>();
  const root = config.kind === "text" ? posix.dirname(config.path) : start;
  const done = new Set<string>();
  const run = (task: string, args: readonly (string | undefined)[], depth: number): void => {
    if (done.has(task) || depth > 32 || done.size > 128) return;
    done.add(task);
    const t = tasks.get(task);
    if (t !== undefined) {
      if (config.kind === "text") noteFile(w, config, as, `task \`${task}\``);
      for (const d of t.depends) run(d.split(/\s+/)[0] ?? d, [], depth + 1);
      const dir = t.dir === undefined ? root : (absolute(t.dir.replace("{{config_root}}", root ?? ""), root) ?? root);
      const ctx = dir === undefined ? hostCtx(inv.ctx, { host }) : inDir(hostCtx(inv.ctx, { host }), dir);
      for (const code of t.run)
        diskShell(w, {
          code,
          shown: config.kind === "text" ? config.shown : "mise.toml",
          line: t.line,
          interpreter: "mise",
          host,
          base: inv.base,
          ctx,
          ...(args.length > 0 && { args }),
        });
      return;
    }
    // a file task: an executable script named after the task (`ci:lint` → `ci/lint`)
    for (const d of MISE_TASK_DIRS) {
      const file = readCode(w, posix.join(d, task.replaceAll(":", "/")), root);
      if (file === undefined || file.kind === "missing") continue;
      if (file.kind === "unread") return unread(file);
      if (file.kind === "binary") return noteFile(w, file, as);
      const language = shebangOf(file.text);
      if (typeof language !== "string")
        return unread({
          kind: "unread",
          shown: file.shown,
          why: `is a \`${language.runs}\` script, which lanes does not read`,
        });
      noteFile(w, file, as, `file task \`${task}\``);
      const ctx = root === undefined ? hostCtx(inv.ctx, { host }) : inDir(hostCtx(inv.ctx, { host }), root);
      ctx.state.positional = [file.path, ...args];
      runCode(w, {
        language,
        word: { word: { text: file.text, value: file.text, glob: false }, producers: [], substitution: undefined },
        interpreter: "mise",
        host,
        base: inv.base,
        ctx,
        disk: { shown: file.shown, path: file.path },
      });
      return;
    }
    if (config.kind === "text") noteFile(w, config, as, `no task \`${task}\`: mise stops`);
  };
  run(
    name,
    call.operands.slice(at + 1).map((o) => o.word.value),
    0,
  );
}

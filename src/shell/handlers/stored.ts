/**
 * Code stored for a tool to run later, judged as that code when it is stored: `npm pkg set
 * scripts.X=CODE`, `npx husky add HOOK CODE`, and files the line writes that a runner reads (a
 * Makefile, a package.json, a justfile, a Taskfile, a git hook). The stored code is walked as it
 * would run (every target, script, task or hook, not only one a command names), in a fresh shell
 * in the file's directory: nothing the line set holds there.
 */
import { posix } from "node:path";
import { parseYaml, planJust, planMake, planTask, readPackageJson } from "../formats/index.ts";
import { storedKind, type StoredKind } from "../stored-kind.ts";
import type { CodeLanguage, ShellCommand } from "../types.ts";
import { emptyBase, plain, type ArgWord, type Base, type Ctx, type Invocation } from "../walk/context.ts";
import { hostCtx, runCode, shebangOf } from "./code.ts";
import type { Walk } from "./contract.ts";
import { absolute, diskShell, readCode, shownPath } from "./on-disk.ts";

/** A fresh shell in `dir` started by the command at `host` (the one that stores the code). */
export function laterCtx(w: Walk, ctx: Ctx, host: number, dir: string | undefined): Ctx {
  const inner = hostCtx(ctx, { host });
  inner.state.cwd = dir;
  inner.state.vars = new Map([
    ["HOME", { set: true, value: w.options.home }],
    ["PWD", dir === undefined ? undefined : { set: true, value: dir }],
  ]);
  inner.state.positional = undefined;
  return { ...inner, stdin: undefined, stdinRedirects: [] };
}

/** Shell code stored at `shown` (line `line`, 0 when unknown), judged now as it will run in `dir`. */
export function storedShell(
  w: Walk,
  o: {
    readonly code: string;
    readonly shown: string;
    readonly line: number;
    readonly interpreter: string;
    readonly host: number;
    readonly base: Base;
    readonly ctx: Ctx;
    readonly dir: string | undefined;
  },
): void {
  diskShell(w, {
    code: o.code,
    shown: o.shown,
    line: o.line,
    interpreter: o.interpreter,
    host: o.host,
    base: o.base,
    ctx: laterCtx(w, o.ctx, o.host, o.dir),
  });
}

/** The script a `npm pkg set` key names (`scripts.clean`, `scripts[clean]`), else `undefined`. */
function scriptKey(key: string): string | undefined {
  if (key.startsWith("scripts.")) return key.slice("scripts.".length);
  if (key.startsWith("scripts[") && key.endsWith("]"))
    return key.slice("scripts[".length, -1).replace(/^["']|["']$/g, "");
  return undefined;
}

/**
 * `npm pkg set scripts.X=CODE ...`, `pnpm pkg set ...`, `npm set-script X CODE`: the scripts they
 * store are judged as the code they are (with `--json`, a value is a JSON string). True when the
 * command was such a call.
 */
export function storedPackageScripts(
  w: Walk,
  o: {
    readonly program: string;
    readonly words: readonly ArgWord[];
    readonly host: number;
    readonly base: Base;
    readonly ctx: Ctx;
  },
): boolean {
  const operands = o.words.slice(1).filter((x) => x.word.value === undefined || !x.word.value.startsWith("-"));
  const values = operands.map((x) => x.word.value);
  const json = o.words.some((x) => x.word.value === "--json");
  const dir = o.ctx.state.cwd;
  const shown = "package.json";
  const store = (name: string, code: string | undefined): void => {
    if (code === undefined) {
      w.report("dynamic-code", o.base.text, `the script \`${name}\` stored is only known at run time`);
      return;
    }
    storedShell(w, {
      code,
      shown: `${shown} scripts.${name}`,
      line: 0,
      interpreter: o.program,
      host: o.host,
      base: o.base,
      ctx: o.ctx,
      dir,
    });
  };
  if (values[0] === "set-script" && values[1] !== undefined && operands[2] !== undefined) {
    store(values[1], values[2]);
    return true;
  }
  if (values[0] !== "pkg" || values[1] !== "set") return false;
  for (const word of operands.slice(2)) {
    const v = word.word.value;
    // `"scripts.x=$CMD"`: the key is still written out
    const text = v ?? word.word.text.replace(/^["']|["']$/g, "");
    const eq = text.indexOf("=");
    if (eq <= 0) continue;
    const name = scriptKey(text.slice(0, eq));
    if (name === undefined) continue;
    let code = v === undefined ? undefined : v.slice(eq + 1);
    if (json && code !== undefined)
      try {
        const parsed: unknown = JSON.parse(code);
        code = typeof parsed === "string" ? parsed : undefined;
      } catch {
        code = undefined;
      }
    store(name, code);
  }
  return true;
}

/** One piece of stored code that runs as a whole: a target's recipe, a script, a recipe, a task, a hook. */
interface Unit {
  readonly key: string;
  readonly lines: readonly { readonly code: string; readonly shown: string; readonly line: number }[];
  /** The language of a unit that is one script (a hook, a `#!` recipe); shell lines otherwise. */
  readonly language?: CodeLanguage | { readonly runs: string };
  /** The directory it runs in. */
  readonly dir: string;
}

/** The units of stored code in `text` (a file of `kind` at `path`, shown as `shown`). */
function unitsOf(w: Walk, kind: StoredKind, text: string, path: string, shown: string): Unit[] {
  const dir = posix.dirname(path);
  const tick = (units: number): void => w.tick(units);
  const include = (p: string): { text: string; file: string } | "missing" | { why: string } => {
    const file = readCode(w, p, dir);
    if (file === undefined || file.kind === "missing") return "missing";
    if (file.kind !== "text") return { why: file.kind === "unread" ? file.why : "is not a text file" };
    return { text: file.text, file: file.shown };
  };
  const env = new Map<string, string | undefined>([["HOME", w.options.home]]);
  switch (kind) {
    case "make": {
      const plan = planMake({
        makefiles: [{ text, file: shown }],
        dir,
        goals: [],
        overrides: new Map(),
        env,
        envOverrides: false,
        evals: [],
        make: "make",
        include,
        tick,
        all: true,
      });
      return [
        ...plan.parseShells.map((s, i) => ({
          key: `$(shell) ${i} ${s.code}`,
          lines: [{ code: s.code, shown: s.file, line: s.line }],
          dir,
        })),
        ...plan.runs.map((r) => ({
          key: r.target,
          lines: r.lines.map((l) => ({ code: l.code, shown: l.file, line: l.line })),
          dir,
        })),
      ];
    }
    case "package":
    case "deno": {
      const scripts = readPackageJson(text, kind === "deno" ? "tasks" : "scripts").scripts;
      return [...(scripts?.values() ?? [])].map((s) => ({
        key: s.name,
        lines: [{ code: s.code, shown, line: s.line }],
        dir,
      }));
    }
    case "just": {
      const plan = planJust({
        text,
        file: shown,
        args: [],
        overrides: new Map(),
        env,
        dir,
        home: w.options.home,
        include,
        tick,
        all: true,
      });
      return [
        ...plan.parseShells.map((s, i) => ({
          key: `\`${i}\` ${s.code}`,
          lines: [{ code: s.code, shown: s.file, line: s.line }],
          dir,
        })),
        ...plan.runs.map((r) =>
          r.script === undefined
            ? { key: r.recipe, lines: r.lines.map((l) => ({ code: l.code, shown: l.file, line: l.line })), dir }
            : {
                key: r.recipe,
                lines: [
                  {
                    code: r.lines.map((l) => l.code).join("\n"),
                    shown: r.lines[0]?.file ?? shown,
                    line: r.lines[0]?.line ?? 1,
                  },
                ],
                language: r.script.startsWith("#!") ? shebangOf(r.lines.map((l) => l.code).join("\n")) : "shell",
                dir,
              },
        ),
      ];
    }
    case "task": {
      const document = parseYaml(text);
      const names =
        typeof document === "object" &&
        document !== null &&
        typeof (document as Record<string, unknown>)["tasks"] === "object"
          ? Object.keys((document as { tasks: object }).tasks ?? {})
          : [];
      const plan = planTask({
        document,
        file: shown,
        dir,
        tasks: names,
        vars: new Map(),
        cliArgs: undefined,
        include: () => "missing",
        tick,
      });
      const by = new Map<string, Unit["lines"][number][]>();
      for (const l of plan.lines) by.set(l.task, [...(by.get(l.task) ?? []), { code: l.code, shown: l.file, line: 0 }]);
      return [...by].map(([key, lines]) => ({ key, lines, dir }));
    }
    case "hook":
      return [
        {
          key: "hook",
          lines: [{ code: text, shown, line: 1 }],
          language: shebangOf(text),
          dir: w.options.repoRoot ?? dir,
        },
      ];
    default: {
      const unknown: never = kind;
      return unknown;
    }
  }
}

/** What each kind of stored file is called in `lanes check`. */
const STORED_AS: Readonly<Record<StoredKind, string>> = {
  make: "Makefile",
  package: "package.json scripts",
  deno: "deno.json tasks",
  just: "justfile",
  task: "Taskfile",
  hook: "git hook",
};

/**
 * Code stored in the file at `path` (`text`, replacing `before`, the file's text on disk), judged
 * as it will run: every unit (target, script, recipe, task, hook) that the change adds or alters,
 * in a fresh shell in its directory, as commands started by `host`. True when `path` is such a file.
 */
export function judgeStored(
  w: Walk,
  o: {
    readonly path: string;
    readonly text: string;
    readonly before: string | undefined;
    readonly host: number;
    readonly base: Base;
    readonly ctx: Ctx;
    readonly interpreter: string;
  },
): boolean {
  const kind = storedKind(o.path);
  if (kind === undefined) return false;
  const shown = shownPath(w, o.path);
  const was = new Map(
    (o.before === undefined ? [] : unitsOf(w, kind, o.before, o.path, shown)).map((u) => [
      u.key,
      u.lines.map((l) => l.code).join("\n"),
    ]),
  );
  const changed = unitsOf(w, kind, o.text, o.path, shown).filter(
    (u) => was.get(u.key) !== u.lines.map((l) => l.code).join("\n"),
  );
  w.noteRead({
    path: shown,
    as: `stored ${STORED_AS[kind]}`,
    outcome: "read",
    detail:
      changed.length === 0
        ? "no code added or changed"
        : `judged: ${changed.map((u) => `\`${u.key.split(" ")[0]}\``).join(", ")}`,
  });
  for (const unit of changed) {
    const ctx = laterCtx(w, o.ctx, o.host, unit.dir);
    const language = unit.language ?? "shell";
    if (typeof language !== "string") {
      w.report(
        "unread-file",
        o.base.text,
        `\`${shown}\` stores a \`${language.runs}\` script, which lanes does not read`,
      );
      continue;
    }
    for (const line of unit.lines) {
      if (language === "shell")
        diskShell(w, {
          code: line.code,
          shown: line.shown,
          line: line.line,
          interpreter: o.interpreter,
          host: o.host,
          base: o.base,
          ctx,
        });
      else
        runCode(w, {
          language,
          word: plain({ text: line.code, value: line.code, glob: false }),
          interpreter: o.interpreter,
          host: o.host,
          base: o.base,
          ctx,
          disk: { shown: line.shown, line: line.line },
        });
    }
  }
  return true;
}

/**
 * At the end of the line: the files it wrote that hold code a tool runs later (`cat > Makefile`,
 * `echo ... >> package.json`, a heredoc into `.git/hooks/pre-commit`), judged by the code they
 * store. A file appended to is the file on disk with what the line appends; a file written from a
 * run-time value (a download) stores code only known at run time.
 */
export function storedFiles(w: Walk, ctx: Ctx): void {
  copiedFiles(w, ctx);
  editedFiles(w, ctx);
  for (const [path, file] of w.writtenFiles()) {
    if (storedKind(path) === undefined) continue;
    const host = file.producers.at(-1) ?? 0;
    const text = w.command(host)?.text ?? path;
    const base = emptyBase(text);
    if (file.text === undefined) {
      w.report("dynamic-code", text, `\`${shownPath(w, path)}\` stores code only known at run time`);
      continue;
    }
    const disk = readCode(w, path, undefined);
    const before = disk?.kind === "text" ? disk.text : undefined;
    const full = file.partial === true ? (before ?? "") + file.text : file.text;
    const interpreter = w.command(host)?.program ?? "sh";
    judgeStored(w, { path, text: full, before, host, base, ctx, interpreter });
  }
}

/**
 * `husky add FILE CMD`, `husky set FILE CMD` (husky 4 to 8): the command is stored in the hook
 * FILE (appended, or as the whole hook), judged now as that hook's code.
 */
export function husky(w: Walk, inv: Invocation): void {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  const values = inv.words.slice(1).map((x) => x.word.value);
  const verb = values[0];
  if ((verb !== "add" && verb !== "set") || values.length < 3) return;
  const file = values[1];
  const code = values[2];
  if (code === undefined) {
    w.report("dynamic-code", inv.base.text, "the hook's command is only known at run time");
    return;
  }
  const path = file === undefined ? undefined : absolute(file, inv.ctx.state.cwd);
  const shown = path === undefined ? (inv.words[2]?.word.text ?? "the hook") : shownPath(w, path);
  storedShell(w, {
    code,
    shown,
    line: 0,
    interpreter: "husky",
    host,
    base: inv.base,
    ctx: inv.ctx,
    dir: w.options.repoRoot ?? inv.ctx.state.cwd,
  });
}

/** Programs that put a file's content at another path: `cp`, `install`, `mv`, and `ln` (a link to it). */
const COPIERS = ["cp", "install", "mv", "ln"];

/**
 * `cp hooks/pre-commit .git/hooks/`, `ln -s ../../tools/pre-push .git/hooks/pre-push`, `install -m
 * 755 x .git/hooks/post-merge`: a file copied, moved or linked to where a tool runs it stores the
 * code it holds (read from disk, or as the line wrote it).
 */
function copiedFiles(w: Walk, ctx: Ctx): void {
  for (let i = 0; ; i++) {
    const c = w.command(i);
    if (c === undefined) return;
    if (c.program === undefined || !COPIERS.includes(c.program)) continue;
    const operands = c.args.filter((a) => a.value === undefined || !a.value.startsWith("-"));
    // `install -m 755 SRC DEST`: the mode is an option's value
    const values = c.program === "install" ? operandsAfterMode(c.args) : operands;
    if (values.length < 2 || values.some((a) => a.value === undefined)) continue;
    const dest = absolute(values.at(-1)!.value!, c.cwd);
    if (dest === undefined) continue;
    const destKind = w.disk.kind(dest);
    const symbolic = c.program === "ln" && c.args.some((a) => a.value !== undefined && /^-[a-zA-Z]*s/.test(a.value));
    for (const source of values.slice(0, -1)) {
      const target =
        destKind?.kind === "dir" || dest.endsWith("/") ? posix.join(dest, posix.basename(source.value!)) : dest;
      if (storedKind(target) === undefined) continue;
      // a symbolic link's target is relative to the link's directory
      const from =
        symbolic && !source.value!.startsWith("/")
          ? posix.join(posix.dirname(target), source.value!)
          : absolute(source.value!, c.cwd);
      if (from === undefined) continue;
      const written = w.writtenFile(from, ctx);
      const disk = written?.text === undefined ? readCode(w, from, undefined) : undefined;
      const text = written?.text ?? (disk?.kind === "text" ? disk.text : undefined);
      if (text === undefined) {
        if (disk !== undefined && disk.kind !== "missing")
          w.report("unread-file", c.text, `\`${shownPath(w, target)}\` gets code lanes cannot read`);
        continue;
      }
      const current = readCode(w, target, undefined);
      judgeStored(w, {
        path: target,
        text,
        before: current?.kind === "text" ? current.text : undefined,
        host: c.index,
        base: emptyBase(c.text),
        ctx,
        interpreter: c.program,
      });
    }
  }
}

/** The operands of `install`, without the values of its options (`-m 755`, `-o root`, `-g wheel`). */
function operandsAfterMode(args: readonly { value: string | undefined; text: string }[]) {
  const out: { value: string | undefined; text: string }[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === "-m" || v === "--mode" || v === "-o" || v === "--owner" || v === "-g" || v === "--group" || v === "-t") {
      i++;
      continue;
    }
    if (v !== undefined && v.startsWith("-")) continue;
    out.push(args[i]!);
  }
  return out;
}

/**
 * Edits of a file a tool runs later by a command: `sed -i 's/.../.../' package.json` (its `s`
 * commands applied to the file on disk) and `jq '.scripts.x = "..."' package.json` (the scripts it
 * assigns). The code they store is judged; a `sed` script lanes cannot apply is unknown code.
 */
function editedFiles(w: Walk, ctx: Ctx): void {
  for (let i = 0; ; i++) {
    const c = w.command(i);
    if (c === undefined) return;
    if (c.program === "sed") sedInPlace(w, ctx, c);
    else if (c.program === "jq") jqScripts(w, ctx, c);
  }
}

/** One `s` command of a sed script, as a JavaScript replacement. */
interface Substitution {
  readonly pattern: RegExp;
  readonly replacement: string;
}

/** A sed script of `s` commands only (`s/a/b/g; s|x|y|`), as substitutions; `undefined` for anything else. */
function substitutions(script: string, extended: boolean): Substitution[] | undefined {
  const out: Substitution[] = [];
  let i = 0;
  while (i < script.length) {
    while (i < script.length && /[\s;]/.test(script[i] as string)) i++;
    if (i >= script.length) break;
    if (script[i] !== "s") return undefined;
    const delimiter = script[i + 1];
    if (delimiter === undefined || delimiter === "\\" || delimiter === "\n") return undefined;
    const parts: string[] = [];
    let current = "";
    let j = i + 2;
    for (; j < script.length && parts.length < 2; j++) {
      const ch = script[j] as string;
      if (ch === "\\" && j + 1 < script.length) {
        current += script[j + 1] === delimiter ? delimiter : `\\${script[j + 1]}`;
        j++;
      } else if (ch === delimiter) {
        parts.push(current);
        current = "";
      } else current += ch;
    }
    if (parts.length < 2) return undefined;
    let flags = "";
    while (j < script.length && /[gIi]/.test(script[j] as string)) flags += script[j++];
    if (j < script.length && !/[\s;]/.test(script[j] as string)) return undefined;
    const source = posixClasses(extended ? (parts[0] as string) : basicToExtended(parts[0] as string));
    let pattern: RegExp;
    try {
      pattern = new RegExp(source, `${flags.includes("g") ? "g" : ""}${/[Ii]/.test(flags) ? "i" : ""}`);
    } catch {
      return undefined;
    }
    const replacement = (parts[1] as string)
      .replace(/\$/g, "$$$$")
      .replace(/\\([1-9])/g, "$$$1")
      .replace(/(^|[^\\])&/g, "$1$$&")
      .replace(/\\&/g, "&")
      .replace(/\\n/g, "\n")
      .replace(/\\t/g, "\t")
      .replace(/\\(.)/g, "$1");
    out.push({ pattern, replacement });
    i = j;
  }
  return out;
}

/** POSIX character classes in brackets (`[[:space:]]`) as JavaScript's. */
function posixClasses(re: string): string {
  const classes: Readonly<Record<string, string>> = {
    alpha: "a-zA-Z",
    digit: "0-9",
    alnum: "a-zA-Z0-9",
    upper: "A-Z",
    lower: "a-z",
    space: "\\s",
    blank: " \\t",
    punct: "!-\\/:-@\\[-`{-~",
    xdigit: "0-9A-Fa-f",
    word: "\\w",
  };
  return re.replace(/\[:(\w+):\]/g, (m, name: string) => classes[name] ?? m);
}

/** A POSIX basic regular expression as an extended one (`\(` groups, literal `(`, `+`, `?`, `|`, `{`). */
function basicToExtended(re: string): string {
  let out = "";
  for (let i = 0; i < re.length; i++) {
    const ch = re[i] as string;
    if (ch === "\\" && i + 1 < re.length) {
      const next = re[++i] as string;
      out += "(){}+?|".includes(next) ? next : `\\${next}`;
    } else out += "(){}+?|".includes(ch) ? `\\${ch}` : ch;
  }
  return out;
}

function sedInPlace(w: Walk, ctx: Ctx, c: ShellCommand): void {
  const values = c.args.map((a) => a.value);
  if (
    !values.some(
      (v) => v !== undefined && (v === "--in-place" || v.startsWith("--in-place=") || /^-[a-zA-Z]*i/.test(v)),
    )
  )
    return;
  const extended = values.some((v) => v === "-E" || v === "-r" || v === "--regexp-extended");
  const scripts: (string | undefined)[] = [];
  const files: string[] = [];
  for (let k = 0; k < c.args.length; k++) {
    const v = values[k];
    if (v === "-e" || v === "--expression") scripts.push(values[++k]);
    else if (v !== undefined && v.startsWith("-") && v !== "-") continue;
    else if (scripts.length === 0 && !values.slice(0, k).some((x) => x === "-e" || x === "--expression"))
      scripts.push(v);
    else if (v !== undefined) files.push(v);
  }
  for (const file of files) {
    const path = absolute(file, c.cwd);
    if (path === undefined || storedKind(path) === undefined) continue;
    const disk = readCode(w, path, undefined);
    if (disk === undefined || disk.kind !== "text") continue;
    const subs = scripts.every((s) => s !== undefined)
      ? scripts.flatMap((s) => substitutions(s as string, extended) ?? [undefined])
      : [undefined];
    if (subs.some((s) => s === undefined)) {
      w.report("unread-file", c.text, `\`${disk.shown}\` is edited by a sed script lanes does not apply`);
      continue;
    }
    let text = disk.text;
    for (const s of subs as Substitution[])
      text = text
        .split("\n")
        .map((line) => line.replace(s.pattern, s.replacement))
        .join("\n");
    judgeStored(w, { path, text, before: disk.text, host: c.index, base: emptyBase(c.text), ctx, interpreter: "sed" });
  }
}

/** `jq '.scripts.x = "CODE"' package.json`, `jq --arg c CODE '.scripts.x = $c'`, `.scripts += {"x": "CODE"}`. */
function jqScripts(w: Walk, ctx: Ctx, c: ShellCommand): void {
  const values = c.args.map((a) => a.value);
  const vars = new Map<string, string | undefined>();
  const operands: (string | undefined)[] = [];
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (v === "--arg" || v === "--argjson") {
      vars.set(values[k + 1] ?? "", v === "--arg" ? values[k + 2] : undefined);
      k += 2;
    } else if (v !== undefined && v.startsWith("-")) continue;
    else operands.push(v);
  }
  const [filter, ...files] = operands;
  if (filter === undefined || !filter.includes(".scripts")) return;
  const target = files
    .map((f) => (f === undefined ? undefined : absolute(f, c.cwd)))
    .find((p) => p !== undefined && storedKind(p) === "package");
  if (target === undefined) return;
  const scripts: [string, string | undefined][] = [];
  const literal = (text: string): string | undefined => {
    if (text.startsWith("$")) return vars.get(text.slice(1));
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === "string" ? parsed : undefined;
    } catch {
      return undefined;
    }
  };
  const value = String.raw`("(?:[^"\\]|\\.)*"|\$\w+)`;
  for (const m of filter.matchAll(
    new RegExp(String.raw`\.scripts(?:\.("?)([\w:.-]+)\1|\[\s*"([^"]+)"\s*\])\s*\|?=\s*${value}`, "g"),
  ))
    scripts.push([(m[2] ?? m[3]) as string, literal(m[4] as string)]);
  for (const block of filter.matchAll(/\.scripts\s*\+?=\s*(?:\.scripts\s*\+\s*)?\{([^}]*)\}/g))
    for (const m of (block[1] as string).matchAll(new RegExp(String.raw`"([^"]+)"\s*:\s*${value}`, "g")))
      scripts.push([m[1] as string, literal(m[2] as string)]);
  for (const [name, code] of scripts) {
    if (code === undefined) {
      w.report("dynamic-code", c.text, `the script \`${name}\` stored is only known at run time`);
      continue;
    }
    storedShell(w, {
      code,
      shown: `${shownPath(w, target)} scripts.${name}`,
      line: 0,
      interpreter: "jq",
      host: c.index,
      base: emptyBase(c.text),
      ctx,
      dir: posix.dirname(target),
    });
  }
}

/**
 * `make` (and `gmake`): the recipes the goals reach, read from the makefiles on disk at hook time
 * (`formats/makefile.ts`) and walked as the shell code each recipe line is, in make's directory:
 * `-f FILE`, `-C DIR`, `-I DIR`, `--eval`, `VAR=value` on the command line and in its
 * environment, `make -n`/`-q`/`-t` (only `+` lines and `$(MAKE)` lines run, and the shell commands
 * make runs while it reads), `.ONESHELL` and `SHELL`. A recipe's `$(MAKE) -C sub` is a `make`
 * command of its own, handled here again one level deeper.
 */
import { planMake, type MakePlan } from "../formats/index.ts";
import type { CodeLanguage } from "../types.ts";
import { varValue, type ArgWord, type Invocation } from "../walk/context.ts";
import { hostCtx, runCode, scriptLanguage } from "./code.ts";
import type { Walk } from "./contract.ts";
import {
  absolute,
  diskShell,
  findFile,
  hasDisk,
  inDir,
  noteFile,
  readCode,
  unreadCode,
  type CodeFile,
} from "./on-disk.ts";

/** The makefiles make looks for, in order, when no `-f` is given. */
const MAKEFILES = ["GNUmakefile", "makefile", "Makefile"];

/** Short options of make that take a value (attached or as the next word). */
const VALUE_SHORT = new Set(["f", "C", "I", "o", "W", "E"]);
/** Short options with an optional numeric value (`-j`, `-j4`, `-j 4`). */
const NUMERIC_SHORT = new Set(["j", "l"]);
/** Long options that take a value as the next word when not given with `=`. */
const VALUE_LONG = new Set([
  "--file",
  "--makefile",
  "--directory",
  "--include-dir",
  "--old-file",
  "--assume-old",
  "--what-if",
  "--new-file",
  "--assume-new",
  "--eval",
]);

/** A make command line, read. */
interface MakeCall {
  readonly files: ArgWord[];
  readonly dirs: ArgWord[];
  readonly includeDirs: ArgWord[];
  readonly evals: ArgWord[];
  readonly goals: ArgWord[];
  readonly overrides: Map<string, string | undefined>;
  /** `-n`, `-q`, `-t`: recipes do not run (but `+` and `$(MAKE)` lines). */
  dryRun: boolean;
  /** `--help`, `--version`: nothing is read. */
  noRun: boolean;
  /** `-e`: the environment overrides the makefile. */
  envOverrides: boolean;
}

function readCall(words: readonly ArgWord[]): MakeCall {
  const call: MakeCall = {
    files: [],
    dirs: [],
    includeDirs: [],
    evals: [],
    goals: [],
    overrides: new Map(),
    dryRun: false,
    noRun: false,
    envOverrides: false,
  };
  const take = (option: string, value: ArgWord): void => {
    if (option === "f" || option === "--file" || option === "--makefile") call.files.push(value);
    else if (option === "C" || option === "--directory") call.dirs.push(value);
    else if (option === "I" || option === "--include-dir") call.includeDirs.push(value);
    else if (option === "E" || option === "--eval") call.evals.push(value);
  };
  const flag = (option: string): void => {
    if (["n", "q", "t", "--just-print", "--dry-run", "--recon", "--question", "--touch"].includes(option))
      call.dryRun = true;
    if (["h", "v", "--help", "--version"].includes(option)) call.noRun = true;
    if (option === "e" || option === "--environment-overrides") call.envOverrides = true;
  };
  let options = true;
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as ArgWord;
    const v = word.word.value;
    if (options && v === "--") {
      options = false;
      continue;
    }
    if (options && v !== undefined && v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = eq > 0 ? v.slice(0, eq) : v;
      if (eq > 0) take(name, { ...word, word: { ...word.word, value: v.slice(eq + 1) } });
      else if (VALUE_LONG.has(name) && i + 1 < words.length) take(name, words[++i] as ArgWord);
      else flag(name);
      continue;
    }
    if (options && v !== undefined && v.startsWith("-") && v.length > 1) {
      for (let j = 1; j < v.length; j++) {
        const letter = v[j] as string;
        if (VALUE_SHORT.has(letter)) {
          const rest = v.slice(j + 1);
          if (rest.length > 0) take(letter, { ...word, word: { ...word.word, value: rest } });
          else if (i + 1 < words.length) take(letter, words[++i] as ArgWord);
          break;
        }
        if (NUMERIC_SHORT.has(letter)) {
          if (j + 1 === v.length && /^\d+(\.\d+)?$/.test(words[i + 1]?.word.value ?? "")) i++;
          break;
        }
        flag(letter);
      }
      continue;
    }
    // `VAR=value` on the command line overrides the makefile
    const text = v ?? word.word.text;
    const eq = text.indexOf("=");
    const name = eq > 0 ? text.slice(0, eq).replace(/[:+?!]+$/, "") : "";
    if (eq > 0 && /^[^\s$()]+$/.test(name)) {
      call.overrides.set(name, v === undefined ? undefined : v.slice(eq + 1));
      continue;
    }
    call.goals.push(word);
  }
  return call;
}

/** What a makefile is read as in `lanes check`. */
const AS = "Makefile";

/** `make [options] [goals] [VAR=value]`: the recipes its goals run. */
export function make(w: Walk, inv: Invocation): void {
  const { words, base, ctx } = inv;
  const host = w.emit(words, base, ctx);
  if (!hasDisk(w)) return;
  const call = readCall(words);
  if (call.noRun) return;
  const unread = (file: Extract<CodeFile, { kind: "unread" }>): void =>
    unreadCode(w, { file, as: AS, language: "shell", interpreter: inv.program, host, text: base.text });
  // `-C a -C b` is `a/b`
  let dir = ctx.state.cwd;
  for (const d of call.dirs) {
    if (d.word.value === undefined)
      return unread({ kind: "unread", shown: d.word.text, why: "is a directory named only at run time" });
    dir = absolute(d.word.value, dir);
  }
  if (dir === undefined)
    return unread({ kind: "unread", shown: "the makefile", why: "is in a directory known only at run time" });
  const makefiles: { text: string; file: string }[] = [];
  if (call.files.length === 0) {
    const file = findFile(w, dir, MAKEFILES);
    if (file === undefined) return;
    if (file.kind === "missing" || file.kind === "binary") {
      // no makefile: only make's built-in rules, which build `x` from `x.c`
      noteFile(w, file, AS, file.kind === "missing" ? "no makefile: nothing of the project runs" : undefined);
      return;
    }
    if (file.kind === "unread") return unread(file);
    makefiles.push({ text: file.text, file: file.shown });
  }
  for (const f of call.files) {
    // `make -f -`: the makefile is read from stdin
    if (f.word.value === "-") {
      const text = w.stdinText(base, ctx);
      if (text === undefined)
        return unread({ kind: "unread", shown: "the makefile", why: "is read from stdin, known only at run time" });
      makefiles.push({ text, file: "stdin" });
      continue;
    }
    const file = readCode(w, f.word.value, dir, f.word.text);
    if (file === undefined) return;
    if (file.kind === "missing" || file.kind === "binary") {
      noteFile(w, file, AS, "make stops: no such makefile");
      return;
    }
    if (file.kind === "unread") return unread(file);
    makefiles.push({ text: file.text, file: file.shown });
  }
  const goals: string[] = [];
  for (const g of call.goals) {
    if (g.word.value === undefined)
      return unread({
        kind: "unread",
        shown: makefiles[0]!.file,
        why: `builds a goal named only at run time (\`${g.word.text}\`)`,
      });
    goals.push(g.word.value);
  }
  // the environment make gets: the login variables, and what the command line sets for it
  const env = new Map<string, string | undefined>();
  for (const name of ["HOME", "USER", "LOGNAME", "PWD"]) {
    const value = varValue(ctx.state, name);
    if (value !== undefined) env.set(name, value);
  }
  for (const a of base.assignments) env.set(a.name, a.value.value);
  const includeDirs = call.includeDirs.flatMap((d) =>
    d.word.value === undefined ? [] : [absolute(d.word.value, dir)!],
  );
  const evals = call.evals.flatMap((e) => (e.word.value === undefined ? [] : [e.word.value]));
  const plan = planMake({
    makefiles,
    dir,
    goals,
    overrides: call.overrides,
    env,
    envOverrides: call.envOverrides,
    evals,
    make: call.dryRun ? `${inv.program} -n` : inv.program,
    include: (path) => {
      for (const from of [dir, ...(path.startsWith("/") ? [] : includeDirs)]) {
        const file = readCode(w, path, from);
        if (file === undefined) return { why: "cannot be read" };
        if (file.kind === "missing") continue;
        if (file.kind === "unread") return { why: file.why };
        if (file.kind === "binary") return { why: "is not a makefile" };
        return { text: file.text, file: file.shown };
      }
      return "missing";
    },
    tick: (units) => w.tick(units),
  });
  recordPlan(w, { plan, makefiles, dir, host, inv, dryRun: call.dryRun, unread });
}

/** Walks what the plan runs and records the files it read. */
function recordPlan(
  w: Walk,
  o: {
    readonly plan: MakePlan;
    readonly makefiles: readonly { file: string }[];
    readonly dir: string;
    readonly host: number;
    readonly inv: Invocation;
    readonly dryRun: boolean;
    readonly unread: (file: Extract<CodeFile, { kind: "unread" }>) => void;
  },
): void {
  const { plan, host, inv } = o;
  const targets = plan.runs.map((r) => `\`${r.target}\``);
  const detail =
    plan.goals.length === 0
      ? "no target: nothing runs"
      : `${o.dryRun ? "dry run of " : ""}${plan.goals.map((g) => `\`${g}\``).join(", ")}${targets.length > 0 ? `: recipes of ${targets.join(", ")}` : ""}`;
  for (const m of o.makefiles) w.noteRead({ path: m.file, as: AS, outcome: "read", detail });
  for (const f of plan.included) w.noteRead({ path: f, as: "included makefile", outcome: "read" });
  for (const u of plan.unread) o.unread({ kind: "unread", shown: u.file, why: u.why });
  if (plan.limited)
    o.unread({
      kind: "unread",
      shown: o.makefiles[0]?.file ?? "the makefile",
      why: "is larger or nests deeper than lanes follows",
    });
  const inner = inDir(hostCtx(inv.ctx, { host }), o.dir);
  for (const [name, value] of plan.exported)
    inner.state.vars.set(name, value === undefined ? undefined : { set: true, value });
  for (const s of plan.parseShells)
    diskShell(w, {
      code: s.code,
      shown: s.file,
      line: s.line,
      interpreter: inv.program,
      host,
      base: inv.base,
      ctx: inner,
    });
  const language: CodeLanguage | undefined = plan.shell === undefined ? "shell" : scriptLanguage(plan.shell);
  if (language === undefined && plan.runs.length > 0) {
    o.unread({
      kind: "unread",
      shown: o.makefiles[0]?.file ?? "the makefile",
      why: `runs its recipes with \`${plan.shell}\`, which lanes does not read`,
    });
    return;
  }
  for (const run of plan.runs) {
    const lines = run.lines.filter((l) => !o.dryRun || l.always);
    if (lines.length === 0) continue;
    const pieces = plan.oneShell ? [{ ...lines[0]!, code: lines.map((l) => l.code).join("\n") }] : lines;
    for (const line of pieces) {
      if (language === "shell")
        diskShell(w, {
          code: line.code,
          shown: line.file,
          line: line.line,
          interpreter: inv.program,
          host,
          base: inv.base,
          ctx: inner,
        });
      else
        runCode(w, {
          language: language as CodeLanguage,
          word: { word: { text: line.code, value: line.code, glob: false }, producers: [], substitution: undefined },
          interpreter: inv.program,
          host,
          base: inv.base,
          ctx: inner,
          disk: { shown: line.file, line: line.line },
        });
    }
  }
}

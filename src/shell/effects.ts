/**
 * `fileEffects`: how each command of an analysis touches paths, from program knowledge in
 * `tables/effects.ts` (generic matcher here), redirections, and the shapes that need their own
 * code (tar modes, find actions, interpreters running scripts). Relative paths stay relative:
 * the policy resolves them against `ShellCommand.cwd`.
 */
import { detailedView, type DetailedView, type Operand } from "./detailed-view.ts";
import { readInterpreter } from "./interpreter-input.ts";
import { syntheticWord } from "./words.ts";
import {
  NON_FILES,
  NON_FILE_PREFIXES,
  PROGRAM_EFFECTS,
  SOCAT_FILES,
  type Access,
  type EffectSpec,
} from "./tables/effects.ts";
import { ENVIRONMENT_PRINTERS } from "./tables/network.ts";
import { FIND_WIDENERS } from "./tables/options.ts";
import { findNarrows } from "./find-expression.ts";
import { DOCKER_LIKE } from "./tables/programs.ts";
import type { FileEffect, ShellAnalysis, ShellCommand, ShellWord } from "./types.ts";

/** Container CLIs whose `run` takes `--env-file`. */
const CONTAINER_RUNNERS: readonly string[] = DOCKER_LIKE;

/** Stands for the paths a command receives at run time (`xargs rm`): unknown, so `value` is undefined. */
const RUNTIME_PATH: ShellWord = { text: "<run-time arguments>", value: undefined, glob: false };

type Push = (
  access: Access,
  path: ShellWord,
  extra?: {
    recursive?: boolean;
    force?: boolean;
    filtered?: boolean;
    overwrite?: boolean;
    basis?: FileEffect["basis"];
    selection?: FileEffect["selection"];
  },
) => void;

const isNonFile = (path: ShellWord): boolean =>
  path.value !== undefined &&
  (NON_FILES.includes(path.value) || NON_FILE_PREFIXES.some((p) => (path.value as string).startsWith(p)));

/**
 * Every file effect of every command in `analysis`, in command order, without duplicates.
 * Interpreter API calls are not repeated here: they are in {@link ShellAnalysis.calls}.
 */
export function fileEffects(analysis: ShellAnalysis): FileEffect[] {
  const out: FileEffect[] = [];
  const seen = new Set<string>();
  for (const cmd of analysis.commands) {
    const own: FileEffect[] = [];
    const push: Push = (access, path, extra = {}) => {
      if (isNonFile(path)) return;
      own.push({
        command: cmd.index,
        access,
        path,
        recursive: extra.recursive ?? false,
        force: extra.force ?? false,
        filtered: extra.filtered ?? false,
        ...(access === "write" && extra.overwrite === true ? { overwrite: true } : {}),
        ...(extra.selection !== undefined && { selection: extra.selection }),
        basis: extra.basis ?? "known",
      });
    };
    const mode = cmd.program === "chmod" ? detailedView("chmod", cmd.args).operands[0]?.word.value : undefined;
    const tightens = cmd.program === "chmod" ? tightensMode(mode) : () => false;
    redirectEffects(cmd, push);
    if (cmd.program !== undefined) commandEffects(cmd, analysis, push);
    for (const found of runtimeEffects(cmd, analysis, own)) {
      // as the effect finally is (`find -exec chmod 600 {} +` is recursive)
      const effect =
        found.access !== "chmod"
          ? found
          : tightens(found.recursive)
            ? { ...found, tightens: true }
            : withLockOut(found, cmd.program === "chmod" ? locksOut(mode) : "files");
      const key = [
        effect.command,
        effect.access,
        effect.path.text,
        effect.path.value ?? "\0",
        effect.recursive,
        effect.force,
        effect.filtered,
        effect.overwrite === true,
        effect.basis,
      ].join("\u0001");
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(effect);
    }
  }
  return out;
}

/**
 * For a `chmod` mode: a function telling whether, with or without `-R`, it keeps the owner's
 * access and only takes the group's and others' away (`600`, `700`, `go-rwx`, `g=,o=`); recursive
 * octal modes must keep the owner's `x` (`chmod -R 600` breaks directories). Always false for a
 * mode that is not known.
 */
function tightensMode(mode: string | undefined): (recursive: boolean) => boolean {
  if (mode === undefined || mode.length === 0) return () => false;
  const digits = [...mode];
  if (digits.every((c) => c >= "0" && c <= "7")) {
    if (mode.length < 3 || mode.length > 4 || (mode.length === 4 && mode[0] !== "0")) return () => false;
    const [owner, group, other] = digits.slice(-3).map(Number) as [number, number, number];
    return (recursive) => group === 0 && other === 0 && owner >= 4 && (!recursive || owner === 7);
  }
  const symbolic = mode.split(",").every((clause) => {
    const op = [...clause].findIndex((c) => c === "-" || c === "=" || c === "+");
    if (op <= 0) return false;
    const who = clause.slice(0, op);
    const perms = clause.slice(op + 1);
    if (![...who].every((c) => c === "g" || c === "o")) return false;
    return clause[op] === "-" || (clause[op] === "=" && perms === "");
  });
  return () => symbolic;
}

/**
 * For the mode of a recursive `chmod`, whom it may lock out: `files` when it may take the owner's
 * read access (`000`, `a-r`, `u=w`; directories then lose it too), `dirs` when it may only take
 * directories' search access (`644`, `-x`), undefined when it certainly keeps both (`755`, `u+w`,
 * `a+rX`, `go-rwx`). A mode lanes cannot read may lock out files.
 */
function locksOut(mode: string | undefined): "files" | "dirs" | undefined {
  if (mode === undefined || mode.length === 0) return "files";
  const digits = [...mode];
  if (digits.every((c) => c >= "0" && c <= "7")) {
    const owner = Number(digits.length >= 3 ? digits[digits.length - 3] : "0");
    return (owner & 4) === 0 ? "files" : (owner & 1) === 0 ? "dirs" : undefined;
  }
  let out: "files" | "dirs" | undefined;
  for (const clause of mode.split(",")) {
    const op = [...clause].findIndex((c) => c === "-" || c === "=" || c === "+");
    const who = op < 0 ? "" : clause.slice(0, op);
    const perms = op < 0 ? "" : clause.slice(op + 1);
    if (op < 0 || ![...who].every((c) => "ugoa".includes(c)) || ![...perms].every((c) => "rwxXst".includes(c)))
      return "files";
    if (!(who === "" || who.includes("u") || who.includes("a")) || clause[op] === "+") continue;
    const search = perms.includes("x") || perms.includes("X");
    const read = perms.includes("r");
    if (clause[op] === "-" ? read : !read) return "files";
    if (clause[op] === "-" ? search : !search) out = "dirs";
  }
  return out;
}

function withLockOut(effect: FileEffect, lock: "files" | "dirs" | undefined): FileEffect {
  return effect.recursive && lock !== undefined ? { ...effect, locksOut: lock } : effect;
}

function redirectEffects(cmd: ShellCommand, push: Push): void {
  for (const r of cmd.redirects) {
    if (r.target === undefined) continue;
    if (r.kind === "write" || r.kind === "append" || r.kind === "readwrite")
      push("write", r.target, { basis: "redirect", overwrite: r.kind === "write" });
    else if (r.kind === "read") push("read", r.target, { basis: "redirect" });
  }
}

function commandEffects(cmd: ShellCommand, analysis: ShellAnalysis, push: Push): void {
  const program = cmd.program as string;
  const interpreter = readInterpreter(program, cmd.args);
  if (interpreter !== undefined) {
    interpreterEffects(cmd, interpreter, push);
    return;
  }
  if (WINDOWS_DELETERS.includes(program.toLowerCase()) && cmd.args.some(isSwitch)) {
    windowsDelete(cmd, push);
    return;
  }
  const spec = Object.hasOwn(PROGRAM_EFFECTS, program) ? PROGRAM_EFFECTS[program] : undefined;
  const view = detailedView(program, cmd.args);
  if (spec === undefined) {
    // an unknown program: every operand may be a path it reads (`python tool.py .env` style); an
    // env file it loads into its own environment is used, not shown (`uvicorn --env-file .env`)
    for (const operand of view.operands)
      if (operand.word.value !== "-") push("read", operand.word, { basis: "operand" });
    const envAccess = containerEnvAccess(cmd, analysis);
    for (const word of view.values.get("--env-file") ?? []) push(envAccess, word);
    const dataAccess = dataFileAccess(cmd);
    for (const option of DATA_FILE_OPTIONS)
      for (const word of view.values.get(option) ?? [])
        push(dataAccess, dataFile(word), { basis: dataAccess === "read" ? "operand" : "known" });
    return;
  }
  specEffects(cmd, spec, view, analysis, push);
}

/** cmd.exe's deleting builtins, reached through a Bash call on Windows (`rmdir /s /q dir`, `del /q *.log`). */
const WINDOWS_DELETERS: readonly string[] = ["rd", "rmdir", "del", "erase"];

/** A cmd.exe switch: `/` and one letter (`/s`, `/Q`). */
const isSwitch = (w: ShellWord): boolean =>
  w.value !== undefined && w.value.length === 2 && w.value.startsWith("/") && /[a-zA-Z]/.test(w.value[1] as string);

/** `rd /s /q dir`, `del /f /q *.log`: switches are options; `/s` is recursive, `/q` and `/f` force. */
function windowsDelete(cmd: ShellCommand, push: Push): void {
  const switches = new Set(cmd.args.filter(isSwitch).map((w) => (w.value as string).toLowerCase()));
  const recursive = switches.has("/s");
  const force = switches.has("/q") || switches.has("/f");
  for (const word of cmd.args) if (!isSwitch(word)) push("delete", word, { recursive, force });
}

/**
 * What a command does with the env file it is given (`--env-file F`): a program loads it into its
 * own environment (`use`); a container run prints it when its command prints the environment
 * (`docker run --env-file .env alpine env`: `read`), and hands it to code nobody here wrote when the
 * image is someone's (`ghcr.io/someone/tool`, a name with a namespace: `share`).
 */
function containerEnvAccess(cmd: ShellCommand, analysis: ShellAnalysis): Access {
  if (cmd.program === undefined || !CONTAINER_RUNNERS.includes(cmd.program)) return "use";
  const operands = detailedView(cmd.program, cmd.args).operands.map((o) => o.word.value);
  const verb = operands[0] === "container" ? 1 : 0;
  if (operands[verb] !== "run" && operands[verb] !== "create") return "use";
  // what the container runs, also through a shell in it (`alpine sh -c env`)
  const launched = (c: ShellCommand): boolean => {
    for (let at = c.launchedBy, hops = 0; at !== undefined && hops < 8; at = analysis.commands[at]?.launchedBy, hops++)
      if (at === cmd.index) return true;
    return false;
  };
  const inside = analysis.commands.filter(launched);
  const prints = inside.some(
    (c) =>
      c.program !== undefined &&
      Object.hasOwn(ENVIRONMENT_PRINTERS, c.program) &&
      c.args.every((a) => a.value?.startsWith("-") === true),
  );
  if (prints) return "read";
  const image = operands[verb + 1];
  return image === undefined || image.includes("/") ? "share" : "use";
}

/** Options of programs without a table that name a file whose content the program takes in. */
const DATA_FILE_OPTIONS: readonly string[] = ["--secret-file", "--from-env-file", "--from-file", "--data-file"];

/** `--from-file=KEY=PATH`: the path. */
function dataFile(word: ShellWord): ShellWord {
  const v = word.value;
  const eq = v === undefined || v.startsWith("/") || v.startsWith(".") ? -1 : v.indexOf("=");
  return eq > 0 ? { text: word.text, value: v!.slice(eq + 1), glob: word.glob } : word;
}

/**
 * What a program does with a file of secrets or data named by option: `kubectl create secret
 * --from-env-file .env` stores it in the cluster's secret store (`use`); `kubectl create configmap`
 * stores it where anyone with the cluster can read it (`share`); any other program may show it (`read`).
 */
function dataFileAccess(cmd: ShellCommand): Access {
  if (cmd.program !== "kubectl" && cmd.program !== "oc") return "read";
  const operands = detailedView(cmd.program, cmd.args).operands.map((o) => o.word.value);
  const create = operands.indexOf("create");
  if (create < 0) return "read";
  return operands[create + 1] === "secret" ? "use" : "share";
}

function has(view: DetailedView, names: readonly string[] | undefined): boolean {
  return names !== undefined && names.some((n) => view.flags.has(n) || view.values.has(n));
}

function specEffects(
  cmd: ShellCommand,
  spec: EffectSpec,
  view: DetailedView,
  analysis: ShellAnalysis,
  outer: Push,
): void {
  const dirs = (spec.chdirOptions ?? []).flatMap((o) => view.values.get(o) ?? []);
  // `git -C dir rm x` removes `dir/x`: relative paths are resolved in the option's directory
  const push: Push =
    dirs.length === 0
      ? outer
      : (access, path, extra) =>
          outer(
            access,
            dirs.reduceRight((p, dir) => inDir(dir, p), path),
            extra,
          );
  if (spec.subcommands !== undefined) {
    const sub = view.operands[0]?.word.value;
    const subSpec = sub !== undefined && Object.hasOwn(spec.subcommands, sub) ? spec.subcommands[sub] : undefined;
    if (subSpec !== undefined) specEffects(cmd, subSpec, { ...view, operands: view.operands.slice(1) }, analysis, push);
    return;
  }
  switch (spec.custom) {
    case "tar":
      tarEffects(view, push);
      return;
    case "find":
      findEffects(cmd, view, push);
      return;
    case "source": {
      const [script, ...rest] = view.operands;
      if (script !== undefined && script.word.value !== undefined) push("exec", script.word);
      for (const o of rest) push("read", o.word, { basis: "operand" });
      return;
    }
    case "request-items":
      for (const o of view.operands) {
        const file = requestItemFile(o.word);
        if (file !== undefined) push("read", file);
      }
      return;
    case "socat":
      for (const o of view.operands) {
        const file = socatFile(o.word);
        if (file !== undefined) push(file.access, file.path);
      }
      return;
    case "interpreter":
    case undefined:
      break;
    default: {
      const unknown: never = spec.custom;
      return unknown;
    }
  }
  const recursive = spec.recursive === true || has(view, spec.recursiveFlags);
  const force = has(view, spec.forceFlags);
  const filtered = spec.filtered === true;
  const replaces = spec.overwrite;
  const overwrite =
    replaces !== undefined && (replaces.only === undefined || has(view, replaces.only)) && !has(view, replaces.unless);
  const extra = { recursive, force, filtered, overwrite };

  const quietOptions = has(view, spec.quietOptionFlags?.flags) ? spec.quietOptionFlags!.options : [];
  for (const [option, access] of Object.entries(spec.optionPaths ?? {})) {
    if (quietOptions.includes(option)) continue;
    for (const word of view.values.get(option) ?? []) if (word.value !== "-") push(access, word, extra);
  }
  for (const [option, access] of Object.entries(spec.atFileOptions ?? {})) {
    for (const word of view.values.get(option) ?? []) {
      const file = atFile(word);
      if (file !== undefined) push(access, file, extra);
    }
  }

  const operands = pathOperands(spec, view);
  const switched = spec.switches?.find((s) => has(view, s.flags));
  if (switched !== undefined) {
    if (switched.access !== "none") for (const o of operands) push(switched.access, o.word, extra);
    return;
  }
  const destination = spec.destination;
  if (destination !== undefined) {
    // remote operands (`host:path`) still decide which operand is the destination, then are skipped
    const local: Push = (access, path, more) => {
      if (spec.remoteOperands !== true || path.value === undefined || !isRemote(path.value)) push(access, path, more);
    };
    destinationEffects(destination, operands, view, extra, local);
    return;
  }
  const byPosition = spec.byPosition ?? [];
  operands.forEach((o, i) => {
    const access = i < byPosition.length ? byPosition[i] : (spec.operands ?? "none");
    if (access !== undefined && access !== "none") push(access, o.word, extra);
  });
  const fallback = spec.defaultOperand;
  if (
    fallback !== undefined &&
    (fallback.ifFlags === undefined || has(view, fallback.ifFlags)) &&
    !has(view, fallback.unlessOptions)
  ) {
    if (fallback.always === true || operands.length === 0) push(fallback.access, syntheticWord(fallback.value), extra);
  }
}

/** The operands that are paths under `spec`. */
function pathOperands(spec: EffectSpec, view: DetailedView): Operand[] {
  let operands = view.operands.filter((o) => o.word.value !== "-");
  if (spec.afterDoubleDashOnly === true) operands = operands.filter((o) => o.afterDoubleDash);
  while (
    spec.skipWords !== undefined &&
    operands[0] !== undefined &&
    spec.skipWords.includes(operands[0].word.value ?? "")
  )
    operands = operands.slice(1);
  if (spec.skip !== undefined && !has(view, spec.skipUnless)) operands = operands.slice(spec.skip);
  return operands.filter((o) => {
    const v = o.word.value;
    if (v === undefined) return true;
    if (spec.skipPrefixes?.some((p) => v.startsWith(p)) === true) return false;
    if (spec.skipAssignments === true && isAssignment(v)) return false;
    if (spec.remoteOperands === true && spec.destination === undefined && isRemote(v)) return false;
    return true;
  });
}

/**
 * `for f in *; do mv "$f" "${f,,}"; done`: a source that is one match of a loop's glob, moved to
 * a name made from that same match in the same directory, is renamed in place, not taken away.
 */
function renamedInPlace(source: ShellWord, dest: ShellWord | undefined): boolean {
  if (!source.glob || dest === undefined || (dest.value ?? dest.text).includes("/")) return false;
  const name = /^"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?$/.exec(source.text)?.[1];
  return name !== undefined && new RegExp(`\\$\\{?${name}(?![A-Za-z0-9_])`).test(dest.text);
}

function destinationEffects(
  destination: NonNullable<EffectSpec["destination"]>,
  operands: readonly Operand[],
  view: DetailedView,
  extra: { recursive: boolean; force: boolean; filtered: boolean; overwrite: boolean },
  push: Push,
): void {
  const targetDir = destination.targetDirOptions.flatMap((o) => view.values.get(o) ?? []).at(-1);
  let dest: ShellWord | undefined;
  let sources: ShellWord[];
  if (targetDir !== undefined) {
    dest = targetDir;
    sources = operands.map((o) => o.word);
  } else if (operands.length >= 2) {
    dest = (operands.at(-1) as Operand).word;
    sources = operands.slice(0, -1).map((o) => o.word);
  } else if (operands.length === 1 && destination.single === "basename") {
    const only = (operands[0] as Operand).word;
    dest = only.value === undefined ? only : syntheticWord(basename(only.value));
    sources = [only];
  } else {
    dest = undefined;
    sources = operands.map((o) => o.word);
  }
  // into a directory (`cp a b dir`, `cp x dir/`, `-t dir`) the destination itself is not replaced
  const intoDir =
    targetDir !== undefined ||
    sources.length > 1 ||
    dest?.value === undefined ||
    dest.value.endsWith("/") ||
    dest.value === "." ||
    dest.value === "..";
  if (dest !== undefined) push(destination.access, dest, { ...extra, overwrite: extra.overwrite && !intoDir });
  if (destination.sources !== "none") {
    for (const s of sources)
      push(renamedInPlace(s, dest) ? "write" : destination.sources, s, {
        ...extra,
        recursive: extra.recursive || destination.sourcesRecursive === true,
      });
  }
  for (const more of destination.extra ?? []) {
    if (!has(view, more.flags)) continue;
    for (const path of more.on === "destination" ? (dest === undefined ? [] : [dest]) : sources)
      push(more.access, path, { ...extra, recursive: true });
  }
}

/** `curl -d @file`, `curl -F name=@file;type=x`, `curl -F name=<file`: the file, else `undefined`. */
/** An httpie request item naming a file: `field@path`, `field=@path`, `field:=@path`, `@path` (the body). */
export function requestItemFile(word: ShellWord): ShellWord | undefined {
  const v = word.value;
  if (v === undefined) return undefined;
  const at = v.indexOf("@");
  if (at < 0 || at === v.length - 1) return undefined;
  const before = v.slice(0, at);
  // a URL's credentials (`user@host`) or a header value (`From:me@x`) is no file
  if (before.includes("/") || (before.includes(":") && !before.endsWith(":="))) return undefined;
  const path = v.slice(at + 1);
  return path === "-" ? undefined : { text: word.text, value: path, glob: false };
}

/** A socat `FILE:path[,opts]` address: the file, read (or written, `CREATE:`). */
export function socatFile(word: ShellWord): { access: Access; path: ShellWord } | undefined {
  const v = word.value;
  const colon = v?.indexOf(":") ?? -1;
  if (v === undefined || colon <= 0 || !SOCAT_FILES.includes(v.slice(0, colon).toLowerCase())) return undefined;
  const path = v.slice(colon + 1).split(",")[0] ?? "";
  if (path.length === 0) return undefined;
  return {
    access: v.slice(0, colon).toLowerCase() === "create" ? "write" : "read",
    path: { text: word.text, value: path, glob: false },
  };
}

export function atFile(word: ShellWord): ShellWord | undefined {
  const v = word.value;
  if (v === undefined) return undefined;
  let rest: string | undefined;
  if (v.startsWith("@")) rest = v.slice(1);
  else {
    const eq = v.indexOf("=");
    const marker = v[eq + 1];
    if (eq > 0 && (marker === "@" || marker === "<")) rest = v.slice(eq + 2).split(";")[0];
  }
  if (rest === undefined || rest.length === 0 || rest === "-") return undefined;
  return { text: word.text, value: rest, glob: false };
}

function trimSlashes(v: string): string {
  let end = v.length;
  while (end > 1 && v[end - 1] === "/") end--;
  return v.slice(0, end);
}

/** The last path component (`/x/y/` → `y`). */
function basename(v: string): string {
  const trimmed = trimSlashes(v);
  const base = trimmed.slice(trimmed.lastIndexOf("/") + 1);
  return base.length === 0 ? "." : base;
}

function isAssignment(v: string): boolean {
  const eq = v.indexOf("=");
  return (
    eq > 0 &&
    [...v.slice(0, eq)].every(
      (c, i) => c === "_" || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (i > 0 && c >= "0" && c <= "9"),
    )
  );
}

/** `host:path` or `user@host:path` (rsync `::` too); a leading `/` or `./` keeps it local. */
export function isRemote(v: string): boolean {
  const colon = v.indexOf(":");
  if (colon <= 0) return false;
  const slash = v.indexOf("/");
  return slash < 0 || colon < slash;
}

function tarEffects(view: DetailedView, push: Push): void {
  const flag = (...names: string[]): boolean => names.some((n) => view.flags.has(n));
  const archive = [...(view.values.get("-f") ?? []), ...(view.values.get("--file") ?? [])].at(-1);
  const dir = [...(view.values.get("-C") ?? []), ...(view.values.get("--directory") ?? [])].at(-1);
  for (const list of [
    view.values.get("-T"),
    view.values.get("--files-from"),
    view.values.get("-X"),
    view.values.get("--exclude-from"),
  ])
    for (const w of list ?? []) push("read", w);
  const members = view.operands.map((o) => inDir(dir, o.word));
  if (flag("-x", "--extract", "--get")) {
    if (archive !== undefined) push("read", archive);
    push("write", dir ?? syntheticWord("."), { recursive: true });
    return;
  }
  if (flag("-t", "--list", "-d", "--diff", "--compare")) {
    if (archive !== undefined) push("read", archive);
    return;
  }
  if (flag("-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate", "--delete")) {
    if (archive !== undefined) push("write", archive);
    if (!flag("--delete")) for (const m of members) push("read", m, { recursive: true });
    if (flag("--remove-files")) for (const m of members) push("delete", m, { recursive: true });
  }
}

/** A path named relative to a directory option (`tar -C dir`, `git -C dir`). */
function inDir(dir: ShellWord | undefined, word: ShellWord): ShellWord {
  if (dir === undefined || word.value === undefined || word.value.startsWith("/")) return word;
  if (dir.value === undefined) return { text: word.text, value: undefined, glob: word.glob };
  if (word.value === ".") return { text: word.text, value: dir.value, glob: dir.glob };
  return { text: word.text, value: `${trimSlashes(dir.value)}/${word.value}`, glob: word.glob };
}

/**
 * The entries right under a search root that a find expression certainly selects: the value of
 * its one `-name`/`-iname` test when that is a literal name (`find . -name .git -exec rm -rf {} +`
 * reaches `./.git`), unless `-mindepth` skips the first level or an operator widens the test.
 */
export function findNamedChildren(args: readonly ShellWord[], roots: readonly ShellWord[]): ShellWord[] {
  const values = args.map((a) => a.value);
  if (values.some((v) => v === undefined || FIND_WIDENERS.includes(v))) return [];
  const depth = values.indexOf("-mindepth");
  if (depth >= 0 && Number(values[depth + 1]) >= 2) return [];
  const names = values.flatMap((v, i) => (v === "-name" || v === "-iname" ? [values[i + 1]] : []));
  const name = names[0];
  if (names.length !== 1 || name === undefined || name === "" || name.includes("/")) return [];
  if ([...name].some((c) => c === "*" || c === "?" || c === "[" || c === "\\")) return [];
  return roots.flatMap((root) =>
    root.value === undefined ? [] : [{ text: root.text, value: `${trimSlashes(root.value)}/${name}`, glob: false }],
  );
}

function findEffects(cmd: ShellCommand, view: DetailedView, push: Push): void {
  const roots = view.operands.length > 0 ? view.operands.map((o) => o.word) : [syntheticWord(".")];
  // what find prints is the names under its roots
  if (!view.flags.has("-delete")) for (const root of roots) push("list", root, { recursive: true });
  if (view.flags.has("-delete")) {
    const filtered = findNarrows(cmd.args.map((a) => a.value));
    // `find . -type d -empty -delete` removes only empty directories: the tree changes, no data goes
    if (emptyDirectoriesOnly(cmd.args)) {
      for (const root of roots) push("write", root, { recursive: true, filtered: true });
      return;
    }
    const selection = { args: cmd.args.map((a) => a.value), printed: false };
    for (const root of roots) push("delete", root, { recursive: true, filtered, selection });
    if (filtered) for (const child of findNamedChildren(cmd.args, roots)) push("delete", child, { recursive: true });
  }
  for (const option of ["-fprint", "-fprint0", "-fls", "-fprintf"]) {
    const file = view.values.get(option)?.[0];
    if (file !== undefined) push("write", file);
  }
}

/** `-type d` and `-empty`, with no `-o`/`-or`/`,` that would select other entries too. */
function emptyDirectoriesOnly(args: readonly ShellWord[]): boolean {
  const values = args.map((a) => a.value);
  const typeDir = values.some((v, i) => v === "-type" && values[i + 1] === "d");
  return typeDir && values.includes("-empty") && !values.some((v) => v === "-o" || v === "-or" || v === ",");
}

function interpreterEffects(
  cmd: ShellCommand,
  read: NonNullable<ReturnType<typeof readInterpreter>>,
  push: Push,
): void {
  const args = cmd.args;
  const input = read.input;
  const operandReads = (from: number): void => {
    for (const word of args.slice(from)) if (word.value !== "-") push("read", word, { basis: "operand" });
  };
  switch (input.kind) {
    case "script": {
      const script = args[input.index] as ShellWord;
      if (script.value !== undefined) push("exec", script);
      operandReads(input.argsFrom);
      return;
    }
    case "code": {
      const language = read.spec.language;
      if (language === "perl" || language === "ruby") {
        // `perl -pi -e CODE files`: the files are edited in place; with -n/-p they are read
        const flags = new Set(scanFlags(args));
        if (flags.has("-i")) {
          for (const word of args.slice(input.argsFrom)) push("write", word);
          return;
        }
        if (flags.has("-n") || flags.has("-p")) {
          for (const word of args.slice(input.argsFrom)) if (word.value !== "-") push("read", word);
          return;
        }
      }
      operandReads(input.argsFrom);
      return;
    }
    case "stdin":
      operandReads(input.argsFrom);
      return;
    case "none":
      return;
    default: {
      const unknown: never = input;
      return unknown;
    }
  }
}

/** The single-letter flags in the leading option words of perl/ruby (`-pi.bak` → `-p`, `-i`). */
function scanFlags(args: readonly ShellWord[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    const v = a.value;
    if (v === undefined || !v.startsWith("-") || v === "-" || v === "--") break;
    for (const c of v.slice(1)) {
      out.push(`-${c}`);
      if (
        c === "i" ||
        c === "e" ||
        c === "E" ||
        c === "I" ||
        c === "M" ||
        c === "m" ||
        c === "r" ||
        c === "C" ||
        c === "F" ||
        c === "x"
      )
        break;
    }
  }
  return out;
}

/**
 * Commands that get their paths at run time: `find -exec` commands have `{}` replaced by the
 * search roots (recursive, filtered like the find expression); `xargs`-style commands get one
 * effect on an unknown path for each kind of access their operands have.
 */
function runtimeEffects(cmd: ShellCommand, analysis: ShellAnalysis, own: readonly FileEffect[]): FileEffect[] {
  if (!cmd.runtimeArgs) return [...own];
  const out: FileEffect[] = [];
  if (cmd.searchRoots.length > 0) {
    const source = listerOf(cmd, analysis);
    const find = source?.lister.program === "find" ? source.lister : undefined;
    const findArgs = find?.args ?? [];
    const printed = source?.piped === true;
    const filtered =
      find === undefined
        ? // `ls dir | grep x | xargs cmd` (see handlers/xargs.ts): only the entries the pattern selects
          grepFed(cmd, analysis)
        : findNarrows(
            findArgs.map((a) => a.value),
            printed,
          );
    const children = filtered ? findNamedChildren(findArgs, cmd.searchRoots) : [];
    const selection = find === undefined ? undefined : { args: findArgs.map((a) => a.value), printed };
    const listed = source?.lister.program === "git";
    // the roots are find's (relative to its directory: `-execdir` runs its command in each file's)
    const cwd = find?.cwd ?? cmd.cwd;
    for (const effect of own) {
      // a redirect of the command line itself names its file (`xargs -I{} echo > {}` writes `{}`); one
      // in code find or xargs starts (`-exec sh -c ': > {}' \;`) is a redirect to each listed file
      const literal = effect.basis === "redirect" && cmd.launchedBy === undefined && cmd.lister === undefined;
      if (literal || effect.path.value === undefined || !effect.path.value.includes("{}")) {
        out.push(effect);
        continue;
      }
      // `cp {} {}.bak`: a path made of each listed one and a suffix is that path, not the listed file
      const rest = effect.path.value.startsWith("{}") ? effect.path.value.slice(2) : undefined;
      const suffix =
        rest !== undefined && rest !== "" && !rest.includes("{}") && !rest.includes("/") ? rest : undefined;
      const suffixed = <T extends FileEffect["selection"]>(s: T): T =>
        s === undefined || suffix === undefined ? s : { ...s, suffix };
      for (const root of cmd.searchRoots) {
        if (listed) {
          const spec = pathspecSelection(root);
          out.push({ ...effect, ...spec, selection: suffixed(spec.selection), recursive: true, cwd });
        } else
          out.push({
            ...effect,
            path: root,
            recursive: true,
            filtered,
            cwd,
            ...(selection !== undefined && { selection: suffixed(selection) }),
          });
      }
      for (const child of children) out.push({ ...effect, path: child, recursive: true, filtered: false });
    }
    return out;
  }
  out.push(...own);
  const operandAccess = new Set(own.filter((e) => e.basis !== "redirect").map((e) => e.access));
  const spec =
    cmd.program !== undefined && Object.hasOwn(PROGRAM_EFFECTS, cmd.program) ? PROGRAM_EFFECTS[cmd.program] : undefined;
  if (spec?.operands !== undefined && spec.operands !== "none") operandAccess.add(spec.operands);
  if (spec?.destination !== undefined)
    operandAccess.add(spec.destination.sources === "none" ? spec.destination.access : spec.destination.sources);
  if (spec === undefined && cmd.program !== undefined && readInterpreter(cmd.program, cmd.args) === undefined)
    operandAccess.add("read");
  const view = detailedView(cmd.program, cmd.args);
  const recursive = spec !== undefined && (spec.recursive === true || has(view, spec.recursiveFlags));
  const force = spec !== undefined && has(view, spec.forceFlags);
  for (const access of operandAccess) {
    out.push({
      command: cmd.index,
      access,
      path: RUNTIME_PATH,
      recursive,
      force,
      filtered: false,
      basis: spec === undefined ? "operand" : "known",
    });
  }
  return out;
}

/** True when `cmd` runs under `xargs` fed by a grep of a listing (the xargs handler gave it the listed directory as search root). */
function grepFed(cmd: ShellCommand, analysis: ShellAnalysis): boolean {
  return (
    cmd.wrappers.includes("xargs") &&
    analysis.pipes.some(
      (p) => p.to === cmd.index && ["grep", "egrep", "fgrep", "rg"].includes(analysis.commands[p.from]?.program ?? ""),
    )
  );
}

/**
 * A pathspec of `git ls-files` as what `find` would select to list the same files: a literal path
 * is every file under it (`src`), a glob matches whole paths, `/` included, as `find -path` does
 * (`'*.json'` lists `.claude/settings.json`), from the literal directory before its first wildcard.
 */
function pathspecSelection(spec: ShellWord): Pick<FileEffect, "path" | "selection" | "filtered"> {
  const value = spec.value;
  if (value === undefined || !/[*?[]/.test(value))
    return { path: spec, filtered: false, ...(value !== undefined && { selection: { args: [value], printed: true } }) };
  const pattern = value.startsWith("./") ? value.slice(2) : value;
  const wild = pattern.search(/[*?[]/);
  const cut = pattern.lastIndexOf("/", wild);
  const root = cut < 0 ? "." : cut === 0 ? "/" : pattern.slice(0, cut);
  const args = [root, "-path", cut < 0 ? `./${pattern}` : pattern];
  return { path: syntheticWord(root), filtered: findNarrows(args, true), selection: { args, printed: true } };
}

/**
 * The command that lists the files `cmd` gets at run time: a `find` that runs it (through `-exec`,
 * maybe via `sh -c`), or a `find` or `git` whose output is piped into `xargs cmd` or into the
 * `parallel` that starts it; `piped` when cmd gets what the lister prints.
 */
function listerOf(cmd: ShellCommand, analysis: ShellAnalysis): { lister: ShellCommand; piped: boolean } | undefined {
  const feeding = (to: number): ShellCommand | undefined => {
    const pipe = analysis.pipes.find(
      (p) => p.to === to && ["find", "git"].includes(analysis.commands[p.from]?.program ?? ""),
    );
    return pipe === undefined ? undefined : analysis.commands[pipe.from];
  };
  const read = cmd.lister === undefined ? undefined : analysis.commands[cmd.lister];
  if (read !== undefined) return { lister: read, piped: true };
  const direct = cmd.wrappers.includes("xargs") ? feeding(cmd.index) : undefined;
  if (direct !== undefined) return { lister: direct, piped: true };
  let at = cmd.launchedBy;
  for (let guard = 0; at !== undefined && guard < 64; guard++) {
    const parent = analysis.commands[at];
    if (parent === undefined) return undefined;
    if (parent.program === "find") return { lister: parent, piped: false };
    const fed = parent.program === "parallel" ? feeding(parent.index) : undefined;
    if (fed !== undefined) return { lister: fed, piped: true };
    at = parent.launchedBy;
  }
  return undefined;
}

/**
 * Package managers running package.json scripts: `npm run X`, `npm test`, `npm start`, the
 * lifecycle scripts `npm install`/`ci`/`publish`/`pack`/`version` run, `pnpm X`, `yarn X`,
 * `bun run X` and their pre/post scripts, read from the package.json on disk at hook time
 * (`on-disk.ts`) and walked as the shell code they are, in the package's directory. What each
 * command runs is data (`tables/runners.ts`). `npm pkg set scripts.X=CODE` stores code for later:
 * it is judged as that code now (`stored.ts`).
 */
import { posix } from "node:path";
import { parseYaml, readPackageJson, type PackageJson } from "../formats/index.ts";
import { readInterpreter } from "../interpreter-input.ts";
import { GLOBAL_INSTALL, IGNORE_SCRIPTS, MANAGERS, type LifecycleSpec, type ManagerSpec } from "../tables/runners.ts";
import type { ArgWord, Invocation } from "../walk/context.ts";
import { hostCtx, interpreter } from "./code.ts";
import type { Walk } from "./contract.ts";
import {
  absolute,
  diskShell,
  findFile,
  findUp,
  hasDisk,
  inDir,
  noteFile,
  readCode,
  unreadCode,
  type CodeFile,
} from "./on-disk.ts";
import { storedPackageScripts } from "./stored.ts";
import { bunFile } from "./scripts.ts";

/** A package manager's command line, read with its `ManagerSpec`. */
interface ManagerCall {
  /** The command (`run`, `test`, `install`), or `undefined` when nothing of the package runs. */
  readonly command: string | undefined;
  readonly lifecycle: LifecycleSpec | undefined;
  /** The script a `run` names. */
  readonly script: ArgWord | undefined;
  /** Words after the script name (`--` dropped): the script's arguments. */
  readonly args: readonly ArgWord[];
  /** Operands of the command (`npm install express`, `npm pkg set k=v`). */
  readonly operands: readonly ArgWord[];
  readonly flags: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, readonly ArgWord[]>;
}

/**
 * Reads `words` (program first) with the manager's grammar. The script's arguments are the words
 * after its name (npm: its positional words, and every word after `--`; npm's options stay npm's).
 */
function readCall(spec: ManagerSpec, words: readonly ArgWord[]): ManagerCall {
  const flags = new Set<string>();
  const values = new Map<string, ArgWord[]>();
  const positionals: ArgWord[] = [];
  const args: ArgWord[] = [];
  let lifecycle: LifecycleSpec | undefined;
  let command: string | undefined;
  let script: ArgWord | undefined;
  /** After `--`: every word is the script's. */
  let rest = false;
  const npmStyle = spec.ownOptionsAfterScript === true;
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as ArgWord;
    const v = word.word.value;
    const named = script !== undefined;
    if (rest || (named && !npmStyle)) {
      // `yarn x -- a`: a first `--` after the name is dropped
      if (!(v === "--" && !rest && args.length === 0)) args.push(word);
      if (v === "--") rest = true;
      continue;
    }
    if (v === "--") {
      rest = true;
      continue;
    }
    if (v !== undefined && v.startsWith("-") && v.length > 1) {
      const eq = v.indexOf("=");
      const name = eq > 0 ? v.slice(0, eq) : v;
      flags.add(name);
      const value = eq > 0 ? { ...word, word: { ...word.word, value: v.slice(eq + 1) } } : undefined;
      if (value !== undefined) values.set(name, [...(values.get(name) ?? []), value]);
      else if (spec.valueOptions.includes(name) && i + 1 < words.length)
        values.set(name, [...(values.get(name) ?? []), words[++i] as ArgWord]);
      continue;
    }
    if (named) {
      args.push(word);
      continue;
    }
    positionals.push(word);
    if (positionals.length === 1) {
      // the command: one that runs scripts, a script name (`yarn build`), or the manager's own
      if (v !== undefined && Object.hasOwn(spec.commands, v)) {
        lifecycle = spec.commands[v];
        command = lifecycle?.scripts.includes("$") === true ? "run" : v;
      } else if (v === undefined || (spec.builtins !== undefined && !spec.builtins.includes(v))) {
        lifecycle = spec.commands["run"];
        command = "run";
        script = word;
      }
    } else if (positionals.length === 2 && command === "run") script = word;
  }
  if (positionals.length === 0 && spec.bare !== undefined) {
    command = spec.bare;
    lifecycle = spec.commands[spec.bare];
  }
  return { command, lifecycle, script, args, operands: positionals.slice(1), flags, values };
}

/** Yarn 2 and later (a `.yarnrc.yml`, or `packageManager: yarn@2+`) run no pre/post scripts of a script. */
function yarnBerry(w: Walk, dir: string, pkg: PackageJson): boolean {
  const manager = pkg.packageManager;
  if (manager?.startsWith("yarn@") === true) return !manager.startsWith("yarn@1.");
  const rc = findUp(w, dir, [".yarnrc.yml"]);
  return rc !== undefined && rc.kind !== "missing";
}

/** `npm ...`, `pnpm ...`, `yarn ...`, `bun ...`: the package.json scripts the command runs. */
export function packageManager(w: Walk, inv: Invocation): void {
  const { program, words, base, ctx } = inv;
  // `bun -e CODE`, `bun x.ts`, `bun run x.ts`: code and files, not scripts
  if (program === "bun") {
    const read = readInterpreter(
      program,
      words.slice(1).map((x) => x.word),
    );
    if (read?.input.kind === "code") {
      interpreter(w, inv);
      return;
    }
    if (bunFile(w, inv)) return;
  }
  const host = w.emit(words, base, ctx);
  const spec = Object.hasOwn(MANAGERS, program) ? MANAGERS[program] : undefined;
  if (spec === undefined) return;
  // `yarn workspace NAME SCRIPT ...`: the script of that workspace
  const at = program === "yarn" ? words.findIndex((x, i) => i > 0 && x.word.value === "workspace") : -1;
  const named = at > 0 ? words[at + 1] : undefined;
  const call = readCall(spec, named === undefined ? words : [words[0] as ArgWord, ...words.slice(at + 2)]);
  if (storedPackageScripts(w, { program, words, host, base, ctx })) return;
  if (call.lifecycle === undefined || !hasDisk(w)) return;
  if (spec.noRun.some((o) => call.flags.has(o))) return;
  const ignore = IGNORE_SCRIPTS.some((o) => call.flags.has(o));
  if (call.lifecycle.install === true && (ignore || GLOBAL_INSTALL.some((o) => call.flags.has(o)))) return;
  // the package: `--prefix DIR`, `-C DIR`, `--cwd DIR`, a workspace by its path, else the nearest package.json
  const dirWord = spec.dirOptions.flatMap((o) => call.values.get(o) ?? []).at(-1);
  const start = dirWord === undefined ? ctx.state.cwd : absolute(dirWord.word.value ?? "", ctx.state.cwd);
  const workspace = named ?? spec.workspaceOptions.flatMap((o) => call.values.get(o) ?? []).at(-1);
  const file =
    dirWord !== undefined && dirWord.word.value === undefined
      ? readCode(w, undefined, undefined, dirWord.word.text)
      : workspace !== undefined
        ? workspaceFile(w, start, workspace)
        : findUp(w, start, ["package.json"]);
  if (file === undefined) return;
  const as = "package.json scripts";
  if (file.kind === "missing" || file.kind === "binary") {
    noteFile(w, file, as);
    return;
  }
  if (file.kind === "unread") {
    unreadCode(w, { file, as, language: "shell", interpreter: program, host, text: base.text });
    return;
  }
  const pkg = readPackageJson(file.text);
  const scripts = pkg.scripts;
  if (scripts === undefined) {
    noteFile(w, file, as, "not a JSON object: the package manager refuses it");
    return;
  }
  const dir = posix.dirname(file.path);
  const name = call.script?.word.value;
  if (call.command === "run" && call.script !== undefined && name === undefined) {
    unreadCode(w, {
      file: {
        kind: "unread",
        shown: file.shown,
        why: `runs a script named only at run time (\`${call.script.word.text}\`)`,
      },
      as,
      language: "shell",
      interpreter: program,
      host,
      text: base.text,
    });
    return;
  }
  // `npm run` lists the scripts; a missing script is an error: nothing runs
  if (call.command === "run" && (name === undefined || !scripts.has(name))) {
    noteFile(w, file, as, name === undefined ? "lists the scripts" : `no script \`${name}\`: nothing runs`);
    return;
  }
  const main = call.command === "run" ? (name as string) : (call.command as string);
  const prePost = !(ignore || (program === "yarn" && call.command === "run" && yarnBerry(w, dir, pkg)));
  // `npm restart` with no restart script runs stop, then start
  const listed =
    call.lifecycle.fallback !== undefined && !scripts.has(main)
      ? [...call.lifecycle.scripts, ...call.lifecycle.fallback]
      : call.lifecycle.scripts;
  const names = listed.map((s) => s.replaceAll("$", name ?? "")).filter((s) => prePost || s === main);
  const run = names.filter((s, i) => scripts.has(s) && names.indexOf(s) === i);
  const inner = inDir(hostCtx(ctx, { host }), dir);
  noteFile(w, file, as, run.length === 0 ? "no script runs" : `scripts ${run.map((s) => `\`${s}\``).join(", ")}`);
  for (const s of run) {
    const script = scripts.get(s)!;
    diskShell(w, {
      code: script.code,
      shown: file.shown,
      line: script.line,
      interpreter: program,
      host,
      base,
      ctx: inner,
      ...(s === main && call.args.length > 0 && { args: call.args.map((a) => a.word.value) }),
    });
  }
  // `npm start` with no start script runs `node server.js`
  if (call.lifecycle.serverJs === true && !scripts.has("start")) {
    const server = findFile(w, dir, ["server.js"]);
    if (server?.kind === "text")
      w.execute(
        [
          ...["node", "server.js"].map((v) => ({
            word: { text: v, value: v, glob: false },
            producers: [],
            substitution: undefined,
          })),
        ],
        base,
        inner,
      );
  }
}

/**
 * The package.json of a workspace: named by its path (`npm -w packages/api`, `pnpm --filter
 * ./apps/web`, `{apps/web}`), or by its package name (`-w api`, `--filter @acme/api`), looked for
 * where the root's workspace globs put a directory of that name (`packages/*` → `packages/api`).
 */
function workspaceFile(w: Walk, start: string | undefined, workspace: ArgWord): CodeFile | undefined {
  const given = workspace.word.value;
  if (given === undefined) return readCode(w, undefined, undefined, workspace.word.text);
  // pnpm's selectors: `api...` (with its dependencies), `...api`, `^...`, `{dir}`
  const value = given.replace(/^\.\.\.\^?|\.\.\.$/g, "").replace(/^\{(.*)\}$/, "./$1");
  if (
    value.startsWith("./") ||
    value.startsWith("../") ||
    value.startsWith("/") ||
    (value.includes("/") && !value.startsWith("@"))
  )
    return findFile(w, absolute(value, start), ["package.json"]);
  const unread = (why: string): CodeFile => ({ kind: "unread", shown: `workspace \`${given}\``, why });
  if (value.includes("*") || value.startsWith("!"))
    return unread("selects workspaces by a pattern, which lanes does not list");
  const root = findUp(w, start, ["pnpm-workspace.yaml", "package.json"]);
  if (root === undefined) return undefined;
  if (root.kind !== "text") return unread("has no workspace root lanes can read");
  const globs = root.path.endsWith(".yaml") ? yamlPackages(root.text) : readPackageJson(root.text).workspaces;
  const base = value.slice(value.lastIndexOf("/") + 1);
  const rootDir = posix.dirname(root.path);
  for (const glob of globs) {
    const dir = glob.replace(/\/\*\*?$/, "");
    const candidates = dir === glob ? [dir] : [posix.join(dir, base)];
    for (const candidate of candidates) {
      const file = findFile(w, absolute(candidate, rootDir), ["package.json"]);
      if (file?.kind === "text" && readPackageJson(file.text).name === value) return file;
    }
  }
  return unread("is not found where the workspaces' globs put a directory of its name");
}

/** The `packages:` globs of a pnpm-workspace.yaml. */
function yamlPackages(text: string): string[] {
  const data = parseYaml(text);
  const packages =
    typeof data === "object" && data !== null ? (data as Record<string, unknown>)["packages"] : undefined;
  return Array.isArray(packages) ? packages.filter((p): p is string => typeof p === "string") : [];
}

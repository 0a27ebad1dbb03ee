/**
 * Step 1 of the evaluator: turn a tool call into facts that every rule kind matches over. A Bash
 * call goes through the shell analysis; file tools become file accesses; Agent and Skill calls
 * become spawn and skill facts. Paths are normalised and classified here, once.
 */
import { analyzeShell, argView, fileEffects, flagWrites, networkSends } from "../shell/index.ts";
import type {
  AgentRun,
  ArgView,
  CodeExecution,
  DeferredCode,
  FileEffect,
  NetworkSend,
  ShellAnalysis,
  ShellCommand,
  ShellFunction,
  ShellWord,
  Unrepresentable,
} from "../shell/types.ts";
import type { DiskView } from "../host/disk-view.ts";
import type { PathClass } from "../schema/vocabulary.ts";
import { classifyPath, deviceByName, type PathContext } from "./paths.ts";
import { normalizePath } from "../host/paths.ts";
import { toolSpec } from "../host/tools.ts";
import type { GuardRequest } from "./types.ts";

/**
 * How a fact touches a file. `exec` runs it; `use` hands it to a program that consumes it without
 * showing it (`curl --key`, `ssh-add`).
 */
export type Access = "read" | "write" | "delete" | "chmod" | "chown" | "exec" | "use";

/** One simple command of a Bash call. */
export interface CommandFact {
  readonly index: number;
  readonly command: ShellCommand;
  /** Program basename, or undefined when dynamic. */
  readonly program: string | undefined;
  /** argv as strings (a dynamic word keeps its source text). */
  readonly argv: readonly string[];
  /** argv joined by single spaces: what Claude Code's `Bash(...)` rules are compared with. */
  readonly line: string;
  readonly view: ArgView;
  readonly scope: string;
}

/** One file access. */
export interface FileFact {
  readonly access: Access;
  /** Normalised absolute path; undefined when the path is only known at run time. */
  readonly path: string | undefined;
  /** The path as written. */
  readonly raw: string;
  readonly glob: boolean;
  readonly recursive: boolean;
  readonly force: boolean;
  readonly filtered: boolean;
  /** The write replaces the file's whole content (`> f`, `truncate`, `cp x f`), not an append or an edit. */
  readonly overwrite: boolean;
  /** A `chmod` that keeps the owner's access and only takes the group's and others' away (`FileEffect.tightens`). */
  readonly tightens: boolean;
  /** `tool` for file tools; for Bash, how the shell analysis derived it. */
  readonly basis: "tool" | "known" | "redirect" | "operand" | "interpreter" | "flag";
  /** The command index for Bash facts. */
  readonly command: number | undefined;
  readonly classes: ReadonlySet<PathClass>;
  readonly scope: string;
  /** For a write: what the file will hold, as far as it is known before the call runs. */
  readonly text?: WrittenContent;
}

/** What a write puts in a file (only read for files whose content rules judge: settings, git configuration and attributes). */
export interface WrittenContent {
  /** The file's whole text after the call (Write's content, an Edit applied to the text on disk, `> f` with static text). */
  readonly after?: string;
  /** The file's text before the call, from the disk view; absent for a new file or when it cannot be read. */
  readonly before?: string;
  /** Text the call puts in (an Edit's new strings, an append's static text). */
  readonly added?: readonly string[];
  /** Text the call takes out (an Edit's old strings). */
  readonly removed?: readonly string[];
}

/** Path classes whose files content rules judge (`guard-write` rules): a write of one of these reads the file's text. */
const CONTENT_CLASSES: readonly PathClass[] = ["claude-settings", "git-config", "git-attributes"];

export interface Facts {
  readonly tool: string;
  readonly commands: readonly CommandFact[];
  readonly files: readonly FileFact[];
  readonly code: readonly CodeExecution[];
  readonly functions: readonly ShellFunction[];
  readonly unrepresentable: readonly Unrepresentable[];
  readonly budgetExceeded: boolean;
  /** What the network clients of a Bash command send (peers, secret-bearing variables, stdin). */
  readonly sends: readonly NetworkSend[];
  /** Other agents a Bash command starts (nested clients, the Agent SDK, other vendors' agent CLIs). */
  readonly agents: readonly AgentRun[];
  /** Programs a Bash command parks in git's configuration. */
  readonly deferred: readonly DeferredCode[];
  /** The agent type an Agent call asks for. */
  readonly spawn: string | undefined;
  /** The skill a Skill call invokes. */
  readonly skill: string | undefined;
  /** The host a WebFetch call reaches. */
  readonly fetchHost: string | undefined;
  /** The shell analysis, for `lanes check` traces. */
  readonly shell: ShellAnalysis | undefined;
}

const str = (value: unknown): string | undefined => (typeof value === "string" && value.length > 0 ? value : undefined);

export interface FactOptions {
  readonly pathContext: PathContext;
  readonly analysisBudgetMs: number;
  /**
   * Expands a glob against the file system, as the shell would (`dot`: whether `*` matches a
   * leading dot). Returns the matching absolute paths, or `undefined` when it cannot tell
   * (`**`, globs in directory names, too many entries). Injected by the adapter; the core stays pure.
   */
  readonly expandGlob?: (absPattern: string, dot: boolean) => readonly string[] | undefined;
  /** The disk at hook time, read-only and bounded, for the shell analysis; absent in pure evaluations. */
  readonly disk?: DiskView;
}

/** Adds a concrete fact for every file a glob fact expands to. */
function withExpansions(files: FileFact[], options: FactOptions): FileFact[] {
  const expand = options.expandGlob;
  if (expand === undefined) return files;
  const out = [...files];
  for (const fact of files) {
    if (!fact.glob || fact.path === undefined) continue;
    const paths = expand(fact.path, fact.basis === "tool") ?? [];
    for (const path of paths.slice(0, 200)) {
      out.push({
        ...fact,
        path,
        raw: path,
        glob: false,
        classes: classifyPath(path, false, options.pathContext),
        scope: `${fact.scope.slice(0, fact.scope.indexOf(":path:"))}:path:${path}`,
      });
    }
  }
  return out;
}

/** Spellings of the temp directory a path may start with; those without a default need a name after them. */
const TEMP_PREFIXES: readonly { readonly text: string; readonly safe: boolean }[] = [
  { text: "${TMPDIR:-/tmp}", safe: true },
  { text: "${TMPDIR:-/tmp/}", safe: true },
  { text: "${TMPDIR}", safe: false },
  { text: "$TMPDIR", safe: false },
];

/**
 * The path of a word that starts with the temp directory variable (`"$TMPDIR"/x`,
 * `"${TMPDIR:-/tmp}/x"`), under the first temp directory; undefined for anything else. Without a
 * default, a bare `$TMPDIR`, `$TMPDIR/` or `$TMPDIR/*` stays unknown: with the variable unset it
 * names `/` or everything in it.
 */
function tempPath(raw: string, ctx: PathContext): string | undefined {
  const temp = ctx.tempDirs[0];
  if (temp === undefined) return undefined;
  const unquoted = [...raw].filter((c) => c !== '"').join("");
  const prefix = TEMP_PREFIXES.find((p) => unquoted.startsWith(p.text));
  if (prefix === undefined) return undefined;
  const rest = unquoted.slice(prefix.text.length);
  if ([...rest].some((c) => c === "$" || c === "`" || c === "'" || c === "\\")) return undefined;
  const name = rest.startsWith("/") ? rest.slice(1) : undefined;
  if (
    name === undefined ||
    (!prefix.safe &&
      (name === "" || name.startsWith("*") || name.startsWith("?") || name.startsWith("[") || name.startsWith(".")))
  )
    return undefined;
  return normalizePath(`${temp}/${name}`, { cwd: ctx.cwd, home: ctx.home });
}

function fileFact(
  raw: string,
  access: Access,
  basis: FileFact["basis"],
  command: number | undefined,
  extra: {
    glob?: boolean;
    recursive?: boolean;
    force?: boolean;
    filtered?: boolean;
    overwrite?: boolean;
    tightens?: boolean;
    dynamic?: boolean;
    /** What is known of a dynamic path: the text it starts with (`/dev/sd$X`). */
    known?: ShellWord["known"];
    cwd?: string | undefined;
  },
  ctx: PathContext,
): FileFact {
  const glob = extra.glob ?? false;
  const cwd = extra.cwd ?? ctx.cwd;
  const path =
    extra.dynamic === true
      ? tempPath(raw, ctx)
      : command !== undefined && extra.cwd === undefined && !raw.startsWith("/") && !raw.startsWith("~")
        ? undefined
        : normalizePath(raw, { cwd, home: ctx.home });
  const classes = path === undefined ? deviceByName(extra.known, ctx) : classifyPath(path, glob, { ...ctx, cwd });
  const where = command === undefined ? "call" : `cmd:${command}`;
  return {
    access,
    path,
    raw,
    glob,
    recursive: extra.recursive ?? false,
    force: extra.force ?? false,
    filtered: extra.filtered ?? false,
    overwrite: extra.overwrite ?? false,
    tightens: extra.tightens ?? false,
    basis,
    command,
    classes,
    scope: `${where}:path:${path ?? raw}`,
  };
}

/** The values of an option: from the argv view, else `--opt value` and `--opt=value` in argv (programs lanes has no grammar for). */
export function optionValues(fact: CommandFact, option: string): readonly { readonly value: string | undefined }[] {
  const parsed = fact.view.values.get(option);
  if (parsed !== undefined && parsed.length > 0) return parsed;
  const words = fact.command.argv;
  const found: { value: string | undefined }[] = [];
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === option && i + 1 < words.length) found.push({ value: words[i + 1]!.value });
    else if (v !== undefined && v.startsWith(`${option}=`)) found.push({ value: v.slice(option.length + 1) });
  }
  return found;
}

/** The values an environment variable is given for this command (`X=1 cmd`, `env X=1 cmd`). */
export function envValues(fact: CommandFact, name: string): readonly { readonly value: string | undefined }[] {
  return fact.command.assignments.filter((a) => a.name === name).map((a) => ({ value: a.value.value }));
}

/** A shell write of a file whose content rules judge, with the static text the line writes into it. */
function withShellText(fact: FileFact, written: ShellAnalysis["written"]): FileFact {
  if (fact.access !== "write" || fact.path === undefined || !CONTENT_CLASSES.some((c) => fact.classes.has(c)))
    return fact;
  const write = written.find((w) => w.command === fact.command && w.path === fact.path);
  if (write?.text === undefined) return fact;
  return { ...fact, text: write.append ? { added: [write.text] } : { after: write.text } };
}

/** The text a file tool's call leaves in the file, from its input and the file's text on disk. */
function toolText(
  spec: NonNullable<ReturnType<typeof toolSpec>>["text"],
  input: Readonly<Record<string, unknown>>,
  path: string,
  disk: DiskView | undefined,
): WrittenContent | undefined {
  if (spec === undefined) return undefined;
  const real = disk?.realpath(path);
  const file = real === undefined ? undefined : disk?.readText(real, 1 << 20);
  const before = file === undefined || file.truncated ? undefined : file.text;
  const withBefore = (content: WrittenContent): WrittenContent =>
    before === undefined ? content : { ...content, before };
  if (spec.kind === "whole") {
    const content = input[spec.field];
    return typeof content === "string" ? withBefore({ after: content }) : undefined;
  }
  const edits =
    spec.kind === "replace"
      ? [input]
      : Array.isArray(input[spec.field])
        ? (input[spec.field] as unknown[]).filter(
            (e): e is Record<string, unknown> => typeof e === "object" && e !== null,
          )
        : [];
  const removed: string[] = [];
  const added: string[] = [];
  let after = before;
  for (const edit of edits) {
    const from = edit[spec.old];
    const to = edit[spec.new];
    if (typeof from !== "string" || typeof to !== "string") return undefined;
    removed.push(from);
    added.push(to);
    if (after === undefined) continue;
    after =
      edit[spec.all] === true
        ? after.split(from).join(to)
        : after.includes(from)
          ? after.replace(from, () => to)
          : undefined;
  }
  return withBefore({ added, removed, ...(after !== undefined && { after }) });
}

/** Facts of a Bash command string. */
function bashFacts(source: string, options: FactOptions): Omit<Facts, "tool" | "spawn" | "skill" | "fetchHost"> {
  const ctx = options.pathContext;
  // the analysis is bounded by a node count (deterministic); `analysisBudgetMs` no longer applies
  const shell = analyzeShell(source, {
    home: ctx.home,
    cwd: ctx.cwd,
    repoRoot: ctx.projectDir,
    ...(options.disk !== undefined && { disk: options.disk }),
  });
  // (`git rev-parse --show-toplevel` resolves to the project only while the analysed cwd is inside it)
  const commands: CommandFact[] = shell.commands.map((command) => {
    const argv = command.argv.map((w) => w.value ?? w.text);
    return {
      index: command.index,
      command,
      program: command.program,
      argv,
      line: argv.join(" "),
      view: argView(command),
      scope: `cmd:${command.index}`,
    };
  });

  const fromEffect = (effect: FileEffect): FileFact =>
    fileFact(
      effect.path.value ?? effect.path.text,
      effect.basis === "operand" ? "read" : effect.access,
      effect.basis,
      effect.command,
      {
        glob: effect.path.glob,
        recursive: effect.recursive,
        force: effect.force,
        filtered: effect.filtered,
        overwrite: effect.overwrite === true,
        tightens: effect.tightens === true,
        dynamic: effect.path.value === undefined,
        known: effect.path.known,
        cwd: shell.commands[effect.command]?.cwd,
      },
      ctx,
    );
  const files: FileFact[] = fileEffects(shell)
    .map(fromEffect)
    .map((fact) => withShellText(fact, shell.written));
  for (const call of shell.calls) {
    if (call.access === "exec") continue;
    const cwd = shell.commands[call.command]?.cwd;
    const args = call.args.length === 0 ? [undefined] : call.args;
    // `writeFileSync`, `write_text`, `open(p, "w")` replace the content; `open(p, "a")` and `appendFile` do not
    const overwrite = call.overwrite === true;
    for (const arg of args) {
      files.push(
        fileFact(
          arg ?? "<dynamic>",
          call.access,
          "interpreter",
          call.command,
          { recursive: call.recursive, overwrite, dynamic: arg === undefined, cwd },
          ctx,
        ),
      );
    }
  }
  // what write flags make programs write (`eslint --fix`), after the interpreters' calls
  files.push(...flagWrites(shell).map(fromEffect));

  return {
    commands,
    files: withExpansions(files, options),
    code: shell.code,
    functions: shell.functions,
    unrepresentable: shell.unrepresentable,
    budgetExceeded: shell.budgetExceeded,
    sends: networkSends(shell),
    agents: shell.agents,
    deferred: shell.deferred,
    shell,
  };
}

const EMPTY = {
  commands: [],
  files: [],
  code: [],
  functions: [],
  unrepresentable: [],
  budgetExceeded: false,
  sends: [],
  agents: [],
  deferred: [],
  shell: undefined,
} as const;

/** Builds the facts of one tool call. */
export function extractFacts(request: GuardRequest, options: FactOptions): Facts {
  const ctx = options.pathContext;
  const input = request.input;
  const tool = request.tool;
  const base = { tool, spawn: undefined, skill: undefined, fetchHost: undefined };
  const spec = toolSpec(tool);

  if (spec?.command !== undefined) {
    const command = str(input[spec.command]);
    return { ...base, ...(command === undefined ? EMPTY : bashFacts(command, options)) };
  }

  const files: FileFact[] = [];
  for (const key of spec?.reads ?? []) {
    const raw = str(input[key]);
    if (raw !== undefined) files.push(fileFact(raw, "read", "tool", undefined, {}, ctx));
  }
  if (spec?.readsGlob !== undefined) {
    // The pattern (Glob) or file filter (Grep) names files too: `**/.env` reaches every .env.
    const pattern = str(input[spec.readsGlob]);
    if (pattern !== undefined) {
      const dir = str(input["path"]) ?? ctx.cwd;
      const raw = pattern.startsWith("/") ? pattern : `${dir.replace(/\/+$/, "")}/${pattern}`;
      files.push(fileFact(raw, "read", "tool", undefined, { glob: true }, ctx));
    }
  }
  for (const key of spec?.writes ?? []) {
    const raw = str(input[key]);
    if (raw === undefined) continue;
    const fact = fileFact(raw, "write", "tool", undefined, {}, ctx);
    const text =
      fact.path !== undefined && CONTENT_CLASSES.some((c) => fact.classes.has(c))
        ? toolText(spec?.text, input, fact.path, options.disk)
        : undefined;
    files.push(text === undefined ? fact : { ...fact, text });
  }

  const spawn = spec?.spawns === undefined ? undefined : (str(input[spec.spawns]) ?? "general-purpose");
  const skill = spec?.skill?.map((key) => str(input[key])).find((v) => v !== undefined);
  let fetchHost: string | undefined;
  if (spec?.fetches !== undefined) {
    try {
      fetchHost = new URL(str(input[spec.fetches]) ?? "").hostname.toLowerCase();
    } catch {
      fetchHost = undefined;
    }
  }
  return { ...base, ...EMPTY, files: withExpansions(files, options), spawn, skill, fetchHost };
}

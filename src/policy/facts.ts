/**
 * Step 1 of the evaluator: turn a tool call into facts that every rule kind matches over. A Bash
 * call goes through the shell analysis; file tools become file accesses; Agent and Skill calls
 * become spawn and skill facts. Paths are normalised and classified here, once.
 */
import {
  analyzeShell,
  analyzeStored,
  argView,
  fileEffects,
  flagWrites,
  linkCopies,
  linkEffects,
  networkSends,
} from "../shell/index.ts";
import type {
  AgentRun,
  ArgView,
  CodeExecution,
  DeferredCode,
  FileEffect,
  LinkCopy,
  LinkEffect,
  NetworkSend,
  ShellAnalysis,
  ShellCommand,
  ShellFunction,
  ShellWord,
  Unrepresentable,
} from "../shell/types.ts";
// the messages only: the analysis itself is loaded lazily in the hot bundles (src/hooks/shell-proxy.ts)
import { UNREPRESENTABLE_MESSAGES } from "../shell/unrepresentable.ts";
import type { DiskView } from "../host/disk-view.ts";
import { storedKind } from "../shell/stored-kind.ts";
import type { PathClass } from "../schema/vocabulary.ts";
import { classifyPath, deviceByName, guardFiles, type PathContext } from "./paths.ts";
import { findReaches, findSelection } from "../shell/find-expression.ts";
import { globBase, isWithin, normalizePath, relativeWithin } from "../host/paths.ts";
import { pathResolver, type Resolver } from "./resolve.ts";
import { toolSpec, type EditFields, type ToolSpec } from "../host/tools.ts";
import type { GuardRequest } from "./types.ts";

/**
 * How a fact touches a file. `exec` runs it; `use` hands it to a program that consumes it without
 * showing it (`curl --key`, `ssh-add`); `list` shows the names in a directory (`ls ~/.ssh`);
 * `share` hands it to a program that may show or send it (`docker run --env-file .env x/tool`);
 * `link` makes a symbolic link to it, through which whoever follows the link reads and writes it;
 * `hardlink` makes it a second name (the same file).
 */
export type Access =
  "read" | "write" | "delete" | "chmod" | "chown" | "exec" | "use" | "list" | "share" | "link" | "hardlink";

/** The accesses that change a file or what it is: what lanes, tasks and memory files judge as writes. */
export const WRITE_ACCESS: ReadonlySet<Access> = new Set<Access>([
  "write",
  "delete",
  "chmod",
  "chown",
  "link",
  "hardlink",
]);

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
  /** A glob the disk expanded at hook time: the files it names are facts of their own. */
  readonly expanded?: boolean;
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
  /**
   * Set when `path` is where the path the call named leads, not that path itself: a symlink on
   * the way (on disk, or made earlier on the line), or another spelling of the project. The
   * written path has a fact of its own; both are judged. Shown as messages show paths (project-
   * relative, `~/...`).
   */
  readonly resolved?: string;
  /** For `link` and `hardlink`: the link being made, as messages show paths. */
  readonly link?: string;
}

/** A file fact's path for messages: as written, and where it leads when that differs. */
export function shownFile(fact: FileFact): string {
  const where = fact.resolved === undefined ? "" : ` (which leads to \`${fact.resolved}\`)`;
  if (fact.access === "link" || fact.access === "hardlink")
    return `${fact.access === "link" ? "a link" : "a hard link"} \`${fact.link ?? "made at run time"}\` to \`${fact.raw}\`${where}`;
  return `\`${fact.raw}\`${where}`;
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
  /**
   * Where a normalised absolute path leads on disk (itself when nothing leads elsewhere or the
   * disk cannot tell), following its last component: for rules that classify command operands.
   */
  readonly resolve: (path: string) => string;
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
  const out: FileFact[] = [];
  const added: FileFact[] = [];
  for (const fact of files) {
    if (!fact.glob || fact.path === undefined) {
      out.push(fact);
      continue;
    }
    const expanded = expand(fact.path, fact.basis === "tool");
    out.push(expanded === undefined ? fact : { ...fact, expanded: true });
    for (const path of (expanded ?? []).slice(0, 200)) {
      added.push({
        ...fact,
        path,
        raw: path,
        glob: false,
        classes: classifyPath(path, false, options.pathContext),
        scope: `${fact.scope.slice(0, fact.scope.indexOf(":path:"))}:path:${path}`,
      });
    }
  }
  return [...out, ...added];
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
  const fact: FileFact = {
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
  // `cd link && cat ../x`: the kernel takes `..` after a link to the link target's parent
  if (path !== undefined && extra.dynamic !== true && raw.split("/").includes("..") && !raw.startsWith("~"))
    PHYSICAL.set(fact, raw.startsWith("/") ? raw : `${cwd.replace(/\/+$/, "")}/${raw}`);
  return fact;
}

/** A fact's path before `..` was collapsed, when it had one (see `fileFact`). */
const PHYSICAL = new WeakMap<FileFact, string>();
/** Facts of a link's own name: the name is replaced, not followed. */
const LINK_NAMES = new WeakSet<FileFact>();

/** A copy of a fact with `patch`, keeping what the side tables say of it (its physical path, whether it names a link). */
function refined(fact: FileFact, patch: Partial<FileFact>): FileFact {
  const out: FileFact = { ...fact, ...patch };
  const physical = PHYSICAL.get(fact);
  if (physical !== undefined) PHYSICAL.set(out, physical);
  if (LINK_NAMES.has(fact)) LINK_NAMES.add(out);
  return out;
}

/** A path as messages show it: project-relative inside the project, `~/...` in the home, else absolute. */
function shown(path: string, ctx: PathContext): string {
  const ci = ctx.caseInsensitive;
  const rel = relativeWithin(path, ctx.projectDir, ci);
  if (rel !== undefined) return rel;
  const home = relativeWithin(path, ctx.home, ci);
  return home === undefined ? path : home === "." ? "~" : `~/${home}`;
}

const fold = (path: string, ctx: PathContext): string => (ctx.caseInsensitive ? path.toLowerCase() : path);

/** The last component of a path as written (`../server/` → `server`). */
function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** A relative path under `dir`, kept as written (for the kernel's `..`); absolute and `~` paths as they are. */
const under = (dir: string, path: string): string =>
  path.startsWith("/") || path.startsWith("~") ? path : `${dir.replace(/\/+$/, "")}/${path}`;

/**
 * The facts of the links a line makes: for each link, the access to what it leads to (`link`,
 * `hardlink`) and the write of its own name, and the links themselves for resolving the line's
 * other paths (absolute link path → target as the link holds it, or `undefined`: run-time).
 */
function linkFacts(
  effects: readonly LinkEffect[],
  copies: readonly LinkCopy[],
  shell: ShellAnalysis,
  disk: { kindOf: (path: string) => PathKindName; linkAt: (path: string) => string | undefined },
  ctx: PathContext,
): { facts: FileFact[]; links: Map<string, string | undefined> } {
  const kindOf = disk.kindOf;
  const facts: FileFact[] = [];
  const links = new Map<string, string | undefined>();
  for (const effect of effects) {
    const cwd = shell.commands[effect.command]?.cwd;
    const access = effect.kind === "symbolic" ? "link" : "hardlink";
    const target = effect.target.value;
    const extra = { recursive: effect.recursive };
    /** What the link leads to, a relative target taken in `base` (`undefined`: not known). */
    const targetFact = (base: string | undefined, link: string | undefined): FileFact => {
      const fact =
        target === undefined
          ? fileFact(effect.target.text, access, "known", effect.command, { ...extra, dynamic: true }, ctx)
          : base === undefined && !target.startsWith("/") && !target.startsWith("~")
            ? fileFact(target, access, "known", effect.command, extra, ctx)
            : fileFact(
                under(base ?? "/", target),
                access,
                "known",
                effect.command,
                { ...extra, cwd: base ?? ctx.cwd },
                ctx,
              );
      const shownFact: FileFact = { ...fact, raw: target ?? effect.target.text, ...(link !== undefined && { link }) };
      const physical = PHYSICAL.get(fact);
      if (physical !== undefined) PHYSICAL.set(shownFact, physical);
      return shownFact;
    };
    const rawName = effect.name.value;
    const name =
      rawName === undefined || (cwd === undefined && !rawName.startsWith("/") && !rawName.startsWith("~"))
        ? undefined
        : normalizePath(rawName, { cwd: cwd ?? ctx.cwd, home: ctx.home });
    if (name === undefined) {
      // where the link goes is only known at run time: what it leads to is still judged
      facts.push(targetFact(effect.base === "cwd" ? cwd : undefined, undefined));
      continue;
    }
    // where the link is: the name itself, a new entry in it, or either when it is a directory on disk
    const entry = `${name === "/" ? "" : name}/${baseName(target ?? effect.target.text)}`;
    const places =
      effect.place === "exact"
        ? [name]
        : effect.place === "into"
          ? [entry]
          : kindOf(name) === "dir"
            ? [entry, name]
            : [name];
    for (const place of places) {
      const dir = place.slice(0, Math.max(place.lastIndexOf("/"), 1));
      const bases =
        effect.base === "link" ? [dir] : effect.base === "cwd" ? [cwd] : effect.base === "name" ? [name] : [dir, cwd];
      const leads = bases.map((base) => targetFact(base, shown(place, ctx)));
      facts.push(...leads);
      const own = fileFact(place, "write", "known", effect.command, { ...extra, overwrite: effect.force }, ctx);
      const ownFact: FileFact = { ...own, raw: place === name ? (rawName ?? place) : shown(place, ctx) };
      LINK_NAMES.add(ownFact);
      facts.push(ownFact);
      // a symbolic link holds its target as written; a hard link is the same file as its target
      links.set(
        place,
        target === undefined
          ? undefined
          : effect.kind === "symbolic" && effect.base === "link"
            ? target
            : (leads[0]?.path ?? undefined),
      );
    }
  }
  // a link moved or copied as a link (`mv link dir/`, `cp -P link x`) is a new link, and a
  // relative target now leads from its new place
  for (const copy of copies) {
    const cwd = shell.commands[copy.command]?.cwd;
    const at = (word: ShellWord): string | undefined =>
      word.value === undefined || (cwd === undefined && !word.value.startsWith("/") && !word.value.startsWith("~"))
        ? undefined
        : normalizePath(word.value, { cwd: cwd ?? ctx.cwd, home: ctx.home });
    const from = at(copy.from);
    const to = at(copy.to);
    if (from === undefined || to === undefined) continue;
    const held = links.has(from) ? links.get(from) : disk.linkAt(from);
    if (held === undefined) continue;
    const entry = `${to === "/" ? "" : to}/${baseName(from)}`;
    const places =
      copy.place === "exact" ? [to] : copy.place === "into" ? [entry] : kindOf(to) === "dir" ? [entry, to] : [to];
    for (const place of places) {
      const dir = place.slice(0, Math.max(place.lastIndexOf("/"), 1));
      const fact = fileFact(under(dir, held), "link", "known", copy.command, { cwd: dir }, ctx);
      const shownFact: FileFact = { ...fact, raw: held, link: shown(place, ctx) };
      const physical = PHYSICAL.get(fact);
      if (physical !== undefined) PHYSICAL.set(shownFact, physical);
      facts.push(shownFact);
      links.set(place, held);
    }
  }
  return { facts, links };
}

/** What a path is on disk, as far as choosing where a link goes needs it. */
type PathKindName = "dir" | "other" | "unknown";

/**
 * Adds, for every file fact whose path leads elsewhere (a symlink on the way, or another spelling
 * of the project), a fact of where it leads: the stricter of the two answers then wins. A delete
 * and a link's own name are resolved up to their directory (what is replaced is the last
 * component); everything else follows the last component too, as opening it does. Returns the
 * facts and what could not be resolved.
 */
function withResolutions(
  files: readonly FileFact[],
  resolver: Resolver,
  ctx: PathContext,
): { files: FileFact[]; unknown: FileFact[] } {
  const out = [...files];
  const unknown: FileFact[] = [];
  const scopes = new Set(files.map((f) => `${f.access}\u0001${fold(f.scope, ctx)}`));
  for (const fact of files) {
    if (fact.path === undefined) continue;
    const trailing = fact.raw.endsWith("/");
    const follow = trailing || !(fact.access === "delete" || LINK_NAMES.has(fact));
    const base = fact.glob ? globBase(fact.path) : fact.path;
    const rest = fact.path.slice(base.length);
    const physical = fact.glob ? undefined : PHYSICAL.get(fact);
    const leads = new Set<string>();
    for (const from of physical === undefined ? [undefined] : [undefined, physical]) {
      const real = resolver.resolve(base, follow, from);
      if (real === null) {
        unknown.push(fact);
        continue;
      }
      if (real === undefined) continue;
      const path = `${real === "/" && rest.startsWith("/") ? "" : real}${rest}`;
      if (fold(path, ctx) !== fold(fact.path, ctx)) leads.add(path);
    }
    for (const path of leads) {
      const where = fact.command === undefined ? "call" : `cmd:${fact.command}`;
      const scope = `${where}:path:${path}`;
      const key = `${fact.access}\u0001${fold(scope, ctx)}`;
      if (scopes.has(key)) continue;
      scopes.add(key);
      out.push({
        ...fact,
        path,
        classes: classifyPath(path, fact.glob, ctx),
        scope,
        resolved: shown(path, ctx),
      });
    }
  }
  return { files: out, unknown };
}

/**
 * The file facts of a call with the links its line makes (`linkEffects`) and where every path
 * leads: the facts, the resolver (for command operands) and what the disk could not say.
 */
function resolvedFiles(
  files: FileFact[],
  effects: readonly LinkEffect[],
  shell: ShellAnalysis | undefined,
  options: FactOptions,
): { files: FileFact[]; resolve: (path: string) => string; unrepresentable: Unrepresentable[] } {
  const ctx = options.pathContext;
  const disk = options.disk;
  const onDisk = pathResolver(disk, new Map(), ctx);
  const kindOf = (path: string): PathKindName => {
    const real = onDisk.resolve(path, true);
    if (typeof real !== "string" || disk === undefined) return "unknown";
    return disk.kind(real)?.kind === "dir" ? "dir" : "other";
  };
  /** The target of the symbolic link at `path` on disk (its directory resolved), if it is one. */
  const linkAt = (path: string): string | undefined => {
    if (disk === undefined) return undefined;
    const real = onDisk.resolve(path, false);
    if (typeof real !== "string") return undefined;
    const kind = disk.kind(real);
    return kind?.kind === "symlink" ? kind.target : undefined;
  };
  const made =
    shell === undefined
      ? { facts: [], links: new Map() }
      : linkFacts(effects, linkCopies(shell), shell, { kindOf, linkAt }, ctx);
  // a write of a link's name by the program's own effects (`ln`'s destination) is the name too
  const names = new Set(made.facts.filter((f) => LINK_NAMES.has(f)).map((f) => `${f.command}\u0001${f.path}`));
  for (const f of files) if (f.access === "write" && names.has(`${f.command}\u0001${f.path}`)) LINK_NAMES.add(f);
  const resolver = made.links.size === 0 ? onDisk : pathResolver(disk, made.links, ctx);
  const expanded = withExpansions([...files, ...made.facts], options);
  const { files: all, unknown } = withResolutions(expanded, resolver, ctx);
  const unrepresentable: Unrepresentable[] = [];
  if (unknown.length > 0)
    unrepresentable.push({
      code: "run-time-link",
      message: UNREPRESENTABLE_MESSAGES["run-time-link"],
      text: unknown[0]!.raw,
    });
  if (resolver.exhausted)
    unrepresentable.push({
      code: "disk-bound",
      message: UNREPRESENTABLE_MESSAGES["disk-bound"],
      text: shell?.source ?? all[0]?.raw ?? "",
    });
  const cache = new Map<string, string>();
  const resolve = (path: string): string => {
    let real = cache.get(path);
    if (real === undefined) {
      const found = resolver.resolve(path, true);
      real = typeof found === "string" ? found : path;
      cache.set(path, real);
    }
    return real;
  };
  return { files: all, resolve, unrepresentable };
}

/**
 * The write of a file a command makes without naming it (a `git stash` of a dirty file): an
 * absolute path, judged as any written operand of command `command`.
 */
export function impliedWrite(absPath: string, command: number, ctx: PathContext): FileFact {
  return fileFact(absPath, "write", "operand", command, {}, ctx);
}

/** The delete of a file a command removes without naming it (a branch switch to a tree without it). */
export function impliedDelete(absPath: string, command: number, ctx: PathContext): FileFact {
  return fileFact(absPath, "delete", "known", command, {}, ctx);
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

/** A shell write with the static text the line writes into it (content rules judge it where the file is one of theirs). */
function withShellText(fact: FileFact, written: ShellAnalysis["written"]): FileFact {
  // every write, not only of a content file by its name: the text goes with it to where a link leads
  if (fact.access !== "write" || fact.path === undefined || written.length === 0) return fact;
  const write = written.find((w) => w.command === fact.command && w.path === fact.path);
  if (write?.text === undefined) return fact;
  return refined(fact, { text: write.append ? { added: [write.text] } : { after: write.text } });
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
    ...(ctx.caseInsensitive && { caseInsensitive: true }),
    ...(options.disk !== undefined && { disk: options.disk }),
  });
  return shellFacts(shell, options);
}

/** The text a file has after `edits` are applied to `text`, as the Edit tool applies them; `undefined` when one fails. */
function applyEdits(
  text: string | undefined,
  edits: readonly Readonly<Record<string, unknown>>[],
  fields: EditFields,
): string | undefined {
  let out = text;
  for (const edit of edits) {
    const from = edit[fields.old];
    const to = edit[fields.new];
    if (typeof from !== "string" || typeof to !== "string") return undefined;
    // an empty `old_string` on a file that does not exist creates it
    if (out === undefined) {
      if (from !== "") return undefined;
      out = to;
      continue;
    }
    if (from === "" || !out.includes(from)) return undefined;
    out = edit[fields.all] === true ? out.split(from).join(to) : out.replace(from, () => to);
  }
  return out;
}

/**
 * The code a Write or Edit call stores in a file a tool runs later (a Makefile, package.json, a
 * git hook), analysed as it will run: the Write's content, or the Edit's replacements applied to
 * the file on disk. `undefined` for other files and calls.
 */
function storedFacts(
  spec: ToolSpec | undefined,
  input: Readonly<Record<string, unknown>>,
  options: FactOptions,
): ShellAnalysis | undefined {
  const stores = spec?.stores;
  const raw = stores === undefined ? undefined : str(input[spec?.writes?.[0] ?? ""]);
  if (stores === undefined || raw === undefined || spec === undefined) return undefined;
  const ctx = options.pathContext;
  const path = normalizePath(raw, { cwd: ctx.cwd, home: ctx.home });
  // most files hold no code a tool runs: nothing is read and the shell analysis is not loaded
  if (storedKind(path) === undefined) return undefined;
  const current = options.disk?.readText(path, 1 << 20);
  const before = current === undefined || current.truncated ? undefined : current.text;
  let text: string | undefined;
  if ("content" in stores)
    text = typeof input[stores.content] === "string" ? (input[stores.content] as string) : undefined;
  else if ("edit" in stores) text = applyEdits(before, [input], stores.edit);
  else {
    const edits = input[stores.edits];
    text = Array.isArray(edits)
      ? applyEdits(
          before,
          edits.filter((e): e is Record<string, unknown> => typeof e === "object" && e !== null),
          stores.each,
        )
      : undefined;
  }
  if (text === undefined) return undefined;
  return analyzeStored(
    { tool: spec.name, path, text, before },
    {
      home: ctx.home,
      cwd: ctx.cwd,
      repoRoot: ctx.projectDir,
      ...(options.disk !== undefined && { disk: options.disk }),
    },
  );
}

/** The facts of a shell analysis (a Bash command, or the code a file tool stores). */
function shellFacts(shell: ShellAnalysis, options: FactOptions): Omit<Facts, "tool" | "spawn" | "skill" | "fetchHost"> {
  const ctx = options.pathContext;
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
        cwd: effect.cwd ?? shell.commands[effect.command]?.cwd,
      },
      ctx,
    );
  const effects = fileEffects(shell);
  const files: FileFact[] = effects.map(fromEffect).map((fact) => withShellText(fact, shell.written));
  // a program that picks the files itself (`find . -name x -exec truncate …`, `chmod -R 000 .`):
  // the guard's own files it reaches are facts of their own
  effects.forEach((effect, i) => {
    const root = files[i]?.path;
    if (root === undefined || (effect.selection === undefined && effect.locksOut === undefined)) return;
    for (const path of guardReached(effect, root, ctx, options.disk))
      files.push(
        fromEffect({ ...effect, path: { text: path, value: path, glob: false }, recursive: false, filtered: false }),
      );
  });
  for (const call of shell.calls) {
    // links (`os.symlink`) are `linkEffects`'
    const access = call.access;
    if (access === "exec" || access === "symlink" || access === "hardlink") continue;
    const cwd = shell.commands[call.command]?.cwd;
    const args = call.args.length === 0 ? [undefined] : call.args;
    // `writeFileSync`, `write_text`, `open(p, "w")` replace the content; `open(p, "a")` and `appendFile` do not
    const overwrite = call.overwrite === true;
    args.forEach((arg, i) => {
      const detail = call.details?.[i];
      files.push(
        fileFact(
          arg ?? "<dynamic>",
          access,
          "interpreter",
          call.command,
          {
            recursive: call.recursive,
            overwrite,
            dynamic: arg === undefined,
            cwd,
            glob: detail?.glob === true,
            filtered: detail?.filtered === true,
          },
          ctx,
        ),
      );
    });
  }
  // what write flags make programs write (`eslint --fix`), after the interpreters' calls
  files.push(...flagWrites(shell).map(fromEffect));
  const resolved = resolvedFiles(files, linkEffects(shell), shell, options);

  return {
    commands,
    files: resolved.files,
    code: shell.code,
    functions: shell.functions,
    unrepresentable: [...shell.unrepresentable, ...resolved.unrepresentable],
    budgetExceeded: shell.budgetExceeded,
    sends: networkSends(shell),
    agents: shell.agents,
    deferred: shell.deferred,
    shell,
    resolve: resolved.resolve,
  };
}

/**
 * The guard's files (paths.ts, `guardFiles`) on disk under `root` that `effect` reaches: for a `find`
 * search root, those its expression may hand to its actions; for a recursive `chmod` that may lock
 * the owner out, every one (or, for a `find` that picks what it changes, those whose file, or for
 * `dirs` a directory on the way, it may pick).
 */
function guardReached(effect: FileEffect, root: string, ctx: PathContext, disk: DiskView | undefined): string[] {
  const lock = effect.locksOut;
  const access = effect.access;
  const changes = access === "write" || access === "delete" || access === "chown";
  if (!(changes || (access === "chmod" && lock !== undefined))) return [];
  // without a find, only a mode change reaches every file under the root; writes and deletes of a
  // whole tree are judged as they are (`rm -rf .`)
  if (effect.selection === undefined && access !== "chmod") return [];
  // a search root above the project (`/`, `~`, `..`) is the system rules' to judge, and so is an
  // unfiltered delete of the tree (`find . -delete`: the project root itself goes)
  const home = `${ctx.home}/.claude`;
  const ci = ctx.caseInsensitive;
  if (!isWithin(root, ctx.projectDir, ci) && !isWithin(root, home, ci)) return [];
  if (access === "delete" && !effect.filtered) return [];
  const selection =
    effect.selection === undefined ? undefined : findSelection(effect.selection.args, effect.selection.printed);
  const written = effect.path.value ?? effect.path.text;
  const out: string[] = [];
  // a file that is not there is not reached (a disk lanes cannot read has every one)
  const present = (file: string): boolean => disk?.kind(file)?.kind !== "missing";
  // `find … -exec cp {} {}.bak`: a guard file is reached when it is a selected path plus the suffix
  const suffix = effect.selection?.suffix ?? "";
  for (const file of guardFiles(ctx)) {
    if (!file.endsWith(suffix)) continue;
    const rel = relativeWithin(file.slice(0, file.length - suffix.length), root, ctx.caseInsensitive);
    if (rel === undefined || rel === ".") continue;
    if (selection === undefined) out.push(file);
    else if (access !== "chmod" || lock === "files") {
      if (findReaches(selection, written, rel)) out.push(file);
    } else {
      const parts = rel.split("/");
      if (parts.slice(0, -1).some((_, n) => findReaches(selection, written, parts.slice(0, n).join("/"), "d")))
        out.push(file);
    }
  }
  return out.filter(present);
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
  resolve: (path: string) => path,
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
    if (raw !== undefined)
      files.push(fileFact(raw, "read", "tool", undefined, { recursive: spec?.readsTree === true }, ctx));
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
    files.push(text === undefined ? fact : refined(fact, { text }));
  }
  // code the call stores for a tool to run later is judged as that code
  const stored = storedFacts(spec, input, options);
  if (stored !== undefined) {
    const facts = shellFacts(stored, options);
    return {
      ...base,
      ...facts,
      files: withExpansions([...files, ...facts.files], options),
      spawn: undefined,
      skill: undefined,
      fetchHost: undefined,
    };
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
  const resolved = resolvedFiles(files, [], undefined, options);
  // a write through a link to a file content rules judge: its text, read where the link leads
  const withText = resolved.files.map((fact) =>
    fact.access === "write" &&
    fact.resolved !== undefined &&
    fact.text === undefined &&
    fact.path !== undefined &&
    CONTENT_CLASSES.some((c) => fact.classes.has(c))
      ? { ...fact, text: toolText(spec?.text, input, fact.path, options.disk) }
      : fact,
  );
  return {
    ...base,
    ...EMPTY,
    files: withText,
    unrepresentable: resolved.unrepresentable,
    resolve: resolved.resolve,
    spawn,
    skill,
    fetchHost,
  };
}

/**
 * Code on disk when the command runs: a handler that runs a file (a script, a Makefile's recipes,
 * a package.json script, a git hook) reads it here, through the walk's bounded `DiskView`, and
 * hands its text to the machinery that judges code from any other source (`code.ts`). The file is
 * read when the hook judges the call: a file changed between the hook and the run is not seen.
 *
 * Bounds: one file is read up to `MAX_CODE_BYTES`; the view bounds the operations and bytes of the
 * whole call, and each file followed is one level of the walk's nesting bound. A file that cannot
 * be read within them (too large, unreadable, past the view's bounds, a path only known at run
 * time) is judged as unknown code: the walk records `unread-file`, and the policy asks. A missing
 * file runs nothing. Without a disk (`NO_DISK`, a pure evaluation) nothing is read and the command
 * is recorded as before: a script that is `file` code, not analysed.
 */
import { posix } from "node:path";
import { NO_DISK } from "../../host/disk-view.ts";
import type { CodeLanguage, FileRead } from "../types.ts";
import { copyState, plain, type Base, type Ctx } from "../walk/context.ts";
import { shellString } from "./code.ts";
import type { Walk } from "./contract.ts";

/** Bytes of one file lanes reads for its code; a larger file is judged as unknown code. */
export const MAX_CODE_BYTES = 256 * 1024;

/** Bytes read of a file too large to read whole, to tell a compiled program from a long script. */
const SNIFF_BYTES = 512;

/** A file looked for on disk (see {@link readCode}). */
export type CodeFile =
  /** `shown`: the path as messages show it (`scripts/x.sh`, `~/bin/x`). */
  | {
      readonly kind: "text";
      readonly path: string;
      readonly shown: string;
      readonly text: string;
      /** Someone may execute it (a mode bit `x`): what git and `./x` require. */
      readonly executable: boolean;
    }
  /** No such file, or a directory: a command that runs it fails, nothing runs. */
  | { readonly kind: "missing"; readonly path: string; readonly shown: string }
  /**
   * Not code lanes reads: a compiled program, or lanes' own programs and a plugin's (`why`); it is
   * judged by its name, as before.
   */
  | {
      readonly kind: "binary";
      readonly path: string;
      readonly shown: string;
      readonly executable: boolean;
      readonly why?: string;
    }
  /** It could not be read within the bounds: judged as unknown code. */
  | { readonly kind: "unread"; readonly shown: string; readonly why: string };

/** True when the walk has a disk to read (not a pure evaluation). */
export const hasDisk = (w: Walk): boolean => w.disk !== NO_DISK;

/** `path` made absolute against `dir`; `undefined` when it is relative and `dir` unknown. */
export function absolute(path: string, dir: string | undefined): string | undefined {
  if (path.startsWith("/")) return posix.normalize(path);
  return dir === undefined ? undefined : posix.normalize(posix.join(dir, path));
}

/** A path as messages show it: relative to the project when inside it, `~/...` under the home. */
export function shownPath(w: Walk, path: string): string {
  const root = w.options.repoRoot;
  if (root !== undefined && path.startsWith(`${root}/`)) return path.slice(root.length + 1);
  const home = w.options.home;
  if (path.startsWith(`${home}/`)) return `~/${path.slice(home.length + 1)}`;
  return path;
}

/** What {@link claudeVariable} returns for a path under the running plugin's root. */
const PLUGIN = "\u0000plugin";

/**
 * A path written with the variables Claude Code sets for the commands it runs: under
 * `$CLAUDE_PROJECT_DIR` (the project, known), or under `$CLAUDE_PLUGIN_ROOT` (a plugin's own files,
 * {@link PLUGIN}: its programs, such as lanes' CLI, are judged by name). `undefined` otherwise.
 */
function claudeVariable(w: Walk, written: string): string | undefined {
  const text = written.replace(/^"|"$/g, "");
  const m =
    /^\$(?:\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT)\}|(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT)(?![A-Za-z0-9_]))(\/[^$`"'\\]*)$/.exec(
      text,
    );
  if (m === null) return undefined;
  if ((m[1] ?? m[2]) === "CLAUDE_PLUGIN_ROOT") return PLUGIN;
  const root = w.options.repoRoot;
  return root === undefined ? undefined : `${root}${m[3]}`;
}

/** Text that is a compiled program rather than a script (a NUL byte, an executable's magic). */
const isBinary = (text: string): boolean =>
  text.includes("\u0000") || text.startsWith("\u007fELF") || text.startsWith("MZ");

/**
 * Reads the file at `path` (relative to `dir`; `written`: the path as the command writes it, for
 * messages when it is only known at run time) for its code, following symlinks; `undefined`
 * without a disk. Nothing is recorded: the caller notes what it did with the file ({@link noteFile}).
 */
export function readCode(
  w: Walk,
  path: string | undefined,
  dir: string | undefined,
  written: string = path ?? "the file",
): CodeFile | undefined {
  if (!hasDisk(w)) return undefined;
  const named = path ?? claudeVariable(w, written);
  if (named === PLUGIN)
    return { kind: "binary", path: written, shown: written, executable: true, why: "a plugin's own program" };
  if (named === undefined) return { kind: "unread", shown: written, why: "is named only at run time" };
  const abs = absolute(named, dir);
  if (abs === undefined) return { kind: "unread", shown: named, why: "is in a directory known only at run time" };
  const shown = shownPath(w, abs);
  // lanes' own programs (its CLI, which skills run), guarded from changes like the rest of its files
  const root = w.options.repoRoot;
  if (root !== undefined && abs.startsWith(`${root}/.claude/lanes/dist/`))
    return { kind: "binary", path: abs, shown, executable: true, why: "lanes' own program" };
  // the directories above are followed by the system; a final symlink is resolved to be read
  let real = abs;
  let kind = w.disk.kind(abs);
  if (kind?.kind === "symlink") {
    const resolved = w.disk.realpath(abs);
    if (resolved === undefined) return { kind: "unread", shown, why: "cannot be resolved within lanes' bounds" };
    real = resolved;
    kind = w.disk.kind(real);
  }
  if (kind === undefined)
    return { kind: "unread", shown, why: "cannot be read (no permission, or past lanes' bounds)" };
  if (kind.kind === "missing" || kind.kind === "dir") return { kind: "missing", path: real, shown };
  if (kind.kind !== "file") return { kind: "unread", shown, why: "is not a regular file" };
  const executable = (kind.mode & 0o111) !== 0;
  if (kind.size > MAX_CODE_BYTES) {
    const head = w.disk.readText(real, SNIFF_BYTES);
    if (head !== undefined && isBinary(head.text)) return { kind: "binary", path: real, shown, executable };
    return {
      kind: "unread",
      shown,
      why: `is larger than lanes reads (${Math.ceil(kind.size / 1024)} KiB, at most ${MAX_CODE_BYTES / 1024} KiB)`,
    };
  }
  const read = w.disk.readText(real, MAX_CODE_BYTES);
  if (read === undefined)
    return { kind: "unread", shown, why: "cannot be read (no permission, or past lanes' bounds)" };
  if (read.truncated) return { kind: "unread", shown, why: "changed while lanes read it" };
  if (isBinary(read.text.slice(0, SNIFF_BYTES))) return { kind: "binary", path: real, shown, executable };
  return { kind: "text", path: real, shown, text: read.text, executable };
}

/** Records what was done with a file looked for (`ShellAnalysis.reads`); `skipped`: a text file whose code does not run. */
export function noteFile(w: Walk, file: CodeFile, as: string, detail?: string, skipped = false): void {
  const outcome: FileRead["outcome"] =
    file.kind === "text"
      ? skipped
        ? "skipped"
        : "read"
      : file.kind === "binary"
        ? "skipped"
        : file.kind === "missing"
          ? "missing"
          : file.kind;
  const why = file.kind === "unread" ? file.why : file.kind === "binary" ? (file.why ?? "a compiled program") : detail;
  w.noteRead({ path: file.shown, as, outcome, ...(why !== undefined && { detail: why }) });
}

/**
 * A file whose code runs but could not be read: unknown code, which the policy asks about. The
 * command is recorded as running `file` code, and the report names the file and why.
 */
export function unreadCode(
  w: Walk,
  o: {
    readonly file: Extract<CodeFile, { kind: "unread" }>;
    readonly as: string;
    readonly language: CodeLanguage;
    readonly interpreter: string;
    readonly host: number;
    readonly text: string;
  },
): void {
  noteFile(w, o.file, o.as);
  w.addCode({ language: o.language, interpreter: o.interpreter, command: o.host, source: "file" });
  w.report("unread-file", o.text, `\`${o.file.shown}\` ${o.file.why}`);
}

/** The context of code read from `shown`: its commands are located in `text` from line `line`. */
export function fileCtx(ctx: Ctx, shown: string, text: string, line = 1): Ctx {
  return { ...ctx, origin: { file: shown, line, text } };
}

/** The first of `names` in `dir` that exists (a Makefile, a justfile), else the missing first one. */
export function findFile(w: Walk, dir: string | undefined, names: readonly string[]): CodeFile | undefined {
  let first: CodeFile | undefined;
  for (const name of names) {
    const file = readCode(w, name, dir);
    if (file === undefined) return undefined;
    if (file.kind !== "missing") return file;
    first ??= file;
  }
  return first;
}

/** `ctx` with its working directory set to `dir` (the directory a runner runs its code in). */
export function inDir(ctx: Ctx, dir: string): Ctx {
  const state = copyState(ctx.state);
  state.cwd = dir;
  state.vars.set("PWD", { set: true, value: dir });
  return { ...ctx, state };
}

/** Directories above a start directory searched for a runner's file (`npm` in `src/` uses the project's package.json). */
const MAX_UP = 12;

/** The nearest `name` in `dir` or a directory above it: a file, or the missing one in `dir`. */
export function findUp(w: Walk, dir: string | undefined, names: readonly string[]): CodeFile | undefined {
  if (dir === undefined) return findFile(w, dir, names);
  let first: CodeFile | undefined;
  let at = dir;
  for (let i = 0; i < MAX_UP; i++) {
    const file = findFile(w, at, names);
    if (file === undefined || file.kind !== "missing") return file;
    first ??= file;
    if (at === "/") break;
    at = posix.dirname(at);
  }
  return first;
}

/** A shell string of code read from disk (options object of {@link diskShell}). */
export interface DiskShellOptions {
  readonly code: string;
  /** The file it is written in, as messages show it, and its first line there. */
  readonly shown: string;
  readonly line: number;
  readonly interpreter: string;
  readonly host: number;
  readonly base: Base;
  readonly ctx: Ctx;
  /** Arguments the runner appends (`npm run x -- a b`), as the script's `"$@"`; `undefined`: a run-time value. */
  readonly args?: readonly (string | undefined)[];
}

/** Walks shell code read from a file on disk (a recipe, a package.json script, a hook) one level deeper. */
export function diskShell(w: Walk, o: DiskShellOptions): void {
  const args = o.args ?? [];
  const code = args.length === 0 ? o.code : `${o.code} "$@"`;
  const ctx =
    args.length === 0
      ? o.ctx
      : { ...o.ctx, state: { ...copyState(o.ctx.state), positional: [o.interpreter, ...args] } };
  shellString(w, {
    word: plain({ text: o.code, value: code, glob: false }),
    interpreter: o.interpreter,
    host: o.host,
    base: o.base,
    ctx,
    via: "shell-string",
    disk: { shown: o.shown, line: o.line },
  });
}

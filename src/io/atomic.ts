/**
 * Atomic file writes. A reader (another hook, a subagent's `lanes` call) sees either the old
 * file or the new one, never a half-written one, and a process killed mid-write leaves the old
 * file intact. Sync on purpose: hooks are short-lived processes with nothing else to do.
 */
import {
  closeSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

let sequence = 0;

/** The temporary name for a write to `path`: hidden, in the same directory, unique per process and call. */
function tempPathFor(path: string): string {
  const unique = `${process.pid}.${(sequence++).toString(36)}${Math.floor(Math.random() * 0xffffffff).toString(36)}`;
  return join(dirname(path), `.${basename(path)}.${unique}.tmp`);
}

/** Options of {@link atomicWriteFile}. */
export interface AtomicWriteOptions {
  /** File mode of the new file (default 0600: state is private to the user). */
  readonly mode?: number;
  /**
   * fsync the file and its directory so the write survives a power loss (default true). Bookkeeping
   * that is cheap to lose (denial counters, the agent tree) passes false: still atomic for every
   * reader and against a killed process, without the cost of two fsyncs on every tool call.
   */
  readonly durable?: boolean;
}

/**
 * Writes `data` to `path` atomically: a temporary file in the same directory (so the rename does
 * not cross file systems) with a unique name, write, fsync, rename over `path`, then a best-effort
 * fsync of the directory so the rename itself survives a power loss. On failure the temporary file
 * is removed and the error is thrown; `path` is untouched. The directory must exist.
 *
 * Never through a symbolic link: the temporary file is created exclusively (`O_EXCL` refuses any
 * existing name, a link included), and `rename` replaces a link at `path` itself, never what it
 * points at.
 */
export function atomicWriteFile(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const temp = tempPathFor(path);
  let fd: number | undefined;
  try {
    fd = openSync(temp, "wx", options.mode ?? 0o600);
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    if (options.durable !== false) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // already failing; the original error is the one to report
      }
    }
    try {
      unlinkSync(temp);
    } catch {
      // never created, or already renamed
    }
    throw error;
  }
  if (options.durable !== false) fsyncDirectory(dirname(path));
}

/**
 * Creates `path` with `data` atomically and exclusively: readers never see it half-written, and
 * when several processes create the same path at once exactly one succeeds; the others get an
 * `EEXIST` error. The content goes to a unique temporary file which is then hard-linked to `path`
 * (`link` fails when `path` exists); where hard links are not supported, an `O_EXCL` create is
 * the fallback (still exclusive, but a reader may briefly see an empty file).
 */
export function atomicCreateFile(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const temp = tempPathFor(path);
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  const writeAll = (file: string, flag: string): void => {
    const fd = openSync(file, flag, options.mode ?? 0o600);
    try {
      for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      if (options.durable !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };
  try {
    writeAll(temp, "wx");
    try {
      linkSync(temp, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw error;
      writeAll(path, "wx");
    }
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // never created
    }
  }
  if (options.durable !== false) fsyncDirectory(dirname(path));
}

/** fsync a directory so a rename in it is durable. Not supported everywhere (Windows): best effort. */
function fsyncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // best effort: some platforms cannot open or fsync a directory
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Creates `dir` and its missing parents with mode 0700 (state and memory are private). An
 * existing directory keeps its mode: lanes does not chmod what the user created. `dir` must be a
 * directory of its own, and so must every directory between it and the `.claude` directory it
 * lies in (`.claude/state/cache`: `cache` and `state`), not a symbolic link (see
 * {@link assertOwnDir}). `.claude` itself and what lies above it are the user's to link.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const own of ownDirs(dir)) assertOwnDir(own);
}

/** `dir` and its ancestors below the nearest `.claude` (only `dir` when there is none). */
function ownDirs(dir: string): string[] {
  const chain: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    if (basename(at) === ".claude" && at !== dir) return chain;
    chain.push(at);
    if (dirname(at) === at) return [dir];
  }
}

/**
 * Throws unless `dir` is a directory itself (`lstat`), not a symbolic link to one: a link planted
 * where lanes keeps its state would send every later state write, and the files a hook creates,
 * wherever it points (the hook bundles). `ELOOP` for a link, `ENOTDIR` for anything else.
 */
export function assertOwnDir(dir: string): void {
  const stat = lstatSync(dir);
  if (stat.isDirectory()) return;
  const link = stat.isSymbolicLink();
  throw Object.assign(
    new Error(
      link
        ? `\`${dir}\` is a symbolic link, and lanes keeps its state only in a directory of its own: remove the link`
        : `\`${dir}\` is not a directory`,
    ),
    { code: link ? "ELOOP" : "ENOTDIR" },
  );
}

/**
 * {@link ensurePrivateDir} plus a `.gitignore` of `*` inside, so runtime state and memory files
 * stay out of commits even where `lanes init` did not write the project's `.gitignore` lines.
 * Definitions (`.claude/lanes/`, `.claude/agents/`, `.claude/skills/`) stay committed. Best
 * effort, never throws: a directory that cannot be created fails the write that follows, which
 * reports it.
 */
export function ensureIgnoredDir(dir: string, what: string): void {
  try {
    ensurePrivateDir(dir);
    writeFileSync(join(dir, ".gitignore"), `# ${what}: never committed\n*\n`, { flag: "wx", mode: 0o600 });
  } catch {
    // already there (or not creatable: the caller's write reports it)
  }
}

/** Options of {@link sweepStaleTemps}. */
export interface SweepOptions {
  /** Current time in ms since the epoch. */
  readonly now: number;
  /** A temporary file older than this is left over from a crash (default 30 s). */
  readonly staleMs?: number;
  /** Whether a process id is alive on this host. */
  readonly isAlive: (pid: number) => boolean;
}

/**
 * Removes temporary files that {@link atomicWriteFile} left next to `path` when its writer was
 * killed between creating and renaming them. A temp is removed when it is older than `staleMs`, or
 * when its writer's pid (part of the name) is dead and it is more than a second old. Removing one
 * that is still in use only makes that writer's rename fail (it reports an error); `path` itself
 * is never touched. Returns how many were removed.
 */
export function sweepStaleTemps(path: string, options: SweepOptions): number {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
    const pid = Number.parseInt(name.slice(prefix.length), 10);
    const full = join(dir, name);
    try {
      const age = options.now - lstatSync(full).mtimeMs;
      const dead = Number.isInteger(pid) && pid > 0 && !options.isAlive(pid);
      if (age > (options.staleMs ?? 30_000) || (dead && age > 1_000)) {
        unlinkSync(full);
        removed++;
      }
    } catch {
      // raced with its writer or another sweeper: nothing to do
    }
  }
  return removed;
}

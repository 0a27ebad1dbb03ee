/**
 * A small cross-process lock for read-modify-write of state files: `<path>.lock` holds
 * `{pid, host, created, token}`. Hooks are short-lived processes that need a sync API with
 * retries, which is why lanes has its own instead of proper-lockfile.
 *
 * Taking the lock: the record is written to a private temporary file which is then hard-linked to
 * `<path>.lock`. `link` fails with EEXIST when the lock exists, so exactly one process wins, and
 * the lock file is never seen half-written. (File systems without hard links fall back to
 * `open(O_CREAT|O_EXCL)`, where a reader can briefly see an empty file; an unreadable lock is only
 * judged by its age.)
 *
 * Waiting: jittered exponential backoff (0.5 ms doubling to 25 ms) until `timeoutMs` (10 s), then
 * a `locked` issue naming the holder. Sync code sleeps with `Atomics.wait`.
 *
 * Stale locks: a lock is stale when its holder's pid is dead on this host, or when it is older
 * than `staleMs` (30 s). The contract is that no holder keeps the lock anywhere near `staleMs`;
 * lanes' critical sections are a read, a small JSON edit and a write. Under that contract a lock is
 * removed only by its holder (release) or, once its holder is dead or overdue, by a stealer.
 *
 * Why stealing is race-free: two stealers that both read the same stale lock must not both delete
 * "the" lock, because the second delete could remove a fresh lock taken in between. So a stealer
 * that saw generation T (the token of the stale lock) first takes a claim on T: the file
 * `<lock>.<hash(T)>.claim`, created exclusively with the same link trick. Only the claim holder may
 * delete the lock, and only after re-reading it under the claim and finding token T still there.
 * - Two stealers of T: one creates the claim, the other gets EEXIST and backs off.
 * - Between the re-read and the delete nobody else can replace the lock: the holder of T is dead
 *   or overdue, and every other remover of T would need the claim, which we hold.
 * - A late stealer of T (arriving after T was removed and the claim released) re-reads the lock,
 *   finds a newer token and deletes nothing.
 * - A stealer killed while holding its claim leaves a claim whose pid is dead: the next stealer
 *   removes that claim by the same procedure one level down (`<claim>.<hash>.claim`), bounded to a
 *   few levels, and then retries.
 * Releasing re-reads the lock and deletes it only if it still holds the releaser's own token.
 */
import { closeSync, linkSync, lstatSync, openSync, readdirSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import type * as Os from "node:os";
import { builtin } from "../host/builtin.ts";
import { basename, dirname, join } from "node:path";
import { ensurePrivateDir, sweepStaleTemps } from "./atomic.ts";
import { readState } from "./read.ts";
import { fnv1a64 } from "./hash.ts";
import { describeError, fail, ok, type Result } from "./result.ts";
import { isoTime } from "./time.ts";

/** What a lock (or claim) file holds. */
export interface LockRecord {
  /** Process id of the holder. */
  readonly pid: number;
  /** Host name of the holder: a pid means nothing on another host. */
  readonly host: string;
  /** When the lock was taken, ISO 8601. */
  readonly created: string;
  /** Unique per acquisition: tells this lock from a later one at the same path. */
  readonly token: string;
}

/** Options of {@link withLockSync} and {@link withLock}; every field has a default. */
export interface LockOptions {
  /** Give up waiting after this long (default 10 000 ms). */
  readonly timeoutMs?: number;
  /** A lock older than this is stale even if its holder seems alive (default 30 000 ms). */
  readonly staleMs?: number;
  /** Milliseconds since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /** Jitter source in [0, 1) (default `Math.random`). */
  readonly random?: () => number;
  /** Whether a pid is alive on this host (default: `process.kill(pid, 0)`). */
  readonly isAlive?: (pid: number) => boolean;
  /** This host's name (default `os.hostname()`). */
  readonly host?: string;
  /** This process's id (default `process.pid`). */
  readonly pid?: number;
  /** Sync sleep, for {@link withLockSync} only (default `Atomics.wait`). */
  readonly sleep?: (ms: number) => void;
}

/**
 * Lock options for code that runs inside a hook: a hook is killed at its timeout (10 s for the
 * enforcing hooks, see src/install/wiring.ts), and a killed PreToolUse hook blocks the call, so a
 * hook waits for a lock at most 2 s and then goes on without the bookkeeping (with a note).
 */
export const HOOK_LOCK: LockOptions = { timeoutMs: 2_000 };

/** How deep stealing may recurse into claims of claims before waiting instead. */
const MAX_CLAIM_DEPTH = 3;

interface Context {
  readonly timeoutMs: number;
  readonly staleMs: number;
  readonly now: () => number;
  readonly random: () => number;
  readonly isAlive: (pid: number) => boolean;
  readonly host: string;
  readonly pid: number;
}

/** What was seen at a lock path: a token that identifies this generation, the record if readable, its age. */
interface Observed {
  readonly token: string;
  readonly record?: LockRecord;
  readonly ageMs: number;
}

/** Default liveness check: signal 0 tests for existence; EPERM means it exists but is not ours. */
export function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

let sleeper: Int32Array | undefined;
/** Blocks the thread for `ms` (the value at index 0 never changes, so the wait always times out). */
const sleepSync = (ms: number): void => {
  Atomics.wait((sleeper ??= new Int32Array(new SharedArrayBuffer(4))), 0, 0, ms);
};

let sequence = 0;

function contextOf(options: LockOptions): Context {
  return {
    timeoutMs: options.timeoutMs ?? 10_000,
    staleMs: options.staleMs ?? 30_000,
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    isAlive: options.isAlive ?? pidIsAlive,
    // loaded here, not at start-up: most hook calls take no lock (see host/env.ts `nodeOs`)
    host: options.host ?? builtin<typeof Os>("node:os").hostname(),
    pid: options.pid ?? process.pid,
  };
}

function newRecord(ctx: Context): LockRecord {
  const token = `${ctx.pid}-${(sequence++).toString(36)}-${Math.floor(ctx.random() * 0xffffffff).toString(36)}`;
  return { pid: ctx.pid, host: ctx.host, created: isoTime(new Date(ctx.now())), token };
}

const errno = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/** Creates `path` exclusively holding `record`; false when it already exists. */
function tryCreate(path: string, record: LockRecord): boolean {
  const text = `${JSON.stringify(record)}\n`;
  const temp = `${path}.${record.token}.tmp`;
  writeFileSync(temp, text, { flag: "wx", mode: 0o600 });
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    const code = errno(error);
    if (code === "EEXIST") return false;
    // the temp was swept by another process (only when it thought we were dead): just retry
    if (code === "ENOENT") return false;
    if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS")
      return createExclusive(path, text);
    throw error;
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
  }
}

/** Fallback for file systems without hard links. */
function createExclusive(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (error) {
    if (errno(error) === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

function isLockRecord(value: unknown): value is LockRecord {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.pid === "number" &&
    typeof r.host === "string" &&
    typeof r.created === "string" &&
    typeof r.token === "string"
  );
}

/** Reads what is at `path` now; undefined when nothing is. */
function observe(path: string, now: number): Observed | undefined {
  let text: string;
  try {
    // never through a link planted at the lock's name (a FIFO would block, a device never end)
    text = readState(path);
  } catch (error) {
    if (errno(error) === "ENOENT") return undefined;
    throw error;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (isLockRecord(value)) {
      const created = Date.parse(value.created);
      if (Number.isFinite(created)) return { token: value.token, record: value, ageMs: now - created };
    }
  } catch {
    // unreadable: judged by the file itself below
  }
  try {
    const stat = lstatSync(path);
    return { token: `raw:${stat.ino}:${stat.mtimeMs}:${stat.size}`, ageMs: now - stat.mtimeMs };
  } catch (error) {
    if (errno(error) === "ENOENT") return undefined;
    throw error;
  }
}

function isStale(seen: Observed, ctx: Context): boolean {
  const r = seen.record;
  if (r !== undefined && r.host === ctx.host && !ctx.isAlive(r.pid)) return true;
  return seen.ageMs > ctx.staleMs;
}

/** Deletes `path` if it still holds `token`. Only called by the owner of `token` or of a claim on it. */
function removeIfToken(path: string, token: string, now: number): boolean {
  const current = observe(path, now);
  if (current === undefined) return true;
  if (current.token !== token) return false;
  try {
    unlinkSync(path);
  } catch (error) {
    if (errno(error) !== "ENOENT") throw error;
  }
  return true;
}

/** The claim file a stealer of the lock generation `token` creates (see the module comment). */
export const claimPathOf = (lockPath: string, token: string): string => `${lockPath}.${fnv1a64(token)}.claim`;

/**
 * Removes the stale generation `seen` from `path`, by the claim procedure explained at the top.
 * Returns true when `seen` is gone (removed here or by someone else).
 */
function removeStale(path: string, seen: Observed, ctx: Context, depth: number): boolean {
  const claimPath = claimPathOf(path, seen.token);
  const claim = newRecord(ctx);
  if (!tryCreate(claimPath, claim)) {
    if (depth >= MAX_CLAIM_DEPTH) return false;
    const holder = observe(claimPath, ctx.now());
    if (holder !== undefined && isStale(holder, ctx)) removeStale(claimPath, holder, ctx, depth + 1);
    return false;
  }
  try {
    return removeIfToken(path, seen.token, ctx.now());
  } finally {
    removeIfToken(claimPath, claim.token, ctx.now());
  }
}

/**
 * After a steal (someone died holding the lock), removes what dead processes left next to it: lock
 * temporaries, claims (through {@link removeStale}, never by a plain delete) and the atomic-write
 * temporaries of the locked file.
 */
function sweep(target: string, lockPath: string, ctx: Context): void {
  const dir = dirname(lockPath);
  const prefix = `${basename(lockPath)}.`;
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const full = join(dir, name);
    try {
      const seen = observe(full, ctx.now());
      if (seen === undefined || !isStale(seen, ctx)) continue;
      if (name.endsWith(".tmp")) unlinkSync(full);
      else if (name.endsWith(".claim")) removeStale(full, seen, ctx, 1);
    } catch {
      // raced with another sweeper
    }
  }
  sweepStaleTemps(target, { now: ctx.now(), staleMs: ctx.staleMs, isAlive: ctx.isAlive });
}

type Step =
  | { readonly kind: "acquired"; readonly token: string }
  | { readonly kind: "wait"; readonly ms: number }
  | { readonly kind: "timeout"; readonly result: Result<never> };

/** One attempt to take the lock: the shared body of the sync and async loops. */
function attempt(target: string, lockPath: string, ctx: Context, started: number, tries: number): Step {
  const record = newRecord(ctx);
  if (tryCreate(lockPath, record)) return { kind: "acquired", token: record.token };
  const seen = observe(lockPath, ctx.now());
  if (seen === undefined) return { kind: "wait", ms: 0 };
  if (isStale(seen, ctx) && removeStale(lockPath, seen, ctx, 0)) {
    sweep(target, lockPath, ctx);
    return { kind: "wait", ms: 0 };
  }
  const elapsed = ctx.now() - started;
  if (elapsed >= ctx.timeoutMs) return { kind: "timeout", result: timeoutIssue(lockPath, seen, ctx) };
  const cap = Math.min(25, 0.5 * 2 ** Math.min(tries, 6));
  return { kind: "wait", ms: Math.min(cap * (0.5 + ctx.random() / 2), ctx.timeoutMs - elapsed) };
}

function timeoutIssue(lockPath: string, seen: Observed, ctx: Context): Result<never> {
  const r = seen.record;
  const who =
    r === undefined
      ? "an unreadable lock"
      : `pid ${r.pid}${r.pid === ctx.pid && r.host === ctx.host ? " (this process)" : ""} on \`${r.host}\` since ${r.created}`;
  const after = ctx.timeoutMs < 1000 ? `${ctx.timeoutMs} ms` : `${Math.round(ctx.timeoutMs / 1000)} s`;
  return fail("locked", `timed out after ${after} waiting for \`${lockPath}\`: it is held by ${who}`, {
    help: `if that process is gone, delete \`${lockPath}\` and try again`,
    file: lockPath,
  });
}

function ioIssue(lockPath: string, error: unknown): Result<never> {
  return fail("io", `cannot lock \`${lockPath}\`: ${describeError(error)}`, {
    help: "check that the state directory exists and is writable",
    file: lockPath,
  });
}

/**
 * Runs `fn` while holding the lock on `path` (the file `<path>.lock`); creates the directory if
 * needed. Returns `fn`'s value, or a `locked` issue after the timeout, or an `io` issue when the
 * lock file cannot be created. Exceptions thrown by `fn` propagate after the lock is released.
 * Not reentrant: taking the same lock again inside `fn` waits for the timeout.
 */
export function withLockSync<T>(path: string, fn: () => T, options: LockOptions = {}): Result<T> {
  const ctx = contextOf(options);
  const sleep = options.sleep ?? sleepSync;
  const lockPath = `${path}.lock`;
  let token: string;
  try {
    const steps = acquisition(path, lockPath, ctx);
    let step = steps.next();
    for (; !step.done; step = steps.next()) if (step.value > 0) sleep(step.value);
    if ("result" in step.value) return step.value.result;
    token = step.value.token;
  } catch (error) {
    return ioIssue(lockPath, error);
  }
  try {
    return ok(fn());
  } finally {
    release(lockPath, token, ctx);
  }
}

/** The async form of {@link withLockSync}: waits with timers, and `fn` may be async. */
export async function withLock<T>(
  path: string,
  fn: () => T | Promise<T>,
  options: LockOptions = {},
): Promise<Result<T>> {
  const ctx = contextOf(options);
  const lockPath = `${path}.lock`;
  let token: string;
  try {
    const steps = acquisition(path, lockPath, ctx);
    let step = steps.next();
    for (; !step.done; step = steps.next()) await new Promise((resolve) => setTimeout(resolve, step.value as number));
    if ("result" in step.value) return step.value.result;
    token = step.value.token;
  } catch (error) {
    return ioIssue(lockPath, error);
  }
  try {
    return ok(await fn());
  } finally {
    release(lockPath, token, ctx);
  }
}

/**
 * The acquisition loop of both forms: yields how long to wait before the next try, and returns
 * the token of the acquired lock or the timeout issue. The caller does the waiting (sync or async).
 */
function* acquisition(
  path: string,
  lockPath: string,
  ctx: Context,
): Generator<number, { readonly token: string } | { readonly result: Result<never> }> {
  ensurePrivateDir(dirname(path));
  const started = ctx.now();
  for (let tries = 0; ; tries++) {
    const step = attempt(path, lockPath, ctx, started, tries);
    if (step.kind === "acquired") return { token: step.token };
    if (step.kind === "timeout") return { result: step.result };
    yield step.ms;
  }
}

function release(lockPath: string, token: string, ctx: Context): void {
  try {
    removeIfToken(lockPath, token, ctx.now());
  } catch {
    // the lock was already removed: nothing to release
  }
}

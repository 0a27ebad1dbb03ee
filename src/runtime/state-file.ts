/**
 * Reading and updating one JSON state file with a validator. Zod-free (the validator is passed
 * in), so the same code serves the CLI paths (zod schemas) and tests.
 *
 * A file that does not parse or does not validate is never overwritten: the update is refused
 * with an issue naming the file and its first problem, and a copy is kept as
 * `<file>.corrupt-<timestamp>` (one copy per distinct content, however often it is read).
 */
import { copyFileSync, readdirSync } from "node:fs";
import { readState } from "../io/read.ts";
import { basename, dirname, join } from "node:path";
import { atomicCreateFile, atomicWriteFile, ensurePrivateDir, sweepStaleTemps } from "../io/atomic.ts";
import { compactTimestamp } from "../host/ids.ts";
import { pidIsAlive, withLockSync, type LockOptions } from "../io/lock.ts";
import { describeError, fail, nowOf, ok, propagate, type Result, type RuntimeDeps } from "../io/result.ts";

/** A validator: the value, or the first problem as `path: message` (e.g. `completed_steps.2.expert: expected string`). */
export type Validate<T> = (
  data: unknown,
) => { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

/** How to talk about a state file in messages. */
export interface StateFileOptions extends RuntimeDeps {
  /** The file as the user should see it, e.g. `.claude/state/progress.json`. */
  readonly display: string;
  /** What to do when the file is corrupt, e.g. ``run `lanes progress init --force` to start over, or fix the file by hand``. */
  readonly repair: string;
  /** Whether to keep a `.corrupt-<timestamp>` copy of a bad file (default true). */
  readonly backup?: boolean;
  /** Lock options for updates. */
  readonly lock?: LockOptions;
}

/** The `.json` state files of a directory (`display`: how messages name it); none when it does not exist. */
export function listStateFiles(dir: string, display: string): Result<string[]> {
  try {
    return ok(readdirSync(dir).filter((n) => n.endsWith(".json")));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return ok([]);
    return fail("io", `cannot list \`${display}\`: ${describeError(error)}`);
  }
}

/**
 * Reads and validates `file`. `undefined` when it does not exist; a `corrupt` issue (and a backup
 * copy) when it does not parse or validate; an `io` issue when it cannot be read.
 */
export function readStateFile<T>(
  file: string,
  validate: Validate<T>,
  options: StateFileOptions,
): Result<T | undefined> {
  let text: string;
  try {
    text = readState(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return ok(undefined);
    return fail("io", `cannot read \`${options.display}\`: ${describeError(error)}`, { file });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return corrupt(
      file,
      text,
      `not valid JSON: ${describeError(error).replace(/^[A-Z]/, (c) => c.toLowerCase())}`,
      options,
    );
  }
  const checked = validate(data);
  if (!checked.ok) return corrupt(file, text, checked.problem, options);
  return ok(checked.value);
}

function corrupt(file: string, text: string, problem: string, options: StateFileOptions): Result<never> {
  const kept = options.backup === false ? undefined : keepBackup(file, text, nowOf(options));
  const where = kept === undefined ? "" : `: the file was left as is and copied to \`${basename(kept)}\``;
  return fail("corrupt", `\`${options.display}\` is not usable: ${problem}${where}`, { help: options.repair, file });
}

/** Copies a bad file next to itself, once per distinct content. Returns the copy's path, or undefined when copying failed. */
export function keepBackup(file: string, text: string, now: Date): string | undefined {
  const dir = dirname(file);
  const prefix = `${basename(file)}.corrupt-`;
  try {
    for (const name of readdirSync(dir)) {
      if (name.startsWith(prefix) && readState(join(dir, name)) === text) return join(dir, name);
    }
    const stamp = compactTimestamp(now);
    for (let n = 1; n < 100; n++) {
      const candidate = join(dir, `${prefix}${stamp}${n === 1 ? "" : `-${n}`}`);
      try {
        copyFileSync(file, candidate, 1 /* COPYFILE_EXCL */);
        return candidate;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
      }
    }
  } catch {
    // the backup is a courtesy; the refusal to overwrite is what matters
  }
  return undefined;
}

/** Serialises a state document: two-space JSON with a trailing newline. */
export const renderJson = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Writes a state document atomically, creating its directory (0700) first; removes temporaries that killed writers left next to it. */
export function writeStateFile(file: string, value: unknown, display: string): Result<void> {
  try {
    ensurePrivateDir(dirname(file));
    // real file times, so the real clock
    sweepStaleTemps(file, { now: Date.now(), isAlive: pidIsAlive });
    atomicWriteFile(file, renderJson(value));
    return ok(undefined);
  } catch (error) {
    return fail("io", `cannot write \`${display}\`: ${describeError(error)}`, {
      help: "check that the `.claude/state` directory is writable",
      file,
    });
  }
}

/**
 * Creates a state document atomically and exclusively: when the file exists (or another process
 * creates it first) the result is a `refused` issue with `exists`, and nothing is written.
 */
export function createStateFile(
  file: string,
  value: unknown,
  display: string,
  exists: string,
  help: string,
): Result<void> {
  try {
    ensurePrivateDir(dirname(file));
    atomicCreateFile(file, renderJson(value));
    return ok(undefined);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return fail("refused", exists, { help, file });
    return fail("io", `cannot write \`${display}\`: ${describeError(error)}`, {
      help: "check that the `.claude/state` directory is writable",
      file,
    });
  }
}

/**
 * Read-modify-write under the file's lock: reads and validates the current document (undefined
 * when missing), calls `update`, and writes what it returns. Nothing is written when the file is
 * corrupt or `update` fails. `update` must not have side effects other than its return value,
 * other than reads.
 */
export function updateStateFile<T>(
  file: string,
  validate: Validate<T>,
  update: (current: T | undefined) => Result<T>,
  options: StateFileOptions,
): Result<T> {
  const locked = withLockSync(
    file,
    (): Result<T> => {
      const current = readStateFile(file, validate, options);
      if (!current.ok) return propagate(current);
      const next = update(current.value);
      if (!next.ok) return next;
      const written = writeStateFile(file, next.value, options.display);
      return written.ok ? next : propagate(written);
    },
    options.lock,
  );
  return locked.ok ? locked.value : propagate(locked);
}

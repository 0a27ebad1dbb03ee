/**
 * Positional reads through a descriptor the caller holds: a range, or everything from the start.
 * Positional, so the descriptor's own offset is left alone (an `O_APPEND` descriptor can read and
 * then append), and nothing is read twice. And how lanes opens and reads its own state: never
 * through a symbolic link (`openState`, `readState`).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** Up to `length` bytes of `fd` from `position`: fewer only when the file ends first. */
export function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafeSlow(length);
  let n = 0;
  for (let r; n < length && (r = readSync(fd, buffer, n, length - n, position + n)) > 0;) n += r;
  return n === length ? buffer : buffer.subarray(0, n);
}

/** Everything in `fd` from its first byte (an empty buffer for an empty file: one read). */
export function readToEnd(fd: number, chunk = 16_384): Buffer {
  const chunks: Buffer[] = [];
  let at = 0;
  for (let part = readAt(fd, 0, chunk); part.length > 0; part = readAt(fd, at, chunk)) {
    chunks.push(part);
    at += part.length;
    if (part.length < chunk) break;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * Open flags for lanes' own state: a final symbolic link is refused (`O_NOFOLLOW`: the open fails
 * with `ELOOP`) and a FIFO never blocks (`O_NONBLOCK`). A link planted where lanes keeps a state
 * file must never make a hook read from, or write into, what it points at (a hook bundle, a
 * device). Both are 0 where the platform has none (Windows, which has no such links for users).
 */
export const NO_FOLLOW: number = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** `a+` as flags for {@link openState}: read, append, create. */
export const APPEND: number = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT;

/** An error with a code, as `node:fs` throws them. */
function codedError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/**
 * Opens `path` as lanes opens its state: `flags` (`constants.O_*`) plus {@link NO_FOLLOW}, and only
 * a regular file (`EINVAL` otherwise: a directory, a FIFO, a device). Throws as `openSync` does,
 * `ELOOP` for a symbolic link.
 */
export function openState(path: string, flags: number, mode = 0o600): number {
  const fd = openSync(path, flags | NO_FOLLOW, mode);
  try {
    if (!fstatSync(fd).isFile()) throw codedError("EINVAL", `\`${path}\` is not a regular file`);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * The text of a state file, read as {@link openState} opens it: like `readFileSync(path, "utf8")`,
 * but never through a symbolic link, never from anything but a regular file.
 */
export function readState(path: string): string {
  const fd = openState(path, constants.O_RDONLY);
  try {
    return readToEnd(fd).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** {@link readState}, `undefined` when the file does not exist. */
export function readStateIfAny(path: string): string | undefined {
  try {
    return readState(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

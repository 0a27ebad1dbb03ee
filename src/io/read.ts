/**
 * Positional reads through a descriptor the caller holds: a range, or everything from the start.
 * Positional, so the descriptor's own offset is left alone (an `O_APPEND` descriptor can read and
 * then append), and nothing is read twice.
 */
import { readSync } from "node:fs";

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

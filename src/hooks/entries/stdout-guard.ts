/**
 * Imported first by every hook entry: anything a dependency logs through `console` goes to stderr,
 * because a stray line on stdout makes Claude Code ignore the hook's JSON (it fails open). Writes
 * are blocking: the entry exits as soon as it has printed (entry.ts).
 */
import { writeSync } from "node:fs";

/** Writes all of `text` to `fd`, waiting out a full non-blocking pipe (`EAGAIN`). */
export function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
    }
  }
}

const toStderr = (...args: unknown[]): void => {
  try {
    writeAll(2, `${args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ")}\n`);
  } catch {
    // stderr is gone: nothing to tell
  }
};
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;
console.warn = toStderr;
console.error = toStderr;

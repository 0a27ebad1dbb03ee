/** Blocking writes to a descriptor, for the processes that answer and exit (the hooks, the statusline). */
import { writeSync } from "node:fs";

/**
 * Writes all of `text` to `fd`, waiting out a full non-blocking pipe (`EAGAIN`). With
 * `readerMayLeave`, a reader gone early (`EPIPE`) ends the write quietly instead of throwing.
 */
export function writeAll(fd: number, text: string, readerMayLeave = false): void {
  const bytes = Buffer.from(text, "utf8");
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (readerMayLeave && code === "EPIPE") return;
      if (code !== "EAGAIN") throw error;
    }
  }
}

/**
 * Imported first by every hook entry: anything a dependency logs through `console` goes to stderr,
 * because a stray line on stdout makes Claude Code ignore the hook's JSON (it fails open). Writes
 * are blocking: the entry exits as soon as it has printed (entry.ts).
 */
import { writeAll } from "../../io/write.ts";

export { writeAll };

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

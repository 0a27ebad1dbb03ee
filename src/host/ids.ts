/**
 * Ids that become file names. Everything that reaches a path (task ids, agent names, checkpoint
 * ids, session ids) goes through {@link safeId} first, so `../x` or `a/b` cannot escape a state
 * directory.
 */
import { isoTime } from "../io/time.ts";

const MAX_ID = 128;

/**
 * A file-name-safe id: every character outside `[A-Za-z0-9._-]` becomes `_`, leading dots are
 * replaced (no hidden files, no `.` or `..`), the result is capped at 128 characters and never
 * empty (`_` for an empty input).
 */
export function safeId(id: string): string {
  const replaced = id.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, (dots) => "_".repeat(dots.length));
  const capped = replaced.slice(0, MAX_ID);
  return capped.length === 0 ? "_" : capped;
}

/** `20250102T030405Z`: a compact UTC timestamp for ids and file names (sorts as time). */
export function compactTimestamp(now: Date): string {
  return isoTime(now)
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/** `n` lowercase base-36 characters drawn from `random`. */
export function randomSuffix(random: () => number, n = 6): string {
  let out = "";
  for (let i = 0; i < n; i++) out += Math.floor(random() * 36).toString(36);
  return out;
}

/** A workflow id as the progress protocol spells it: `wf-{timestamp}-{random}`, e.g. `wf-20250102T030405Z-k3x9q1`. */
export function newWorkflowId(now: Date, random: () => number): string {
  return `wf-${compactTimestamp(now)}-${randomSuffix(random)}`;
}

/** A generated id with another prefix (`cp` for checkpoints, `task` for composite-skill tasks). */
export function newId(prefix: string, now: Date, random: () => number): string {
  return `${prefix}-${compactTimestamp(now)}-${randomSuffix(random)}`;
}

const KEY_PLAIN = /[A-Za-z0-9.]/;

/**
 * An injective file-name encoding of an id (unlike {@link safeId}, two ids never share a key):
 * letters, digits and `.` stay, `-` stays between two kept characters, and every other UTF-8 byte
 * (including `_`, a leading `.`, and a `-` at either end or next to another `-`) becomes `_xx`
 * (lowercase hex). A key therefore never contains `--` and never starts or ends with `-`, so two
 * keys joined by `--` split back unambiguously (see {@link joinKeys}, {@link splitKeys}).
 */
export function fileKey(id: string): string {
  const chars = [...id];
  let out = "";
  chars.forEach((c, i) => {
    const keep =
      (KEY_PLAIN.test(c) && !(i === 0 && c === ".")) ||
      (c === "-" && i > 0 && i < chars.length - 1 && chars[i - 1] !== "-" && chars[i + 1] !== "-");
    if (keep) out += c;
    else for (const byte of Buffer.from(c, "utf8")) out += `_${byte.toString(16).padStart(2, "0")}`;
  });
  return out;
}

/** The id a {@link fileKey} encodes, or undefined for text that is not a key. */
export function fromFileKey(key: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < key.length;) {
    if (key[i] === "_") {
      const hex = key.slice(i + 1, i + 3);
      if (!/^[0-9a-f]{2}$/.test(hex)) return undefined;
      bytes.push(Number.parseInt(hex, 16));
      i += 3;
    } else {
      bytes.push(key.charCodeAt(i));
      i++;
    }
  }
  const id = Buffer.from(bytes).toString("utf8");
  return fileKey(id) === key ? id : undefined;
}

/** Joins ids into one file-name stem, injectively: `fileKey(a)--fileKey(b)`. */
export const joinKeys = (...ids: readonly string[]): string => ids.map(fileKey).join("--");

/** The ids of a {@link joinKeys} stem, or undefined when it is not one. */
export function splitKeys(stem: string): string[] | undefined {
  const ids = stem.split("--").map(fromFileKey);
  return ids.every((id): id is string => id !== undefined) ? ids : undefined;
}

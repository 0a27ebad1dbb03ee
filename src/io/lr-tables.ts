/**
 * The parse tables of a Lezer grammar, decoded at build time. A grammar module builds its parser
 * from tables encoded as strings (`LRParser.deserialize`), and decoding them one character at a
 * time in a cold process costs more than the rest of a hook call (about 6 ms for JavaScript). The
 * build writes the decoded arrays beside the parser's bundle (`<language>.lrtables`, see
 * scripts/build/lr-tables.ts) and routes the grammar's import of `@lezer/lr` through a module that
 * hands the parser those arrays (Lezer uses a table that is already an array as it is).
 *
 * Nothing in src/ imports this module; the build's generated module does. A file that is missing,
 * another build's or cut short leaves the string tables in place: the same parser, decoded slower.
 */
import { readFileSync } from "node:fs";

/** The four arrays of a parser, in file order, and their element sizes. */
export const LR_TABLES = [
  ["states", 4],
  ["stateData", 2],
  ["goto", 2],
  ["tokenData", 2],
] as const;

export type LrTableName = (typeof LR_TABLES)[number][0];

/** How the build describes the file: its first line, and each table's length in elements (0: kept as a string). */
export interface LrTablesFile {
  readonly header: string;
  readonly lengths: Readonly<Record<LrTableName, number>>;
}

/** `spec` with the tables of `file` in place of its strings, when `file` is the one the bundle was built with. */
export function withDecodedTables<S extends object>(spec: S, path: string, file: LrTablesFile): S {
  // the file's elements are little-endian
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) return spec;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return spec;
  }
  const size = LR_TABLES.reduce((n, [name, width]) => n + file.lengths[name] * width, 0);
  if (bytes.length !== file.header.length + size || bytes.toString("latin1", 0, file.header.length) !== file.header)
    return spec;
  // a buffer of its own: typed arrays need their elements aligned
  const buffer = new ArrayBuffer(size);
  new Uint8Array(buffer).set(bytes.subarray(file.header.length));
  const decoded: Record<string, Uint16Array | Uint32Array> = {};
  let at = 0;
  for (const [name, width] of LR_TABLES) {
    const length = file.lengths[name];
    if (length > 0)
      decoded[name] = width === 4 ? new Uint32Array(buffer, at, length) : new Uint16Array(buffer, at, length);
    at += length * width;
  }
  return { ...spec, ...decoded };
}

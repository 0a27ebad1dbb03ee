/**
 * The shell's data tables (src/shell/tables/*.ts) are evaluated at build time and inlined as
 * `JSON.parse("...")`: V8 parses JSON much faster than it runs the object-building code, which was
 * the largest part of loading the shell analysis. The plugin refuses anything that would not
 * survive JSON (functions, Sets, Maps, undefined), so the tables stay plain data.
 *
 * Large keyed tables become lazily parsed views (src/io/lazy-table.ts); in the hot shell bundle
 * their entries are not in the bundle at all but in the data file beside it (`shell.tables`, see
 * {@link TableStore}), read by src/io/table-file.ts.
 */
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";
import { ROOT } from "./root.ts";

const TABLES_DIR = join(ROOT, "src", "shell", "tables");
/** The run-time halves of the generated table modules. */
const LAZY_TABLE = join(ROOT, "src", "io", "lazy-table.ts");
const TABLE_FILE = join(ROOT, "src", "io", "table-file.ts");
/** The module that reads the hot shell bundle's data file, with the id of the finished file. */
const TABLE_FILE_MODULE = "lanes-table-file";

/**
 * Keyed tables whose JSON is longer than this are parsed lazily, entry by entry: JSON.parse builds
 * a hidden class for every new key of an object, so option tables cost far more to parse than
 * their size says, and most calls need few of them.
 */
const LAZY_TABLE_CHARS = 200;

/**
 * Within an entry, a keyed object whose JSON is longer than this (git's subcommand grammars) is a
 * lazy table of its own: `git status` parses the grammar of `status`, not of every git subcommand.
 */
const LAZY_MEMBER_CHARS = 1000;

const isKeyed = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function isPlainData(value: unknown): boolean {
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isPlainData);
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.values(value as object).every((v) => v !== undefined && isPlainData(v));
  return false;
}

/**
 * The data file of the hot shell bundle (`dist/shell.tables`): the JSON of every entry of its large
 * tables, one after another, after a header line that names the file's content
 * (`lanes shell tables <id>`). The bundle keeps each table's keys with the offset and length of
 * their entries, and reads an entry from the file when a call first looks it up: the entries are
 * neither read nor compiled into the code cache on every Bash call, and a call reads only the
 * few entries it needs. A file that is missing or does not match the bundle (its header names
 * other content) is an install error (`LanesInstallError`), never a misread: the analysis does not
 * turn it into an `ask` like its own failures, and the hook blocks the call.
 */
export class TableStore {
  private chunks: string[] = [];
  private size = 0;
  private frozen: string | undefined;
  reset(): void {
    this.chunks = [];
    this.size = 0;
    this.frozen = undefined;
  }
  /** Stores `json`, returns its offset and length (bytes after the header; the file is ASCII). */
  add(json: string, where: string): [number, number] {
    if (this.frozen !== undefined) throw new Error(`${where}: the table file is already complete`);
    if (/[^\x00-\x7f]/.test(json))
      throw new Error(`${where}: a non-ASCII character; write it as \\uXXXX in the source`);
    const at = this.size;
    this.chunks.push(json);
    this.size += json.length;
    return [at, json.length];
  }
  /** The id of the content (sealing the file: nothing can be added after). */
  id(): string {
    return (this.frozen ??= createHash("sha256").update(this.chunks.join("")).digest("hex").slice(0, 16));
  }
  header(): string {
    return `lanes shell tables ${this.id()}\n`;
  }
  contents(): string {
    return this.header() + this.chunks.join("");
  }
}

/**
 * The expression that builds `table` lazily (`lazyTable` of src/io/lazy-table.ts, in scope as
 * `__lanesLazyTable`): one string holding every entry as a line, `<key>\t<entry's JSON>`, and, for
 * entries with large keyed members, those members as lazy tables of their own, set on the entry
 * when it is parsed. One string, not an object literal: loading the code cache creates one string
 * where a literal created two per entry (the key and the JSON), and nothing is built for a table
 * until a key is looked up. With `store`, a line holds `<offset>,<length>` in the data file, read
 * through `__lanesTableEntry`.
 */
export function lazyTableSource(table: Record<string, unknown>, where: string, store?: TableStore): string {
  // `__proto__` would read the prototype of a plain object instead of an entry
  if (Object.hasOwn(table, "__proto__")) throw new Error(`${where} has a \`__proto__\` key`);
  let lines = "\n";
  const members: string[] = [];
  for (const [key, value] of Object.entries(table)) {
    // compact JSON never holds a raw newline or tab; a key must not either
    if (key.includes("\n") || key.includes("\t")) throw new Error(`${where} has a key with a newline or a tab`);
    // inline, the entry's JSON; in the data file, where it is (`<offset>,<length>`)
    const entry = (json: string): string => (store === undefined ? json : store.add(json, `${where}.${key}`).join(","));
    if (!isKeyed(value)) {
      lines += `${key}\t${entry(JSON.stringify(value))}\n`;
      continue;
    }
    const own: Record<string, unknown> = {};
    const lazy: string[] = [];
    for (const [member, v] of Object.entries(value)) {
      if (member === "__proto__") throw new Error(`${where}.${key} has a \`__proto__\` key`);
      if (isKeyed(v) && JSON.stringify(v).length > LAZY_MEMBER_CHARS)
        lazy.push(`${JSON.stringify(member)}: ${lazyTableSource(v, `${where}.${key}.${member}`, store)}`);
      else own[member] = v;
    }
    lines += `${key}\t${entry(JSON.stringify(own))}\n`;
    if (lazy.length > 0) members.push(`${JSON.stringify(key)}: () => ({ ${lazy.join(", ")} })`);
  }
  const args = [JSON.stringify(lines), members.length === 0 ? "undefined" : `{ ${members.join(", ")} }`];
  return `__lanesLazyTable(${args.join(", ")}${store === undefined ? "" : ", __lanesTableEntry"})`;
}

/** The generated source of one table module; `store`: where its entries go, if not inline. */
async function tableModule(path: string, store?: TableStore): Promise<string> {
  const mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  // sorted, so the output does not depend on how the module loader orders a namespace
  const lines = Object.entries(mod)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => {
      const json = JSON.stringify(value);
      if (json === undefined || JSON.stringify(JSON.parse(json)) !== json || !isPlainData(value))
        throw new Error(`${path}: export \`${name}\` is not plain JSON data`);
      // a large keyed table is parsed one entry at a time, on first use: a Bash call looks up a
      // handful of programs, and parsing every program's option grammar was most of the shell's load time
      if (json.length > LAZY_TABLE_CHARS && isKeyed(value))
        return `export const ${name} = ${lazyTableSource(value, `${path}: \`${name}\``, store)};`;
      return `export const ${name} = JSON.parse(${JSON.stringify(json)});`;
    });
  const imports = [
    `import { lazyTable as __lanesLazyTable } from ${JSON.stringify(LAZY_TABLE)};`,
    ...(store === undefined ? [] : [`import { __lanesTableEntry } from "${TABLE_FILE_MODULE}";`]),
  ];
  return [...imports, ...lines].join("\n");
}

/**
 * The esbuild plugin that inlines the data tables. With `store` (the hot shell bundle), every
 * table module is generated first, in name order, so the data file and its offsets are the same
 * on every build.
 */
export function dataTables(store?: TableStore): Plugin {
  return {
    name: "lanes-data-tables",
    setup(b) {
      const modules = new Map<string, string>();
      if (store !== undefined)
        b.onStart(async () => {
          store.reset();
          modules.clear();
          for (const file of readdirSync(TABLES_DIR)
            .filter((f) => /^[a-z-]+\.ts$/.test(f))
            .sort()) {
            const path = join(TABLES_DIR, file);
            modules.set(path, await tableModule(path, store));
          }
        });
      // the reader of the data file: one module, so one descriptor, with the id of the finished file
      b.onResolve({ filter: new RegExp(`^${TABLE_FILE_MODULE}$`) }, () => ({
        path: TABLE_FILE_MODULE,
        namespace: "lanes-tables",
      }));
      b.onLoad({ filter: /.*/, namespace: "lanes-tables" }, () => {
        if (store === undefined) throw new Error("the table data file is only for the hot shell bundle");
        return { contents: tableFileModule(store.id()), loader: "js", resolveDir: ROOT };
      });
      b.onLoad({ filter: /src[\\/]shell[\\/]tables[\\/][a-z-]+\.ts$/ }, async (args) => {
        const contents = modules.get(args.path) ?? (store === undefined ? await tableModule(args.path) : undefined);
        if (contents === undefined) throw new Error(`${args.path}: not a table module of ${TABLES_DIR}`);
        return { contents, loader: "js", resolveDir: ROOT };
      });
    },
  };
}

/** The generated reader of the data file: the header of the file the build wrote, and the bundle's directory. */
export const tableFileModule = (id: string): string =>
  `import { tableFileReader } from ${JSON.stringify(TABLE_FILE)};\nexport const __lanesTableEntry = tableFileReader(${JSON.stringify(`lanes shell tables ${id}\n`)}, __dirname);`;

/**
 * Builds `dist/`: one self-contained ESM bundle per hook entry and the CLI, the default compiled
 * policy of the pack, and `hooks/hooks.json`. `--check` builds into a temporary directory and
 * fails when the committed output differs (the drift test uses `buildAll` the same way).
 *
 * Hot-path bundles (PreToolUse, PostToolUse) are checked to contain no zod, YAML or gray-matter:
 * the build fails if one sneaks into their import graph.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Metafile, type Plugin } from "esbuild";
import { compilePolicy } from "../src/config/compile.ts";
import { AgentDefinition } from "../src/definitions/agent.ts";
import { parseDefinition } from "../src/definitions/load.ts";
import { BUNDLES, bundleSource, HOT_BUNDLES, type Bundle } from "../src/host/events.ts";
import { hookWiring, pluginCommand } from "../src/install/wiring.ts";
import { BUILTIN_AGENT_TYPES } from "../src/policy/lanes.ts";
import { serializeCompiledPolicy } from "../src/policy/compiled.ts";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Entry points and the bundle each becomes: every hook bundle of the event table, and the CLI. */
const ENTRIES: Readonly<Record<string, string>> = {
  ...Object.fromEntries((Object.keys(BUNDLES) as Bundle[]).map((bundle) => [bundle, bundleSource(bundle)])),
  cli: "src/cli/main.ts",
};

/** Bundles that run on every tool call. */
const HOT: ReadonlySet<string> = new Set(HOT_BUNDLES);
const FORBIDDEN_ON_HOT_PATH = [
  "node_modules/zod/",
  "node_modules/yaml/",
  "node_modules/gray-matter/",
  "node_modules/js-yaml/",
  "src/config/load.ts",
  "src/config/compile.ts",
];
/** The interpreter code analysis (parsers and evaluator) is loaded lazily by the shell bundle; neither it nor a hot bundle contains it. */
const CODE_ONLY = ["node_modules/@lezer/", "src/shell/code/interpret.ts", "src/shell/code/tokens.ts"];
/** The parsers are loaded lazily by the code bundle, each on the first code of its language. */
const PARSERS = ["python", "javascript"] as const;
/** The shell analysis (Bash calls only) and glob compilation are loaded lazily; a hot bundle must not contain them. */
const LAZY_ON_HOT_PATH = [
  "node_modules/unbash/",
  "src/shell/analyze.ts",
  "node_modules/picomatch/",
  "src/globs/compile.ts",
  ...CODE_ONLY,
];

const version = (): string =>
  (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/**
 * Built-in modules a hot bundle may load only inside a function, when a call needs them: `node:crypto`
 * costs 3-4 ms to load in a hook process (`node -e` preloads it, so timing it there misleads),
 * `node:os` a fifth of a millisecond.
 */
const LAZY_BUILTINS = ["node:crypto", "crypto", "node:os", "os"];

function hotPathViolations(name: string, metafile: Metafile): string[] {
  if (!HOT.has(name)) return [];
  const eager = Object.values(metafile.inputs).flatMap((input) =>
    input.imports
      .filter((i) => i.kind === "import-statement" && LAZY_BUILTINS.includes(i.path))
      .map(
        (i) =>
          `${name}: the hot-path bundle imports \`${i.path}\` at load time; require it inside the function that needs it (see src/hooks/override.ts)`,
      ),
  );
  return [
    ...eager,
    ...Object.keys(metafile.inputs)
      .filter((input) => [...FORBIDDEN_ON_HOT_PATH, ...LAZY_ON_HOT_PATH].some((f) => input.includes(f)))
      .map(
        (input) =>
          `${name}: the hot-path bundle imports \`${input}\`; move that import off the PreToolUse/PostToolUse path (the shell analysis is loaded through src/hooks/shell-proxy.ts, glob compilation through src/hooks/glob-proxy.ts)`,
      ),
  ];
}

/**
 * A hot bundle must be ASCII: V8 keeps a source with one character beyond Latin-1 as two bytes per
 * character, doubling what every hook process allocates for it. esbuild escapes strings, not regex
 * literals: spell such characters `\\uXXXX` in the source.
 */
function nonAscii(file: string): string[] {
  const text = readFileSync(file, "latin1");
  const at = text.search(/[^\x00-\x7f]/);
  return at === -1
    ? []
    : [
        `${basename(file)}: a non-ASCII character near \`${text.slice(Math.max(0, at - 40), at + 10)}\`; write it as \\uXXXX in the source`,
      ];
}

/** The default compiled policy: built-in rules plus the pack's agents, no project files. */
function defaultPolicy(): string {
  const dir = join(ROOT, "definitions", "agents");
  const agents = readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .map((f) => {
      const path = join(dir, f);
      const parsed = parseDefinition(AgentDefinition, readFileSync(path, "utf8"), `definitions/agents/${f}`);
      if (!parsed.ok)
        throw new Error(`${parsed.issues[0]?.file}:${parsed.issues[0]?.line ?? ""}: ${parsed.issues[0]?.message}`);
      // the path recorded is the pack-relative one, so the output does not depend on where the repository lives
      return { path: `definitions/agents/${f}`, definition: parsed.value.value };
    });
  const compiled = compilePolicy({ lanesVersion: version(), layers: [], agents, sources: [], listings: [] });
  if (!compiled.ok) throw new Error(compiled.issues.map((i) => `${i.file}: ${i.message}`).join("\n"));
  const known = [...new Set([...BUILTIN_AGENT_TYPES, ...agents.map((a) => a.definition.name)])].sort();
  return serializeCompiledPolicy({ ...compiled.value, knownAgentTypes: known });
}

/**
 * The loader of a hot hook: runs `<name>.impl.cjs` (and, on the first Bash call, `shell.impl.cjs`;
 * on the first glob compiled at run time, `globs.impl.cjs`) through `vm.Script` with a V8 code
 * cache, so a warm start skips compiling the bundles (Node 20 has no module compile cache). These
 * bundles are built already wrapped in the CommonJS function (`IMPL_WRAPPER`): the loader hands
 * V8 the file's text as read, without copying hundreds of kilobytes into a wrapped string.
 *
 * The cache lives in the plugin's data directory or the project's `.claude/state/cache/`
 * (git-ignored, and protected from agents like the rest of lanes' files), keyed by bundle hash,
 * Node version and architecture; V8 rejects a cache that does not fit, and the loader then
 * compiles and rewrites it. A cache holds the code the calls before it ran, so each file also
 * lists the kinds of call it has seen (the hook's `profile`: tool, caller, answer); a call of a
 * new kind rewrites the cache with its code added, up to `MAX_PROFILES` kinds. Without this, a
 * cache first written by a `Read` call made every later `Bash` call or denial compile its own
 * code again. Every cache problem falls back to a plain compile.
 */
function loaderSource(name: string, ids: Readonly<Record<string, string>>): string {
  return `"use strict";
// lanes: ${name} hook loader (generated by scripts/build.ts); the hook itself is ${name}.impl.cjs
const fs = require("node:fs"), path = require("node:path"), vm = require("node:vm"), { isAscii } = require("node:buffer");
const ids = ${JSON.stringify(ids)};
const MAX_PROFILES = ${MAX_PROFILES};
const data = process.env.CLAUDE_PLUGIN_DATA;
const dir = data ? path.join(data, "cache") : path.basename(path.dirname(__dirname)) === "lanes" ? path.join(__dirname, "..", "..", "state", "cache") : undefined;
const loaded = {}, caches = [];
// one buffer for every file the loader reads, each used up before the next is read (the source
// becomes a string, the cache is consumed by the compile): a buffer per file cost a page fault per
// 4 KB of it on every start
let scratch;
function read(file) {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    if (scratch === undefined || scratch.length < size) scratch = Buffer.allocUnsafeSlow(Math.max(size, 1 << 19));
    let n = 0;
    for (let r; n < size && (r = fs.readSync(fd, scratch, n, size - n, n)) > 0; ) n += r;
    return scratch.subarray(0, n);
  } finally { fs.closeSync(fd); }
}
function load(bundle) {
  if (loaded[bundle]) return loaded[bundle].exports;
  const impl = path.join(__dirname, bundle + ".impl.cjs");
  const text = read(impl);
  // the build keeps the bundles ASCII, which latin1 copies byte for byte
  const source = isAscii(text) ? text.latin1Slice() : text.utf8Slice();
  const file = dir && path.join(dir, bundle + "-" + ids[bundle] + "-" + process.version + "-" + process.arch + ".v8");
  // a cache file: 4 bytes of header length, the header (the profiles seen, JSON), then V8's data
  let cached, seen = [];
  if (file) try {
    const bytes = read(file), size = bytes.readUInt32LE(0);
    seen = JSON.parse(bytes.latin1Slice(4, 4 + size));
    cached = bytes.subarray(4 + size);
  } catch { cached = undefined; seen = []; }
  const script = new vm.Script(source, { filename: impl, cachedData: cached });
  const mod = (loaded[bundle] = { exports: {} });
  // listed before it runs: a hook entry exits from inside its bundle once it has answered
  if (file) caches.push({ file, script, seen: cached === undefined || script.cachedDataRejected ? [] : seen });
  script.runInThisContext()(mod.exports, require, mod, impl, __dirname);
  return mod.exports;
}
process.once("exit", () => {
  const profile = typeof globalThis.__lanesProfile === "string" ? globalThis.__lanesProfile : "other";
  for (const c of caches) {
    if (c.seen.includes(profile) || c.seen.length >= MAX_PROFILES) continue;
    try {
      const header = Buffer.from(JSON.stringify([...c.seen, profile]), "latin1"), size = Buffer.alloc(4);
      size.writeUInt32LE(header.length, 0);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const tmp = c.file + "." + process.pid + ".tmp";
      fs.writeFileSync(tmp, Buffer.concat([size, header, c.script.createCachedData()]), { mode: 0o600 });
      fs.renameSync(tmp, c.file);
    } catch {}
  }
});
globalThis.__lanesLoad = load;
load(${JSON.stringify(name)});
`;
}

/** Kinds of call (see `loaderSource`) a code cache takes in before it stops growing. */
const MAX_PROFILES = 24;

/** Bundles the hook loader runs are built inside the CommonJS wrapper it calls (see `loaderSource`). */
const IMPL_WRAPPER = {
  banner: { js: "(function (exports, require, module, __filename, __dirname) {" },
  footer: { js: "})" },
} as const;

/**
 * In hot bundles, imports of the shell module go to the lazy proxy (src/hooks/shell-proxy.ts), and
 * imports of the policy compiler to its lazy proxy (src/hooks/compiler-proxy.ts).
 */
const lazyShell: Plugin = {
  name: "lanes-lazy-shell",
  setup(b) {
    b.onResolve({ filter: /shell\/index\.ts$/ }, (args) =>
      args.importer.includes(`${join("src", "shell")}`)
        ? undefined
        : { path: join(ROOT, "src", "hooks", "shell-proxy.ts") },
    );
    b.onResolve({ filter: /config\/load\.ts$/ }, (args) =>
      args.importer.includes(join("src", "hooks", "recompile.ts"))
        ? { path: join(ROOT, "src", "hooks", "compiler-proxy.ts") }
        : undefined,
    );
  },
};

/**
 * In the shell bundle, imports of the interpreter code analysis (src/shell/code/index.ts, from
 * outside that folder) go to its lazy proxy (src/hooks/code-proxy.ts).
 */
const lazyCode: Plugin = {
  name: "lanes-lazy-code",
  setup(b) {
    const target = join(ROOT, "src", "shell", "code", "index.ts");
    const folder = join(ROOT, "src", "shell", "code");
    b.onResolve({ filter: /code\/index\.ts$/ }, (args) =>
      resolve(args.resolveDir, args.path) === target && !args.importer.startsWith(folder)
        ? { path: join(ROOT, "src", "hooks", "code-proxy.ts") }
        : undefined,
    );
  },
};

/**
 * In the code bundle, imports of a parser (src/shell/code/python.ts, javascript.ts) go to its lazy
 * proxy (src/hooks/python-proxy.ts, javascript-proxy.ts).
 */
const lazyParsers: Plugin = {
  name: "lanes-lazy-parsers",
  setup(b) {
    for (const language of PARSERS) {
      const target = join(ROOT, "src", "shell", "code", `${language}.ts`);
      b.onResolve({ filter: new RegExp(`${language}\\.ts$`) }, (args) =>
        resolve(args.resolveDir, args.path) === target
          ? { path: join(ROOT, "src", "hooks", `${language}-proxy.ts`) }
          : undefined,
      );
    }
  },
};

/** In hot bundles, imports of glob compilation (picomatch) go to the lazy proxy (src/hooks/glob-proxy.ts). */
const lazyGlobs: Plugin = {
  name: "lanes-lazy-globs",
  setup(b) {
    const target = join(ROOT, "src", "globs", "compile.ts");
    b.onResolve({ filter: /compile\.ts$/ }, (args) =>
      resolve(args.resolveDir, args.path) === target
        ? { path: join(ROOT, "src", "hooks", "glob-proxy.ts") }
        : undefined,
    );
  },
};

/** The generated source of one table module (`dataTables`); `store`: where its entries go, if not inline. */
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
  const reader = store === undefined ? [] : [`import { __lanesTableEntry } from "${TABLE_FILE_MODULE}";`];
  return [...reader, LAZY_TABLE_HELPER, ...lines].join("\n");
}

const TABLES_DIR = join(ROOT, "src", "shell", "tables");
/** The module that reads the hot shell bundle's data file (`TABLE_FILE_HELPER`). */
const TABLE_FILE_MODULE = "lanes-table-file";

/**
 * The shell's data tables (src/shell/tables/*.ts) are evaluated here, at build time, and inlined
 * as `JSON.parse("...")`: V8 parses JSON much faster than it runs the object-building code, which
 * was the largest part of loading the shell analysis. The plugin refuses anything that would not
 * survive JSON (functions, Sets, Maps, undefined), so the tables stay plain data.
 *
 * With `store` (the hot shell bundle), the entries of the large tables are not in the bundle but in
 * the data file beside it (`shell.tables`, see `TableStore`): every table module is generated
 * first, in name order, so the file and its offsets are the same on every build.
 */
function dataTables(store?: TableStore): Plugin {
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
        return { contents: `${TABLE_FILE_HELPER(store.id())}\nexport { __lanesTableEntry };`, loader: "js" };
      });
      b.onLoad({ filter: /src[\\/]shell[\\/]tables[\\/][a-z-]+\.ts$/ }, async (args) => {
        const contents = modules.get(args.path) ?? (store === undefined ? await tableModule(args.path) : undefined);
        if (contents === undefined) throw new Error(`${args.path}: not a table module of ${TABLES_DIR}`);
        return { contents, loader: "js" };
      });
    },
  };
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
 * Keyed tables whose JSON is longer than this are parsed lazily, entry by entry (see
 * `LAZY_TABLE_HELPER`): JSON.parse builds a hidden class for every new key of an object, so
 * option tables cost far more to parse than their size says, and most calls need few of them.
 */
const LAZY_TABLE_CHARS = 200;

/**
 * Within an entry, a keyed object whose JSON is longer than this (git's subcommand grammars) is a
 * lazy table of its own: `git status` parses the grammar of `status`, not of every git subcommand.
 */
const LAZY_MEMBER_CHARS = 1000;

const isKeyed = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The expression that builds `table` lazily (`LAZY_TABLE_HELPER`): one string holding every entry
 * as a line, `<key>\t<entry's JSON>`, and, for entries with large keyed members, those members as
 * lazy tables of their own, set on the entry when it is parsed. One string, not an object literal:
 * loading the code cache creates one string where a literal created two per entry (the key and the
 * JSON), and nothing is built for a table until a key is looked up.
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

/**
 * Builds a table whose entries are parsed on first access from `lines` (`\n<key>\t<JSON>` per
 * entry, see `lazyTableSource`): a read-only view in which every key is an own, enumerable
 * property (`Object.hasOwn`, `in`, `Object.keys` and indexing behave as for the parsed object) and
 * reading an entry returns its parsed value, parsed once. A key is found by searching the string;
 * what a search found, or did not, is remembered.
 */
export const LAZY_TABLE_HELPER = `function __lanesLazyTable(lines, members, read) {
  const found = new Map();
  const entry = (key) => {
    let value = found.get(key);
    if (value === undefined) {
      const at = key.includes("\\n") || key.includes("\\t") ? -1 : lines.indexOf("\\n" + key + "\\t");
      if (at === -1) value = null;
      else {
        const from = at + key.length + 2;
        const text = lines.slice(from, lines.indexOf("\\n", from));
        value = { parsed: JSON.parse(read === undefined ? text : read(text)) };
        if (members !== undefined && Object.hasOwn(members, key)) Object.assign(value.parsed, members[key]());
      }
      found.set(key, value);
    }
    return value;
  };
  const own = (key) => typeof key === "string" && entry(key) !== null;
  let keys;
  return new Proxy({}, {
    get: (target, key) => (own(key) ? entry(key).parsed : Reflect.get(target, key)),
    getOwnPropertyDescriptor: (target, key) =>
      own(key) ? { value: entry(key).parsed, writable: true, enumerable: true, configurable: true } : undefined,
    has: (target, key) => own(key) || key in target,
    ownKeys: () => (keys ??= lines.split("\\n").filter((l) => l !== "").map((l) => l.slice(0, l.indexOf("\\t")))),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}`;

/**
 * How the hot shell bundle reads an entry of its data file (`TableStore`): `<offset>,<length>`
 * read from `shell.tables` beside the bundle, through one descriptor opened on the first lookup,
 * after checking that the file's header names the content this bundle was built with.
 */
export const TABLE_FILE_HELPER = (
  id: string,
): string => `const __lanesTableHeader = ${JSON.stringify(`lanes shell tables ${id}\n`)};
let __lanesTableFs, __lanesTableFd, __lanesTableFile;
function __lanesTableBroken(what) {
  const error = new Error("lanes: \`" + __lanesTableFile + "\` " + what + "; reinstall lanes (\`lanes init\`)");
  error.name = "LanesInstallError";
  return error;
}
function __lanesTableEntry(where) {
  if (__lanesTableFd === undefined) {
    __lanesTableFs = require("node:fs");
    __lanesTableFile = require("node:path").join(__dirname, "shell.tables");
    let fd;
    try {
      fd = __lanesTableFs.openSync(__lanesTableFile, "r");
    } catch (error) {
      throw __lanesTableBroken("cannot be read (" + (error && error.code) + ")");
    }
    const head = Buffer.alloc(__lanesTableHeader.length);
    if (__lanesTableFs.readSync(fd, head, 0, head.length, 0) !== head.length || head.latin1Slice() !== __lanesTableHeader) {
      __lanesTableFs.closeSync(fd);
      throw __lanesTableBroken("is not the data of the shell analysis beside it");
    }
    __lanesTableFd = fd;
  }
  const comma = where.indexOf(",");
  const at = __lanesTableHeader.length + Number(where.slice(0, comma)), length = Number(where.slice(comma + 1));
  const bytes = Buffer.allocUnsafe(length);
  let n = 0;
  for (let r; n < length && (r = __lanesTableFs.readSync(__lanesTableFd, bytes, n, length - n, at + n)) > 0; ) n += r;
  if (n !== length) throw __lanesTableBroken("is shorter than the shell analysis expects");
  return bytes.latin1Slice(0, n);
}`;

function isPlainData(value: unknown): boolean {
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isPlainData);
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.values(value as object).every((v) => v !== undefined && isPlainData(v));
  return false;
}

const bundleId = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex").slice(0, 16);

/** Builds everything into `outDir` (the `dist/` layout) and returns problems found. */
export async function buildAll(outDir: string): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const problems: string[] = [];
  // LANES_BUILD_MINIFY=0 keeps the code readable, =names keeps readable names in compact code (for
  // timing marks and profiles close to the committed bundles); committed output is always minified
  const common = {
    bundle: true,
    platform: "node",
    target: "node20",
    ...(process.env["LANES_BUILD_MINIFY"] === "names"
      ? { minifyWhitespace: true, minifySyntax: true }
      : { minify: process.env["LANES_BUILD_MINIFY"] !== "0" }),
    legalComments: "eof",
    metafile: true,
    logLevel: "silent",
    define: { __LANES_VERSION__: JSON.stringify(version()) },
  } as const;
  const tables = new TableStore();
  const shell = await build({
    ...common,
    entryPoints: [join(ROOT, "src", "shell", "index.ts")],
    outfile: join(outDir, "shell.impl.cjs"),
    format: "cjs",
    ...IMPL_WRAPPER,
    inject: [join(ROOT, "scripts", "shims", "text-decoder.ts")],
    plugins: [lazyCode, dataTables(tables)],
  });
  writeFileSync(join(outDir, "shell.tables"), tables.contents());
  problems.push(
    ...nonAscii(join(outDir, "shell.impl.cjs")),
    ...Object.keys(shell.metafile.inputs)
      .filter((i) => [...FORBIDDEN_ON_HOT_PATH, ...CODE_ONLY].some((f) => i.includes(f)))
      .map((i) => `shell: imports \`${i}\` (the interpreter code analysis is loaded through src/hooks/code-proxy.ts)`),
  );
  // the interpreter code analysis, loaded by the shell bundle on the first call with interpreter code
  const codeBundle = await build({
    ...common,
    entryPoints: [join(ROOT, "src", "shell", "code", "index.ts")],
    outfile: join(outDir, "code.impl.cjs"),
    format: "cjs",
    ...IMPL_WRAPPER,
    plugins: [lazyParsers, dataTables()],
  });
  problems.push(
    ...nonAscii(join(outDir, "code.impl.cjs")),
    ...Object.keys(codeBundle.metafile.inputs)
      .filter((i) => [...FORBIDDEN_ON_HOT_PATH, "node_modules/@lezer/"].some((f) => i.includes(f)))
      .map((i) => `code: imports \`${i}\` (the parsers are loaded through src/hooks/*-proxy.ts)`),
  );
  // each language's parser, loaded by the code bundle on the first code of that language
  for (const language of PARSERS) {
    const parser = await build({
      ...common,
      entryPoints: [join(ROOT, "src", "shell", "code", `${language}.ts`)],
      outfile: join(outDir, `${language}.impl.cjs`),
      format: "cjs",
      ...IMPL_WRAPPER,
    });
    problems.push(
      ...nonAscii(join(outDir, `${language}.impl.cjs`)),
      ...Object.keys(parser.metafile.inputs)
        .filter((i) => FORBIDDEN_ON_HOT_PATH.some((f) => i.includes(f)))
        .map((i) => `${language}: imports \`${i}\``),
    );
  }
  const globs = await build({
    ...common,
    entryPoints: [join(ROOT, "src", "globs", "compile.ts")],
    outfile: join(outDir, "globs.impl.cjs"),
    format: "cjs",
    ...IMPL_WRAPPER,
  });
  problems.push(
    ...Object.keys(globs.metafile.inputs)
      .filter((i) => FORBIDDEN_ON_HOT_PATH.some((f) => i.includes(f)))
      .map((i) => `globs: imports \`${i}\``),
  );
  // the policy compiler, loaded by the hot hooks only to recompile a stale policy (src/hooks/compiler-proxy.ts)
  await build({
    ...common,
    entryPoints: [join(ROOT, "src", "config", "load.ts")],
    outfile: join(outDir, "compile.impl.cjs"),
    format: "cjs",
    plugins: [dataTables()],
  });
  for (const [name, entry] of Object.entries(ENTRIES)) {
    const cli = name === "cli";
    const hot = HOT.has(name);
    const file = cli ? "cli.mjs" : hot ? `${name}.impl.cjs` : `${name}.cjs`;
    const result = await build({
      ...common,
      entryPoints: [join(ROOT, entry)],
      outfile: join(outDir, file),
      format: cli ? "esm" : "cjs",
      ...(hot && IMPL_WRAPPER),
      plugins: hot ? [lazyShell, lazyGlobs, dataTables()] : [dataTables()],
      // the ESM CLI bundles CommonJS dependencies, which need `require` for node built-ins
      ...(cli && {
        banner: {
          js: `import { createRequire as __lanesRequire } from "node:module"; const require = __lanesRequire(import.meta.url);`,
        },
      }),
    });
    problems.push(...hotPathViolations(name, result.metafile));
    if (hot) {
      problems.push(...nonAscii(join(outDir, file)));
      const ids = {
        [name]: bundleId(join(outDir, file)),
        shell: bundleId(join(outDir, "shell.impl.cjs")),
        globs: bundleId(join(outDir, "globs.impl.cjs")),
        code: bundleId(join(outDir, "code.impl.cjs")),
        ...Object.fromEntries(PARSERS.map((l) => [l, bundleId(join(outDir, `${l}.impl.cjs`))])),
      };
      writeFileSync(join(outDir, `${name}.cjs`), loaderSource(name, ids));
    }
  }
  writeFileSync(join(outDir, "policy.default.json"), defaultPolicy());
  return problems;
}

/** `hooks/hooks.json` of the plugin. */
export function pluginHooksJson(): string {
  return `${JSON.stringify({ description: "lanes guard, agent lanes and runtime hooks", hooks: hookWiring(pluginCommand) }, null, 2)}\n`;
}

/** Files of a built tree, relative path → content. */
export function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path, "utf8"));
    }
  };
  walk(dir);
  return files;
}

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const out = check ? mkdtempSync(join(tmpdir(), "lanes-dist-")) : join(ROOT, "dist");
  if (!check) rmSync(out, { recursive: true, force: true });
  const problems = await buildAll(out);
  if (problems.length > 0) {
    for (const p of problems) process.stderr.write(`build: ${p}\n`);
    process.exitCode = 1;
    return;
  }
  const hooksJson = pluginHooksJson();
  if (!check) {
    writeFileSync(join(ROOT, "hooks", "hooks.json"), hooksJson);
    return;
  }
  const built = readTree(out);
  const committed = readTree(join(ROOT, "dist"));
  const drift = [...new Set([...built.keys(), ...committed.keys()])].filter((f) => built.get(f) !== committed.get(f));
  if (readFileSync(join(ROOT, "hooks", "hooks.json"), "utf8") !== hooksJson) drift.push("../hooks/hooks.json");
  rmSync(out, { recursive: true, force: true });
  if (drift.length > 0) {
    process.stderr.write(
      `build: dist/ is out of date (${drift.join(", ")}): run \`npm run build\` and commit the result\n`,
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();

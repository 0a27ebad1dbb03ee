/**
 * The loader of a hot hook (`dist/<hook>.cjs`): runs `<hook>.impl.cjs` (and, on the first Bash
 * call, `shell.impl.cjs`; on the first glob compiled at run time, `globs.impl.cjs`; on a call that
 * runs or stores a runner file, `formats.impl.cjs` and, for a Taskfile, `yaml.impl.cjs`) through
 * `vm.Script` with a V8 code cache, so a warm start skips compiling the bundles (Node 20 has no
 * module compile cache). The bundles are built already wrapped in the CommonJS function
 * (`IMPL_WRAPPER`, scripts/build/bundles.ts): the loader hands V8 the file's text as read, without
 * copying hundreds of kilobytes into a wrapped string.
 *
 * The cache lives in the plugin's data directory or the project's `.claude/lanes/state/cache/`
 * (git-ignored, and protected from agents like the rest of lanes' files), keyed by bundle hash,
 * Node version and architecture; V8 rejects a cache that does not fit, and the loader then
 * compiles and rewrites it. A cache holds the code the calls before it ran, so each file also
 * lists the kinds of call it has seen (the hook's `profile`, loader.ts): a call of a new kind
 * rewrites the cache with its code added, up to `maxProfiles` kinds. Without this, a cache first
 * written by a `Read` call made every later `Bash` call or denial compile its own code again.
 * Every cache problem falls back to a plain compile.
 *
 * The build compiles this module once and puts a generated header before it for each hook: the
 * `LANES_LOADER` constant ({@link LoaderConfig}) that {@link runLoader} reads.
 */
import { isAscii } from "node:buffer";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

/** What the generated header gives the loader. */
export interface LoaderConfig {
  /** The hook this loader runs (`<name>.impl.cjs`). */
  readonly name: string;
  /** The content id of every bundle it may load, which keys its cache files. */
  readonly ids: Readonly<Record<string, string>>;
  /** Kinds of call a code cache takes in before it stops growing. */
  readonly maxProfiles: number;
}

/** Node's undocumented, copy-free string views of a buffer (`Buffer#latin1Slice`, `#utf8Slice`). */
interface Slices {
  latin1Slice(start?: number, end?: number): string;
  utf8Slice(start?: number, end?: number): string;
}
const slices = (bytes: Buffer): Slices => bytes as unknown as Slices;

/** The directory of the code caches: the plugin's data directory, else the project's state directory. */
export function cacheDir(env: NodeJS.ProcessEnv, distDir: string): string | undefined {
  const data = env["CLAUDE_PLUGIN_DATA"];
  if (data) return join(data, "cache");
  // a project install runs from .claude/lanes/dist/
  return basename(dirname(distDir)) === "lanes" ? join(distDir, "..", "state", "cache") : undefined;
}

/** A cache file: 4 bytes of header length, the header (the profiles seen, JSON), then V8's data. */
export function encodeCache(seen: readonly string[], data: Buffer): Buffer {
  const header = Buffer.from(JSON.stringify(seen), "latin1");
  const size = Buffer.alloc(4);
  size.writeUInt32LE(header.length, 0);
  return Buffer.concat([size, header, data]);
}

/** The profiles and V8 data of a cache file; throws when it is not one. */
export function decodeCache(bytes: Buffer): { seen: string[]; data: Buffer } {
  const size = bytes.readUInt32LE(0);
  const seen: unknown = JSON.parse(slices(bytes).latin1Slice(4, 4 + size));
  if (!Array.isArray(seen) || !seen.every((s) => typeof s === "string")) throw new Error("not a cache header");
  return { seen, data: bytes.subarray(4 + size) };
}

/** Open flags of a cache read: not through a final symbolic link, never blocking on a FIFO (0 where absent). */
const STATE_READ = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Whether `dir` is a directory itself (`lstat`), not a link to one; `missing` says what a path not there is. */
const ownDir = (dir: string, missing = true): boolean => {
  try {
    return lstatSync(dir).isDirectory();
  } catch {
    return missing;
  }
};

interface Cache {
  readonly file: string;
  readonly script: Script;
  readonly seen: readonly string[];
}

/** A loader of the bundles beside `distDir`; `finish(profile)` writes the caches a new kind of call grows. */
export function createLoader(
  config: LoaderConfig,
  distDir: string,
  env: NodeJS.ProcessEnv,
  moduleRequire: NodeJS.Require,
): { load: (bundle: string) => unknown; finish: (profile: string) => void } {
  const dir = cacheDir(env, distDir);
  const loaded: Record<string, { exports: unknown }> = {};
  const caches: Cache[] = [];
  // one buffer for every file the loader reads, each used up before the next is read (the source
  // becomes a string, the cache is consumed by the compile): a buffer per file cost a page fault per
  // 4 KB of it on every start
  let scratch: Buffer | undefined;
  const read = (file: string, flags = constants.O_RDONLY): Buffer => {
    const fd = openSync(file, flags);
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw new Error(`${file} is not a regular file`);
      const size = stat.size;
      if (scratch === undefined || scratch.length < size) scratch = Buffer.allocUnsafeSlow(Math.max(size, 1 << 19));
      let n = 0;
      for (let r; n < size && (r = readSync(fd, scratch, n, size - n, n)) > 0;) n += r;
      return scratch.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  };

  const load = (bundle: string): unknown => {
    const done = loaded[bundle];
    if (done !== undefined) return done.exports;
    const impl = join(distDir, `${bundle}.impl.cjs`);
    const text = read(impl);
    // the build keeps the bundles ASCII, which latin1 copies byte for byte
    const source = isAscii(text) ? slices(text).latin1Slice() : slices(text).utf8Slice();
    const file =
      dir === undefined
        ? undefined
        : join(dir, `${bundle}-${config.ids[bundle]}-${process.version}-${process.arch}.v8`);
    let cached: Buffer | undefined;
    let seen: readonly string[] = [];
    if (file !== undefined)
      try {
        // a cache is code V8 runs: never read through a link planted at its name, nor from a FIFO
        ({ seen, data: cached } = decodeCache(read(file, STATE_READ)));
      } catch {
        cached = undefined;
        seen = [];
      }
    const script = new Script(source, { filename: impl, ...(cached !== undefined && { cachedData: cached }) });
    const mod = (loaded[bundle] = { exports: {} });
    // listed before it runs: a hook entry exits from inside its bundle once it has answered
    if (file !== undefined)
      caches.push({ file, script, seen: cached === undefined || script.cachedDataRejected === true ? [] : seen });
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper(mod.exports, moduleRequire, mod, impl, distDir);
    return mod.exports;
  };

  const finish = (profile: string): void => {
    if (dir === undefined) return;
    for (const c of caches) {
      if (c.seen.includes(profile) || c.seen.length >= config.maxProfiles) continue;
      try {
        // never into a directory that is a link (the state directory or the cache one: a link
        // there would send the cache, and the file the loader creates, into a hook bundle's place)
        if (!ownDir(dirname(dir)) || !ownDir(dir)) return;
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        if (!ownDir(dirname(dir), false) || !ownDir(dir, false)) return;
        const tmp = `${c.file}.${process.pid}.tmp`;
        // `wx`: a name a link holds (or a stale file) is refused, never written through; the rename
        // then replaces whatever is at the cache's own name, a link included
        writeFileSync(tmp, encodeCache([...c.seen, profile], c.script.createCachedData()), { mode: 0o600, flag: "wx" });
        renameSync(tmp, c.file);
      } catch {
        // a cache that cannot be written: the next start compiles again
      }
    }
  };
  return { load, finish };
}

declare const LANES_LOADER: LoaderConfig;

/** The loader's main, run by the built `<hook>.cjs` after its generated header. */
export function runLoader(): void {
  const { load, finish } = createLoader(LANES_LOADER, __dirname, process.env, require);
  const global = globalThis as { __lanesLoad?: (bundle: string) => unknown; __lanesProfile?: unknown };
  process.once("exit", () => finish(typeof global.__lanesProfile === "string" ? global.__lanesProfile : "other"));
  global.__lanesLoad = load;
  load(LANES_LOADER.name);
}

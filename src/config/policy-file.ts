/**
 * Reading the compiled policy on the hot path, and the staleness check: every source file is
 * hashed again and every listed directory listed again; any difference means the policy no longer
 * says what the files say. No zod, no YAML: JSON.parse and a structural check.
 */
import { closeSync, constants, fstatSync, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import {
  COMPILED_FORMAT,
  type CompiledLayout,
  type CompiledPolicy,
  type CompiledRule,
  type PolicySource,
} from "../policy/compiled.ts";
import { fnv1a64 } from "../io/hash.ts";
import { openState, readAt } from "../io/read.ts";
import { span } from "../io/profile.ts";
import { isPresent } from "../host/sandbox-mask.ts";
import { withLockSync } from "../io/lock.ts";
import { atomicWriteFile } from "../io/atomic.ts";

/** Hash (FNV-1a 64) of a file's content, or `null` when it cannot be read (absent). */
export function hashFile(path: string): string | null {
  try {
    return fnv1a64(readFileSync(path));
  } catch {
    return null;
  }
}

/** What the staleness check records of a source file: hash, and size and mtime to skip rehashing. */
export function sourceFingerprint(path: string): { hash: string | null; size?: number; mtimeMs?: number } {
  try {
    const stat = statSync(path);
    if (stat.isCharacterDevice() && !isPresent(path)) return { hash: null };
    return { hash: hashFile(path), size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    return { hash: null };
  }
}

/**
 * Whether a source still has the content it had at compile time: `true` (cheap when its size and
 * mtime match), `false`, or, when the content is the same under another size or mtime (a checkout
 * or an editor touched it), the source as it is now, to stamp into the file ({@link restamp}): a
 * stamp left stale made every later call hash the file again.
 */
function sourceCheck(source: PolicySource): boolean | PolicySource {
  // no exception for an absent file: building one costs more than the stat (several per hook call)
  let stat;
  try {
    stat = statSync(source.path, { throwIfNoEntry: false });
  } catch {
    stat = undefined;
  }
  // inside Claude Code's Bash sandbox a missing source is `/dev/null` bound at its name (sandbox-mask.ts)
  if (stat?.isCharacterDevice() === true && !isPresent(source.path)) stat = undefined;
  if (stat === undefined) return source.hash === null;
  if (source.hash === null) return false;
  if (source.size === stat.size && source.mtimeMs === stat.mtimeMs) return true;
  // the stat is taken before the hash: a change after the hash shows as another mtime next time
  if (hashFile(source.path) !== source.hash) return false;
  return fineMtime(stat.mtimeMs) && stat.isFile() ? { ...source, size: stat.size, mtimeMs: stat.mtimeMs } : true;
}

/**
 * Whether an mtime is precise enough to stand for a content: a whole-second one may hide a change
 * made within the same second.
 */
const fineMtime = (mtimeMs: number): boolean => mtimeMs % 1000 !== 0;

/** The entries of a definitions directory that matter for the policy, sorted. */
export function listDefinitions(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((e) => e.endsWith(".yaml") || e.endsWith(".yml") || e.endsWith(".md"))
      .sort();
  } catch {
    return [];
  }
}

/**
 * A compiled policy file read in parts: its first 64 KB at once (the first line, the lanes and the
 * rule index are there), any other range when asked (a rule), from the same file. Reading a whole
 * file of several hundred rules into fresh memory cost more than everything a Bash call does with
 * its policy. The descriptor stays open while the policy may be read; a process keeps at most
 * {@link MAX_OPEN} open, and a policy whose descriptor was closed opens the file again only if it
 * is still the same file (a recompile replaces it: then reading throws).
 */
class PolicyBytes {
  private fd: number | undefined;
  readonly size: number;
  private readonly start: Buffer;
  private readonly identity: string;

  constructor(readonly path: string) {
    // never through a link planted at the policy's name: the policy decides what the guard enforces
    const fd = openState(path, constants.O_RDONLY);
    try {
      const stat = fstatSync(fd);
      this.size = stat.size;
      this.identity = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
      this.start = readRange(fd, 0, Math.min(this.size, START_BYTES));
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    if (this.size <= START_BYTES) closeSync(fd);
    else this.keep(fd);
  }

  /** Bytes [from, to) as text. */
  text(from: number, to: number): string {
    if (to <= this.start.length) return this.start.toString("utf8", from, to);
    return readRange(this.descriptor(), from, to - from).toString("utf8");
  }

  /** The first line, without its newline, and where the next line starts; `undefined` when it is not within the first read. */
  firstLine(): { readonly text: string; readonly next: number } | undefined {
    const end = this.start.indexOf(10);
    return end === -1 ? undefined : { text: this.start.toString("utf8", 0, end), next: end + 1 };
  }

  /** Whether the file at the path is still the one read (the same inode, size and mtime). */
  isCurrent(): boolean {
    try {
      const stat = lstatSync(this.path);
      return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}` === this.identity;
    } catch {
      return false;
    }
  }

  /** The whole file. */
  whole(): Buffer {
    return this.size <= this.start.length ? this.start : readRange(this.descriptor(), 0, this.size);
  }

  private keep(fd: number): void {
    this.fd = fd;
    OPEN.push(this);
    if (OPEN.length > MAX_OPEN) OPEN.shift()!.release();
  }

  private release(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = undefined;
  }

  private descriptor(): number {
    if (this.fd !== undefined) return this.fd;
    const fd = openState(this.path, constants.O_RDONLY);
    const stat = fstatSync(fd);
    if (`${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}` !== this.identity) {
      closeSync(fd);
      throw new Error(`the compiled policy \`${this.path}\` was replaced while it was read; run the call again`);
    }
    this.keep(fd);
    return fd;
  }
}

/** What a policy file's first read takes: the first line, the lanes and the rule index of a large policy. */
const START_BYTES = 1 << 16;
/** Policy files whose descriptors a process keeps open at most (a hook reads one or two). */
const MAX_OPEN = 4;
const OPEN: PolicyBytes[] = [];

function readRange(fd: number, position: number, length: number): Buffer {
  const bytes = readAt(fd, position, length);
  if (bytes.length !== length) throw new Error("the compiled policy ends early");
  return bytes;
}

/**
 * The policy in a compiled file (laid out by compiled.ts `serializeCompiledPolicy`): the first
 * line and the rule index are parsed now, the agent lanes when first read and each rule when first
 * read, so a hook call pays for what it meets (a Bash call meets a few rules of several hundred,
 * and no lane). A file laid out otherwise is parsed whole; one that is not JSON throws.
 */
function parsePolicyFile(file: PolicyBytes): CompiledPolicy {
  const policy = lazyPolicy(file);
  if (policy !== undefined) return policy;
  // another layout (an older format, a file reformatted by hand): all of it, and no index to trust
  const whole = JSON.parse(file.whole().toString("utf8")) as CompiledPolicy & { ruleIndex?: unknown; layout?: unknown };
  if (typeof whole === "object" && whole !== null) {
    delete whole.ruleIndex;
    delete whole.layout;
  }
  return whole;
}

const isOffset = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
const isSpan = (v: unknown, size: number): v is readonly [number, number] =>
  Array.isArray(v) && v.length === 2 && isOffset(v[0]) && isOffset(v[1]) && v[0] <= v[1] && v[1] <= size;

/** The layout of a file whose rest is `size` bytes long, if it is one (each rule's span is checked when read). */
function layoutOf(value: unknown, size: number): CompiledLayout | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const l = value as Record<string, unknown>;
  if (l["size"] !== size || !isSpan(l["agents"], size) || !isSpan(l["ruleIndex"], size)) return undefined;
  const rules = l["rules"];
  return Array.isArray(rules) && rules.length % 2 === 0 ? (value as CompiledLayout) : undefined;
}

type PolicyHead = Omit<CompiledPolicy, "rules" | "agents"> & { layout?: unknown };

/** The first line of a compiled file (format, options, sources, layout) and where the rest starts, if it is laid out so. */
function headOf(file: PolicyBytes): { readonly head: PolicyHead; readonly base: number } | undefined {
  const first = file.firstLine();
  // the first line ends with the comma before `"agents"`
  if (first === undefined || !first.text.endsWith(",")) return undefined;
  let head: PolicyHead;
  try {
    head = JSON.parse(`${first.text.slice(0, -1)}}`) as PolicyHead;
  } catch {
    return undefined;
  }
  if (typeof head !== "object" || head === null || head.format !== COMPILED_FORMAT) return undefined;
  return { head, base: first.next };
}

/**
 * The options of the compiled policy at `path`, from its first line alone: no staleness check, no
 * rule or lane read (a hook that holds no policy and needs one option, such as the audit log's size
 * limit, paid a parse of the whole file for it). `undefined` when the file is missing or laid out
 * otherwise.
 */
export function compiledOptions(path: string): Readonly<Record<string, unknown>> | undefined {
  try {
    const options = headOf(new PolicyBytes(path))?.head.options as unknown;
    return typeof options === "object" && options !== null ? (options as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function lazyPolicy(file: PolicyBytes): CompiledPolicy | undefined {
  const path = file.path;
  const read = headOf(file);
  if (read === undefined) return undefined;
  const { head, base } = read;
  const layout = layoutOf(head.layout, file.size - base);
  // a truncated file fails the size, a file edited by hand the closing bytes
  if (layout === undefined || file.text(file.size - 4, file.size) !== "\n]}\n") return undefined;
  const text = (from: number, to: number): string => file.text(base + from, base + to);
  let ruleIndex: unknown;
  try {
    ruleIndex = JSON.parse(text(...layout.ruleIndex));
  } catch {
    return undefined;
  }
  if (typeof ruleIndex !== "string") return undefined;
  const spans = layout.rules;
  const rules = new Array<CompiledRule | null>(spans.length / 2).fill(null);
  const materialize = (key: string | symbol): void => {
    if (typeof key !== "string") return;
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= rules.length || rules[i] !== null || String(i) !== key) return;
    const span = [spans[2 * i], spans[2 * i + 1]];
    // reading throws on its own (a replaced file); only what does not parse is an unreadable rule
    const raw = isSpan(span, layout.size) ? text(span[0], span[1]) : undefined;
    let rule: unknown;
    try {
      rule = raw === undefined ? undefined : JSON.parse(raw);
    } catch {
      rule = undefined;
    }
    if (typeof rule !== "object" || rule === null)
      throw new Error(
        `the compiled policy \`${path}\` has an unreadable rule on line ${i + 5}; run \`lanes build\` to compile it again`,
      );
    rules[i] = rule as CompiledRule;
  };
  const lazy = new Proxy(rules as CompiledRule[], {
    get(target, key, receiver) {
      materialize(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
    getOwnPropertyDescriptor(target, key) {
      materialize(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
  const { layout: _layout, ...fields } = head;
  let agents: CompiledPolicy["agents"] | undefined;
  const policy = { ...fields, ruleIndex, rules: lazy } as Omit<CompiledPolicy, "agents">;
  // the lanes, on the second line, when first read (main-session Bash and Read calls never do)
  return Object.defineProperty(policy, "agents", {
    enumerable: true,
    get(): CompiledPolicy["agents"] {
      if (agents !== undefined) return agents;
      const raw = text(...layout.agents);
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        parsed = undefined;
      }
      if (!Array.isArray(parsed))
        throw new Error(
          `the compiled policy \`${path}\` has unreadable agent lanes on line 2; run \`lanes build\` to compile it again`,
        );
      return (agents = parsed as CompiledPolicy["agents"]);
    },
  }) as CompiledPolicy;
}

/** A definitions directory's listing and, when it existed, its mtime, stat first (a file added meanwhile shows as a change). */
export function listingOf(dir: string): CompiledPolicy["listings"][number] {
  let mtimeMs: number | undefined;
  try {
    mtimeMs = statSync(dir).mtimeMs;
  } catch {
    mtimeMs = undefined;
  }
  return { dir, entries: listDefinitions(dir), ...(mtimeMs !== undefined && { mtimeMs }) };
}

/**
 * Whether the directory still lists what was compiled: `true`, `false`, or, when it lists the same
 * entries under another mtime, the listing as it is now (to stamp, as {@link sourceCheck} does).
 * Adding, removing or renaming an entry changes a directory's mtime, so an unchanged mtime spares
 * the listing; it is trusted only with sub-second precision, since a whole-second mtime may hide a
 * change made within that second.
 */
function listingCheck(listing: CompiledPolicy["listings"][number]): boolean | CompiledPolicy["listings"][number] {
  let stat;
  try {
    stat = statSync(listing.dir, { throwIfNoEntry: false });
  } catch {
    stat = undefined;
  }
  // absent then and now (a user without `~/.claude/agents`): nothing to list
  if (stat === undefined && listing.mtimeMs === undefined) return listing.entries.length === 0;
  if (
    stat !== undefined &&
    listing.mtimeMs !== undefined &&
    fineMtime(listing.mtimeMs) &&
    stat.mtimeMs === listing.mtimeMs
  )
    return true;
  const now = listDefinitions(listing.dir);
  if (now.length !== listing.entries.length || !now.every((e, i) => e === listing.entries[i])) return false;
  return stat !== undefined && stat.isDirectory() && fineMtime(stat.mtimeMs)
    ? { ...listing, mtimeMs: stat.mtimeMs }
    : true;
}

/**
 * Stamps the sources and listings found unchanged under new sizes and mtimes into the compiled
 * policy's first line (the rest, and the layout's offsets into it, stay as they are), so the next
 * call trusts their stat again. Under the policy's lock, without waiting for it (a hook that is
 * recompiling writes a fresh stamp anyway), and only over the very file that was checked; any
 * failure leaves the file as it was: the next call checks again.
 */
function restamp(
  file: PolicyBytes,
  sources: readonly PolicySource[],
  listings: readonly CompiledPolicy["listings"][number][],
): void {
  try {
    withLockSync(
      file.path,
      () => {
        if (!file.isCurrent()) return;
        const first = file.firstLine();
        if (first === undefined || !first.text.endsWith(",")) return;
        const head = JSON.parse(`${first.text.slice(0, -1)}}`) as Record<string, unknown>;
        // a file laid out as `serializeCompiledPolicy` writes it, never one formatted by hand
        if (head["format"] !== COMPILED_FORMAT || typeof head["layout"] !== "object") return;
        const stamped = JSON.stringify({ ...head, sources, listings });
        const rest = file.whole().subarray(first.next);
        atomicWriteFile(file.path, Buffer.concat([Buffer.from(`${stamped.slice(0, -1)},\n`, "utf8"), rest]), {
          durable: false,
        });
      },
      { timeoutMs: 0 },
    );
  } catch {
    // the stamp is an optimisation: the file stays as it was
  }
}

export type PolicyRead =
  | { readonly ok: true; readonly policy: CompiledPolicy }
  | {
      readonly ok: false;
      readonly kind: "missing" | "invalid" | "stale";
      readonly file: string;
      readonly message: string;
    };

/**
 * Reads and checks a compiled policy file. With `allowStale`, a policy whose sources changed is
 * still returned (the last good policy, kept in force while an edited file does not compile).
 */
export const readCompiledPolicy = (path: string, options: { readonly allowStale?: boolean } = {}): PolicyRead =>
  span("load policy", () => readPolicy(path, options));

function readPolicy(path: string, options: { readonly allowStale?: boolean }): PolicyRead {
  let file: PolicyBytes;
  try {
    file = new PolicyBytes(path);
  } catch {
    return { ok: false, kind: "missing", file: path, message: "the compiled policy does not exist" };
  }
  let policy: CompiledPolicy;
  try {
    policy = parsePolicyFile(file);
  } catch {
    return { ok: false, kind: "invalid", file: path, message: "the compiled policy is not valid JSON" };
  }
  if (
    typeof policy !== "object" ||
    policy === null ||
    !Array.isArray(policy.rules) ||
    // lanes read lazily are checked when first read
    !(Object.getOwnPropertyDescriptor(policy, "agents")?.get !== undefined || Array.isArray(policy.agents)) ||
    !Array.isArray(policy.sources) ||
    typeof policy.options !== "object"
  ) {
    return { ok: false, kind: "invalid", file: path, message: "the compiled policy has an unexpected shape" };
  }
  if (policy.format !== COMPILED_FORMAT) {
    return {
      ok: false,
      kind: "stale",
      file: path,
      message: `it was compiled by another lanes version (format ${String(policy.format)}, expected ${COMPILED_FORMAT})`,
    };
  }
  if (options.allowStale === true) return { ok: true, policy };
  // the sources and listings as they are now, copied only once one needs a new stamp (rarely)
  let sources: PolicySource[] | undefined;
  for (const [i, source] of policy.sources.entries()) {
    const check = sourceCheck(source);
    if (check === false) {
      return {
        ok: false,
        kind: "stale",
        file: source.path,
        message:
          source.hash === null
            ? "it was created after the policy was compiled"
            : "it changed after the policy was compiled",
      };
    }
    if (check !== true) (sources ??= [...policy.sources])[i] = check;
  }
  const compiledListings = policy.listings ?? [];
  let listings: CompiledPolicy["listings"][number][] | undefined;
  for (const [i, listing] of compiledListings.entries()) {
    const check = listingCheck(listing);
    if (check === false) {
      return {
        ok: false,
        kind: "stale",
        file: listing.dir,
        message: "files were added or removed after the policy was compiled",
      };
    }
    if (check !== true) (listings ??= [...compiledListings])[i] = check;
  }
  if (sources !== undefined || listings !== undefined)
    restamp(file, sources ?? policy.sources, listings ?? compiledListings);
  return { ok: true, policy };
}

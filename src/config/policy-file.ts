/**
 * Reading the compiled policy on the hot path, and the staleness check: every source file is
 * hashed again and every listed directory listed again; any difference means the policy no longer
 * says what the files say. No zod, no YAML: JSON.parse and a structural check.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import {
  COMPILED_FORMAT,
  type CompiledLayout,
  type CompiledPolicy,
  type CompiledRule,
  type PolicySource,
} from "../policy/compiled.ts";
import { fnv1a64 } from "../io/hash.ts";

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
    return { hash: hashFile(path), size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    return { hash: null };
  }
}

/** True when the file still has the content it had at compile time (cheap when size and mtime match). */
function sourceUnchanged(source: PolicySource): boolean {
  // no exception for an absent file: building one costs more than the stat (several per hook call)
  let stat;
  try {
    stat = statSync(source.path, { throwIfNoEntry: false });
  } catch {
    stat = undefined;
  }
  if (stat === undefined) return source.hash === null;
  if (source.hash === null) return false;
  if (source.size === stat.size && source.mtimeMs === stat.mtimeMs) return true;
  return hashFile(source.path) === source.hash;
}

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
 * The policy in a compiled file's bytes (laid out by compiled.ts `serializeCompiledPolicy`): the
 * first line and the rule index are parsed now, the agent lanes when first read and each rule when
 * first read, so a hook call pays for what it meets (a Bash call meets a few rules of several
 * hundred, and no lane). The bytes stay undecoded until then. A file laid out otherwise is parsed
 * whole; one that is not JSON throws.
 */
function parsePolicyBytes(bytes: Buffer, path: string): CompiledPolicy {
  const policy = lazyPolicy(bytes, path);
  if (policy !== undefined) return policy;
  // another layout (an older format, a file reformatted by hand): all of it, and no index to trust
  const whole = JSON.parse(bytes.toString("utf8")) as CompiledPolicy & { ruleIndex?: unknown; layout?: unknown };
  if (typeof whole === "object" && whole !== null) {
    delete whole.ruleIndex;
    delete whole.layout;
  }
  return whole;
}

const isOffset = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
const isSpan = (v: unknown, size: number): v is readonly [number, number] =>
  Array.isArray(v) && v.length === 2 && isOffset(v[0]) && isOffset(v[1]) && v[0] <= v[1] && v[1] <= size;

/** The layout of a file whose rest is `size` bytes long, if it is one. */
function layoutOf(value: unknown, size: number): CompiledLayout | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const l = value as Record<string, unknown>;
  if (l["size"] !== size || !isSpan(l["agents"], size) || !isSpan(l["ruleIndex"], size)) return undefined;
  const rules = l["rules"];
  if (!Array.isArray(rules) || rules.length % 2 !== 0) return undefined;
  for (let i = 0; i < rules.length; i += 2) if (!isSpan([rules[i], rules[i + 1]], size)) return undefined;
  return value as CompiledLayout;
}

function lazyPolicy(bytes: Buffer, path: string): CompiledPolicy | undefined {
  const firstEnd = bytes.indexOf(10);
  // the first line ends with the comma before `"agents"`
  if (firstEnd < 1 || bytes[firstEnd - 1] !== 44) return undefined;
  let head: Omit<CompiledPolicy, "rules" | "agents"> & { layout?: unknown };
  try {
    head = JSON.parse(`${bytes.toString("utf8", 0, firstEnd - 1)}}`) as typeof head;
  } catch {
    return undefined;
  }
  if (typeof head !== "object" || head === null || head.format !== COMPILED_FORMAT) return undefined;
  const base = firstEnd + 1;
  const layout = layoutOf(head.layout, bytes.length - base);
  // a truncated file fails the size, a file edited by hand the closing bytes
  if (layout === undefined || bytes.toString("latin1", bytes.length - 4) !== "\n]}\n") return undefined;
  const text = (from: number, to: number): string => bytes.toString("utf8", base + from, base + to);
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
    try {
      rules[i] = JSON.parse(text(spans[2 * i]!, spans[2 * i + 1]!)) as CompiledRule;
    } catch {
      throw new Error(
        `the compiled policy \`${path}\` has an unreadable rule on line ${i + 5}; run \`lanes build\` to compile it again`,
      );
    }
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
      let parsed: unknown;
      try {
        parsed = JSON.parse(text(...layout.agents));
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
 * True when the directory still lists what was compiled. Adding, removing or renaming an entry
 * changes a directory's mtime, so an unchanged mtime spares the listing; it is trusted only with
 * sub-second precision, since a whole-second mtime may hide a change made within that second.
 */
function listingUnchanged(listing: CompiledPolicy["listings"][number]): boolean {
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
    listing.mtimeMs % 1000 !== 0 &&
    stat.mtimeMs === listing.mtimeMs
  )
    return true;
  const now = listDefinitions(listing.dir);
  return now.length === listing.entries.length && now.every((e, i) => e === listing.entries[i]);
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
export function readCompiledPolicy(path: string, options: { readonly allowStale?: boolean } = {}): PolicyRead {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return { ok: false, kind: "missing", file: path, message: "the compiled policy does not exist" };
  }
  let policy: CompiledPolicy;
  try {
    policy = parsePolicyBytes(bytes, path);
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
  for (const source of policy.sources) {
    if (!sourceUnchanged(source)) {
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
  }
  for (const listing of policy.listings ?? []) {
    if (!listingUnchanged(listing)) {
      return {
        ok: false,
        kind: "stale",
        file: listing.dir,
        message: "files were added or removed after the policy was compiled",
      };
    }
  }
  return { ok: true, policy };
}

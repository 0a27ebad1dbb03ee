/**
 * Reading the compiled policy on the hot path, and the staleness check: every source file is
 * hashed again and every listed directory listed again; any difference means the policy no longer
 * says what the files say. No zod, no YAML: JSON.parse and a structural check.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { COMPILED_FORMAT, type CompiledPolicy, type CompiledRule, type PolicySource } from "../policy/compiled.ts";
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
 * The policy in a compiled file's text (laid out by compiled.ts `serializeCompiledPolicy`): the
 * first line is parsed now, each rule when first read, so a hook call pays for the rules its
 * candidates need (a Bash call meets a few dozen of several hundred). Text laid out otherwise is
 * parsed whole; text that is not JSON throws.
 */
function parsePolicyText(text: string, path: string): CompiledPolicy {
  const policy = lazyPolicy(text, path);
  if (policy !== undefined) return policy;
  // another layout (an older format, a file reformatted by hand): all of it, and no index to trust
  const whole = JSON.parse(text) as CompiledPolicy & { ruleIndex?: unknown };
  if (typeof whole === "object" && whole !== null) delete whole.ruleIndex;
  return whole;
}

function lazyPolicy(text: string, path: string): CompiledPolicy | undefined {
  const firstEnd = text.indexOf("\n");
  if (firstEnd === -1) return undefined;
  let head: Omit<CompiledPolicy, "rules">;
  try {
    head = JSON.parse(`${text.slice(0, firstEnd)}]}`) as Omit<CompiledPolicy, "rules">;
  } catch {
    return undefined;
  }
  if (typeof head !== "object" || head === null || head.format !== COMPILED_FORMAT) return undefined;
  if (typeof head.ruleIndex !== "string") return undefined;
  // [start, end) of each rule's JSON: one line each up to the closing `]}`, all but the last ending in a comma
  const spans: number[] = [];
  let at = firstEnd + 1;
  let comma = false;
  for (;;) {
    const end = text.indexOf("\n", at);
    if (end === -1) return undefined;
    if (text.slice(at, end) === "]}") break;
    if (spans.length > 0 && !comma) return undefined;
    comma = text.charCodeAt(end - 1) === 44;
    spans.push(at, comma ? end - 1 : end);
    at = end + 1;
  }
  if (comma || text.slice(at).trim() !== "]}") return undefined;
  const count = spans.length / 2;
  const rules = new Array<CompiledRule | null>(count).fill(null);
  const materialize = (key: string | symbol): void => {
    if (typeof key !== "string") return;
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= rules.length || rules[i] !== null || String(i) !== key) return;
    try {
      rules[i] = JSON.parse(text.slice(spans[2 * i], spans[2 * i + 1])) as CompiledRule;
    } catch {
      throw new Error(
        `the compiled policy \`${path}\` has an unreadable rule on line ${i + 2}; run \`lanes build\` to compile it again`,
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
  return { ...head, rules: lazy } as CompiledPolicy;
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
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { ok: false, kind: "missing", file: path, message: "the compiled policy does not exist" };
  }
  let policy: CompiledPolicy;
  try {
    policy = parsePolicyText(text, path);
  } catch {
    return { ok: false, kind: "invalid", file: path, message: "the compiled policy is not valid JSON" };
  }
  if (
    typeof policy !== "object" ||
    policy === null ||
    !Array.isArray(policy.rules) ||
    !Array.isArray(policy.agents) ||
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

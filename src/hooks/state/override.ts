/**
 * The human override of one DANGEROUS denial: the human stays the final authority.
 *
 * 1. PreToolUse denies a call of the main session: {@link offerOverride} stores an offer bound to
 *    the hash of (session, tool name, canonical JSON input) under a short random code, shown to the
 *    human only (the hook's `systemMessage`), never in the deny reason the model reads.
 * 2. The human types `lanes allow <code>` as a prompt: UserPromptSubmit ({@link redeemOffer}) turns
 *    the offer into a grant for that exact call, one use, expiring with the offer.
 * 3. The next identical call of the main session ({@link consumeGrant}) runs once; a different
 *    call, a subagent's call or a second identical call is judged (and denied) as before.
 *
 * Grants come only from UserPromptSubmit input; the file is protected from every tool by the rule
 * `lanes.override`, and a tool may not continue this session with a prompt of its own
 * (`lanes.override-session`: `claude --resume`). One file, `.claude/state/overrides.json` (0600, atomic writes, under a lock).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type * as Crypto from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import { readState } from "../../io/read.ts";
import { join } from "node:path";
import { atomicWriteFile } from "../../io/atomic.ts";
import { HOOK_LOCK, withLockSync } from "../../io/lock.ts";
import { ensureStateDir } from "./state-dir.ts";
import { builtin } from "../../host/builtin.ts";
import { isoTime } from "../../io/time.ts";
import { fnv1a64 } from "../../io/hash.ts";

/** The rules that protect the override itself (src/policy/rules/paths.ts): their denials are never overridable. */
export const OVERRIDE_RULES: readonly string[] = ["lanes.override", "lanes.override-session"];
/** The file of offers and grants, in the state directory. */
export const OVERRIDES_FILE = "overrides.json";
/** How long an offer (and the grant made from it) lives. */
export const OVERRIDE_TTL_MS = 10 * 60 * 1000;
/** At most this many live offers are kept (the oldest go first). */
const MAX_OFFERS = 32;
/**
 * `node:crypto` takes 3-4 ms to load in a hook process (unlike `node -e`, which preloads it), and
 * every denial in the main session hashes its call for the offer: the hash is `@noble/hashes`'
 * SHA-256, the code's randomness `/dev/urandom`, and `node:crypto` is loaded only where there is no
 * `/dev/urandom` (Windows).
 */
let loadedCrypto: typeof Crypto | undefined;
const nodeCrypto = (): typeof Crypto => (loadedCrypto ??= builtin<typeof Crypto>("node:crypto"));

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const CODE_LENGTH = 6;

/** The call an offer or grant is about: its hash and what the audit log and the messages say of it. */
export interface OverrideCall {
  readonly session: string;
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** What the call does, for messages (`describeCall`). */
  readonly subject: string;
  readonly rules: readonly string[];
}

interface Entry {
  readonly hash: string;
  readonly session: string;
  readonly tool: string;
  readonly subject: string;
  readonly rules: readonly string[];
  /** ISO times. */
  readonly created: string;
  readonly expires: string;
}
interface Offer extends Entry {
  readonly code: string;
  /**
   * A cheap key of the call (FNV-1a of its canonical JSON), to find the live offer of a call the
   * model tries again without hashing it. It only picks which code to show again: a grant is bound
   * to the SHA-256 `hash`, so a key shared by two calls could never let the other one run.
   */
  readonly key?: string;
}
interface Grant extends Entry {
  readonly granted: string;
  /** The tool_use_id that used the grant: the same call judged twice (lanes installed twice) agrees, another never. */
  readonly used?: string;
}
interface Store {
  readonly offers: readonly Offer[];
  readonly grants: readonly Grant[];
}

/** JSON with object keys sorted at every depth: the same input always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const callText = (session: string, tool: string, input: Readonly<Record<string, unknown>>): string =>
  canonicalJson([session, tool, input]);
const sha256Hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));

/** The hash that binds an offer or grant to one exact call of one session. */
export function callHash(session: string, tool: string, input: Readonly<Record<string, unknown>>): string {
  return sha256Hex(callText(session, tool, input));
}

/** `n` bytes from the system's random source. */
function randomBytes(n: number): Uint8Array {
  if (process.platform !== "win32") {
    try {
      const bytes = Buffer.alloc(n);
      const fd = openSync("/dev/urandom", "r");
      try {
        if (readSync(fd, bytes, 0, n, null) === n) return bytes;
      } finally {
        closeSync(fd);
      }
    } catch {
      // no /dev/urandom here: node:crypto below
    }
  }
  return nodeCrypto().randomBytes(n);
}

/** A fresh code: 6 base32 characters from the system's random source. */
export function newCode(): string {
  const bytes = randomBytes(CODE_LENGTH);
  let code = "";
  for (const byte of bytes) code += ALPHABET[byte & 31];
  return code;
}

const pathOf = (stateDir: string): string => join(stateDir, OVERRIDES_FILE);

/**
 * The store as it is now, or `undefined` when there is no file (or it cannot be read). Writes
 * replace the file atomically, so one read is a whole store; a hook reads it once
 * ({@link consumeGrant} and {@link offerOverride} take what it read).
 */
export function peekOverrides(stateDir: string): Store | undefined {
  let text: string;
  try {
    text = readState(pathOf(stateDir));
  } catch {
    return undefined;
  }
  try {
    const data = JSON.parse(text) as Partial<Store>;
    return {
      offers: Array.isArray(data.offers) ? data.offers : [],
      grants: Array.isArray(data.grants) ? data.grants : [],
    };
  } catch {
    return { offers: [], grants: [] };
  }
}

const readStore = (stateDir: string): Store => peekOverrides(stateDir) ?? { offers: [], grants: [] };

const live = (now: Date) => (e: Entry) => typeof e.expires === "string" && e.expires > isoTime(now);
/** The offer for a call, and the grant for a call of a session (at most one of each: a new one replaces the old). */
const offerFor = (store: Store, hash: string): Offer | undefined => store.offers.find((o) => o.hash === hash);
const grantFor = (store: Store, hash: string, session: string): Grant | undefined =>
  store.grants.find((g) => g.hash === hash && g.session === session);

/** Reads, changes and writes the store under its lock; `undefined` when the lock or the write fails. */
function update<T>(stateDir: string, now: Date, change: (store: Store) => { store?: Store; value: T }): T | undefined {
  ensureStateDir(stateDir);
  const path = pathOf(stateDir);
  const result = withLockSync(
    path,
    () => {
      const current = readStore(stateDir);
      const pruned: Store = { offers: current.offers.filter(live(now)), grants: current.grants.filter(live(now)) };
      const { store, value } = change(pruned);
      const next = store ?? pruned;
      if (
        store !== undefined ||
        next.offers.length !== current.offers.length ||
        next.grants.length !== current.grants.length
      )
        atomicWriteFile(path, `${JSON.stringify(next)}\n`, { durable: false });
      return value;
    },
    HOOK_LOCK,
  );
  return result.ok ? result.value : undefined;
}

/**
 * Stores an offer for a denied call of the main session and returns its code (the code of a live
 * offer for the same call when there is one), or `undefined` when the store cannot be written.
 * `seen`: the store this hook already read ({@link peekOverrides}).
 */
export function offerOverride(
  stateDir: string,
  call: OverrideCall,
  now: Date,
  seen: Store | undefined = peekOverrides(stateDir),
): string | undefined {
  const text = callText(call.session, call.tool, call.input);
  const key = fnv1a64(text);
  // the same call denied again while its offer lives (the model retrying): the same code, found by
  // its key without hashing the call, and nothing to write
  const standing = seen?.offers.find((o) => o.key === key && o.session === call.session);
  if (standing !== undefined && live(now)(standing)) return standing.code;
  const hash = sha256Hex(text);
  try {
    return update(stateDir, now, (store) => {
      const existing = offerFor(store, hash);
      if (existing !== undefined) return { value: existing.code };
      const offer: Offer = {
        code: newCode(),
        hash,
        key,
        session: call.session,
        tool: call.tool,
        subject: call.subject,
        rules: call.rules,
        created: isoTime(now),
        expires: isoTime(new Date(now.getTime() + OVERRIDE_TTL_MS)),
      };
      return { store: { ...store, offers: [...store.offers, offer].slice(-MAX_OFFERS) }, value: offer.code };
    });
  } catch {
    return undefined;
  }
}

/** What redeeming a code did. */
export type Redemption =
  | {
      readonly ok: true;
      readonly tool: string;
      readonly subject: string;
      readonly rules: readonly string[];
      readonly expires: string;
    }
  | { readonly ok: false; readonly reason: "unknown" | "unavailable" };

/** Turns the live offer of `code` in `session` into a grant (one use, expiring with the offer); the offer is spent. */
export function redeemOffer(stateDir: string, session: string, code: string, now: Date): Redemption {
  const wanted = code.trim().toUpperCase();
  try {
    const result = update<Redemption>(stateDir, now, (store) => {
      const offer = store.offers.find((o) => o.code === wanted && o.session === session);
      if (offer === undefined) return { value: { ok: false, reason: "unknown" } };
      const { code: _spent, ...entry } = offer;
      const grant: Grant = { ...entry, granted: isoTime(now) };
      return {
        store: {
          offers: store.offers.filter((o) => o !== offer),
          grants: [...store.grants.filter((g) => g.hash !== offer.hash), grant],
        },
        value: { ok: true, tool: offer.tool, subject: offer.subject, rules: offer.rules, expires: offer.expires },
      };
    });
    return result ?? { ok: false, reason: "unavailable" };
  } catch {
    return { ok: false, reason: "unavailable" };
  }
}

/**
 * Uses the live grant for this exact call, if any: true once per grant (and again only for the same
 * `toolUseId`, the same call judged by a second installation of lanes). Never throws.
 */
export function consumeGrant(
  stateDir: string,
  session: string,
  tool: string,
  input: Readonly<Record<string, unknown>>,
  toolUseId: string | undefined,
  now: Date,
  seen: Store | undefined = peekOverrides(stateDir),
): boolean {
  // no file, no grant: the common case reads nothing more
  if (seen === undefined || seen.grants.length === 0) return false;
  const hash = callHash(session, tool, input);
  // the store is replaced atomically, so this read is a whole store: without a live grant for this
  // call there is nothing to use and nothing to write, and no lock to take
  const waiting = grantFor(seen, hash, session);
  if (waiting === undefined || !live(now)(waiting)) return false;
  const id = toolUseId ?? `anonymous-${now.getTime()}-${newCode()}`;
  if (waiting.used !== undefined) return waiting.used === id;
  try {
    return (
      update(stateDir, now, (store) => {
        const grant = grantFor(store, hash, session);
        if (grant === undefined) return { value: false };
        if (grant.used !== undefined) return { value: grant.used === id };
        return {
          store: { ...store, grants: store.grants.map((g) => (g === grant ? { ...g, used: id } : g)) },
          value: true,
        };
      }) ?? false
    );
  } catch {
    return false;
  }
}

/** `lanes allow <code>` (trimmed, any case): the code in upper case, else `undefined` (any other prompt). */
export function overrideCommand(prompt: string): string | undefined {
  const words = prompt.trim().split(/\s+/);
  if (words.length !== 3 || words[0]!.toLowerCase() !== "lanes" || words[1]!.toLowerCase() !== "allow")
    return undefined;
  return words[2]!.toUpperCase();
}

/**
 * The human override of one DANGEROUS denial: the human stays the final authority.
 *
 * 1. PreToolUse denies a call of the main session: {@link offerOverride} stores an offer bound to
 *    the hash of (session, tool name, canonical JSON input) under a short random code, shown to the
 *    human only (the hook's `systemMessage`), never in the deny reason the model reads. The store
 *    keeps no code in clear: only a MAC of it.
 * 2. The human types `lanes allow <code>` as a prompt: UserPromptSubmit ({@link redeemOffer}) turns
 *    the offer into a grant for that exact call, one use, expiring with the offer: a MAC
 *    (HMAC-SHA256 under the key of the private directory) over the offer, the call's hash, the
 *    session and the prompt id of the human's prompt.
 * 3. An identical call of the main session in the same turn ({@link consumeGrant}: same session,
 *    same prompt id, the MAC checks) runs once; a different call, a subagent's call, a call of a
 *    later turn or a second identical call is judged (and denied) as before.
 *
 * Why no tool call can make a grant: the key and the store live in the project's private
 * directory (`~/.claude/lanes/private/<id>/`, hooks/state/private-dir.ts), out of the project,
 * reached without following links, and denied to every tool by any path (rule `lanes.override`);
 * without the key no write makes a valid MAC, and the prompt id of the turn is what the prompt hook
 * sees (the model only through Claude Code's transcript, whose reads are asked:
 * `claude.transcript-read`). The prompt hook itself and `lanes decide` are not for tools to run
 * (`lanes.human-only`, `lanes.hook-run`), nor is a prompt of this session from a tool
 * (`lanes.override-session`). One file, `overrides.json` (0600, atomic writes, under a lock), and
 * the key, `mac-key` (32 random bytes, 0600, created once). The old in-project store
 * (`.claude/state/overrides.json`) is ignored.
 */
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type * as Crypto from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { atomicCreateFile, atomicWriteFile } from "../../io/atomic.ts";
import { HOOK_LOCK, withLockSync } from "../../io/lock.ts";
import { builtin } from "../../host/builtin.ts";
import { isoTime } from "../../io/time.ts";
import { readPrivateFile } from "./private-dir.ts";

/** The rules that protect the override itself (src/policy/rules/): their denials are never overridable. */
export const OVERRIDE_RULES: readonly string[] = [
  "lanes.override",
  "lanes.override-session",
  "lanes.human-only",
  "lanes.human-only-script",
  "lanes.hook-run",
  "claude.transcript-read",
  "claude.transcript-write",
];
/** The file of offers and grants, in the private directory. */
export const OVERRIDES_FILE = "overrides.json";
/** The MAC key of offers and grants, in the private directory. */
export const KEY_FILE = "mac-key";
/** How long an offer (and the grant made from it) lives. */
export const OVERRIDE_TTL_MS = 10 * 60 * 1000;
/** At most this many live offers are kept (the oldest go first), and this many for one call. */
const MAX_OFFERS = 32;
const MAX_OFFERS_PER_CALL = 4;
const KEY_BYTES = 32;
/**
 * `node:crypto` takes 3-4 ms to load in a hook process (unlike `node -e`, which preloads it), and
 * every denial in the main session hashes its call for the offer: the hash and the MAC are
 * `@noble/hashes`', the randomness `/dev/urandom`, and `node:crypto` is loaded only where there is
 * no `/dev/urandom` (Windows).
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
  /** Random id of the offer (a grant keeps its offer's). */
  readonly id: string;
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
  /** HMAC of the offer id and the code: the code itself is never stored. */
  readonly code: string;
}
interface Grant extends Entry {
  /** The code MAC of the offer it was made from. */
  readonly code: string;
  readonly granted: string;
  /** The prompt id of the human's `lanes allow` prompt: the grant serves that turn only. */
  readonly prompt: string;
  /** HMAC over (offer id, code MAC, call hash, session, prompt id, expiry). */
  readonly mac: string;
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
const mac = (key: Uint8Array, parts: readonly string[]): string =>
  bytesToHex(hmac(sha256, key, utf8ToBytes(canonicalJson(parts))));
const codeMac = (key: Uint8Array, id: string, code: string): string => mac(key, ["code", id, code]);
const grantMac = (key: Uint8Array, g: Omit<Grant, "mac" | "used" | "granted">): string =>
  mac(key, ["grant", g.id, g.code, g.hash, g.session, g.prompt, g.expires]);

/** Constant-time comparison of two hex strings. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

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

const pathOf = (dir: string): string => join(dir, OVERRIDES_FILE);

/** The MAC key of the private directory `dir`, created (once, exclusively) when `create`. */
function keyOf(dir: string, create: boolean): Uint8Array | undefined {
  const existing = readPrivateFile(dir, KEY_FILE);
  if (existing !== undefined) return existing.length === KEY_BYTES ? existing : undefined;
  if (!create) return undefined;
  try {
    atomicCreateFile(join(dir, KEY_FILE), randomBytes(KEY_BYTES), { mode: 0o600 });
  } catch {
    // another hook created it first: read theirs
  }
  const made = readPrivateFile(dir, KEY_FILE);
  return made?.length === KEY_BYTES ? made : undefined;
}

/**
 * The store as it is now, or `undefined` when there is no file (or it cannot be read). Writes
 * replace the file atomically, so one read is a whole store; a hook reads it once
 * ({@link consumeGrant} and {@link offerOverride} take what it read). `dir`: the private
 * directory (hooks/state/private-dir.ts), `undefined` when there is none.
 */
export function peekOverrides(dir: string | undefined): Store | undefined {
  if (dir === undefined) return undefined;
  const bytes = readPrivateFile(dir, OVERRIDES_FILE);
  if (bytes === undefined) return undefined;
  try {
    const data = JSON.parse(bytes.toString("utf8")) as Partial<Store>;
    return {
      offers: Array.isArray(data.offers) ? data.offers : [],
      grants: Array.isArray(data.grants) ? data.grants : [],
    };
  } catch {
    return { offers: [], grants: [] };
  }
}

const readStore = (dir: string): Store => peekOverrides(dir) ?? { offers: [], grants: [] };

const live = (now: Date) => (e: Entry) => typeof e.expires === "string" && e.expires > isoTime(now);

/** Reads, changes and writes the store under its lock; `undefined` when the lock or the write fails. */
function update<T>(dir: string, now: Date, change: (store: Store) => { store?: Store; value: T }): T | undefined {
  const path = pathOf(dir);
  const result = withLockSync(
    path,
    () => {
      const current = readStore(dir);
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
 * Stores an offer for a denied call of the main session and returns its code, or `undefined`
 * when the store cannot be written. The code is not stored, so a call denied again gets a new
 * code; the last few codes of one call all stay good until one is used or they expire.
 */
export function offerOverride(dir: string | undefined, call: OverrideCall, now: Date): string | undefined {
  if (dir === undefined) return undefined;
  try {
    const key = keyOf(dir, true);
    if (key === undefined) return undefined;
    const hash = sha256Hex(callText(call.session, call.tool, call.input));
    const code = newCode();
    const id = bytesToHex(randomBytes(8));
    const offer: Offer = {
      id,
      code: codeMac(key, id, code),
      hash,
      session: call.session,
      tool: call.tool,
      subject: call.subject,
      rules: call.rules,
      created: isoTime(now),
      expires: isoTime(new Date(now.getTime() + OVERRIDE_TTL_MS)),
    };
    return update(dir, now, (store) => {
      const same = store.offers.filter((o) => o.hash === hash);
      const dropped = new Set(same.slice(0, Math.max(0, same.length - MAX_OFFERS_PER_CALL + 1)));
      const offers = [...store.offers.filter((o) => !dropped.has(o)), offer].slice(-MAX_OFFERS);
      return { store: { ...store, offers }, value: code };
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

/**
 * Turns the live offer of `code` in `session` into a grant for the turn of prompt `prompt` (one
 * use, expiring with the offer); every offer of that call is spent. Only the UserPromptSubmit hook
 * calls this, with the human's prompt.
 */
export function redeemOffer(
  dir: string | undefined,
  session: string,
  prompt: string,
  code: string,
  now: Date,
): Redemption {
  // no private directory: nothing was ever offered here
  if (dir === undefined) return { ok: false, reason: "unknown" };
  const wanted = code.trim().toUpperCase();
  try {
    const key = keyOf(dir, false);
    if (key === undefined) return { ok: false, reason: peekOverrides(dir) === undefined ? "unknown" : "unavailable" };
    const result = update<Redemption>(dir, now, (store) => {
      const offer = store.offers.find((o) => o.session === session && sameHex(o.code, codeMac(key, o.id, wanted)));
      if (offer === undefined) return { value: { ok: false, reason: "unknown" } };
      const unsigned = { ...offer, prompt };
      const grant: Grant = { ...unsigned, granted: isoTime(now), mac: grantMac(key, unsigned) };
      return {
        store: {
          offers: store.offers.filter((o) => o.hash !== offer.hash),
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

/** A grant's MAC checks under `key`. */
const genuine = (key: Uint8Array, g: Grant): boolean =>
  typeof g.mac === "string" && typeof g.code === "string" && sameHex(g.mac, grantMac(key, g));

/**
 * Uses the live grant for this exact call of this turn, if any: true once per grant (and again
 * only for the same `toolUseId`, the same call judged by a second installation of lanes). A grant
 * whose MAC does not check is ignored. Never throws.
 */
export function consumeGrant(
  dir: string | undefined,
  session: string,
  prompt: string,
  tool: string,
  input: Readonly<Record<string, unknown>>,
  toolUseId: string | undefined,
  now: Date,
  seen: Store | undefined = peekOverrides(dir),
): boolean {
  // no file, no grant of this turn: the common case hashes nothing
  if (dir === undefined || seen === undefined) return false;
  const turn = seen.grants.filter((g) => g.session === session && g.prompt === prompt && live(now)(g));
  if (turn.length === 0) return false;
  const hash = callHash(session, tool, input);
  const waiting = turn.find((g) => g.hash === hash);
  if (waiting === undefined) return false;
  const key = keyOf(dir, false);
  if (key === undefined || !genuine(key, waiting)) return false;
  const id = toolUseId ?? `anonymous-${now.getTime()}-${newCode()}`;
  if (waiting.used !== undefined) return waiting.used === id;
  try {
    return (
      update(dir, now, (store) => {
        const grant = store.grants.find(
          (g) => g.hash === hash && g.session === session && g.prompt === prompt && genuine(key, g),
        );
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

import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claimCall, MAX_AGE_MS, sweeps, SWEEP_EVERY } from "../../src/hooks/state/claim.ts";

const root = mkdtempSync(join(tmpdir(), "lanes-claim-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const start = new Date("2026-11-22T00:00:00Z").getTime();

/** A tool_use id as the client makes them: `toolu_01` and random base62 characters (seeded). */
function idMaker(seed: number): () => string {
  const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  return () => `toolu_01${Array.from({ length: 22 }, () => chars[Math.floor(next() * 62)]).join("")}`;
}

/** `n` calls claimed `gapMs` apart; each claim file gets the mtime of its call, as a real one would. */
function claimMany(state: string, n: number, gapMs: number, seed: number): void {
  const id = idMaker(seed);
  for (let i = 0; i < n; i++) {
    const now = new Date(start + i * gapMs);
    const toolUseId = id();
    expect(claimCall(state, "pre", "s1", toolUseId, now)).toBe(true);
    const file = join(state, "claims", `pre-s1-${toolUseId}`);
    if (existsSync(file)) utimesSync(file, now, now);
  }
}

describe("claims of a call", () => {
  it("the first hook of a call claims it, its twin does not; another event or session claims its own", () => {
    const state = join(root, "twins");
    expect(claimCall(state, "pre", "s1", "toolu_1", new Date(start))).toBe(true);
    expect(claimCall(state, "pre", "s1", "toolu_1", new Date(start))).toBe(false);
    expect(claimCall(state, "post", "s1", "toolu_1", new Date(start))).toBe(true);
    expect(claimCall(state, "pre", "s2", "toolu_1", new Date(start))).toBe(true);
    expect(claimCall(state, "pre", "s1", undefined, new Date(start))).toBe(true);
    expect(claimCall(state, "pre", "s1", undefined, new Date(start))).toBe(true);
  });

  // N calls leave O(1) files: the claims of the last MAX_AGE_MS, plus those since the last sweep
  it.each([
    ["1,000 calls a second apart", 1_000, 1_000],
    ["3,000 calls a second apart", 3_000, 1_000],
    ["2,000 calls ten seconds apart", 2_000, 10_000],
  ])("%s leave a bounded claims directory", (name, n, gapMs) => {
    const state = join(root, name.replace(/\W+/g, "-"));
    claimMany(state, n, gapMs, n + gapMs);
    const left = readdirSync(join(state, "claims")).length;
    // the claims of the last two minutes and those made since the last sweep (one call in SWEEP_EVERY)
    expect(left).toBeLessThanOrEqual(MAX_AGE_MS / gapMs + 8 * SWEEP_EVERY);
  });

  it("a sweep keeps a claim younger than MAX_AGE_MS: its twin, arriving late, still does not claim the call", () => {
    const state = join(root, "late-twin");
    expect(claimCall(state, "pre", "s1", "toolu_early", new Date(start))).toBe(true);
    const id = idMaker(7);
    let sweeper = id();
    while (!sweeps(sweeper)) sweeper = id();
    const later = new Date(start + MAX_AGE_MS / 2);
    utimesSync(join(state, "claims", "pre-s1-toolu_early"), new Date(start), new Date(start));
    expect(claimCall(state, "pre", "s1", sweeper, later)).toBe(true);
    expect(claimCall(state, "pre", "s1", "toolu_early", later)).toBe(false);
    // past MAX_AGE_MS, the next sweep removes it
    let next = id();
    while (!sweeps(next)) next = id();
    expect(claimCall(state, "pre", "s1", next, new Date(start + MAX_AGE_MS + 1_000))).toBe(true);
    expect(existsSync(join(state, "claims", "pre-s1-toolu_early"))).toBe(false);
  });
});

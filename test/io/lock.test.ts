import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { claimPathOf, withLock, withLockSync, type LockRecord } from "../../src/io/lock.ts";
import { tempProject } from "../runtime/helpers.ts";

let cleanup: () => void = () => {};
afterEach(() => cleanup());
function setup(): { dir: string; target: string; lock: string } {
  const p = tempProject();
  cleanup = p.cleanup;
  const target = join(p.dir, "state.json");
  return { dir: p.dir, target, lock: `${target}.lock` };
}

/** A pid that existed and has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "0"]);
  return child.pid!;
}

function writeLock(path: string, record: Partial<LockRecord>): LockRecord {
  const full: LockRecord = { pid: process.pid, host: hostname(), created: new Date().toISOString(), token: "held", ...record };
  writeFileSync(path, JSON.stringify(full));
  return full;
}

const claimOf = claimPathOf;
const quick = { timeoutMs: 80 };

describe("withLockSync", () => {
  it("returns the function's value and removes the lock", () => {
    const { target, lock } = setup();
    expect(withLockSync(target, () => existsSync(lock))).toEqual({ ok: true, value: true });
    expect(existsSync(lock)).toBe(false);
  });

  it("writes the holder's pid, host and creation time into the lock", () => {
    const { target, lock } = setup();
    const record = withLockSync(target, () => JSON.parse(readFileSync(lock, "utf8")) as LockRecord);
    expect(record.ok && record.value).toMatchObject({ pid: process.pid, host: hostname() });
    expect(record.ok && Date.parse(record.value.created)).toBeGreaterThan(0);
  });

  it("releases the lock when the function throws, and rethrows", () => {
    const { target, lock } = setup();
    expect(() =>
      withLockSync(target, () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(existsSync(lock)).toBe(false);
  });

  it("creates the directory of the locked file", () => {
    const { dir } = setup();
    expect(withLockSync(join(dir, "new", "deeper", "f.json"), () => 1)).toEqual({ ok: true, value: 1 });
  });

  it("times out on a live lock with an issue naming the holder and the lock file", () => {
    const { target, lock } = setup();
    writeLock(lock, { token: "other" });
    const result = withLockSync(target, () => "never", quick);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]).toMatchObject({ code: "locked", file: lock });
    expect(result.issues[0]!.message).toMatch(new RegExp(`^timed out after 80 ms waiting for \`.*state\\.json\\.lock\`: it is held by pid ${process.pid} \\(this process\\) on`));
    expect(result.issues[0]!.help).toBe(`if that process is gone, delete \`${lock}\` and try again`);
    expect(existsSync(lock)).toBe(true);
  });

  it.each([
    ["the holder's pid is dead on this host", () => ({ pid: deadPid() })],
    ["the lock is older than staleMs", () => ({ created: new Date(Date.now() - 31_000).toISOString() })],
    ["another host's lock is older than staleMs", () => ({ host: "elsewhere", created: new Date(Date.now() - 31_000).toISOString() })],
  ])("recovers a stale lock when %s", (_, record) => {
    const { target, lock } = setup();
    writeLock(lock, record());
    expect(withLockSync(target, () => "got it", quick)).toEqual({ ok: true, value: "got it" });
    expect(existsSync(lock)).toBe(false);
  });

  it.each([
    ["a live holder", () => ({})],
    ["another host's recent lock (its pid means nothing here)", () => ({ host: "elsewhere", pid: deadPid() })],
  ])("does not steal from %s", (_, record) => {
    const { target, lock } = setup();
    writeLock(lock, record());
    expect(withLockSync(target, () => "never", quick).ok).toBe(false);
    expect(existsSync(lock)).toBe(true);
  });

  it("judges an unreadable lock by its age", () => {
    const { target, lock } = setup();
    writeFileSync(lock, "");
    expect(withLockSync(target, () => "never", quick).ok).toBe(false);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(lock, old, old);
    expect(withLockSync(target, () => "got it", quick)).toEqual({ ok: true, value: "got it" });
  });

  it("backs off while another stealer holds a live claim on the same stale lock", () => {
    const { target, lock } = setup();
    writeLock(lock, { pid: deadPid(), token: "stale" });
    writeLock(claimOf(lock, "stale"), { token: "claimer" }); // a live stealer (this pid) is at work
    expect(withLockSync(target, () => "never", quick).ok).toBe(false);
    expect(JSON.parse(readFileSync(lock, "utf8")).token).toBe("stale");
  });

  it("recovers a claim left by a stealer that died, then the stale lock, and cleans up", () => {
    const { dir, target, lock } = setup();
    const dead = deadPid();
    writeLock(lock, { pid: dead, token: "stale" });
    writeLock(claimOf(lock, "stale"), { pid: dead, token: "dead-claimer" });
    writeLock(`${lock}.${dead}-x.tmp`, { pid: dead, token: `${dead}-x` }); // a lock temp a dead process left
    expect(withLockSync(target, () => "got it", quick)).toEqual({ ok: true, value: "got it" });
    expect(readdirSync(dir).sort()).toEqual([".claude"]);
  });

  it("does not delete a fresh lock that replaced the stale one while it was being judged", () => {
    const { dir, target, lock } = setup();
    const dead = deadPid();
    writeLock(lock, { pid: dead, token: "stale" });
    let swapped = false;
    const isAlive = (pid: number): boolean => {
      if (pid === dead && !swapped) {
        // between our read of the stale lock and our claim, another process stole it and took a fresh one
        swapped = true;
        writeLock(join(dir, "fresh"), { pid: 4242, token: "fresh" });
        renameSync(join(dir, "fresh"), lock);
      }
      return pid !== dead;
    };
    expect(withLockSync(target, () => "never", { ...quick, isAlive }).ok).toBe(false);
    expect(JSON.parse(readFileSync(lock, "utf8")).token).toBe("fresh");
  });

  it("on release, leaves a lock that is not its own", () => {
    const { target, lock } = setup();
    withLockSync(target, () => writeLock(lock, { token: "someone-else" }));
    expect(JSON.parse(readFileSync(lock, "utf8")).token).toBe("someone-else");
  });

  it("waits for a holder to release, with its sleep function", () => {
    const { target, lock } = setup();
    writeLock(lock, { token: "other" });
    let sleeps = 0;
    const sleep = (): void => {
      if (++sleeps === 3) writeFileSync(lock, ""); // not a release yet: unreadable and recent
      if (sleeps === 5) writeLock(lock, { token: "other" });
      if (sleeps === 8) renameSync(lock, `${lock}.gone`);
    };
    expect(withLockSync(target, () => sleeps, { timeoutMs: 5_000, sleep })).toEqual({ ok: true, value: 8 });
  });
});

describe("withLock (async)", () => {
  it("serialises read-modify-writes that await in the middle", async () => {
    const { target } = setup();
    writeFileSync(target, "0");
    const bump = () =>
      withLock(target, async () => {
        const n = Number(readFileSync(target, "utf8"));
        await new Promise((resolve) => setTimeout(resolve, 1));
        writeFileSync(target, String(n + 1));
      });
    const results = await Promise.all(Array.from({ length: 20 }, bump));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("20");
  });

  it("times out like the sync form", async () => {
    const { target, lock } = setup();
    writeLock(lock, { token: "other" });
    const result = await withLock(target, () => "never", quick);
    expect(result.ok ? undefined : result.issues[0]!.code).toBe("locked");
  });
});

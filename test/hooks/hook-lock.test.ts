/**
 * A hook waits for a lock well under its own timeout: a stuck lock must cost the bookkeeping, not
 * the call (a PreToolUse hook killed at its timeout blocks the spawn it was judging).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { updateBookkeeping } from "../../src/hooks/state/bookkeeping.ts";
import { hookWiring } from "../../src/install/wiring.ts";
import { HOOK_LOCK } from "../../src/io/lock.ts";

describe("the hook-side lock wait", () => {
  it("is at most half of every hook's timeout", () => {
    const timeouts = Object.values(hookWiring((e) => e)).flatMap((groups) =>
      groups.flatMap((g) => g.hooks.map((h) => h.timeout * 1000)),
    );
    expect(timeouts.length).toBeGreaterThan(0);
    for (const t of timeouts) expect(HOOK_LOCK.timeoutMs! * 2).toBeLessThanOrEqual(t);
  });

  it("gives up on a lock held by a live process and reports it instead of hanging", () => {
    const dir = mkdtempSync(join(tmpdir(), "lanes-hooklock-"));
    try {
      const file = join(dir, "agent-tree.json");
      writeFileSync(
        `${file}.lock`,
        JSON.stringify({ pid: process.pid, host: hostname(), created: new Date().toISOString(), token: "held" }),
      );
      const problem = updateBookkeeping(
        file,
        dir,
        () => ({}),
        (x) => x,
      );
      expect(problem).toMatch(
        /^timed out after 2 s waiting for `.+agent-tree\.json\.lock`: it is held by pid \d+ \(this process\)/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

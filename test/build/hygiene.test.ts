/**
 * What the claude client writes into a HOME (`.claude.json`, telemetry, backups) is never part of
 * the repository: an earlier test ran the client with HOME set to the repository.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

describe("repository hygiene", () => {
  it("tracks no client state (.claude.json, .claude/telemetry/, .claude/backups/)", () => {
    const run = spawnSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const files = run.stdout.split("\0").filter((f) => f !== "");
    expect(files.length).toBeGreaterThan(0);
    expect(
      files.filter(
        (f) =>
          f === ".claude.json" ||
          f.startsWith(".claude/telemetry/") ||
          f.startsWith(".claude/backups/") ||
          f.endsWith("/.claude.json"),
      ),
    ).toEqual([]);
  });
});

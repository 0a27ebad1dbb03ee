import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migrateHookState } from "../../src/install/migrate-state.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("migrateHookState: hook-only state leaves the work zone", () => {
  it("moves the hooks' files to .claude/lanes/state/ and leaves the work state where it is", () => {
    const dir = mkdtempSync(join(tmpdir(), "lanes-migrate-"));
    dirs.push(dir);
    const old = join(dir, ".claude", "state");
    mkdirSync(join(old, "claims"), { recursive: true });
    mkdirSync(join(old, "phases"), { recursive: true });
    writeFileSync(join(old, "audit.jsonl"), '{"event":"old"}\n');
    writeFileSync(join(old, "claims", "x"), "");
    writeFileSync(join(old, "progress.json"), "{}");
    // a file already at its new place wins over the old copy
    mkdirSync(join(dir, ".claude", "lanes", "state"), { recursive: true });
    writeFileSync(join(dir, ".claude", "lanes", "state", "policy.json"), "new");
    writeFileSync(join(old, "policy.json"), "old");

    expect(migrateHookState(dir).sort()).toEqual(["audit.jsonl", "claims", "policy.json"]);
    const moved = join(dir, ".claude", "lanes", "state");
    expect(readFileSync(join(moved, "audit.jsonl"), "utf8")).toBe('{"event":"old"}\n');
    expect(existsSync(join(moved, "claims", "x"))).toBe(true);
    expect(readFileSync(join(moved, "policy.json"), "utf8")).toBe("new");
    expect(readFileSync(join(moved, ".gitignore"), "utf8")).toContain("*");
    for (const gone of ["audit.jsonl", "claims", "policy.json"]) expect(existsSync(join(old, gone))).toBe(false);
    expect(existsSync(join(old, "progress.json"))).toBe(true);
    expect(existsSync(join(old, "phases"))).toBe(true);
    // a second run has nothing to move
    expect(migrateHookState(dir)).toEqual([]);
  });
});

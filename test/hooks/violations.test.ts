import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countDenial } from "../../src/hooks/violations.ts";

const state = mkdtempSync(join(tmpdir(), "lanes-violations-"));
afterAll(() => rmSync(state, { recursive: true, force: true }));
const now = new Date("2026-11-22T00:00:00Z");

describe("consecutive denials per agent instance and rule", () => {
  it("counts denials, resets on the next allowed call, and keeps agents apart", () => {
    expect(countDenial(state, "s1", "a1", "backend", ["r.a"], now)).toBe(1);
    expect(countDenial(state, "s1", "a1", "backend", ["r.a"], now)).toBe(2);
    expect(countDenial(state, "s1", "a2", "frontend", ["r.a"], now)).toBe(1);
    expect(countDenial(state, "s1", "a1", "backend", ["r.a"], now)).toBe(3);
    expect(countDenial(state, "s1", "a1", "backend", undefined, now)).toBe(0);
    expect(countDenial(state, "s1", "a1", "backend", ["r.a"], now)).toBe(1);
    expect(countDenial(state, "s1", "a2", "frontend", ["r.a"], now)).toBe(2);
    expect(countDenial(state, "s2", "a2", "frontend", ["r.a"], now)).toBe(1);
  });
  it("counts per rule: denials by unrelated rules do not add up, a denial by several rules counts for each", () => {
    expect(countDenial(state, "s3", "a1", "backend", ["git.force-push"], now)).toBe(1);
    expect(countDenial(state, "s3", "a1", "backend", ["git.reset-hard"], now)).toBe(1);
    expect(countDenial(state, "s3", "a1", "backend", ["git.force-push", "agent.backend.no-push"], now)).toBe(2);
    expect(countDenial(state, "s3", "a1", "backend", ["agent.backend.no-push"], now)).toBe(2);
    expect(countDenial(state, "s3", "a1", "backend", ["git.force-push"], now)).toBe(3);
    expect(countDenial(state, "s3", "a9", "backend", ["git.force-push"], now)).toBe(1);
    expect(countDenial(state, "s3", "a1", "backend", undefined, now)).toBe(0);
    expect(countDenial(state, "s3", "a1", "backend", ["git.force-push"], now)).toBe(1);
  });
  it("sanitises the ids it puts in file names", () => {
    expect(countDenial(state, "../../etc", "../x", "evil", ["r.a"], now)).toBe(1);
  });
});

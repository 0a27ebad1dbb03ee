import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countDenial, violationsLog } from "../../src/hooks/state/violations.ts";

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
  it("appends a line per denial, skips a torn line, and starts the next denial on a line of its own", () => {
    expect(countDenial(state, "s4", "a1", "backend", ["r.a"], now)).toBe(1);
    const log = violationsLog(state, "s4", "a1");
    appendFileSync(log, '{"rules":["r.a"'); // a writer killed mid-line
    expect(countDenial(state, "s4", "a1", "backend", ["r.a"], now)).toBe(2);
    expect(countDenial(state, "s4", "a1", "backend", ["r.a", "r.a"], now)).toBe(3);
    const lines = readFileSync(log, "utf8").split("\n");
    expect(lines).toHaveLength(5);
    expect(lines.filter((l) => l.startsWith("{") && l.endsWith("}")).map((l) => JSON.parse(l).rules)).toEqual([
      ["r.a"],
      ["r.a"],
      ["r.a", "r.a"],
    ]);
    expect(countDenial(state, "s4", "a1", "backend", [], now)).toBe(0);
    expect(existsSync(log)).toBe(false);
  });
  it("sanitises the ids it puts in file names", () => {
    expect(countDenial(state, "../../etc", "../x", "evil", ["r.a"], now)).toBe(1);
  });
});

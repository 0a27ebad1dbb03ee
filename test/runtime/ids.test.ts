import { describe, expect, it } from "vitest";
import { compactTimestamp, newId, newWorkflowId, safeId } from "../../src/runtime/ids.ts";
import { seededRandom } from "./helpers.ts";

describe("safeId", () => {
  it.each([
    ["task-1", "task-1"],
    ["T_2.v3", "T_2.v3"],
    ["../etc/passwd", "___etc_passwd"],
    ["a/b\\c", "a_b_c"],
    [".hidden", "_hidden"],
    ["..", "__"],
    ["...x", "___x"],
    ["", "_"],
    ["space and:colon", "space_and_colon"],
    ["héllo", "h_llo"],
    ["x".repeat(200), "x".repeat(128)],
    ["a\u0000b", "a_b"],
  ])("%j → %j", (input, expected) => {
    expect(safeId(input)).toBe(expected);
  });

  it("never yields a path separator, a leading dot or more than 128 characters", () => {
    const random = seededRandom(3);
    for (let n = 0; n < 500; n++) {
      const s = Array.from({ length: Math.floor(random() * 300) }, () =>
        String.fromCharCode(Math.floor(random() * 0x250)),
      ).join("");
      const id = safeId(s);
      expect(id).toMatch(/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/);
    }
  });
});

describe("generated ids", () => {
  it("a workflow id is wf-{timestamp}-{random}", () => {
    expect(newWorkflowId(new Date("2025-01-02T03:04:05.678Z"), () => 0.5)).toBe("wf-20250102T030405Z-iiiiii");
  });
  it("ids sort by time", () => {
    const random = seededRandom(1);
    const a = newId("cp", new Date("2025-01-02T03:04:05Z"), random);
    const b = newId("cp", new Date("2025-01-02T03:04:06Z"), random);
    expect(a < b).toBe(true);
    expect(compactTimestamp(new Date("2025-12-31T23:59:59.999Z"))).toBe("20251231T235959Z");
  });
});

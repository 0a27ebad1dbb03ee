import { describe, expect, it } from "vitest";
import {
  compactTimestamp,
  fileKey,
  fromFileKey,
  joinKeys,
  newId,
  newWorkflowId,
  safeId,
  splitKeys,
} from "../../src/host/ids.ts";
import { seededRandom } from "../runtime/helpers.ts";

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

describe("fileKey and joinKeys: injective file names", () => {
  it.each([
    ["task-1", "task-1"],
    ["a_b", "a_5fb"],
    ["émile", "_c3_a9mile"],
    ["日本", "_e6_97_a5_e6_9c_ac"],
    ["-lead", "_2dlead"],
    ["trail-", "trail_2d"],
    ["a--b", "a_2d_2db"],
    [".hidden", "_2ehidden"],
    ["../x", "_2e._2fx"],
    ["a/b", "a_2fb"],
  ])("%s -> %s", (id, key) => {
    expect(fileKey(id)).toBe(key);
    expect(fromFileKey(key)).toBe(id);
  });

  it("never maps two ids, or two (task, agent) pairs, to one name", () => {
    // the collisions of the old naming: non-ASCII ids all became `_`, and `-` joined ambiguously
    const pairs: [string, string][] = [
      ["日本", "qa"],
      ["中国", "qa"],
      ["a-b", "c"],
      ["a", "b-c"],
      ["a-", "b"],
      ["a", "-b"],
      ["a_", "b"],
      ["a", "_b"],
      ["x--y", "z"],
      ["x", "y--z"],
    ];
    const names = pairs.map(([t, a]) => joinKeys(t, a));
    expect(new Set(names).size).toBe(pairs.length);
    for (const [i, [t, a]] of pairs.entries()) expect(splitKeys(names[i]!)).toEqual([t, a]);
    const random = seededRandom(7);
    const seen = new Map<string, string>();
    for (let n = 0; n < 2000; n++) {
      const s = Array.from({ length: Math.floor(random() * 6) }, () => "a-_.é/"[Math.floor(random() * 6)]).join("");
      const key = fileKey(s);
      expect(key).toMatch(/^(?!-)(?!.*--)[A-Za-z0-9._-]*(?<!-)$/);
      expect(seen.get(key) ?? s).toBe(s);
      seen.set(key, s);
    }
  });

  it("refuses text that is not a key", () => {
    expect(fromFileKey("a_zz")).toBeUndefined();
    expect(fromFileKey("a--b")).toBeUndefined();
    expect(splitKeys("t1-backend")).toEqual(["t1-backend"]);
  });
});

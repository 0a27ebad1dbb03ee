/** Positional reads (src/io/read.ts): ranges, whole files across chunks, and an append descriptor left usable. */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readAt, readToEnd } from "../../src/io/read.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function file(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), "lanes-read-"));
  dirs.push(dir);
  const path = join(dir, "f");
  writeFileSync(path, content);
  return path;
}

describe("positional reads", () => {
  it("read a range, and fewer bytes only where the file ends", () => {
    const fd = openSync(file("0123456789"), "r");
    try {
      expect(readAt(fd, 2, 3).toString()).toBe("234");
      expect(readAt(fd, 8, 5).toString()).toBe("89");
      expect(readAt(fd, 20, 5).length).toBe(0);
    } finally {
      closeSync(fd);
    }
  });

  it("read a whole file across chunks, an empty one in one read, and leave an append descriptor appending", () => {
    const text = "x".repeat(10) + "é".repeat(7);
    const path = file(text);
    const fd = openSync(path, "a+");
    try {
      for (const chunk of [1, 3, 4, 1024]) expect(readToEnd(fd, chunk).toString("utf8")).toBe(text);
      writeSync(fd, "!");
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(path, "utf8")).toBe(`${text}!`);
    const empty = openSync(file(""), "r");
    try {
      expect(readToEnd(empty).length).toBe(0);
    } finally {
      closeSync(empty);
    }
  });
});

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expandGlob } from "../../src/globs/expand.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "lanes-glob-")));
for (const f of ["a.ts", "b.ts", ".env", "key.pem"]) writeFileSync(join(dir, f), "");
mkdirSync(join(dir, "sub"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("expandGlob", () => {
  it.each<[string, boolean, string[] | undefined]>([
    ["*.ts", false, ["a.ts", "b.ts"]],
    ["*", false, ["a.ts", "b.ts", "key.pem", "sub"]],
    ["*", true, [".env", "a.ts", "b.ts", "key.pem", "sub"]],
    [".*", false, [".env"]],
    ["nothing*", false, []],
    ["**/*.ts", false, undefined],
  ])("%s (dot %s)", (pattern, dot, names) => {
    const result = expandGlob(`${dir}/${pattern}`, dot);
    expect(result === undefined ? undefined : result.map((p) => p.slice(dir.length + 1)).sort()).toEqual(names);
  });
  it("cannot tell for wildcards in directory names", () => {
    expect(expandGlob(`${dir}/*/x.ts`, false)).toBeUndefined();
  });
});

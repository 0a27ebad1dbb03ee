/**
 * The parser bundles get their grammars' parse tables decoded at build time (src/io/lr-tables.ts,
 * scripts/build/lr-tables.ts): the arrays handed to the parser must be the ones Lezer decodes from
 * its strings, and any file that is not the build's leaves the strings in place.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parser as javascript } from "@lezer/javascript";
import { parser as python } from "@lezer/python";
import { afterAll, describe, expect, it } from "vitest";
import { lrTablesOf } from "../../scripts/build/lr-tables.ts";
import { withDecodedTables } from "../../src/io/lr-tables.ts";

const dir = mkdtempSync(join(tmpdir(), "lanes-lr-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SPEC = { states: "s", stateData: "d", goto: "g", tokenData: "t", version: 14 };

describe("decoded parse tables", () => {
  it.each([
    ["python", python],
    ["javascript", javascript],
  ] as const)("%s: the file holds the arrays the parser decoded", async (language, parser) => {
    const { contents, file } = await lrTablesOf(language);
    const path = join(dir, `${language}.lrtables`);
    writeFileSync(path, contents);
    const spec = withDecodedTables(SPEC, path, file) as unknown as Record<string, unknown>;
    const p = parser as unknown as { states: Uint32Array; data: Uint16Array; goto: Uint16Array };
    expect(spec["states"]).toEqual(p.states);
    expect(spec["states"]).toBeInstanceOf(Uint32Array);
    expect(spec["stateData"]).toEqual(p.data);
    expect(spec["goto"]).toEqual(p.goto);
    expect(spec["tokenData"]).toBeInstanceOf(Uint16Array);
    expect(spec["version"]).toBe(14);
  });

  it("leaves the string tables when the file is missing, another build's or cut short", async () => {
    const { contents, file } = await lrTablesOf("python");
    const path = join(dir, "other.lrtables");
    expect(withDecodedTables(SPEC, path, file)).toBe(SPEC);
    writeFileSync(
      path,
      Buffer.concat([
        Buffer.from(file.header.replace(/[0-9a-f]{16}\n$/, "0".repeat(16) + "\n")),
        contents.subarray(file.header.length),
      ]),
    );
    expect(withDecodedTables(SPEC, path, file)).toBe(SPEC);
    writeFileSync(path, contents.subarray(0, contents.length - 2));
    expect(withDecodedTables(SPEC, path, file)).toBe(SPEC);
  });
});

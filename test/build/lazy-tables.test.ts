/**
 * The large shell data tables are inlined by the build as lazily parsed tables (scripts/build/tables.ts
 * writes the calls of src/io/lazy-table.ts): the analysis must see exactly the object the source defines.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lazyTableSource, TableStore } from "../../scripts/build/tables.ts";
import { lazyTable } from "../../src/io/lazy-table.ts";
import { tableFileReader } from "../../src/io/table-file.ts";
import { PROGRAM_GRAMMARS } from "../../src/shell/tables/options.ts";
import { PROGRAM_EFFECTS } from "../../src/shell/tables/effects.ts";
import { WRAPPERS } from "../../src/shell/tables/wrappers.ts";

type Table = Record<string, unknown>;

/** The table as the build inlines it (JSON round trip first: the build sees the evaluated module). */
function lazy(value: Table): Table {
  const plain = JSON.parse(JSON.stringify(value)) as Table;
  return new Function("__lanesLazyTable", `return ${lazyTableSource(plain, "test")};`)(lazyTable) as Table;
}

describe("lazily parsed data tables", () => {
  it.each([
    ["PROGRAM_GRAMMARS", PROGRAM_GRAMMARS],
    ["PROGRAM_EFFECTS", PROGRAM_EFFECTS],
    ["WRAPPERS", WRAPPERS],
  ] as const)("%s reads as the source table", (_name, source) => {
    const table = lazy(source as Table);
    expect(Object.keys(table)).toEqual(Object.keys(source));
    for (const key of Object.keys(source)) {
      expect(Object.hasOwn(table, key)).toBe(true);
      expect(key in table).toBe(true);
      expect(table[key]).toEqual((source as Table)[key]);
      // parsed once: the same object on every read
      expect(table[key]).toBe(table[key]);
    }
    expect(JSON.parse(JSON.stringify(table))).toEqual(JSON.parse(JSON.stringify(source)));
  });

  it("parses a large member of an entry (git's subcommands) one key at a time too", () => {
    const subcommands = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`sub${i}`, { options: { [`--opt-${i}`]: 1, "--long-option-name": 0 } }]),
    );
    const table = lazy({ git: { options: { "-C": 1 }, subcommands } });
    const git = table["git"] as { subcommands: Table };
    expect(git.subcommands).not.toBe(subcommands);
    expect(Object.keys(git.subcommands)).toEqual(Object.keys(subcommands));
    expect(git.subcommands["sub7"]).toEqual(subcommands["sub7"]);
    expect(Object.hasOwn(git.subcommands, "sub40")).toBe(false);
    expect(JSON.parse(JSON.stringify(git))).toEqual({ options: { "-C": 1 }, subcommands });
  });

  it("lists and checks keys without parsing an entry (module set-up code lists tables' keys)", () => {
    const reads: string[] = [];
    const table = lazyTable('\ngit\t{"a":1}\nmake\t{"b":2}\nnpm\t{"c":3}\n', undefined, (where) => {
      reads.push(where);
      return where;
    });
    expect(Object.keys(table)).toEqual(["git", "make", "npm"]);
    expect(Object.hasOwn(table, "make")).toBe(true);
    expect("npm" in table).toBe(true);
    expect(Object.hasOwn(table, "rm")).toBe(false);
    expect(reads).toEqual([]);
    expect(table["make"]).toEqual({ b: 2 });
    expect(Object.getOwnPropertyDescriptor(table, "npm")?.get?.()).toEqual({ c: 3 });
    expect({ ...table }).toEqual({ git: { a: 1 }, make: { b: 2 }, npm: { c: 3 } });
    expect(reads).toEqual(['{"b":2}', '{"c":3}', '{"a":1}']);
  });

  it("has no other own keys, keeps inherited members, and refuses writes", () => {
    const table = lazy({ git: { options: { "-C": 1 } }, echo: {} });
    expect(Object.hasOwn(table, "rm")).toBe(false);
    expect(table["rm"]).toBeUndefined();
    expect(Object.hasOwn(table, "toString")).toBe(false);
    expect(typeof table.toString).toBe("function");
    expect(Object.entries(table)).toEqual([
      ["git", { options: { "-C": 1 } }],
      ["echo", {}],
    ]);
    expect(() => {
      "use strict";
      table["rm"] = {};
    }).toThrow(TypeError);
    expect(Reflect.deleteProperty(table, "git")).toBe(false);
    expect(table["git"]).toEqual({ options: { "-C": 1 } });
  });

  it("read from the data file beside the bundle, entry by entry, only when it is the file the bundle was built with", () => {
    const dir = mkdtempSync(join(tmpdir(), "lanes-tables-"));
    try {
      const store = new TableStore();
      const plain = JSON.parse(JSON.stringify(PROGRAM_GRAMMARS)) as Table;
      const source = lazyTableSource(plain, "test", store);
      const load = () =>
        new Function("__lanesLazyTable", "__lanesTableEntry", `return ${source};`)(
          lazyTable,
          tableFileReader(store.header(), dir),
        ) as Table;
      // the bundle holds the keys and where their entries are, not the entries
      expect(source.length).toBeLessThan(JSON.stringify(plain).length / 4);
      writeFileSync(join(dir, "shell.tables"), store.contents());
      const table = load();
      expect(Object.keys(table)).toEqual(Object.keys(plain));
      for (const key of Object.keys(plain)) expect(table[key]).toEqual(plain[key]);
      expect(() => store.add("{}", "late")).toThrow(/already complete/);
      // another build's file, or a cut one: an error that says what to do, never a misread
      writeFileSync(join(dir, "shell.tables"), store.contents().replace(store.id(), "0".repeat(16)));
      expect(() => load()["git"]).toThrow(/is not the data of the shell analysis beside it; reinstall lanes/);
      writeFileSync(join(dir, "shell.tables"), store.contents().slice(0, store.header().length + 10));
      expect(() => load()["git"]).toThrow(/is shorter than the shell analysis expects; reinstall lanes/);
      rmSync(join(dir, "shell.tables"));
      expect(() => load()["git"]).toThrow(
        expect.objectContaining({
          name: "LanesInstallError",
          message: expect.stringMatching(/cannot be read \(ENOENT\); reinstall lanes/),
        }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

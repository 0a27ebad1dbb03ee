import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkAll, checkSource, LAYERS } from "../scripts/check-style.ts";

describe("style check", () => {
  it.each([
    ["src/policy/x.ts", 'const parts = input.command.split(" ");', "treats command text"],
    ["src/hooks/x.ts", 'if (/rm -rf/.test(toolInput["command"])) {}', "treats command text"],
    ["src/policy/x.ts", 'import { parse } from "unbash";', "`unbash` is imported outside src/shell/"],
    ["src/runtime/x.ts", 'import matter from "gray-matter";', "`gray-matter` is imported outside"],
    ["src/hooks/x.ts", "process.exit(1);", "`process.exit` outside the entry points"],
    ["src/hooks/x.ts", 'console.log("debug");', "`console` in src/"],
  ])("flags %s: %s", (file, code, message) => {
    expect(
      checkSource(file, code)
        .map((v) => v.message)
        .join("\n"),
    ).toContain(message);
  });

  it.each([
    ["src/shell/x.ts", 'import { parse } from "unbash"; const w = command.split(" ");'],
    ["src/policy/x.ts", 'const t = text.replace(/a/g, "b");'],
    ["src/cli/main.ts", "process.exit(0);"],
    ["src/cli/statusline-main.ts", "process.exit(0);"],
  ])("accepts %s: %s", (file, code) => {
    expect(checkSource(file, code)).toEqual([]);
  });

  it.each([
    [
      "src/policy/evaluate.ts",
      'import { runPreToolUse } from "../hooks/pre-tool-use.ts";',
      "layers: `src/policy/evaluate.ts` (layer policy) imports `src/hooks/pre-tool-use.ts` (layer hooks), a higher layer",
    ],
    [
      "src/host/env.ts",
      'import type { SettingsRule } from "../policy/settings.ts";',
      "layers: `src/host/env.ts` (layer host) imports `src/policy/settings.ts` (layer policy), a higher layer",
    ],
    [
      "src/globs/match.ts",
      'export { PATH_CLASSES } from "../schema/vocabulary.ts";',
      "layers: `src/globs/match.ts` (layer globs) imports `src/schema/vocabulary.ts` (layer schema)",
    ],
    [
      "src/definitions/agent.ts",
      'import { CommandMatch } from "../config/schema.ts";',
      "(layer definitions) imports `src/config/schema.ts` (layer config), a higher layer",
    ],
    [
      "src/runtime/x.ts",
      'import { x } from "../version.ts";',
      "layers: `src/runtime/x.ts` imports `src/version.ts`, which is in no layer",
    ],
    ["src/misc/x.ts", 'import { x } from "../host/layout.ts";', "layers: `src/misc/` is in no layer"],
  ])("refuses an import against the layer order: %s: %s", (file, code, message) => {
    expect(
      checkSource(file, code)
        .map((v) => v.message)
        .join("\n"),
    ).toContain(message);
  });

  it.each([
    ["src/cli/run.ts", 'import { x } from "../hooks/pre-tool-use.ts";'],
    ["src/io/lock.ts", 'import { x } from "../host/layout.ts";'],
    ["src/host/layout.ts", 'import { x } from "../io/atomic.ts";'],
    ["src/policy/match.ts", 'import { x } from "./facts.ts"; import { y } from "../shell/index.ts";'],
    ["scripts/build.ts", 'import { x } from "../src/cli/run.ts";'],
  ])("accepts an import along the layer order: %s: %s", (file, code) => {
    expect(checkSource(file, code)).toEqual([]);
  });

  it("orders every directory of src/ in exactly one layer", () => {
    const dirs = LAYERS.flat();
    expect(new Set(dirs).size).toBe(dirs.length);
    expect([...dirs].sort()).toEqual(
      readdirSync(join(import.meta.dirname, "..", "src"), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort(),
    );
  });

  it("finds nothing in the repository", () => {
    expect(checkAll()).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { checkAll, checkSource } from "../scripts/check-style.ts";

describe("style check", () => {
  it.each([
    ["src/policy/x.ts", 'const parts = input.command.split(" ");', "treats command text"],
    ["src/hooks/x.ts", 'if (/rm -rf/.test(toolInput["command"])) {}', "treats command text"],
    ["src/policy/x.ts", 'import { parse } from "unbash";', "`unbash` is imported outside src/shell/"],
    ["src/runtime/x.ts", 'import matter from "gray-matter";', "`gray-matter` is imported outside"],
    ["src/hooks/x.ts", "process.exit(1);", "`process.exit` outside src/cli/main.ts"],
    ["src/hooks/x.ts", 'console.log("debug");', "`console` in src/"],
  ])("flags %s: %s", (file, code, message) => {
    expect(checkSource(file, code).map((v) => v.message).join("\n")).toContain(message);
  });

  it.each([
    ["src/shell/x.ts", 'import { parse } from "unbash"; const w = command.split(" ");'],
    ["src/policy/x.ts", 'const t = text.replace(/a/g, "b");'],
    ["src/cli/main.ts", "process.exit(0);"],
  ])("accepts %s: %s", (file, code) => {
    expect(checkSource(file, code)).toEqual([]);
  });

  it("finds nothing in the repository", () => {
    expect(checkAll()).toEqual([]);
  });
});

/**
 * The hook loader's code caches (src/hooks/lazy/hook-loader.ts): a cache grows by the code of each
 * new kind of call and is left alone for a kind it has seen; a damaged cache never changes an
 * answer; the lazily loaded bundles refuse to run without the loader.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBundle } from "../../src/hooks/lazy/loader.ts";
import { hookInput, installedProject, runHook, type Project } from "../helpers/hooks.ts";

let p: Project;
beforeAll(() => {
  p = installedProject({ "README.md": "# demo\n" });
});
afterAll(() => p.cleanup());

const cacheDir = () => p.path(".claude/state/cache");
/** Each cache file's bundle name and the kinds of call its header lists. */
function caches(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const name of readdirSync(cacheDir())) {
    if (!name.endsWith(".v8")) continue;
    const bytes = readFileSync(join(cacheDir(), name));
    out[name.slice(0, name.indexOf("-"))] = JSON.parse(bytes.subarray(4, 4 + bytes.readUInt32LE(0)).toString("latin1"));
  }
  return out;
}
const pre = (tool: string, input: Record<string, unknown>) =>
  runHook(p, "pre-tool-use.cjs", hookInput(p, "PreToolUse", { tool_name: tool, tool_input: input }));

describe("the hook loader's code caches", () => {
  it("start with the first kind of call and grow by each new kind, once", () => {
    expect(pre("Read", { file_path: p.path("README.md") }).stdout).toBe("");
    expect(caches()).toEqual({ pre: ["pre:Read:main:quiet"] });

    expect(pre("Bash", { command: "git status" }).stdout).toBe("");
    expect(caches()).toEqual({
      pre: ["pre:Read:main:quiet", "pre:Bash:main:quiet"],
      shell: ["pre:Bash:main:quiet"],
    });

    const denied = pre("Bash", { command: "git reset --hard" });
    expect(denied.json?.["hookSpecificOutput"]).toMatchObject({ permissionDecision: "deny" });
    expect(caches()["shell"]).toEqual(["pre:Bash:main:quiet", "pre:Bash:main:answer"]);

    // a kind already seen leaves the files alone
    const before = readdirSync(cacheDir()).map((f) => statSync(join(cacheDir(), f)).mtimeMs);
    expect(pre("Bash", { command: "npm test" }).stdout).toBe("");
    expect(readdirSync(cacheDir()).map((f) => statSync(join(cacheDir(), f)).mtimeMs)).toEqual(before);
  });

  it("a damaged cache changes no answer and is written again", () => {
    for (const name of readdirSync(cacheDir())) writeFileSync(join(cacheDir(), name), "\u0007garbage");
    const denied = pre("Bash", { command: "git reset --hard" });
    expect(denied.status).toBe(0);
    expect(denied.json?.["hookSpecificOutput"]).toMatchObject({ permissionDecision: "deny" });
    expect(caches()["shell"]).toEqual(["pre:Bash:main:answer"]);
    expect(pre("Bash", { command: "git status" }).stdout).toBe("");
  });

  it("a missing or foreign table file blocks every Bash call, whatever it runs, and says to reinstall", () => {
    const file = p.path(".claude/lanes/dist/shell.tables");
    const tables = readFileSync(file);
    try {
      for (const broken of [
        undefined,
        Buffer.concat([Buffer.from("lanes shell tables 0000000000000000\n"), tables.subarray(36)]),
      ]) {
        if (broken === undefined) rmSync(file);
        else writeFileSync(file, broken);
        for (const command of ["git status", "rm -rf /", "ls"]) {
          const out = pre("Bash", { command }).json?.["hookSpecificOutput"] as Record<string, unknown>;
          expect(out, command).toMatchObject({ permissionDecision: "deny" });
          expect(String(out["permissionDecisionReason"]), command).toMatch(/shell\.tables`.*reinstall lanes/);
        }
      }
    } finally {
      writeFileSync(file, tables);
    }
    expect(pre("Bash", { command: "git status" }).stdout).toBe("");
  });

  it("the lazily loaded bundles run only through the loader, and say so", () => {
    expect(() => loadBundle("shell")).toThrow(/runs only through the lanes hook loader/);
    expect(readFileSync(p.path(".claude/lanes/dist/shell.impl.cjs"), "utf8")).toMatch(
      /^\(function \(exports, require, module, __filename, __dirname\) \{/,
    );
  });
});

/**
 * Upgrades that settle: a definition changed both by the team and by a newer pack conflicts once;
 * `init` exits non-zero with a short summary while the conflict is open, and once the team resolves
 * it by hand the next `init` is clean and a later upgrade merges from the resolution.
 * The pack is a copy of this package (package.json, dist/, definitions/, schemas/) whose
 * definitions the test edits, run by its own copy of the built CLI.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const AGENT = "agents/backend.yaml";
let base: string;
let pack: string;
let repo: string;

const init = () =>
  spawnSync(process.execPath, [join(pack, "dist", "cli.mjs"), "init", repo], {
    cwd: repo,
    env: { PATH: process.env["PATH"], HOME: join(base, "home") },
    encoding: "utf8",
  });
const installed = () => readFileSync(join(repo, ".claude/lanes", AGENT), "utf8");
const edit = (path: string, from: string, to: string) => {
  const text = readFileSync(path, "utf8");
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
};

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "lanes-upgrade-")));
  pack = join(base, "pack");
  for (const part of ["package.json", "dist", "definitions", "schemas"])
    cpSync(join(ROOT, part), join(pack, part), { recursive: true });
  repo = join(base, "repo");
  mkdirSync(join(base, "home"), { recursive: true });
  mkdirSync(repo, { recursive: true });
  spawnSync("git", ["init", "-q"], { cwd: repo });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("an upgrade conflict resolved by hand stays resolved", () => {
  it("install, conflict (non-zero, a summary), resolve, clean init, a second upgrade without conflict", () => {
    const first = init();
    expect(first.status, first.stderr).toBe(0);

    // the team and the next pack version change the same line
    edit(join(repo, ".claude/lanes", AGENT), "color: blue\n", "color: red\n");
    edit(join(pack, "definitions", AGENT), "color: blue\n", "color: green\n");
    const ours = installed();

    const conflict = init();
    expect(conflict.status).toBe(1);
    const lines = conflict.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      "lanes init: conflict in `.claude/lanes/agents/backend.yaml`: 1 hunk(s) where your edits and lanes' update change the same lines; your file is kept unchanged. to resolve: `cp .claude/state/upgrade/agents/backend.yaml .claude/lanes/agents/backend.yaml` (both sides, between <<<<<<< yours and >>>>>>> lanes), edit each hunk to what you want, then run `npx --no-install lanes init` again",
    );
    expect(lines[1]).toBe(
      "lanes init: installed, but 1 definition(s) have an upgrade conflict (above): resolve them and run `npx --no-install lanes init` again",
    );
    expect(installed()).toBe(ours);

    // not resolved yet: the same conflict, still non-zero
    const again = init();
    expect([again.status, again.stderr.split("\n")[0]]).toEqual([1, lines[0]]);

    // the copy with markers is not a resolution either
    const side = readFileSync(join(repo, ".claude/state/upgrade", AGENT), "utf8");
    expect(side).toContain("<<<<<<< yours\ncolor: red\n=======\ncolor: green\n>>>>>>> lanes\n");
    writeFileSync(join(repo, ".claude/lanes", AGENT), side);
    const marked = init();
    expect(marked.status).toBe(1);
    expect(marked.stderr).toContain("still holds conflict markers");

    // resolved by hand: a colour of their own
    writeFileSync(
      join(repo, ".claude/lanes", AGENT),
      side.replace("<<<<<<< yours\ncolor: red\n=======\ncolor: green\n>>>>>>> lanes\n", "color: purple\n"),
    );
    const resolved = init();
    expect(resolved.status, resolved.stderr).toBe(0);
    expect(resolved.stderr).toBe("");
    expect(resolved.stdout).toContain("  resolved  .claude/lanes/agents/backend.yaml");
    expect(readFileSync(join(repo, ".claude/lanes/base", AGENT), "utf8")).toBe(
      readFileSync(join(pack, "definitions", AGENT), "utf8").replace("../../schemas/", "../schemas/"),
    );
    expect(readFileSync(join(repo, ".claude/lanes/install.json"), "utf8")).not.toContain('"conflicts"');

    const settled = init();
    expect([settled.status, settled.stderr]).toEqual([0, ""]);
    expect(settled.stdout).not.toContain("resolved");
    expect(settled.stdout).toContain("lanes is up to date");

    // a second upgrade changes another line: merged, no conflict
    edit(join(pack, "definitions", AGENT), "  - src/pages/api/**\n", "  - src/pages/api/**\n  - src/routes/**\n");
    const second = init();
    expect([second.status, second.stderr]).toEqual([0, ""]);
    expect(second.stdout).toContain("  merged    .claude/lanes/agents/backend.yaml");
    expect(installed()).toContain("  - src/routes/**\n");
    expect(installed()).toContain("color: purple\n");
  });
});

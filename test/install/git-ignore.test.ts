import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkIgnored, ensureTracked, IGNORE_MARKER, removeNegations } from "../../src/install/git-ignore.ts";

const INSTALLED = [
  ".claude/settings.json",
  ".claude/lanes.yaml",
  ".claude/.gitignore",
  ".claude/lanes/dist/pre-tool-use.cjs",
  ".claude/lanes/dist/cli.mjs",
  ".claude/lanes/agents/backend.yaml",
  ".claude/agents/backend.md",
];

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "lanes-ignore-"));
  dirs.push(dir);
  spawnSync("git", ["init", "-q", dir]);
  for (const [path, content] of Object.entries({ ".claude/.gitignore": "state/\nsettings.local.json\n", ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  for (const path of INSTALLED) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    if (path !== ".claude/.gitignore") writeFileSync(join(dir, path), "x\n");
  }
  return dir;
}

const staged = (dir: string): string[] => {
  spawnSync("git", ["add", "-A"], { cwd: dir });
  return spawnSync("git", ["diff", "--cached", "--name-only"], { cwd: dir, encoding: "utf8" })
    .stdout.split("\n")
    .filter((l) => l !== "");
};

describe("ensureTracked", () => {
  it.each([
    ["nothing ignored", { ".gitignore": "node_modules/\n" }, []],
    [
      "dist/ (the typical TypeScript repository)",
      { ".gitignore": "dist/\nbuild/\n*.log\n.env\n" },
      [[".claude/.gitignore", "!/lanes/dist/", ".gitignore:1:dist/"]],
    ],
    [
      "all of .claude/",
      { ".gitignore": "dist/\n.claude/\n" },
      [
        [".gitignore", "!/.claude/", ".gitignore:2:.claude/"],
        [".claude/.gitignore", "!/lanes/dist/", ".gitignore:1:dist/"],
      ],
    ],
    [
      "*.cjs, a file rule",
      { ".gitignore": "*.cjs\n" },
      [[".claude/.gitignore", "!/lanes/dist/pre-tool-use.cjs", ".gitignore:1:*.cjs"]],
    ],
    [
      "a hidden-directory rule in .git/info/exclude",
      { ".git/info/exclude": ".*\n" },
      [
        [".gitignore", "!/.claude/", ".git/info/exclude:1:.*"],
        [".gitignore", "!/.gitignore", ".git/info/exclude:1:.*"],
        [".claude/.gitignore", "!/.gitignore", ".git/info/exclude:1:.*"],
      ],
    ],
  ])("%s: negations where needed, then git tracks every installed file", (_name, files, fixes) => {
    const dir = repo(files);
    const result = ensureTracked(dir, INSTALLED);
    expect(result.git).toBe(true);
    if (!result.git) return;
    expect(result.fixes.map((f) => [f.file, f.line, f.undoes])).toEqual(fixes);
    expect(result.stillIgnored).toEqual([]);
    const ignored = checkIgnored(dir, INSTALLED);
    expect(ignored).toEqual([]);
    expect(staged(dir)).toEqual(expect.arrayContaining(INSTALLED));
    // idempotent: a second run adds nothing
    const again = ensureTracked(dir, INSTALLED);
    expect(again.git && again.fixes).toEqual([]);
  });

  it("keeps lanes' own ignores (state/) in force and removeNegations restores the files byte for byte", () => {
    const dir = repo({ ".gitignore": "dist/\n.claude/\n# end\n" });
    mkdirSync(join(dir, ".claude", "lanes", "state"), { recursive: true });
    writeFileSync(join(dir, ".claude", "lanes", "state", "policy.json"), "{}");
    const before = {
      root: readFileSync(join(dir, ".gitignore"), "utf8"),
      own: readFileSync(join(dir, ".claude/.gitignore"), "utf8"),
    };
    const result = ensureTracked(dir, INSTALLED);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe(`${before.root}${IGNORE_MARKER}\n!/.claude/\n`);
    expect(staged(dir)).not.toContain(".claude/lanes/state/policy.json");
    removeNegations(dir, result.git ? result.fixes : []);
    expect({
      root: readFileSync(join(dir, ".gitignore"), "utf8"),
      own: readFileSync(join(dir, ".claude/.gitignore"), "utf8"),
    }).toEqual(before);
  });

  it("outside a git repository: says so and writes nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), "lanes-nogit-"));
    dirs.push(dir);
    expect(ensureTracked(dir, INSTALLED)).toEqual({ git: false, reason: "not a git repository" });
  });
});

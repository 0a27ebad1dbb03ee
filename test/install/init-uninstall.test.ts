/**
 * `lanes init` then `lanes uninstall` with the built CLI in throwaway git repositories: the install
 * is tracked whatever the repository's ignore rules say, and uninstall gives back every file the
 * team had, byte for byte, keeping only what the team changed.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
let bases: string[] = [];
afterEach(() => {
  for (const b of bases) rmSync(b, { recursive: true, force: true });
  bases = [];
});

function repo(files: Record<string, string>): { dir: string; home: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "lanes-init-")));
  bases.push(base);
  const dir = join(base, "repo");
  const home = join(base, "home");
  mkdirSync(home, { recursive: true });
  mkdirSync(dir, { recursive: true });
  spawnSync("git", ["init", "-q"], { cwd: dir });
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return { dir, home };
}

const lanes = (r: { dir: string; home: string }, ...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), ...args], {
    cwd: r.dir,
    env: { PATH: process.env["PATH"], HOME: r.home },
    encoding: "utf8",
  });

/** Every file of the work tree (not .git) with its content. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === ".git") continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[p.slice(dir.length + 1)] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}

const TEAM_IGNORE = "node_modules/\ndist/\nbuild/\n*.log\n.env\n";

describe("lanes init / lanes uninstall", () => {
  it.each([
    [
      "a TypeScript repository (dist/, build/, *.log, .env ignored) with its own settings",
      {
        ".gitignore": TEAM_IGNORE,
        ".claude/settings.json": '{\n  "permissions": {\n    "deny": ["Bash(curl:*)"]\n  }\n}\n',
      },
    ],
    ["a repository that ignores all of .claude/", { ".gitignore": `${TEAM_IGNORE}.claude/\n` }],
    [
      "tab-indented settings with other hooks and a .claude/.gitignore of its own",
      {
        ".gitignore": "dist\n",
        ".claude/.gitignore": "scratch/\n",
        ".claude/settings.json":
          '{\n\t"hooks": {\n\t\t"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]\n\t}\n}',
      },
    ],
  ])("%s", (_name, files) => {
    const r = repo(files);
    const before = tree(r.dir);
    const init = lanes(r, "init");
    expect(init.status, init.stderr).toBe(0);

    // everything the wiring needs is staged by `git add -A`
    spawnSync("git", ["add", "-A"], { cwd: r.dir });
    const staged = spawnSync("git", ["diff", "--cached", "--name-only"], { cwd: r.dir, encoding: "utf8" }).stdout.split(
      "\n",
    );
    for (const f of [
      "pre-tool-use.cjs",
      "pre-tool-use.impl.cjs",
      "shell.impl.cjs",
      "shell.tables",
      "code.impl.cjs",
      "python.impl.cjs",
      "python.lrtables",
      "javascript.impl.cjs",
      "javascript.lrtables",
      "compile.impl.cjs",
      "session-start.cjs",
      "cli.mjs",
      "policy.default.json",
    ])
      expect(staged).toContain(`.claude/lanes/dist/${f}`);
    expect(staged).toContain(".claude/settings.json");
    expect(staged).toContain(".claude/lanes/install.json");
    expect(staged.some((f) => f.startsWith(".claude/state/"))).toBe(false);

    // a second init changes nothing
    const again = lanes(r, "init");
    expect(again.stdout).toContain("lanes is up to date");

    // the team edits its policy; uninstall keeps that file and restores everything else
    const policy = join(r.dir, ".claude", "lanes.yaml");
    writeFileSync(policy, `${readFileSync(policy, "utf8")}# ours\n`);
    const un = lanes(r, "uninstall");
    expect(un.status, un.stderr).toBe(0);
    expect(un.stdout).toContain("kept      .claude/lanes.yaml");
    const after = tree(r.dir);
    delete after[".claude/lanes.yaml"];
    expect(after).toEqual(before);
  });

  it("uninstall keeps the audit log, the team's record of decisions; --purge removes it too", () => {
    const r = repo({ ".gitignore": TEAM_IGNORE });
    expect(lanes(r, "init").status).toBe(0);
    const entry = '{"ts":"2026-01-01T00:00:00.000Z","event":"decision","decision":"deny"}\n';
    writeFileSync(join(r.dir, ".claude", "lanes", "state", "audit.jsonl"), entry);
    const out = lanes(r, "uninstall");
    expect(out.status).toBe(0);
    expect(out.stdout).toContain("kept      .claude/lanes/state/audit.jsonl (the audit log; --purge removes it)");
    expect(tree(r.dir)).toEqual({ ".gitignore": TEAM_IGNORE, ".claude/lanes/state/audit.jsonl": entry });
    const again = repo({ ".gitignore": TEAM_IGNORE });
    expect(lanes(again, "init").status).toBe(0);
    writeFileSync(join(again.dir, ".claude", "lanes", "state", "audit.jsonl"), entry);
    expect(lanes(again, "uninstall", "--purge").status).toBe(0);
    expect(tree(again.dir)).toEqual({ ".gitignore": TEAM_IGNORE });
  });

  it("uninstall --purge also removes what the team changed; without a record it refuses", () => {
    const r = repo({ ".gitignore": TEAM_IGNORE });
    expect(lanes(r, "init").status).toBe(0);
    writeFileSync(join(r.dir, ".claude", "lanes.yaml"), "version: 1\n");
    expect(lanes(r, "uninstall", "--purge").status).toBe(0);
    expect(tree(r.dir)).toEqual({ ".gitignore": TEAM_IGNORE });
    const none = lanes(r, "uninstall");
    expect([none.status, none.stderr]).toEqual([
      1,
      expect.stringMatching(
        /^lanes uninstall: no lanes install record in `.*install\.json`: lanes was not installed here/,
      ),
    ]);
    expect(existsSync(join(r.dir, ".claude"))).toBe(false);
  });
});

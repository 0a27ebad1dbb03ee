/** `lanes test` with the built CLI: the starter table passes after init; a wrong expectation fails with file:line. */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
let base: string;
let dir: string;
const lanes = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), ...args], {
    cwd: dir,
    env: { PATH: process.env["PATH"], HOME: join(base, "home") },
    encoding: "utf8",
  });

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "lanes-test-")));
  dir = join(base, "repo");
  mkdirSync(join(base, "home"), { recursive: true });
  mkdirSync(dir, { recursive: true });
  spawnSync("git", ["init", "-q"], { cwd: dir });
  expect(lanes("init", "--guard-only").status).toBe(0);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("lanes test", () => {
  it("the starter table shipped by init passes", () => {
    const run = lanes("test");
    expect([run.status, run.stdout.trim().split("\n").at(-1)]).toEqual([0, "7 passed, 0 failed"]);
  });

  it("a wrong expectation fails with file:line, expected and actual; --json says which", () => {
    appendFileSync(join(dir, ".claude/lanes.test.yaml"), '  - { command: "git reset --hard", decision: ask }\n');
    const run = lanes("test");
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      "FAIL  .claude/lanes.test.yaml:15: git reset --hard: expected ask, got deny [git.reset-hard]\n",
    );
    const json = JSON.parse(lanes("test", "--json").stdout) as {
      ok: boolean;
      results: { ok: boolean; subject: string }[];
    };
    expect([json.ok, json.results.filter((r) => !r.ok).map((r) => r.subject)]).toEqual([false, ["git reset --hard"]]);
  });

  it.each([
    [
      "an unknown decision",
      "cases:\n  - { command: ls, decision: allow }\n",
      /^lanes test: t\.yaml:2: cases\[0\]\.decision: /,
    ],
    [
      "both rules and rules_include",
      "cases:\n  - { command: ls, decision: none, rules: [a], rules_include: [a] }\n",
      /^lanes test: t\.yaml:2: cases\[0\]: give `rules` \(exactly these\) or `rules_include` \(at least these\), not both/,
    ],
    [
      "a case without command or input",
      "cases:\n  - { decision: deny }\n",
      /^lanes test: t\.yaml:2: cases\[0\]: give `command` \(Bash\) or `input`/,
    ],
  ])("an invalid table (%s) is an error naming file and line", (_name, content, message) => {
    writeFileSync(join(dir, "t.yaml"), content);
    const run = lanes("test", "t.yaml");
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(message);
  });
});

describe("lanes test in a repository whose settings have their own deny rules", () => {
  let own: string;
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [join(own, ".claude/lanes/dist/cli.mjs"), ...args], {
      cwd: own,
      env: { PATH: process.env["PATH"], HOME: join(base, "home") },
      encoding: "utf8",
    });
  beforeAll(() => {
    own = join(base, "own");
    mkdirSync(join(own, ".claude"), { recursive: true });
    spawnSync("git", ["init", "-q"], { cwd: own });
    writeFileSync(
      join(own, ".claude/settings.json"),
      '{\n  "permissions": {\n    "deny": ["Bash(rm:*)", "Read(./.env)", "Bash(git push:*)"]\n  }\n}\n',
    );
    const init = spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), "init", "--guard-only"], {
      cwd: own,
      env: { PATH: process.env["PATH"], HOME: join(base, "home") },
      encoding: "utf8",
    });
    expect(init.status, init.stderr).toBe(0);
  });

  it("the starter table passes: its cases name the rules they need at least", () => {
    const result = run("test");
    expect([result.status, result.stdout.trim().split("\n").at(-1)], result.stdout).toEqual([0, "7 passed, 0 failed"]);
    expect(result.stdout).toContain("ok    rm -rf / → deny [settings.deny, fs.delete-root]\n");
  });

  it.each([
    ["rules: exactly these, the settings rule is one more", "rules: [fs.delete-root]", 1, "FAIL"],
    ["rules_include: at least these", "rules_include: [fs.delete-root]", 0, "ok"],
    ["rules_include: every id must decide", "rules_include: [fs.delete-root, git.push-force]", 1, "FAIL"],
    ["rules: both, exactly", "rules: [fs.delete-root, settings.deny]", 0, "ok"],
  ])("%s", (_name, rules, status, verdict) => {
    writeFileSync(join(own, "t.yaml"), `cases:\n  - { command: "rm -rf /", decision: deny, ${rules} }\n`);
    const result = run("test", "t.yaml");
    expect([result.status, result.stdout.split(" ")[0]]).toEqual([status, verdict]);
  });
});

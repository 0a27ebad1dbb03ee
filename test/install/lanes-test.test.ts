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
      "FAIL  .claude/lanes.test.yaml:13: git reset --hard: expected ask, got deny [git.reset-hard]\n",
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

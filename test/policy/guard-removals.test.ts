/**
 * A branch switch to a tree without the guard's files (a branch made before lanes was installed)
 * deletes them: judged as a shell delete of the guard zone, by the facts the hook reads from git.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardRemovalsReader } from "../../src/hooks/guard/dirty-files.ts";
import { expectDecision, judge, PROJECT, testPolicy } from "../helpers/guard.ts";

const policy = testPolicy();

describe("branch switches judged by the guard's files they remove", () => {
  const asked: string[] = [];
  const removals = (target: string, candidates: readonly string[]): string[] => {
    asked.push(target);
    return target === "release" || target === "@{-1}"
      ? candidates.filter((c) => c === `${PROJECT}/.claude/settings.json`)
      : [];
  };

  it("denies a switch that removes the wiring, in the main session and for a subagent", () => {
    expectDecision(judge(policy, "git switch -q release", { removals }), "deny", ["lanes.config-shell"]);
    expectDecision(judge(policy, "git checkout release", { removals, agent: "backend" }), "deny", [
      "lanes.config",
      "lanes.config-shell",
    ]);
    expectDecision(judge(policy, "git checkout -", { removals }), "deny", ["lanes.config-shell"]);
    expectDecision(judge(policy, "git switch -c hotfix release", { removals }), "deny", ["lanes.config-shell"]);
  });

  it("leaves switches that keep the guard, and forms that switch nothing, alone", () => {
    asked.length = 0;
    expectDecision(judge(policy, "git switch feature", { removals }), "none");
    expectDecision(judge(policy, "git switch -c feature", { removals }), "none");
    // (a checkout of paths writes those paths: a rule of its own, and no switch of the tree)
    expectDecision(judge(policy, "git checkout release README.md", { removals }), "deny", ["git.checkout-paths"]);
    expectDecision(judge(policy, "git status", { removals }), "none");
    expect(asked).toEqual(["feature"]);
  });
});

describe("guardRemovalsReader, against a real repository", () => {
  let dir: string;
  const git = (...args: string[]): string =>
    execFileSync("git", args, {
      cwd: dir,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@t",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@t",
      },
    });
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "lanes-removals-"));
    git("init", "-q", "-b", "main");
    writeFileSync(join(dir, "README.md"), "hi\n");
    git("add", "-A");
    git("commit", "-qm", "before lanes");
    git("branch", "release");
    mkdirSync(join(dir, ".claude", "lanes", "dist"), { recursive: true });
    writeFileSync(join(dir, ".claude", "settings.json"), "{}\n");
    writeFileSync(join(dir, ".claude", "lanes", "dist", "pre-tool-use.cjs"), "//\n");
    git("add", "-A");
    git("commit", "-qm", "lanes");
    git("branch", "feature");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names the tracked guard files the target lacks, and nothing for a target that has them", () => {
    const candidates = [
      join(dir, ".claude/settings.json"),
      join(dir, ".claude/lanes/dist/pre-tool-use.cjs"),
      join(dir, ".claude/lanes.yaml"),
    ];
    const read = guardRemovalsReader(dir);
    expect(read("release", candidates).sort()).toEqual(candidates.slice(0, 2).sort());
    expect(read("feature", candidates)).toEqual([]);
    expect(read("no-such-branch", candidates)).toEqual([]);
    expect(read("--output=/tmp/x", candidates)).toEqual([]);
  });
});

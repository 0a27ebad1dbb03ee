import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findProjectDir } from "../../src/host/env.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "lanes-env-")));
const home = join(root, "home");
const mk = (...parts: string[]) => {
  const dir = join(root, ...parts);
  mkdirSync(dir, { recursive: true });
  return dir;
};
mk("home", ".claude");
mk("home", "work", "plain", "src");
mk("home", "work", "gitrepo", ".git");
mk("home", "work", "gitrepo", "pkg", "src");
mk("home", "work", "installed", ".claude");
mk("home", "work", "installed", ".git");
mk("home", "work", "installed", "a", "b");
mk("outside", "x");
mk("home", "work", "mono", ".claude", "lanes");
mk("home", "work", "mono", "packages", "api", ".claude");
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("findProjectDir", () => {
  const env = { HOME: home };
  it.each([
    ["CLAUDE_PROJECT_DIR wins", join(root, "outside", "x"), { ...env, CLAUDE_PROJECT_DIR: join(root, "home", "work", "plain") }, join(root, "home", "work", "plain")],
    ["the nearest .claude/ above the cwd", join(root, "home", "work", "installed", "a", "b"), env, join(root, "home", "work", "installed")],
    ["the git root when no .claude/ exists", join(root, "home", "work", "gitrepo", "pkg", "src"), env, join(root, "home", "work", "gitrepo")],
    ["never the home directory, whose .claude/ is user configuration", join(root, "home", "work", "plain", "src"), env, join(root, "home", "work", "plain", "src")],
    ["the cwd when nothing is found", join(root, "outside", "x"), env, join(root, "outside", "x")],
    ["from CLAUDE_PROJECT_DIR up to the lanes configuration (a monorepo package)", join(root, "outside"), { ...env, CLAUDE_PROJECT_DIR: join(root, "home", "work", "mono", "packages", "api") }, join(root, "home", "work", "mono")],
    ["the lanes configuration before a nearer plain .claude/", join(root, "home", "work", "mono", "packages", "api"), env, join(root, "home", "work", "mono")],
  ])("%s", (_name, cwd, e, expected) => {
    expect(findProjectDir(cwd, e)).toBe(expected);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitDirs, gitHooksDirs, hooksPathIn } from "../../src/host/git-layout.ts";

let root = "";
afterEach(() => {
  if (root !== "") rmSync(root, { recursive: true, force: true });
});

describe("git layout read from disk", () => {
  it("reads core.hooksPath as git does (the last one of the core section)", () => {
    expect(hooksPathIn("[core]\n\thooksPath = .husky\n[user]\n\thooksPath = no\n")).toBe(".husky");
    expect(hooksPathIn('[core]\n\thookspath = "/tmp/h"\n[core]\n\tHooksPath = .githooks\n')).toBe(".githooks");
    expect(hooksPathIn("[user]\n\temail = x\n")).toBeUndefined();
  });

  it("finds the hooks of a repository, of a linked work tree, and of core.hooksPath", () => {
    root = mkdtempSync(join(tmpdir(), "lanes-layout-"));
    const main = join(root, "main");
    const home = join(root, "home");
    mkdirSync(join(main, ".git", "worktrees", "wt"), { recursive: true });
    mkdirSync(home);
    writeFileSync(join(main, ".git", "config"), "[core]\n\thooksPath = .githooks\n");
    writeFileSync(join(home, ".gitconfig"), "[core]\n\thooksPath = ~/hooks\n");
    expect(gitHooksDirs(main, home, {})).toEqual([
      join(main, ".git", "hooks"),
      join(home, "hooks"),
      join(main, ".githooks"),
    ]);
    const wt = join(root, "wt");
    mkdirSync(wt);
    writeFileSync(join(wt, ".git"), `gitdir: ${join(main, ".git", "worktrees", "wt")}\n`);
    writeFileSync(join(main, ".git", "worktrees", "wt", "commondir"), "../..\n");
    expect(gitDirs(wt)).toEqual({ gitDir: join(main, ".git", "worktrees", "wt"), commonDir: join(main, ".git") });
    expect(gitHooksDirs(wt, home, {})[0]).toBe(join(main, ".git", "hooks"));
    expect(gitHooksDirs(join(root, "none"), home, {})).toEqual([]);
  });
});

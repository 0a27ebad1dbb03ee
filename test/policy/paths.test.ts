import { describe, expect, it } from "vitest";
import { compilePathGlob } from "../../src/globs/compile.ts";
import { matchPath } from "../../src/globs/match.ts";
import { classifyPath, matchesEverything, type PathContext } from "../../src/policy/paths.ts";
import { globBase, normalizePath } from "../../src/host/paths.ts";

const ctx: PathContext = {
  cwd: "/work/app/src",
  projectDir: "/work/app",
  home: "/home/dev",
  tempDirs: ["/tmp"],
  caseInsensitive: false,
};

describe("normalizePath", () => {
  it.each([
    ["file.ts", "/work/app/src/file.ts"],
    ["../README.md", "/work/app/README.md"],
    ["../../..", "/"],
    ["./a//b/./c/", "/work/app/src/a/b/c"],
    ["~", "/home/dev"],
    ["~/.ssh/id_rsa", "/home/dev/.ssh/id_rsa"],
    ["$HOME/.aws/credentials", "/home/dev/.aws/credentials"],
    ["${HOME}/x", "/home/dev/x"],
    ["/proc/self/cwd/.env", "/work/app/src/.env"],
    ["/proc/123/cwd/../.env", "/work/app/.env"],
    ["/proc/self/root/etc/passwd", "/etc/passwd"],
    ["//etc//passwd", "/etc/passwd"],
  ])("%s → %s", (raw, expected) => {
    expect(normalizePath(raw, ctx)).toBe(expected);
  });
});

describe("classifyPath", () => {
  it.each<[string, boolean, string[]]>([
    ["/", false, ["root", "outside-project"]],
    ["/home", false, ["parent", "outside-project"]],
    ["/home/dev", false, ["home", "outside-project"]],
    ["/work/app", false, ["project-root"]],
    ["/work", false, ["parent", "outside-project"]],
    ["/work/app/dist", false, []],
    ["/etc/hosts", false, ["system", "outside-project"]],
    ["/usr", false, ["system", "outside-project"]],
    ["/tmp/build", false, []],
    ["/var/tmp/x", false, []],
    ["/dev/sda", false, ["device", "outside-project"]],
    ["/dev/nvme0n1p1", false, ["device", "outside-project"]],
    ["/dev/mem", false, ["system", "outside-project"]],
    ["/dev/null", false, []],
    ["/*", true, ["broad-glob", "outside-project"]],
    ["/home/dev/*", true, ["broad-glob", "outside-project"]],
    ["/work/app/*", true, ["broad-glob"]],
    ["/work/*", true, ["broad-glob", "outside-project"]],
    ["/work/app/build/*", true, []],
    // broad only when it can match everything in the directory
    ["/work/app/**/*.log", true, []],
    ["/work/app/**", true, ["broad-glob"]],
    ["/work/app/*/*", true, ["broad-glob"]],
    ["/work/app/.*", true, ["broad-glob"]],
    ["/work/app/[a-z]*", true, ["broad-glob"]],
    ["/work/app/*.log", true, []],
    ["/work/app/build-*", true, []],
    ["/work/app/dist[0-9]", true, []],
    ["/work/app/*.*", true, []],
    ["/work/app/*/dist", true, []],
    ["/home/dev/Documents", false, ["outside-project", "home-data"]],
    ["/home/dev/.config/app", false, ["outside-project", "home-data"]],
    ["/home/dev/.cache/pip", false, []],
    ["/home/dev/.npm/_cacache", false, []],
    ["/home/alice", false, ["outside-project", "other-home"]],
    ["/Users/bob/Documents", false, ["outside-project", "other-home"]],
    ["/home", false, ["parent", "outside-project"]],
    // files a plain rm or a truncating write destroys; homes reached by a glob or by place
    ["/home/dev/.bashrc", false, ["outside-project", "home-data", "home-file"]],
    ["/home/dev/.config/fish/config.fish", false, ["outside-project", "home-data", "home-file"]],
    ["/home/dev/.bashrc.bak", false, ["outside-project"]],
    ["/home/dev/.ssh/config", false, ["outside-project", "home-data", "home-file"]],
    ["/home/dev/Library/Developer/Xcode/DerivedData/App-x", false, []],
    ["/home/dev/.nvm/versions/node/v16.20.0", false, []],
    ["/home/*/.ssh", true, ["outside-project", "other-home"]],
    ["/Users", false, ["outside-project", "other-home"]],
    ["/Users/*", true, ["outside-project", "other-home"]],
    ["/home/*", true, ["broad-glob", "outside-project"]],
    ["/home/alice/*.txt", true, ["outside-project", "other-home"]],
    ["/work/app/.claude/settings.json", false, ["claude-config", "claude-settings"]],
    ["/work/app/.claude/lanes.yaml", false, ["claude-config"]],
    ["/work/app/.claude", false, ["claude-config"]],
    ["/home/dev/.claude/settings.json", false, ["outside-project", "claude-config", "claude-settings"]],
    // issue 22: files whose content decides whether the guard runs or what git runs later
    ["/work/app/packages/api/.claude/settings.local.json", false, ["claude-settings"]],
    [
      "/etc/claude-code/managed-settings.d/10-team.json",
      false,
      ["system", "outside-project", "claude-config", "claude-settings"],
    ],
    ["/work/app/.git/config", false, ["git-config"]],
    ["/home/dev/.gitconfig", false, ["outside-project", "home-data", "home-file", "git-config"]],
    ["/work/app/src/.gitattributes", false, ["git-attributes"]],
    ["/work/app/.git/info/attributes", false, ["git-attributes"]],
    ["/work/app/.git/hooks/pre-commit", false, ["git-hooks"]],
    ["/work/app/.git/hooks/pre-commit.sample", false, []],
    ["/work/app/.git/hooks", false, ["git-hooks"]],
  ])("%s (glob %s) → %j", (abs, glob, classes) => {
    expect([...classifyPath(abs, glob, ctx)].sort()).toEqual([...classes].sort());
  });

  it("classifies the hooks of a configured hooks directory, by the hook's name", () => {
    const hooked = { ...ctx, gitHooksDirs: ["/work/app/.git/hooks", "/work/app/.husky"] };
    expect([...classifyPath("/work/app/.husky/pre-commit", false, hooked)]).toEqual(["git-hooks"]);
    expect([...classifyPath("/work/app/.husky/README.md", false, hooked)]).toEqual([]);
    expect([...classifyPath("/work/app/.husky/pre-commit", false, ctx)]).toEqual([]);
  });

  it("finds the directory a glob expands in", () => {
    expect(globBase("/a/b/*.ts")).toBe("/a/b");
    expect(globBase("/*")).toBe("/");
    expect(globBase("/a/b")).toBe("/a/b");
  });
});

describe("compiled path globs (Claude Code's convention)", () => {
  const roots = { projectDir: "/work/app", home: "/home/dev", caseInsensitive: false };
  it.each<[string, string, boolean]>([
    [".env", "/work/app/.env", true],
    [".env", "/work/app/services/api/.env", true],
    [".env", "/elsewhere/.env", true],
    [".env.*", "/work/app/.env.local", true],
    [".env.*", "/work/app/.environment", false],
    ["*.pem", "/work/app/certs/server.pem", true],
    ["src/**", "/work/app/src/a/b.ts", true],
    ["src/**", "/work/app/lib/src/b.ts", false],
    ["/src/**", "/work/app/src/x.ts", true],
    ["./src/**", "/work/app/src/x.ts", true],
    ["src/", "/work/app/src/deep/file.ts", true],
    ["migrations/**", "/work/app/db/migrations/1.sql", false],
    ["**/migrations/**", "/work/app/db/migrations/1.sql", true],
    ["~/.ssh/", "/home/dev/.ssh/id_ed25519", true],
    ["~/.ssh/", "/work/app/.ssh/id", false],
    ["//etc/**", "/etc/passwd", true],
    ["*.test.*", "/work/app/src/a.test.ts", true],
    ["src/**", "/elsewhere/src/a.ts", false],
  ])("%s matches %s: %s", (glob, path, expected) => {
    expect(matchPath(compilePathGlob(glob, { caseInsensitive: false }), path, roots)).toBe(expected);
  });

  it("matches case-insensitively when asked", () => {
    const ci = { ...roots, caseInsensitive: true };
    expect(matchPath(compilePathGlob(".ENV", { caseInsensitive: true }), "/work/app/.env", ci)).toBe(true);
    expect(matchPath(compilePathGlob(".ssh/", { caseInsensitive: true }), "/work/app/.SSH/id_rsa", ci)).toBe(true);
    expect(matchPath(compilePathGlob(".env", { caseInsensitive: false }), "/work/app/.ENV", roots)).toBe(false);
  });
});

describe("matchesEverything", () => {
  it.each<[string, boolean]>([
    ["*", true],
    [".*", true],
    ["**", true],
    ["?*", true],
    ["*?", true],
    [".?*", true],
    ["[a-z]*", true],
    ["[!.]*", true],
    ["*.log", false],
    ["build-*", false],
    ["dist[0-9]", false],
    ["dist?", false],
    ["*.*", false],
    ["a*", false],
    ["?", false],
    ["node_modules", false],
  ])("%j → %s", (segment, expected) => {
    expect(matchesEverything(segment)).toBe(expected);
  });
});

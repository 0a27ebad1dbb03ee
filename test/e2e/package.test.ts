/**
 * The package a user installs: `npm pack`, then installed from the tarball into a fresh repository
 * on this Node (20) without dev dependencies, `npx lanes init`, `doctor`, `check`, `uninstall`.
 * The bundles need no runtime dependency, so the install downloads nothing but lanes itself.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  explain,
  makeRepo,
  REPO_ROOT,
  runClaude,
  startMockApi,
  text,
  toolUse,
  type MockApi,
  type TempRepo,
} from "./harness/index.ts";

let base: string;
let tarball: string;
let repo: string;

/** npm and npx without the caller's npm_* variables (vitest under npm sets them). */
const env = (): Record<string, string> => ({
  PATH: process.env["PATH"] ?? "",
  HOME: join(base, "home"),
  npm_config_cache: join(base, "npm-cache"),
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
});
const sh = (cmd: string, args: string[], cwd: string) =>
  spawnSync(cmd, args, { cwd, env: env(), encoding: "utf8", timeout: 120_000 });

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "lanes-pack-")));
  const pack = sh("npm", ["pack", "--pack-destination", base, "--json"], REPO_ROOT);
  if (pack.status !== 0) throw new Error(`npm pack: ${pack.stderr}`);
  tarball = join(base, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename);
  repo = join(base, "shop");
  sh("git", ["init", "-q", repo], base);
  writeFileSync(join(repo, ".gitignore"), "node_modules/\ndist/\nbuild/\n*.log\n.env\n");
  writeFileSync(join(repo, "package.json"), '{ "name": "shop", "version": "1.0.0", "private": true }\n');
}, 180_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("the npm package", () => {
  it("holds the bundles, definitions and plugin files, and no sources or tests", () => {
    const list = sh("tar", ["-tzf", tarball], base).stdout.split("\n");
    for (const f of [
      "package/dist/cli.mjs",
      "package/dist/pre-tool-use.cjs",
      "package/dist/compile.impl.cjs",
      "package/hooks/hooks.json",
      "package/.claude-plugin/plugin.json",
      "package/README.md",
    ])
      expect(list).toContain(f);
    expect(list.some((f) => f.startsWith("package/src/") || f.startsWith("package/test/"))).toBe(false);
  });

  it("installs offline from the tarball without dev dependencies or engine warnings, and runs init, doctor, check, uninstall", () => {
    const install = sh("npm", ["install", "--save-dev", "--offline", "--no-audit", "--no-fund", tarball], repo);
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).not.toContain("EBADENGINE");
    expect(readdirSync(join(repo, "node_modules")).filter((d) => !d.startsWith("."))).toEqual(["@lanes-dev"]);

    const npx = (...args: string[]) => sh("npx", ["--no-install", "lanes", ...args], repo);
    const init = npx("init");
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toContain("tracked   .claude/.gitignore: added `!/lanes/dist/`");
    expect(statSync(join(repo, ".claude/lanes/dist/pre-tool-use.cjs")).isFile()).toBe(true);

    const doctor = npx("doctor", "--json");
    const report = JSON.parse(doctor.stdout) as { ok: boolean; checks: { id: string; status: string }[] };
    expect([doctor.status, report.ok], doctor.stdout).toEqual([0, true]);
    expect(report.checks.filter((c) => c.status === "fail")).toEqual([]);

    const check = npx("check", "rm -rf /");
    expect(check.status).toBe(2);
    expect(check.stdout).toContain("fs.delete-root");

    for (const command of ["init", "doctor", "check", "uninstall", "log", "rules", "build"])
      expect(npx(command, "--help").status).toBe(0);
    const unknown = npx("frobnicate");
    expect([unknown.status, unknown.stderr.trim()]).toEqual([
      64,
      "lanes: unknown command `frobnicate`: run `lanes help` for the list",
    ]);
    const badOption = npx("doctor", "--frobnicate");
    expect(badOption.status).toBe(64);
    expect(badOption.stderr).toContain("unknown option '--frobnicate'");

    const uninstall = npx("uninstall");
    expect(uninstall.status, uninstall.stderr).toBe(0);
    expect(
      sh("git", ["status", "--porcelain"], repo)
        .stdout.split("\n")
        .filter((l) => l.includes(".claude")),
    ).toEqual([]);
  }, 180_000);

  it("as a new user: install from the tarball, commit, and a teammate's clone has a working guard with the real client", async () => {
    const origin = join(base, "team");
    mkdirSync(join(origin, ".claude"), { recursive: true });
    sh("git", ["init", "-q", "-b", "main", origin], base);
    writeFileSync(join(origin, ".gitignore"), "node_modules/\ndist/\nbuild/\n*.log\n.env\n");
    writeFileSync(join(origin, "package.json"), '{ "name": "team", "version": "1.0.0", "private": true }\n');
    writeFileSync(
      join(origin, ".claude/settings.json"),
      '{\n  "permissions": {\n    "deny": ["Bash(curl:*)"]\n  }\n}\n',
    );
    expect(sh("npm", ["install", "--save-dev", "--offline", "--no-audit", "--no-fund", tarball], origin).status).toBe(
      0,
    );
    expect(sh("npx", ["--no-install", "lanes", "init", "--guard-only"], origin).status).toBe(0);
    const git = (cwd: string, ...args: string[]) =>
      sh("git", ["-c", "user.name=new", "-c", "user.email=new@example.com", ...args], cwd);
    git(origin, "add", "-A");
    expect(git(origin, "commit", "-qm", "lanes").status).toBe(0);

    // the teammate clones and runs nothing but claude
    let clone: TempRepo | undefined;
    let api: MockApi | undefined;
    try {
      clone = makeRepo({});
      expect(git(clone.dir, "pull", "-q", origin, "main").status).toBe(0);
      const doctor = spawnSync(process.execPath, [join(clone.dir, ".claude/lanes/dist/cli.mjs"), "doctor", "--json"], {
        cwd: clone.dir,
        env: { PATH: process.env["PATH"] ?? "", HOME: clone.home },
        encoding: "utf8",
      });
      const report = JSON.parse(doctor.stdout) as { ok: boolean; checks: { id: string; status: string }[] };
      expect([doctor.status, report.checks.filter((c) => c.status === "fail")]).toEqual([0, []]);
      api = await startMockApi({
        main: [
          [toolUse("Bash", { command: "rm -rf ~", description: "clean" })],
          [toolUse("Bash", { command: "xargs curl < urls.txt", description: "fetch" })],
          [toolUse("Bash", { command: "git status", description: "status" })],
          [text("done")],
        ],
      });
      const run = await runClaude({ repo: clone, api, prompt: "go", args: ["--allowedTools", "Bash"] });
      const [rm, curl, status] = api.toolResults("main");
      expect(rm?.text, explain(run, api)).toContain("[fs.delete-home]");
      expect(curl?.text, explain(run, api)).toContain("Bash(curl:*)");
      expect(status?.is_error, explain(run, api)).toBe(false);
    } finally {
      await api?.close();
      clone?.cleanup();
    }
  }, 180_000);
});

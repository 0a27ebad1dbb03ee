/**
 * `lanes doctor` on a repository installed with the built CLI, then broken one way at a time:
 * each breakage is a failing (or warning) check with its id, and only failures make it exit 1.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runDoctor, type Check } from "../../src/install/doctor.ts";

const ROOT = join(import.meta.dirname, "..", "..");
let bases: string[] = [];
afterEach(() => {
  for (const b of bases) rmSync(b, { recursive: true, force: true });
  bases = [];
});

interface Repo {
  dir: string;
  home: string;
  write(rel: string, content: string): void;
}

function installed(): Repo {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "lanes-doctor-")));
  bases.push(base);
  const dir = join(base, "repo");
  const home = join(base, "home");
  mkdirSync(dir, { recursive: true });
  mkdirSync(home, { recursive: true });
  const git = (...args: string[]) =>
    spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir });
  git("init", "-q");
  writeFileSync(join(dir, ".gitignore"), "dist/\n");
  const init = spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), "init", "--guard-only"], {
    cwd: dir,
    env: { PATH: process.env["PATH"], HOME: home },
    encoding: "utf8",
  });
  if (init.status !== 0) throw new Error(init.stderr);
  git("add", "-A");
  git("commit", "-qm", "lanes");
  const write = (rel: string, content: string) => {
    mkdirSync(dirname(join(base, rel)), { recursive: true });
    writeFileSync(join(base, rel), content);
  };
  return { dir, home, write };
}

type Machine = { node?: string; claude?: string; missing?: string[]; platform?: NodeJS.Platform };

const doctor = (r: Repo, versions: Machine = {}): Check[] =>
  runDoctor({
    projectDir: r.dir,
    home: r.home,
    env: { HOME: r.home },
    lanesVersion: "0.1.0",
    nodeVersion: () => versions.node ?? "v20.11.0",
    claudeVersion: () => versions.claude ?? "2.1.330 (Claude Code)",
    hasProgram: (name) => !(versions.missing ?? []).includes(name),
    platform: versions.platform ?? "linux",
  });

const notOk = (checks: Check[]) => checks.filter((c) => c.status !== "ok").map((c) => [c.id, c.status]);

describe("lanes doctor", () => {
  it("a healthy, committed install: every check ok", () => {
    const checks = doctor(installed());
    expect(notOk(checks)).toEqual([]);
    expect(checks.map((c) => c.id)).toEqual([
      "node",
      "settings",
      "hooks",
      "wiring",
      "git",
      "policy",
      "sandbox",
      "claude",
    ]);
    expect(checks.find((c) => c.id === "sandbox")?.message).toMatch(
      /^the Bash sandbox is active: it denies writes to 8 paths \(the guard zone, settings, policy\) and reads of \d+/,
    );
  });

  it.each<[string, (r: Repo) => void, Machine, [string, string][]]>([
    ["node too old", () => {}, { node: "v18.19.0" }, [["node", "fail"]]],
    [
      "bubblewrap missing: Claude Code would run commands unsandboxed",
      () => {},
      { missing: ["bwrap"] },
      [["sandbox", "warn"]],
    ],
    ["socat missing", () => {}, { missing: ["socat"] }, [["sandbox", "warn"]]],
    ["a platform without the sandbox", () => {}, { platform: "win32" }, [["sandbox", "warn"]]],
    [
      "the sandbox switched off in the local settings",
      (r) => r.write("repo/.claude/settings.local.json", '{"sandbox": {"enabled": false}}'),
      {},
      [["sandbox", "warn"]],
    ],
    [
      "a guard-zone deny taken out of the settings",
      (r) => {
        const path = join(r.dir, ".claude/settings.json");
        const settings = JSON.parse(readFileSync(path, "utf8")) as { sandbox: { filesystem: { denyWrite: string[] } } };
        settings.sandbox.filesystem.denyWrite = settings.sandbox.filesystem.denyWrite.slice(1);
        writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`);
      },
      {},
      [
        ["git", "warn"],
        ["sandbox", "warn"],
      ],
    ],
    ["Claude Code too old", () => {}, { claude: "2.1.200 (Claude Code)" }, [["claude", "fail"]]],
    [
      "a hook file missing",
      (r) => unlinkSync(join(r.dir, ".claude/lanes/dist/pre-tool-use.impl.cjs")),
      {},
      [["hooks", "fail"]],
    ],
    [
      // a change to the wiring left out of the commit: a clone gets the committed settings, not these
      "the settings changed since the last commit",
      (r) => {
        const path = join(r.dir, ".claude/settings.json");
        const settings = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
        writeFileSync(path, `${JSON.stringify({ ...settings, permissions: { allow: ["Bash(ls:*)"] } }, null, 2)}\n`);
      },
      {},
      [["git", "warn"]],
    ],
    [
      "the hooks ignored by git",
      (r) => writeFileSync(join(r.dir, ".claude/.gitignore"), "state/\n"),
      {},
      [["git", "fail"]],
    ],
    [
      "settings.local.json does not parse",
      (r) => r.write("repo/.claude/settings.local.json", "{ nope"),
      {},
      [["settings", "fail"]],
    ],
    [
      "disableAllHooks in the user's settings",
      (r) => r.write("home/.claude/settings.json", '{"disableAllHooks": true}'),
      {},
      [["settings", "fail"]],
    ],
    [
      "an invalid lanes.yaml",
      (r) => r.write("repo/.claude/lanes.yaml", "version: 1\nrules:\n  - id: Bad Id\n"),
      {},
      [["policy", "fail"]],
    ],
    [
      "the PreToolUse hook without onFailure block",
      (r) =>
        writeFileSync(
          join(r.dir, ".claude/settings.json"),
          readFileSync(join(r.dir, ".claude/settings.json"), "utf8").replace(',\n            "onFailure": "block"', ""),
        ),
      {},
      [
        ["wiring", "fail"],
        ["git", "warn"],
      ],
    ],
    [
      "a changed timeout",
      (r) =>
        writeFileSync(
          join(r.dir, ".claude/settings.json"),
          readFileSync(join(r.dir, ".claude/settings.json"), "utf8").replace(
            '"timeout": 10,\n            "onFailure"',
            '"timeout": 30,\n            "onFailure"',
          ),
        ),
      {},
      [
        ["wiring", "warn"],
        ["git", "warn"],
      ],
    ],
    [
      "the plugin enabled too",
      (r) => r.write("home/.claude/settings.json", '{"enabledPlugins": {"lanes@acme": true}}'),
      {},
      [["duplicate", "warn"]],
    ],
  ])("%s", (_name, breakIt, versions, expected) => {
    const r = installed();
    breakIt(r);
    expect(notOk(doctor(r, versions))).toEqual(expected);
  });

  it("the CLI exits 1 with --json when a check fails, 0 when only warnings", () => {
    const r = installed();
    const cli = () =>
      spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), "doctor", "--json"], {
        cwd: r.dir,
        env: { PATH: process.env["PATH"], HOME: r.home },
        encoding: "utf8",
      });
    const good = cli();
    expect([good.status, (JSON.parse(good.stdout) as { ok: boolean }).ok]).toEqual([0, true]);
    unlinkSync(join(r.dir, ".claude/lanes/dist/cli.mjs"));
    const bad = cli();
    expect(bad.status).toBe(1);
  });
});

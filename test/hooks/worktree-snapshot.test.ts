/**
 * Work-tree snapshots: the pure diff as a table, porcelain parsing, and a real git repository in
 * which a script writes files the guard never saw.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  committedChanges,
  diffSnapshots,
  parsePorcelain,
  rootAsSeenFrom,
  takeSnapshot,
  trackedIn,
  type WorktreeChange,
  type WorktreeSnapshot,
} from "../../src/hooks/validation/worktree-snapshot.ts";

const snap = (entries: Record<string, string>, head: string | null = "h1"): WorktreeSnapshot => ({
  root: "/repo",
  head,
  entries,
  truncated: false,
});

describe("diffSnapshots", () => {
  it.each<[string, Record<string, string>, Record<string, string>, string[], WorktreeChange[]]>([
    ["nothing changed", {}, {}, [], []],
    ["a dirty file left alone", { "a.ts": "sha1:1" }, { "a.ts": "sha1:1" }, ["a.ts"], []],
    ["a new untracked file", {}, { "gen/x.ts": "sha1:2" }, [], [{ path: "gen/x.ts", change: "created" }]],
    ["a tracked file modified", {}, { "a.ts": "sha1:2" }, ["a.ts"], [{ path: "a.ts", change: "modified" }]],
    ["a tracked file deleted", {}, { "a.ts": "deleted" }, ["a.ts"], [{ path: "a.ts", change: "deleted" }]],
    [
      "a dirty file changed again",
      { "a.ts": "sha1:1" },
      { "a.ts": "sha1:3" },
      ["a.ts"],
      [{ path: "a.ts", change: "modified" }],
    ],
    [
      "a file deleted before the run, recreated during it",
      { "a.ts": "deleted" },
      { "a.ts": "sha1:4" },
      ["a.ts"],
      [{ path: "a.ts", change: "created" }],
    ],
    [
      "a dirty file reverted during the run",
      { "a.ts": "sha1:1" },
      { "a.ts": "sha1:0" },
      ["a.ts"],
      [{ path: "a.ts", change: "modified" }],
    ],
    [
      "an untracked file removed during the run",
      { "tmp.txt": "sha1:1" },
      { "tmp.txt": "deleted" },
      [],
      [{ path: "tmp.txt", change: "deleted" }],
    ],
  ])("%s", (_name, before, after, tracked, changes) => {
    expect(diffSnapshots(snap(before), snap(after), (p) => tracked.includes(p))).toEqual(changes);
  });
});

describe("parsePorcelain", () => {
  it.each<[string, string, string[]]>([
    ["empty", "", []],
    ["modified and untracked", " M src/a.ts\0?? gen/b.ts\0", ["src/a.ts", "gen/b.ts"]],
    ["a rename lists both paths", "R  new.ts\0old.ts\0 D gone.ts\0", ["new.ts", "old.ts", "gone.ts"]],
    ["a path with spaces", "?? my file.txt\0", ["my file.txt"]],
  ])("%s", (_name, out, paths) => {
    expect(parsePorcelain(out)).toEqual(paths);
  });
});

describe("snapshots of a real repository", () => {
  let repo: string | undefined;
  afterEach(() => {
    if (repo !== undefined) rmSync(repo, { recursive: true, force: true });
    repo = undefined;
  });
  const git = (...args: string[]) => {
    const r = spawnSync("git", ["-C", repo!, ...args], {
      encoding: "utf8",
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: repo!,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@t",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@t",
      },
    });
    if (r.status !== 0) throw new Error(r.stderr);
    return r.stdout.trim();
  };

  it("sees writes no tool call announced: created, modified, deleted and committed files; ignores git-ignored state", () => {
    repo = mkdtempSync(join(tmpdir(), "lanes-snap-"));
    git("init", "-q", "-b", "main");
    mkdirSync(join(repo, "src/server"), { recursive: true });
    writeFileSync(join(repo, "src/server/a.ts"), "a\n");
    writeFileSync(join(repo, "src/server/b.ts"), "b\n");
    writeFileSync(join(repo, ".gitignore"), ".claude/state/\n");
    git("add", "-A");
    git("commit", "-qm", "init");
    writeFileSync(join(repo, "src/server/a.ts"), "a dirty before\n");

    const start = takeSnapshot(repo);
    if (!start.ok) throw new Error(start.message);
    expect(Object.keys(start.snapshot.entries)).toEqual(["src/server/a.ts"]);

    // what a script does during the run
    writeFileSync(join(repo, "src/server/a.ts"), "a changed during the run\n");
    unlinkSync(join(repo, "src/server/b.ts"));
    mkdirSync(join(repo, "src/gen"), { recursive: true });
    writeFileSync(join(repo, "src/gen/out.ts"), "generated\n");
    mkdirSync(join(repo, ".claude/state"), { recursive: true });
    writeFileSync(join(repo, ".claude/state/audit.jsonl"), "{}\n");
    writeFileSync(join(repo, "c.ts"), "c\n");
    git("add", "c.ts");
    git("commit", "-qm", "c");

    const stop = takeSnapshot(repo);
    if (!stop.ok) throw new Error(stop.message);
    // the snapshot's own listing answers tracked-or-not for the paths it lists, as git's index does
    const index = trackedIn(repo);
    for (const path of Object.keys(stop.snapshot.entries))
      expect([path, stop.tracked(path)]).toEqual([path, index(path)]);
    const changes = [
      ...diffSnapshots(start.snapshot, stop.snapshot, stop.tracked),
      ...committedChanges(repo, start.snapshot.head, stop.snapshot.head),
    ];
    expect(changes).toEqual([
      { path: "src/gen/out.ts", change: "created" },
      { path: "src/server/a.ts", change: "modified" },
      { path: "src/server/b.ts", change: "deleted" },
      { path: "c.ts", change: "created" },
    ]);
  });

  it("fingerprints the paths of the start snapshot the same way at the end, whatever the hashing budget", () => {
    repo = mkdtempSync(join(tmpdir(), "lanes-snap-"));
    git("init", "-q", "-b", "main");
    writeFileSync(join(repo, "a.txt"), "aa\n");
    writeFileSync(join(repo, "b.txt"), "bb\n");
    // git gets a minute: the test is about the hashing budget, not a slow machine
    const limits = { maxEntries: 100, maxHashBytes: 1000, maxTotalHashBytes: 3, timeoutMs: 60_000 };
    const start = takeSnapshot(repo, limits);
    if (!start.ok) throw new Error(start.message);
    expect(Object.values(start.snapshot.entries).map((e) => e.split(":")[0])).toEqual(["sha1", "stat"]);
    writeFileSync(join(repo, "0.txt"), "00\n"); // sorts first and would take the budget
    const stop = takeSnapshot(repo, limits, start.snapshot);
    if (!stop.ok) throw new Error(stop.message);
    expect(diffSnapshots(start.snapshot, stop.snapshot, () => false)).toEqual([{ path: "0.txt", change: "created" }]);
  });

  it("a project in a subdirectory of the repository: paths relative to the top level, spelled as the project is", () => {
    repo = mkdtempSync(join(tmpdir(), "lanes-snap-"));
    git("init", "-q", "-b", "main");
    mkdirSync(join(repo, "packages/web/src"), { recursive: true });
    writeFileSync(join(repo, "packages/web/src/a.ts"), "a\n");
    const result = takeSnapshot(join(repo, "packages/web"));
    if (!result.ok) throw new Error(result.message);
    expect(Object.keys(result.snapshot.entries)).toEqual(["packages/web/src/a.ts"]);
    expect(rootAsSeenFrom(join(repo, "packages/web"), result.snapshot.root)).toBe(
      realpathSync(repo) === repo ? repo : result.snapshot.root,
    );
  });

  it("spells the top level the way a project reached through a symlink is spelled", () => {
    repo = realpathSync(mkdtempSync(join(tmpdir(), "lanes-snap-")));
    mkdirSync(join(repo, "real/pkg"), { recursive: true });
    symlinkSync(join(repo, "real"), join(repo, "link"));
    expect(rootAsSeenFrom(join(repo, "link/pkg"), join(repo, "real"))).toBe(join(repo, "link"));
    expect(rootAsSeenFrom(join(repo, "link"), join(repo, "real"))).toBe(join(repo, "link"));
    expect(rootAsSeenFrom(join(repo, "real/pkg"), join(repo, "real"))).toBe(join(repo, "real"));
    expect(rootAsSeenFrom(join(repo, "missing"), join(repo, "real"))).toBe(join(repo, "real"));
  });

  it("is an error outside a git repository", () => {
    repo = mkdtempSync(join(tmpdir(), "lanes-snap-"));
    const result = takeSnapshot(repo);
    expect(result.ok).toBe(false);
  });
});

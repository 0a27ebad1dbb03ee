/**
 * Work-tree snapshots: the pure diff as a table, porcelain parsing, and a real git repository in
 * which a script writes files the guard never saw.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  committedChanges,
  diffSnapshots,
  ownTopLevel,
  parseStatusV2,
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

describe("parseStatusV2", () => {
  const oid = "ae669e1b45afdc84b49adaedeff8d01179327fed";
  const hash = "78981922613b2afb6025042ff6bd878ac1994e85";
  const zero = "0000000000000000000000000000000000000000";
  it.each<[string, string, string | null, string[], string[]]>([
    ["empty, before the first commit", "# branch.oid (initial)\0# branch.head main\0", null, [], []],
    [
      "modified, deleted, staged and untracked, paths with spaces",
      [
        `# branch.oid ${oid}`,
        "# branch.head master",
        `1 .M N... 100644 100644 100644 ${hash} ${hash} a.txt`,
        `1 D. N... 100644 000000 000000 ${hash} ${zero} b c.txt`,
        `1 A. N... 000000 100644 100644 ${zero} ${hash} staged file.txt`,
        "? new file.txt",
        "",
      ].join("\0"),
      oid,
      ["a.txt", "b c.txt", "staged file.txt", "new file.txt"],
      ["new file.txt"],
    ],
    [
      "a rename lists both paths",
      `# branch.oid ${oid}\0` + `2 R. N... 100644 100644 100644 ${hash} ${hash} R100 moved name.txt\0b c.txt\0? x\0`,
      oid,
      ["moved name.txt", "b c.txt", "x"],
      ["x"],
    ],
    [
      "an unmerged path",
      `# branch.oid ${oid}\0u UU N... 100644 100644 100644 100644 ${hash} ${hash} ${hash} conflict.ts\0`,
      oid,
      ["conflict.ts"],
      [],
    ],
  ])("%s", (_name, out, head, paths, untracked) => {
    const listed = parseStatusV2(out);
    expect(listed.head).toBe(head);
    expect(listed.paths).toEqual(paths);
    expect([...listed.untracked]).toEqual(untracked);
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

    // as the stop of a run takes it: like the start snapshot, in its top level
    const stop = takeSnapshot(repo, undefined, start.snapshot);
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

describe("ownTopLevel", () => {
  const root = mkdtempSync(join(tmpdir(), "lanes-top-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const run = (cwd: string, ...args: string[]) => {
    const r = spawnSync("git", args, {
      cwd,
      encoding: "utf8",
      env: { PATH: process.env["PATH"] ?? "", HOME: root, GIT_CONFIG_NOSYSTEM: "1" },
    });
    if (r.status !== 0) throw new Error(r.stderr);
    return r.stdout.trim();
  };
  const repo = join(root, "repo");
  mkdirSync(repo);
  run(repo, "init", "-q");
  run(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "a");
  run(repo, "worktree", "add", "-q", join(root, "linked"));
  mkdirSync(join(repo, "sub"));
  symlinkSync(repo, join(root, "via-link"));
  const moved = join(root, "moved");
  mkdirSync(join(moved, "tree"), { recursive: true });
  run(moved, "init", "-q");
  run(moved, "config", "core.worktree", join(moved, "tree"));

  it.each<[string, string]>([
    ["a repository's own directory", repo],
    ["a linked work tree (a .git file)", join(root, "linked")],
    ["a project reached through a symbolic link", join(root, "via-link")],
  ])("is what git reports for %s", (_name, dir) => {
    expect(ownTopLevel(dir)).toBe(run(dir, "rev-parse", "--show-toplevel"));
  });

  it.each<[string, string]>([
    ["a subdirectory of a work tree", join(repo, "sub")],
    ["a repository whose core.worktree is elsewhere", moved],
    ["a directory outside any repository", root],
  ])("leaves %s to git", (_name, dir) => {
    expect(ownTopLevel(dir)).toBeUndefined();
  });
});

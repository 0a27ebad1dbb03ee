import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gitText, KEPT_LISTINGS, keepGitListings, runGit, type GitCall } from "../../src/io/git.ts";
import { hostileRepo, type HostileRepo } from "../helpers/hostile-repo.ts";

let repo: HostileRepo;
beforeAll(() => {
  repo = hostileRepo();
});
afterAll(() => repo.cleanup());
beforeEach(() => {
  repo.clear();
  repo.touch();
});

const identity = {
  GIT_AUTHOR_NAME: "lanes",
  GIT_AUTHOR_EMAIL: "lanes@example.com",
  GIT_COMMITTER_NAME: "lanes",
  GIT_COMMITTER_EMAIL: "lanes@example.com",
};

/** Operations lanes runs or will run, with what plain git triggers for each (the control). */
const CASES: readonly {
  readonly name: string;
  readonly args: readonly string[];
  readonly input?: string;
  readonly writes?: boolean;
  readonly env?: Record<string, string>;
  /** Markers plain git leaves for the same call (at least these). */
  readonly plain: readonly string[];
}[] = [
  { name: "status", args: ["status", "--porcelain=v1", "-z", "--untracked-files=all"], plain: ["include-fsmonitor"] },
  { name: "diff", args: ["diff"], plain: ["diff-external"] },
  { name: "diff of a markdown file (an included driver)", args: ["diff", "--", "b.md"], plain: [] },
  { name: "log -p", args: ["log", "-p", "-1"], plain: ["textconv"] },
  { name: "show", args: ["show", "HEAD"], plain: ["textconv"] },
  { name: "ls-files", args: ["ls-files", "-z"], plain: [] },
  { name: "add of a filtered file", args: ["add", "a.txt"], writes: true, plain: ["filter-clean"] },
  {
    name: "commit",
    args: ["commit", "-q", "--allow-empty", "-m", "snapshot"],
    writes: true,
    env: identity,
    plain: ["hookspath", "gpg"],
  },
  {
    name: "checkout of a filtered file",
    args: ["checkout", "--", "a.txt"],
    writes: true,
    plain: ["include-fsmonitor"],
  },
  {
    name: "credential fill",
    args: ["credential", "fill"],
    input: "protocol=https\nhost=example.invalid\n\n",
    plain: ["credential-helper"],
  },
];

describe("runGit", () => {
  it.each(CASES)("plain git runs the repository's programs for $name (the control)", (c) => {
    try {
      repo.plainGit(c.args, c.input);
    } catch {
      // a payload that fails the command (fsmonitor, gpg) still ran
    }
    for (const marker of c.plain) expect(repo.markers()).toContain(marker);
  });

  it.each(CASES)("runs none of them for $name", (c) => {
    const call: GitCall = {
      args: c.args,
      cwd: repo.dir,
      ...(c.input !== undefined && { input: c.input }),
      ...(c.writes !== undefined && { writes: c.writes }),
      ...(c.env !== undefined && { env: c.env }),
    };
    const outcome = runGit(call);
    expect(outcome.error).toBeUndefined();
    expect(repo.markers()).toEqual([]);
  });

  it("ignores git variables of lanes' own environment (GIT_EXTERNAL_DIFF, GIT_DIR)", () => {
    const saved = { ...process.env };
    process.env["GIT_EXTERNAL_DIFF"] = `${repo.marks}/../external`;
    process.env["GIT_DIR"] = "/nonexistent";
    try {
      const diff = gitText({ args: ["diff", "--stat"], cwd: repo.dir });
      expect(diff.ok).toBe(true);
    } finally {
      process.env = saved;
    }
    expect(repo.markers()).toEqual([]);
  });

  it("reads the user's configuration only when asked, and still runs none of its programs", () => {
    const out = gitText({ args: ["config", "--get", "user.name"], cwd: repo.dir, globalConfig: "read" });
    expect(out.ok && out.out.trim()).toBe("dev");
    expect(repo.markers()).toEqual([]);
  });

  it("stages into a private index file without touching the real one", () => {
    const index = `${repo.marks}/../private-index`;
    expect(runGit({ args: ["add", "a.txt"], cwd: repo.dir, indexFile: index, writes: true }).status).toBe(0);
    const staged = gitText({ args: ["diff", "--cached", "--name-only"], cwd: repo.dir });
    expect(staged.ok && staged.out).toBe("");
    const privately = gitText({ args: ["diff", "--cached", "--name-only"], cwd: repo.dir, indexFile: index });
    expect(privately.ok && privately.out.split("\n")).toContain("a.txt");
    expect(repo.markers()).toEqual([]);
  });

  it("gives stdout as a buffer and the exit code", () => {
    const outcome = runGit({ args: ["cat-file", "-t", "HEAD"], cwd: repo.dir });
    expect(outcome.status).toBe(0);
    expect(Buffer.isBuffer(outcome.stdout)).toBe(true);
    expect(outcome.stdout.toString().trim()).toBe("commit");
    expect(runGit({ args: ["cat-file", "-t", "no-such-ref"], cwd: repo.dir }).status).not.toBe(0);
  });

  it("says why when git cannot start", () => {
    const outcome = runGit({ args: ["status"], cwd: "/nonexistent/dir" });
    expect(outcome.status).toBeNull();
    expect(outcome.error).toBeDefined();
  });
});

describe("the program keys kept across processes", () => {
  let work: string;
  let cache: string;
  const marker = () => join(work, "..", "filter-ran");
  const plain = (args: readonly string[]) => execFileSync("git", args, { cwd: work, encoding: "utf8" });
  beforeEach(() => {
    const root = mkdtempSync(join(tmpdir(), "lanes-git-kept-"));
    work = join(root, "repo");
    cache = join(root, "cache");
    mkdirSync(work);
    mkdirSync(cache);
    plain(["init", "-q"]);
    writeFileSync(join(work, "a.txt"), "a\n");
    writeFileSync(join(work, ".gitattributes"), "*.txt filter=evil\n");
    plain(["add", "-A"]);
    plain(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a"]);
    // configured after the commit: only lanes' calls below meet it
    plain(["config", "filter.evil.clean", `touch ${marker()}; cat`]);
  });
  afterEach(() => {
    keepGitListings(undefined);
    rmSync(join(work, ".."), { recursive: true, force: true });
  });
  const status = () => {
    // the tracked file looks changed to git's stat check: status runs its clean filter
    utimesSync(join(work, "a.txt"), new Date(), new Date(Date.now() - 60_000));
    return runGit({ args: ["status", "--porcelain=v1", "-z"], cwd: work });
  };
  const kept = () => readdirSync(cache).filter((f) => f.startsWith("git-config-"));

  it("keeps what git listed, and a new process turns the same programs off with it", () => {
    keepGitListings(cache);
    expect(status().status).toBe(0);
    expect(kept()).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(cache, kept()[0]!), "utf8"))).toEqual([["filter.evil.clean", ""]]);
    keepGitListings(cache);
    expect(status().status).toBe(0);
    expect(existsSync(marker())).toBe(false);
  });

  it("uses the kept listing in place of git's (the cache is lanes' protected state)", () => {
    keepGitListings(cache);
    status();
    // a listing that leaves the filter out: the filter then runs, so the kept listing was what counted
    writeFileSync(join(cache, kept()[0]!), "[]");
    keepGitListings(cache);
    status();
    expect(existsSync(marker())).toBe(true);
  });

  it("keeps a bounded number of listings, the newest", () => {
    for (let i = 0; i < KEPT_LISTINGS + 4; i++) {
      // a branch pushed with -u, a remote added: each change of the configuration keys a new listing
      plain(["config", "lanes.test.round", String(i)]);
      keepGitListings(cache);
      status();
    }
    expect(kept()).toHaveLength(KEPT_LISTINGS);
    keepGitListings(cache);
    status();
    expect(kept()).toHaveLength(KEPT_LISTINGS);
    expect(existsSync(marker())).toBe(false);
  });

  it("lists again when the configuration changes, the kept file is not a listing, or the configuration includes files", () => {
    keepGitListings(cache);
    status();
    plain(["config", "filter.other.clean", `touch ${marker()}-other; cat`]);
    keepGitListings(cache);
    status();
    expect(kept()).toHaveLength(2);
    for (const f of kept()) writeFileSync(join(cache, f), JSON.stringify([["filter.evil.clean", "sh -c evil"]]));
    keepGitListings(cache);
    status();
    expect(existsSync(marker())).toBe(false);
    plain(["config", "include.path", join(work, "..", "more.config")]);
    for (const f of kept()) rmSync(join(cache, f));
    keepGitListings(cache);
    status();
    expect(kept()).toEqual([]);
    expect(existsSync(marker())).toBe(false);
  });
});

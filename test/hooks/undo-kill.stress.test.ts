/**
 * kill -9 during a snapshot (issue 25): the guard killed at any moment of a snapshot leaves the
 * repository, its index and its refs as they were (a ref of lanes exists only for a snapshot the
 * index of snapshots records), and the next snapshot and undo work.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { hookInput, installedProject, ROOT, runHook } from "../helpers/hooks.ts";

const project = installedProject({ ".gitignore": "node_modules/\n", "src/keep.ts": "export {};\n" });
afterAll(() => project.cleanup());

const sh = (script: string): string => {
  const run = spawnSync("bash", ["-c", script], { cwd: project.dir, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${script}: ${run.stderr}`);
  return run.stdout;
};

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

test("kill -9 at any point of a snapshot leaves the index, HEAD, branches and status as they were", () => {
  sh("git add -A && git -c user.name=t -c user.email=t@t commit -qm base");
  // enough untracked work that a snapshot takes a while
  for (let d = 0; d < 30; d++) {
    mkdirSync(project.path(`src/gen${d}`), { recursive: true });
    for (let f = 0; f < 50; f++) writeFileSync(project.path(`src/gen${d}/f${f}.txt`), `${d}/${f}\n`.repeat(200));
  }
  sh("git update-index -q --refresh || true");
  const state = () => [
    createHash("sha256")
      .update(readFileSync(project.path(".git/index")))
      .digest("hex"),
    sh("git --no-optional-locks status --porcelain=v1 -uall | sha256sum"),
    sh("git for-each-ref --format='%(refname) %(objectname)' refs/heads refs/tags refs/stash"),
    sh("git rev-parse HEAD"),
  ];
  const was = state();
  const input = () => hookInput(project, "PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf src" } });
  for (const ms of [10, 40, 80, 120, 180, 250, 350, 500, 700, 900, 1100, 1300, 1600, 2000, 3000]) {
    spawnSync(process.execPath, [project.path(".claude/lanes/dist/pre-tool-use.cjs")], {
      input: JSON.stringify(input()),
      cwd: project.dir,
      env: { PATH: process.env["PATH"], HOME: project.home, CLAUDE_PROJECT_DIR: project.dir },
      timeout: ms,
      killSignal: "SIGKILL",
    });
    // a git the hook started may outlive it: let it finish before looking
    sleep(300);
    expect(state()).toEqual(was);
    expect(existsSync(project.path(".git/index.lock"))).toBe(false);
    // every ref of lanes is a snapshot the index records (the ref is written last)
    const refs = sh("git for-each-ref --format='%(refname:lstrip=3) %(objectname)' refs/lanes/snapshots")
      .trim()
      .split("\n")
      .filter((l) => l !== "");
    const index = join(project.dir, ".claude/state/snapshots/index.json");
    const entries = existsSync(index)
      ? (JSON.parse(readFileSync(index, "utf8")) as { snapshots: { id: string; commit: string }[] }).snapshots
      : [];
    for (const ref of refs) {
      const [id] = ref.split(" ");
      expect(entries.map((e) => e.id)).toContain(id);
    }
  }
  // and the next snapshot, call and undo work
  const call = input();
  const run = runHook(project, "pre-tool-use.cjs", call);
  expect(JSON.stringify(run.json)).toContain("lanes undo");
  const before = sh("find src -type f | sort | xargs sha256sum");
  sh("rm -rf src");
  runHook(project, "post-tool-use.cjs", { ...call, hook_event_name: "PostToolUse", tool_response: {} });
  const undo = spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), "undo"], {
    cwd: project.dir,
    env: { PATH: process.env["PATH"], HOME: project.home },
    encoding: "utf8",
  });
  expect(undo.status).toBe(0);
  expect(sh("find src -type f | sort | xargs sha256sum")).toBe(before);
});

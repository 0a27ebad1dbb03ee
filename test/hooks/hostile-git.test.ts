/**
 * lanes' own git calls in a hostile repository: the hooks (the work-tree snapshot at SubagentStart
 * and SubagentStop, the guard's calls, the snapshot before a destructive call and the state after
 * it) and the CLI (`lanes doctor`, `lanes init`, which checks what git ignores, `lanes undo`) run in a project whose git configuration names a program for everything git can
 * run. No payload may leave its marker.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hostileRepo, type HostileRepo } from "../helpers/hostile-repo.ts";
import { hookInput, installedProject, ROOT, runHook, type Project } from "../helpers/hooks.ts";

let p: Project;
let repo: HostileRepo;
beforeAll(() => {
  p = installedProject({ "src/app.ts": "export {};\n" });
  repo = hostileRepo(p.dir);
});
afterAll(() => {
  repo.cleanup();
  p.cleanup();
});
beforeEach(() => {
  repo.clear();
  repo.touch();
});

const cli = (args: readonly string[]) =>
  spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), ...args], {
    cwd: p.dir,
    env: { PATH: process.env["PATH"], HOME: p.home, CLAUDE_PROJECT_DIR: p.dir },
    encoding: "utf8",
    timeout: 60_000,
  });

describe("lanes' git calls in a hostile repository", () => {
  it("plain git status runs a payload here (the control)", () => {
    // whether git asks the fsmonitor depends on its index state (a racily clean index is checked
    // without it): a changed file and up to three runs make the control certain
    for (let run = 0; run < 3 && repo.markers().length === 0; run++) {
      repo.touch();
      try {
        repo.plainGit(["status", "--short"]);
      } catch {
        // a payload that fails the command (the process filter, the fsmonitor) still ran
      }
    }
    expect(repo.markers()).not.toEqual([]);
  });

  it("the work-tree snapshots of SubagentStart and SubagentStop run none", () => {
    const agent = { agent_id: "a1234567890abcdef", agent_type: "backend" };
    for (const entry of ["events.cjs", "tasks.cjs"])
      expect(runHook(p, entry, hookInput(p, "SubagentStart", agent)).status).toBe(0);
    repo.touch();
    const stop = hookInput(p, "SubagentStop", {
      ...agent,
      stop_hook_active: false,
      agent_transcript_path: join(p.home, "t.jsonl"),
      last_assistant_message: "done",
    });
    for (const entry of ["events.cjs", "tasks.cjs"]) expect(runHook(p, entry, stop).status).toBe(0);
    expect(repo.markers()).toEqual([]);
  });

  it("a guarded Bash call runs none", () => {
    const run = runHook(
      p,
      "pre-tool-use.cjs",
      hookInput(p, "PreToolUse", { tool_name: "Bash", tool_input: { command: "git status --short" } }),
    );
    expect(run.status).toBe(0);
    expect(repo.markers()).toEqual([]);
  });

  it("a snapshot before a destructive call, the state after it, and lanes undo run none", () => {
    p.write("src/notes.md", "untracked work\n");
    const call = hookInput(p, "PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf src" } });
    const run = runHook(p, "pre-tool-use.cjs", call);
    expect(run.stdout).toContain("lanes kept snapshot");
    spawnSync("rm", ["-rf", "src"], { cwd: p.dir });
    expect(runHook(p, "post-tool-use.cjs", { ...call, hook_event_name: "PostToolUse", tool_response: {} }).status).toBe(
      0,
    );
    const undo = cli(["undo"]);
    expect(undo.status, undo.stderr).toBe(0);
    expect(p.read("src/notes.md")).toBe("untracked work\n");
    expect(repo.markers()).toEqual([]);
  });

  it("lanes doctor and lanes init run none", () => {
    cli(["doctor"]);
    const init = cli(["init", p.dir]);
    expect(init.status, init.stderr).toBe(0);
    expect(repo.markers()).toEqual([]);
  });
});

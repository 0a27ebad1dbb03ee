/**
 * This repository as a Claude Code plugin: the client's own validator accepts it, and loaded with
 * `--plugin-dir` into a repository that never ran `lanes init`, its hooks guard tool calls and its
 * namespaced agents (`lanes:backend`) stay in their lanes.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLAUDE_BIN, explain, makeRepo, REPO_ROOT, runClaude, startMockApi, text, toolUse, type MockApi, type TempRepo } from "./harness/index.ts";

let repo: TempRepo | undefined;
let api: MockApi | undefined;
afterEach(async () => {
  await api?.close();
  repo?.cleanup();
  api = undefined;
  repo = undefined;
});

describe("lanes as a plugin", () => {
  it("passes `claude plugin validate --strict`", () => {
    // a throwaway HOME: the client writes .claude.json, telemetry and backups there, never into this repository
    const home = mkdtempSync(join(tmpdir(), "lanes-e2e-validate-"));
    const run = spawnSync(CLAUDE_BIN, ["plugin", "validate", REPO_ROOT, "--strict", "--json"], { encoding: "utf8", env: { PATH: process.env["PATH"], HOME: home } });
    rmSync(home, { recursive: true, force: true });
    const result = JSON.parse(run.stdout) as { success: boolean; provides: { hooks: { event: string }[]; agents: string[]; skills: string[] } };
    expect(result.success, run.stdout.slice(0, 2000)).toBe(true);
    expect(result.provides.hooks.map((h) => h.event)).toContain("PreToolUse");
    expect(result.provides.agents).toContain("lanes:backend");
    expect(result.provides.skills).toContain("lanes:risk-classifier");
  });

  it("guards a repository without any install, and keeps the plugin's backend agent in its lane", async () => {
    repo = makeRepo({ "README.md": "# shop\n" });
    const foreign = repo.path("src/components/Button.tsx");
    api = await startMockApi({
      main: [[toolUse("Bash", { command: "rm -rf ~", description: "clean" })], [toolUse("Agent", { description: "b", prompt: "add a button", subagent_type: "lanes:backend", run_in_background: false })], [text("done")]],
      agents: { backend: { marker: "You are the backend specialist.", turns: [[toolUse("Write", { file_path: foreign, content: "x\n" })], [text("ok")]] } },
    });
    const run = await runClaude({ repo, api, prompt: "go", args: ["--plugin-dir", REPO_ROOT, "--permission-mode", "acceptEdits", "--allowedTools", "Bash"] });
    const [rm] = api.toolResults("main");
    expect(rm?.is_error, explain(run, api)).toBe(true);
    expect(rm?.text).toContain("lanes denied `rm -rf ~` [fs.delete-home]");
    const [write] = api.toolResults("backend");
    expect(write?.is_error, explain(run, api)).toBe(true);
    expect(write?.text).toContain("by backend [lane.write-outside-owned]");
    expect(write?.text).toContain("owned by `frontend`");
    expect(repo.read("src/components/Button.tsx")).toBeUndefined();
  });
});

/**
 * Failure posture of task constraints: a progress file that cannot be read must not silently drop
 * a subagent's task constraints. Subagents' mutating calls are denied (fail closed); the main
 * session and reads are unaffected; `LANES_FAILURE_MODE=open` turns the denial into no opinion.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runPreToolUse } from "../../src/hooks/events/pre-tool-use.ts";
import { taskConstraintsChecked } from "../../src/hooks/guard/task-constraints.ts";
import { readProgressRaw } from "../../src/runtime/progress-hot.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(progress: string | undefined): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "lanes-task-")));
  dirs.push(dir);
  mkdirSync(join(dir, ".claude", "state"), { recursive: true });
  if (progress !== undefined) writeFileSync(join(dir, ".claude", "state", "progress.json"), progress);
  return dir;
}

/** The fields every progress file has (protocol v2.0); readProgressRaw refuses a file without them. */
const BASE = { version: "2.0", workflow_id: "w1", artifacts: { files_created: [], files_modified: [] } };

const VALID = JSON.stringify({
  ...BASE,
  status: "in_progress",
  next_step: { step: 2, expert: "backend", constraints: { write_paths: ["src/server/**"] } },
});

const input = (dir: string, tool: string, toolInput: Record<string, unknown>, agent: string | undefined) =>
  JSON.stringify({
    session_id: "s1",
    transcript_path: join(dir, "t.jsonl"),
    cwd: dir,
    hook_event_name: "PreToolUse",
    permission_mode: "default",
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: "toolu_01",
    ...(agent !== undefined && { agent_id: "a1", agent_type: agent }),
  });

const run = (
  dir: string,
  tool: string,
  toolInput: Record<string, unknown>,
  agent: string | undefined,
  env: Record<string, string> = {},
) =>
  runPreToolUse(input(dir, tool, toolInput, agent), {
    env: { HOME: dir, CLAUDE_PROJECT_DIR: dir, ...env },
    now: () => new Date("2025-01-02T03:04:05Z"),
    defaultPolicyPath: join(ROOT, "dist", "policy.default.json"),
  });

const decisionOf = (stdout: string): string =>
  stdout === ""
    ? "none"
    : (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput
        .permissionDecision;

describe("taskConstraintsChecked", () => {
  it.each<[string, string | undefined, string | undefined, boolean]>([
    ["no progress file", undefined, undefined, false],
    ["valid constraints", VALID, undefined, true],
    ["truncated JSON", VALID.slice(0, 40), "is not usable: not valid JSON", false],
    [
      "write_paths not a list of strings",
      JSON.stringify({
        ...BASE,
        status: "in_progress",
        next_step: { expert: "backend", constraints: { write_paths: "src/**" } },
      }),
      "has `next_step.constraints.write_paths` that is not a list of strings",
      false,
    ],
  ])("%s", (_name, progress, problem, hasTask) => {
    const dir = project(progress);
    const checked = taskConstraintsChecked(readProgressRaw(dir), false);
    if (problem === undefined) expect(checked.problem).toBeUndefined();
    else expect(checked.problem).toContain(problem);
    expect(checked.task !== undefined).toBe(hasTask);
  });
});

describe("a corrupt progress file in the guard", () => {
  it.each<[string, string, Record<string, unknown>, string | undefined, Record<string, string>, string]>([
    ["a subagent's write", "Write", { file_path: "src/server/a.ts", content: "x" }, "backend", {}, "deny"],
    ["a subagent's shell command", "Bash", { command: "ls" }, "backend", {}, "deny"],
    ["a subagent's read", "Read", { file_path: "README.md" }, "backend", {}, "none"],
    ["the main session's write", "Write", { file_path: "src/server/a.ts", content: "x" }, undefined, {}, "none"],
    [
      "a subagent's write with LANES_FAILURE_MODE=open",
      "Write",
      { file_path: "src/server/a.ts", content: "x" },
      "backend",
      { LANES_FAILURE_MODE: "open" },
      "none",
    ],
  ])("%s", (_name, tool, toolInput, agent, env, decision) => {
    const dir = project('{"status": "in_progress", "next_step": {');
    const file =
      typeof toolInput.file_path === "string" ? { ...toolInput, file_path: join(dir, toolInput.file_path) } : toolInput;
    const out = run(dir, tool, file, agent, env);
    expect(decisionOf(out.stdout)).toBe(decision);
    if (decision === "deny")
      expect(JSON.parse(out.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(
        /^lanes cannot read this step's task constraints: `.+progress\.json` is not usable: not valid JSON: [^;]*; the call is blocked for subagents/,
      );
  });

  it("still enforces valid constraints", () => {
    const dir = project(VALID);
    const out = run(dir, "Write", { file_path: join(dir, "docs/a.md"), content: "x" }, "backend").stdout;
    expect(decisionOf(out)).toBe("deny");
    expect(JSON.parse(out).hookSpecificOutput.permissionDecisionReason).toContain("task.write-outside-scope");
  });
});

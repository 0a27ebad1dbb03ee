/**
 * The task-channel hook (`tasks.cjs`) as a process, in an installed project: a run's work-tree
 * snapshot, validation at SubagentStop (one undo chance) and TaskCompleted (refusal and
 * reassignment), the orchestrator's context after the Agent call, the DANGEROUS hold and the
 * human's decision, and one task's history in `lanes log --task`.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nextStepFor } from "../../src/hooks/state/next-step.ts";
import type { TaskRecord } from "../../src/hooks/state/task-store.ts";
import { hookInput, installedProject, runHook, type Project } from "../helpers/hooks.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const FRONTEND = "a1111111111111111";
const BACKEND = "a2222222222222222";

let p: Project;
beforeEach(() => {
  p = installedProject({ "src/server/users.ts": "export const users = [];\n" });
});
afterEach(() => p.cleanup());

const audit = (): Record<string, unknown>[] =>
  p
    .read(".claude/state/audit.jsonl")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const lanes = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), ...args, "--project", p.dir], {
    encoding: "utf8",
    env: { PATH: process.env["PATH"], HOME: p.home },
  });
const start = (id: string, type: string) =>
  runHook(p, "tasks.cjs", hookInput(p, "SubagentStart", { agent_id: id, agent_type: type }));
const stop = (id: string, type: string, active = false) =>
  runHook(
    p,
    "tasks.cjs",
    hookInput(p, "SubagentStop", {
      agent_id: id,
      agent_type: type,
      stop_hook_active: active,
      agent_transcript_path: "/t",
      permission_mode: "default",
    }),
  );
const agentDone = (id: string, type: string) =>
  runHook(
    p,
    "tasks.cjs",
    hookInput(p, "PostToolUse", {
      tool_name: "Agent",
      tool_input: { subagent_type: type, prompt: "x", description: "x" },
      tool_response: { status: "completed", agentId: id, agentType: type },
      tool_use_id: "toolu_02",
    }),
  );
const taskCreated = (id: string, subject: string, description: string) =>
  runHook(
    p,
    "tasks.cjs",
    hookInput(p, "TaskCreated", { task_id: id, task_subject: subject, task_description: description }),
  );
const assign = (id: string, owner: string) =>
  runHook(
    p,
    "tasks.cjs",
    hookInput(p, "PostToolUse", {
      tool_name: "TaskUpdate",
      tool_input: { taskId: id, owner },
      tool_response: { success: true, taskId: id, updatedFields: ["owner"] },
    }),
  );
const completed = (id: string, subject: string, agent?: [string, string]) =>
  runHook(
    p,
    "tasks.cjs",
    hookInput(p, "TaskCompleted", {
      task_id: id,
      task_subject: subject,
      task_description: "d",
      ...(agent !== undefined && { agent_id: agent[0], agent_type: agent[1] }),
    }),
  );
/** What the PreToolUse guard logs for a Bash call of a subagent (the evidence of the commands it ran). */
const guardBash = (id: string, type: string, command: string) =>
  runHook(
    p,
    "pre-tool-use.cjs",
    hookInput(p, "PreToolUse", { tool_name: "Bash", tool_input: { command }, agent_id: id, agent_type: type }),
  );

describe("validation on the way out", () => {
  it("a frontend run whose script wrote into backend's lane: one undo chance at stop, then VIOLATION for the orchestrator", () => {
    expect(start(FRONTEND, "frontend").stdout).toBe("");
    expect(existsSync(p.path(`.claude/state/runs/${FRONTEND}.json`))).toBe(true);
    expect(guardBash(FRONTEND, "frontend", "npm run gen").stdout).toBe("");
    // the script writes where the guard could not see it
    p.write("src/components/Form.tsx", "export const Form = 1;\n");
    p.write("src/server/routes.gen.ts", "export const routes = [];\n");

    const first = stop(FRONTEND, "frontend");
    expect(first.json).toEqual({
      decision: "block",
      reason: expect.stringContaining(
        "your output violates your lane: you changed `src/server/routes.gen.ts` (owned by `backend`); undo those changes now",
      ),
    });
    const second = stop(FRONTEND, "frontend", true);
    expect(second.stdout).toBe("");

    const told = agentDone(FRONTEND, "frontend").json?.["hookSpecificOutput"] as Record<string, string>;
    expect(told["hookEventName"]).toBe("PostToolUse");
    expect(told["additionalContext"]).toContain(
      "lanes validation of frontend: VIOLATION, SAFE; files: src/components/Form.tsx (created), src/server/routes.gen.ts (created); 1 command ran",
    );
    expect(told["additionalContext"]).toContain("do not build on this output: create a task for `backend`");
    const validations = audit().filter((e) => e["event"] === "validation");
    expect(validations.map((e) => [e["boundary"], e["risk"], e["undo_asked"] ?? false])).toEqual([
      ["VIOLATION", "SAFE", true],
      ["VIOLATION", "SAFE", false],
    ]);
    expect(validations[0]).toMatchObject({
      agent: "frontend",
      agent_id: FRONTEND,
      violations: [{ path: "src/server/routes.gen.ts", owner: "backend" }],
    });
  });

  it("a run that undid its violation at the second stop is VALID", () => {
    start(FRONTEND, "frontend");
    p.write("src/server/routes.gen.ts", "x\n");
    expect(stop(FRONTEND, "frontend").json?.["decision"]).toBe("block");
    spawnSync("rm", [p.path("src/server/routes.gen.ts")]);
    expect(stop(FRONTEND, "frontend", true).stdout).toBe("");
    expect(
      audit()
        .filter((e) => e["event"] === "validation")
        .map((e) => e["boundary"]),
    ).toEqual(["VIOLATION", "VALID"]);
  });
});

describe("recorded writes against the snapshots", () => {
  const touched = (id: string, type: string, rel: string) =>
    runHook(
      p,
      "post-tool-use.cjs",
      hookInput(p, "PostToolUse", {
        tool_name: "Write",
        tool_input: { file_path: p.path(rel), content: "x" },
        tool_response: { type: "create", filePath: p.path(rel) },
        agent_id: id,
        agent_type: type,
      }),
    );

  it("a recorded write into a git-ignored path outside the lane is still a VIOLATION; a new file removed again is not", () => {
    p.write(".gitignore", "build/\n");
    start(FRONTEND, "frontend");
    p.write("build/server.js", "x\n");
    touched(FRONTEND, "frontend", "build/server.js");
    p.write("src/server/tmp.ts", "x\n");
    touched(FRONTEND, "frontend", "src/server/tmp.ts");
    spawnSync("rm", [p.path("src/server/tmp.ts")]);
    expect(stop(FRONTEND, "frontend").json?.["reason"]).toContain("you changed `build/server.js` (owned by no agent)");
    const validation = audit().find((e) => e["event"] === "validation");
    expect(validation?.["files"]).toEqual(["build/server.js"]);
  });
});

describe("the task channel", () => {
  it("backend completes its task: VALID with the files; the task's history in lanes log --task", () => {
    expect(taskCreated("1", "Implement the users API", "GET /users in src/server").stdout).toBe("");
    expect(assign("1", "backend").stdout).toBe("");
    start(BACKEND, "backend");
    p.write("src/server/users.ts", "export const users = ['ada'];\n");
    expect(completed("1", "Implement the users API", [BACKEND, "backend"]).stdout).toBe("");
    expect(stop(BACKEND, "backend").stdout).toBe("");
    const context = (agentDone(BACKEND, "backend").json?.["hookSpecificOutput"] as Record<string, string>)[
      "additionalContext"
    ];
    expect(context).toBe(
      "lanes validation of backend: VALID, SAFE; files: src/server/users.ts (modified); 0 commands ran",
    );

    const events = audit();
    expect(events.find((e) => e["event"] === "task-created")).toMatchObject({
      task_id: "1",
      subject: "Implement the users API",
      description: "GET /users in src/server",
      creator: "main",
    });
    expect(events.find((e) => e["event"] === "task-assigned")).toMatchObject({
      task_id: "1",
      assignee: "backend",
      agent: "main",
    });
    expect(events.find((e) => e["event"] === "task-completed")).toMatchObject({
      task_id: "1",
      agent: "backend",
      outcome: "VALID, SAFE",
      files: ["src/server/users.ts"],
    });

    const log = lanes("log", "--task", "1");
    expect(log.status).toBe(0);
    const lines = log.stdout.trim().split("\n");
    expect(lines.map((l) => l.split(/\s+/)[2])).toEqual([
      "task-created",
      "task-assigned",
      "validation",
      "task-completed",
      "validation",
    ]);
    expect(lines[3]).toContain("(task #1; outcome VALID, SAFE; files src/server/users.ts)");
  });

  it("refuses frontend's completion with VIOLATION naming the path and its owner, and marks the task for reassignment", () => {
    taskCreated("2", "Build the signup form", "form in src/components");
    assign("2", "frontend");
    start(FRONTEND, "frontend");
    p.write("src/server/signup.gen.ts", "x\n");
    const refused = completed("2", "Build the signup form", [FRONTEND, "frontend"]);
    expect(refused.json).toEqual({
      decision: "block",
      reason:
        "lanes refused completing task #2: VIOLATION: frontend changed `src/server/signup.gen.ts` (owned by `backend`); the task is marked for reassignment to `backend`: revert the files outside your lane and report what the owner must do; the orchestrator creates a task for the owner with that context",
    });
    const tasks = JSON.parse(p.read(".claude/state/tasks.json")) as { tasks: Record<string, Record<string, unknown>> };
    expect(Object.values(tasks.tasks)[0]).toMatchObject({
      id: "2",
      assignee: "frontend",
      status: "refused",
      outcome: "VIOLATION, SAFE",
      reassign_to: ["backend"],
    });
    expect(audit().find((e) => e["event"] === "task-refused")).toMatchObject({
      task_id: "2",
      outcome: "VIOLATION, SAFE",
      files: ["src/server/signup.gen.ts"],
      reassign_to: ["backend"],
    });
  });

  it("the orchestrator completing a task is judged by the assignee's last run", () => {
    taskCreated("3", "Build the form", "d");
    assign("3", "frontend");
    runHook(p, "events.cjs", hookInput(p, "SubagentStart", { agent_id: FRONTEND, agent_type: "frontend" }));
    start(FRONTEND, "frontend");
    p.write("src/server/x.ts", "x\n");
    stop(FRONTEND, "frontend");
    expect(completed("3", "Build the form").json?.["reason"]).toContain(
      "lanes refused completing task #3: VIOLATION: frontend changed `src/server/x.ts` (owned by `backend`)",
    );
  });

  it("DANGEROUS: the session stops, task creation and completion wait for the human, `lanes decide` lets work continue", () => {
    start(BACKEND, "backend");
    expect(guardBash(BACKEND, "backend", "rm -rf /").json).toMatchObject({
      hookSpecificOutput: { permissionDecision: "deny" },
    });
    expect(stop(BACKEND, "backend").stdout).toBe("");
    const after = agentDone(BACKEND, "backend").json;
    expect(after).toMatchObject({
      continue: false,
      stopReason: expect.stringContaining(
        "lanes: processing is stopped until a human decides: backend ran or attempted DANGEROUS commands: `rm -rf /`",
      ),
    });
    expect(taskCreated("4", "Next", "d").json?.["reason"]).toContain("processing is stopped until a human decides");
    expect(completed("4", "Next").json?.["decision"]).toBe("block");
    const spawnAgain = () =>
      runHook(
        p,
        "pre-tool-use.cjs",
        hookInput(p, "PreToolUse", {
          tool_name: "Agent",
          tool_input: { subagent_type: "backend", prompt: "again", description: "again" },
        }),
      );
    expect(spawnAgain().json).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: "deny",
        permissionDecisionReason: expect.stringContaining("[tasks.human-decision-pending]"),
      },
    });

    expect(lanes("decide", "approve", "--note", "checked: it was blocked").stdout).toContain(
      "approved: backend ran or attempted DANGEROUS commands",
    );
    expect(audit().find((e) => e["event"] === "human-decision")).toMatchObject({
      subject: "approve",
      agent: "backend",
      note: "checked: it was blocked",
    });
    expect(taskCreated("4", "Next", "d").stdout).toBe("");
    expect(spawnAgain().stdout).toBe("");
    expect(lanes("decide", "approve").stdout).toBe("no decision is pending: nothing changed\n");
    const wrong = lanes("decide", "maybe");
    expect([wrong.status, wrong.stderr.split("\n")[0]]).toEqual([
      64,
      "lanes decide: the decision is `approve` or `reject`, received `maybe`",
    ]);
  });

  it("keeps next_step in step with an assignment while a workflow runs", () => {
    expect(lanes("progress", "init", "signup feature", "--primary", "backend", "--steps", "2").status).toBe(0);
    taskCreated("5", "Implement the signup API", "POST /signup");
    assign("5", "backend");
    const progress = JSON.parse(p.read(".claude/state/progress.json")) as { next_step: Record<string, unknown> };
    expect(progress.next_step).toMatchObject({
      expert: "backend",
      action: "Implement the signup API",
      context: { task_id: "5", task: "POST /signup" },
    });
  });
});

describe("nextStepFor", () => {
  const task: TaskRecord = {
    id: "7",
    session: "s",
    subject: "Write the API docs",
    description: "docs/api.md",
    assignee: "docs",
    status: "pending",
    updated: "t",
  };
  it.each<[string, unknown, unknown, Record<string, unknown>]>([
    [
      "no next step yet: the step after the current one",
      null,
      2,
      { step: 3, expert: "docs", action: "Write the API docs", context: { task_id: "7", task: "docs/api.md" } },
    ],
    [
      "a step for another agent is replaced",
      { step: 3, expert: "qa", action: "test", context: { files: ["a"] } },
      2,
      { step: 3, expert: "docs", action: "Write the API docs", context: { task_id: "7", task: "docs/api.md" } },
    ],
    [
      "a step for the same agent keeps its number, context and constraints",
      { step: 4, expert: "docs", action: "old", context: { files: ["a"] }, constraints: { read_only: false } },
      2,
      {
        step: 4,
        expert: "docs",
        action: "Write the API docs",
        context: { files: ["a"], task_id: "7", task: "docs/api.md" },
        constraints: { read_only: false },
      },
    ],
  ])("%s", (_name, current, currentStep, expected) => {
    expect(nextStepFor(current, currentStep, task)).toEqual(expected);
  });
});

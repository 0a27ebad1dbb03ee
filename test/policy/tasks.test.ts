/**
 * The task channel's rules with the pack's own team: the main session and the orchestrator create
 * and assign tasks; specialists and reviewers read, update and complete only their own; nobody
 * messages another agent directly.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compilePathGlob } from "../../src/globs/compile.ts";
import { AgentDefinition } from "../../src/definitions/agent.ts";
import { parseDefinition } from "../../src/definitions/load.ts";
import { evaluate, type Evaluation } from "../../src/policy/evaluate.ts";
import { taskToolMatches } from "../../src/policy/tasks.ts";
import { expectDecision, HOME, PROJECT, testPolicy } from "../helpers/guard.ts";

const dir = join(import.meta.dirname, "..", "..", "definitions", "agents");
const agents = readdirSync(dir)
  .filter((f) => f.endsWith(".yaml"))
  .map((f) => {
    const parsed = parseDefinition(AgentDefinition, readFileSync(join(dir, f), "utf8"), f);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    return { path: f, definition: parsed.value.value };
  });
const policy = testPolicy([], agents);

/** Task 1 is backend's, task 2 frontend's, task 3 has no owner. */
const owners: Record<string, string> = { "1": "backend", "2": "lanes:frontend" };

function call(tool: string, input: Record<string, unknown>, agent: string | undefined): Evaluation {
  return evaluate(
    {
      tool,
      input,
      cwd: PROJECT,
      projectDir: PROJECT,
      home: HOME,
      agent: agent === undefined ? undefined : { id: "a0000000000000001", type: agent },
    },
    {
      policy,
      settingsRules: [],
      compileSettingsGlob: (g) => compilePathGlob(g, { caseInsensitive: false }),
      tempDirs: ["/tmp"],
      position: { path: agent === undefined ? [] : [agent] },
      knownAgentTypes: new Set(policy.knownAgentTypes),
      tasks: [],
      taskOwner: (id) => owners[id],
    },
  );
}

describe("who may use which task tool", () => {
  it.each<[string, string | undefined, string, Record<string, unknown>, "deny" | "none", string[]]>([
    [
      "the main session creates a task",
      undefined,
      "TaskCreate",
      { subject: "Implement the API", description: "context" },
      "none",
      [],
    ],
    ["the main session assigns a task", undefined, "TaskUpdate", { taskId: "3", owner: "backend" }, "none", []],
    ["the orchestrator creates a task", "orchestrator", "TaskCreate", { subject: "Implement the API" }, "none", []],
    ["the orchestrator reassigns a task", "orchestrator", "TaskUpdate", { taskId: "1", owner: "frontend" }, "none", []],
    ["the orchestrator reads any task", "orchestrator", "TaskGet", { taskId: "2" }, "none", []],
    ["a specialist lists the tasks", "backend", "TaskList", {}, "none", []],
    ["a specialist reads its own task", "backend", "TaskGet", { taskId: "1" }, "none", []],
    ["a plugin-namespaced specialist reads its own task", "lanes:frontend", "TaskGet", { taskId: "2" }, "none", []],
    ["a specialist reads an unassigned task", "backend", "TaskGet", { taskId: "3" }, "none", []],
    ["a specialist starts its own task", "backend", "TaskUpdate", { taskId: "1", status: "in_progress" }, "none", []],
    [
      "a specialist completes its own task with a summary",
      "backend",
      "TaskUpdate",
      { taskId: "1", status: "completed", description: "done: src/server/users.ts" },
      "none",
      [],
    ],
    [
      "a specialist creates a task",
      "backend",
      "TaskCreate",
      { subject: "Build the form" },
      "deny",
      ["lane.tool-not-allowed", "tasks.create-by-specialist"],
    ],
    [
      "a reviewer creates a task",
      "design-reviewer",
      "TaskCreate",
      { subject: "Fix the button" },
      "deny",
      ["lane.tool-not-allowed", "tasks.create-by-specialist"],
    ],
    ["a specialist reads another agent's task", "backend", "TaskGet", { taskId: "2" }, "deny", ["tasks.read-not-own"]],
    [
      "a specialist completes another agent's task",
      "backend",
      "TaskUpdate",
      { taskId: "2", status: "completed" },
      "deny",
      ["tasks.update-not-own"],
    ],
    [
      "a specialist updates an unassigned task",
      "backend",
      "TaskUpdate",
      { taskId: "3", status: "in_progress" },
      "deny",
      ["tasks.update-not-own"],
    ],
    [
      "a specialist hands its own task to another agent",
      "backend",
      "TaskUpdate",
      { taskId: "1", owner: "frontend" },
      "deny",
      ["tasks.reassign-by-specialist"],
    ],
    [
      "a specialist takes another agent's task",
      "backend",
      "TaskUpdate",
      { taskId: "2", owner: "backend" },
      "deny",
      ["tasks.update-not-own"],
    ],
    [
      "the main session messages an agent",
      undefined,
      "SendMessage",
      { to: "backend", message: "hi" },
      "deny",
      ["agents.direct-message"],
    ],
    [
      "a specialist messages another agent",
      "backend",
      "SendMessage",
      { to: "frontend", message: "hi" },
      "deny",
      ["agents.direct-message", "lane.tool-not-allowed"],
    ],
  ])("%s", (_name, agent, tool, input, effect, rules) => {
    expectDecision(call(tool, input, agent), effect, rules);
  });

  it("tells a specialist that tries to create a task what to do instead", () => {
    const e = call("TaskCreate", { subject: "x" }, "design-reviewer");
    expect(e.decision?.matches.find((m) => m.ruleId === "tasks.create-by-specialist")?.instead).toContain(
      "orchestrator creates that task",
    );
  });

  it("names the owner in the reason of a foreign task", () => {
    const [match] = taskToolMatches({
      policy,
      agentType: "backend",
      tool: "TaskUpdate",
      toolInput: { taskId: "2", status: "completed" },
      taskOwner: (id) => owners[id],
    });
    expect(match).toMatchObject({
      ruleId: "tasks.update-not-own",
      layer: "role",
      why: "task #2 is assigned to `frontend`, not backend",
    });
  });

  it.each<[string, string | undefined, string, "deny" | "none"]>([
    ["the main session starts an agent", undefined, "Agent", "deny"],
    ["the orchestrator starts an agent (legacy name)", "orchestrator", "Task", "deny"],
    ["the main session creates a task", undefined, "TaskCreate", "deny"],
    ["the main session lists the tasks", undefined, "TaskList", "none"],
    ["a specialist reads a file", "backend", "Read", "none"],
  ])("while a human decision is pending: %s", (_name, agent, tool, effect) => {
    const matches = taskToolMatches({
      policy,
      agentType: agent,
      tool,
      toolInput: {},
      taskOwner: () => undefined,
      pendingDecision: "backend attempted `rm -rf /`",
    });
    expect(matches.map((m) => [m.ruleId, m.effect])).toEqual(
      effect === "deny" ? [["tasks.human-decision-pending", "deny"]] : [],
    );
  });

  it("has no opinion on other tools and on agents lanes has no definition for", () => {
    expect(
      taskToolMatches({ policy, agentType: "backend", tool: "Read", toolInput: {}, taskOwner: () => undefined }),
    ).toEqual([]);
    expect(
      taskToolMatches({
        policy,
        agentType: "general-purpose",
        tool: "TaskCreate",
        toolInput: {},
        taskOwner: () => undefined,
      }),
    ).toEqual([]);
  });
});

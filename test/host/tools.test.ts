/**
 * The tool table: every reader of it (facts, settings rules, lanes, `tools:` rules, messages, the
 * PostToolUse wiring) sees a tool under its current name and its legacy aliases alike.
 */
import { describe, expect, it } from "vitest";
import { hookWiring } from "../../src/install/wiring.ts";
import { AgentDefinition } from "../../src/definitions/agent.ts";
import { canonicalTool, isMutatingTool, postToolUseMatcher, sameTool, TOOLS, toolNames } from "../../src/host/tools.ts";
import { describeCall } from "../../src/policy/render.ts";
import type { SettingsRule } from "../../src/policy/settings.ts";
import { expectDenied, expectNoOpinion, judge, testPolicy } from "../helpers/guard.ts";

const settingsRule = (raw: string, tool: string, content: string | undefined): SettingsRule => ({
  raw,
  effect: "deny",
  tool,
  content,
  scope: "project",
  file: "/work/app/.claude/settings.json",
  baseDir: "/work/app",
});

describe("tool table", () => {
  it("names every tool once, aliases included", () => {
    const names = TOOLS.flatMap((t) => [t.name, ...(t.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each<[string, string, boolean]>([
    ["Task", "Agent", true],
    ["Agent", "Task", true],
    ["Agent", "Agent", true],
    ["Read", "Write", false],
    ["mcp__x__y", "mcp__x__y", true],
    ["KillShell", "TaskStop", true],
    ["KillBash", "KillShell", true],
    ["TaskStop", "Bash", false],
  ])("sameTool(%s, %s) → %s", (a, b, same) => {
    expect(sameTool(a, b)).toBe(same);
  });

  it.each<[string, boolean]>([
    ["Bash", true],
    ["Write", true],
    ["NotebookEdit", true],
    ["Task", true],
    ["Agent", true],
    ["mcp__github__create_issue", true],
    ["Read", false],
    ["Glob", false],
    ["WebFetch", false],
  ])("%s mutating → %s", (tool, mutating) => {
    expect(isMutatingTool(tool)).toBe(mutating);
  });

  it("gives the current name and the aliases", () => {
    expect(canonicalTool("Task")).toBe("Agent");
    expect(toolNames("Task")).toEqual(["Agent", "Task"]);
    expect(toolNames("Unknown")).toEqual(["Unknown"]);
  });

  it("wires PostToolUse for the tools whose changes are recorded, and the spawn tools under every name", () => {
    expect(postToolUseMatcher()).toBe("Write|Edit|MultiEdit|NotebookEdit|Bash|Agent|Task");
    expect(hookWiring((e) => e)["PostToolUse"]?.[0]?.matcher).toBe(postToolUseMatcher());
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["Task", { subagent_type: "Explore" }, "starting agent `Explore`"],
    ["Agent", { subagent_type: "Explore" }, "starting agent `Explore`"],
    ["Bash", { command: "ls" }, "`ls`"],
    ["NotebookEdit", { notebook_path: "a.ipynb" }, "NotebookEdit of `a.ipynb`"],
    ["Skill", { skill: "deploy" }, "skill `deploy`"],
  ])("describes a %s call", (tool, input, text) => {
    expect(describeCall(tool, input)).toBe(text);
  });
});

describe("aliases reach every reader", () => {
  const policy = testPolicy();

  it.each<[string, string, string | undefined, string]>([
    ["Task", "Task", undefined, "Agent"],
    ["Agent", "Agent", undefined, "Task"],
    ["Task(Explore)", "Task", "Explore", "Agent"],
    ["Agent(Explore)", "Agent", "Explore", "Task"],
  ])("the settings rule %s denies a %s call", (raw, tool, content, calledAs) => {
    expectDenied(
      judge(policy, undefined, {
        tool: calledAs,
        input: { subagent_type: "Explore", prompt: "x" },
        settings: [settingsRule(raw, tool, content)],
      }),
      "settings.deny",
    );
  });

  it.each<[string, string]>([
    ["KillShell", "TaskStop"],
    ["KillBash", "TaskStop"],
    ["TaskStop", "KillShell"],
  ])("the settings rule %s denies a %s call", (raw, calledAs) => {
    expectDenied(
      judge(policy, undefined, {
        tool: calledAs,
        input: { task_id: "b1" },
        settings: [settingsRule(raw, raw, undefined)],
      }),
      "settings.deny",
    );
  });

  it("a lanes.yaml `tools: [KillShell]` rule denies a TaskStop call", () => {
    const withRule = testPolicy([
      {
        layer: "project",
        path: "/work/app/.claude/lanes.yaml",
        file: {
          version: 1,
          rules: [
            {
              id: "team.keep-shells",
              effect: "deny",
              why: "background shells are shared",
              instead: "ask the user to stop it",
              tools: ["KillShell"],
            },
          ],
        },
      },
    ]);
    expectDenied(judge(withRule, undefined, { tool: "TaskStop", input: { task_id: "b1" } }), "team.keep-shells");
  });

  it("a settings rule for another agent type has no opinion", () => {
    expectNoOpinion(
      judge(policy, undefined, {
        tool: "Task",
        input: { subagent_type: "Plan", prompt: "x" },
        settings: [settingsRule("Agent(Explore)", "Agent", "Explore")],
      }),
    );
  });

  it.each(["Agent", "Task"])("a lanes.yaml `tools: [Task]` rule denies an %s call", (calledAs) => {
    const withRule = testPolicy([
      {
        layer: "project",
        path: "/work/app/.claude/lanes.yaml",
        file: {
          version: 1,
          rules: [
            { id: "team.no-agents", effect: "deny", why: "agents are off", instead: "do it yourself", tools: ["Task"] },
          ],
        },
      },
    ]);
    expectDenied(
      judge(withRule, undefined, { tool: calledAs, input: { subagent_type: "Explore", prompt: "x" } }),
      "team.no-agents",
    );
  });

  it("a lane that forbids `Task` forbids the Agent tool", () => {
    const solo = AgentDefinition.parse({
      name: "solo",
      description: "test specialist that must not start other agents",
      role: "specialist",
      identity: "You are the solo specialist used by the alias tests.",
      responsibilities: ["work"],
      owns: ["src/**"],
      tools: { forbidden: ["Task"] },
    });
    const lanes = testPolicy([], [{ path: "solo.yaml", definition: solo }]);
    const evaluation = judge(lanes, undefined, {
      tool: "Agent",
      input: { subagent_type: "Explore", prompt: "x" },
      agent: "solo",
    });
    expect(evaluation.decision?.effect).toBe("deny");
    expect(evaluation.decision?.ruleIds).toContain("lane.tool-forbidden");
  });
});

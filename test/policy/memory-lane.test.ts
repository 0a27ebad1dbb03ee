/** `lane.memory-not-own`: a subagent writes only its own memory files, through every tool and through `lanes memory write`. */
import { describe, it } from "vitest";
import { AgentDefinition } from "../../src/definitions/agent.ts";
import { memoryFileName } from "../../src/host/memory-name.ts";
import { expectDecision, judge, PROJECT, testPolicy } from "../helpers/guard.ts";

const agent = (name: string, owns: string[]) =>
  AgentDefinition.parse({
    name,
    description: `test specialist ${name} for the memory lane`,
    role: "specialist",
    identity: `You are ${name}, used by the memory-lane tests.`,
    responsibilities: ["work"],
    owns,
  });
const policy = testPolicy(
  [],
  [
    { path: "backend.yaml", definition: agent("backend", ["src/server/**"]) },
    { path: "qa.yaml", definition: agent("qa", ["test/**"]) },
  ],
);
const mem = (task: string, who: string) => `${PROJECT}/.claude/memory/${memoryFileName(task, who)}`;

describe("lane.memory-not-own", () => {
  it.each<
    [
      string,
      string | undefined,
      { tool?: string; input?: Record<string, unknown>; command?: string },
      "deny" | "none",
      string[],
    ]
  >([
    [
      "own file with Write",
      "backend",
      { tool: "Write", input: { file_path: mem("t1", "backend"), content: "x" } },
      "none",
      [],
    ],
    [
      "own file, plugin-namespaced type",
      "lanes:backend",
      { tool: "Write", input: { file_path: mem("t1", "backend"), content: "x" } },
      "none",
      [],
    ],
    [
      "another agent's file with Write",
      "backend",
      { tool: "Write", input: { file_path: mem("t1", "qa"), content: "x" } },
      "deny",
      ["lane.memory-not-own"],
    ],
    [
      "another agent's file with Edit",
      "backend",
      { tool: "Edit", input: { file_path: mem("t1", "qa"), old_string: "a", new_string: "b" } },
      "deny",
      ["lane.memory-not-own"],
    ],
    [
      "another agent's file through a redirect",
      "backend",
      { command: `echo forged > ${mem("t1", "qa")}` },
      "deny",
      ["lane.memory-not-own"],
    ],
    ["deleting another agent's file", "backend", { command: `rm ${mem("t1", "qa")}` }, "deny", ["lane.memory-not-own"]],
    [
      "an archived memory file",
      "backend",
      { tool: "Write", input: { file_path: `${mem("t1", "backend")}.iteration-1`, content: "x" } },
      "deny",
      ["lane.memory-not-own"],
    ],
    [
      "lanes memory write as itself",
      "backend",
      { command: 'lanes memory write --task t1 --agent backend --phase 1 --summary done --body "x"' },
      "none",
      [],
    ],
    [
      "lanes memory write as another agent",
      "backend",
      { command: 'lanes memory write --task t1 --agent qa --phase 4 --summary done --body "x"' },
      "deny",
      ["lane.memory-not-own"],
    ],
    [
      "the installed CLI, --agent=",
      "backend",
      { command: 'node .claude/lanes/dist/cli.mjs memory write --task t1 --agent=qa --summary done --body "x"' },
      "deny",
      ["lane.memory-not-own"],
    ],
    [
      "lanes memory write without --agent",
      "backend",
      { command: 'lanes memory write --task t1 --summary done --body "x"' },
      "deny",
      ["lane.memory-not-own"],
    ],
    ["reading another agent's file", "backend", { tool: "Read", input: { file_path: mem("t1", "qa") } }, "none", []],
    [
      "lanes memory read of another agent",
      "backend",
      { command: "lanes memory read --task t1 --agent qa" },
      "none",
      [],
    ],
    [
      "the main session writes any memory file",
      undefined,
      { tool: "Write", input: { file_path: mem("t1", "qa"), content: "x" } },
      "none",
      [],
    ],
    [
      "the main session writes for the orchestrator",
      undefined,
      { command: 'lanes memory write --task t1 --agent orchestrator --phase 0 --summary done --body "x"' },
      "none",
      [],
    ],
  ])("%s", (_name, who, call, effect, rules) => {
    const e = judge(policy, call.command, {
      ...(call.tool !== undefined && { tool: call.tool }),
      ...(call.input !== undefined && { input: call.input }),
      ...(who !== undefined && { agent: who }),
    });
    expectDecision(e, effect, rules);
  });
});

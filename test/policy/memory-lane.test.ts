/** `lane.memory-not-own`: a subagent writes only its own memory files, through every tool and through `lanes memory write`. */
import { describe, expect, it } from "vitest";
import { AgentDefinition } from "../../src/definitions/agent.ts";
import { memoryFileName } from "../../src/host/memory-name.ts";
import { writerProblem } from "../../src/policy/memory-lane.ts";
import { expectDecision, judge, PROJECT, testPolicy } from "../helpers/guard.ts";

const agent = (
  name: string,
  owns: string[],
  extra: { role?: string; tools?: { allowed?: string[]; forbidden?: string[] }; may_spawn?: string[] } = {},
) =>
  AgentDefinition.parse({
    name,
    description: `test specialist ${name} for the memory lane`,
    role: extra.role ?? "specialist",
    identity: `You are ${name}, used by the memory-lane tests.`,
    responsibilities: ["work"],
    owns,
    ...(extra.tools === undefined ? {} : { tools: extra.tools }),
    ...(extra.may_spawn === undefined ? {} : { may_spawn: extra.may_spawn }),
  });
const policy = testPolicy(
  [],
  [
    { path: "backend.yaml", definition: agent("backend", ["src/server/**"]) },
    { path: "qa.yaml", definition: agent("qa", ["test/**"]) },
    // read-only: no Bash, no Write, so its spawner writes its memory file from its report
    {
      path: "reviewer.yaml",
      definition: agent("reviewer", [], { role: "reviewer", tools: { allowed: ["Read", "Grep"] } }),
    },
    // Bash allowed but forbidden: cannot write either
    {
      path: "auditor.yaml",
      definition: agent("auditor", [], { role: "reviewer", tools: { forbidden: ["Bash", "Write"] } }),
    },
    { path: "orchestrator.yaml", definition: agent("orchestrator", ["docs/plans/**"], { role: "orchestrator" }) },
    { path: "lead.yaml", definition: agent("lead", [], { may_spawn: ["reviewer"] }) },
  ],
);
const cli = (who: string, extra = "") =>
  `lanes memory write --task t1 --agent ${who}${extra} --phase 2 --summary done --body "x"`;
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
    // the main session: an orchestrator's file and a file of an agent without a definition are its own
    ["main writes for the orchestrator", undefined, { command: cli("orchestrator") }, "none", []],
    [
      "main writes the orchestrator's file with Write",
      undefined,
      { tool: "Write", input: { file_path: mem("t1", "orchestrator"), content: "x" } },
      "none",
      [],
    ],
    ["main writes for an agent without a definition", undefined, { command: cli("general-purpose") }, "none", []],
    // ... never a file of an agent that writes its own: the forged gate
    [
      "main forges a specialist's file with Write",
      undefined,
      { tool: "Write", input: { file_path: mem("t1", "qa"), content: "x" } },
      "deny",
      ["lane.memory-not-own"],
    ],
    [
      "main forges a specialist's file through a redirect",
      undefined,
      { command: `cat report.md > ${mem("t1", "backend")}` },
      "deny",
      ["lane.memory-not-own"],
    ],
    [
      "main forges a specialist's file with the CLI",
      undefined,
      { command: cli("qa") },
      "deny",
      ["lane.memory-not-own"],
    ],
    [
      "main forges it with the writer recorded",
      undefined,
      { command: cli("qa", " --written-by main") },
      "deny",
      ["lane.memory-not-own"],
    ],
    ["main may still delete a memory file", undefined, { command: `rm ${mem("t1", "qa")}` }, "none", []],
    // a read-only agent's file: its spawner writes it from the report, through the CLI, writer recorded
    [
      "main writes for a read-only agent, writer recorded",
      undefined,
      { command: cli("reviewer", " --written-by main") },
      "none",
      [],
    ],
    ["--written-by=main", undefined, { command: cli("reviewer", " --written-by=main") }, "none", []],
    ["tools forbidden count too", undefined, { command: cli("auditor", " --written-by main") }, "none", []],
    [
      "main writes for a read-only agent without recording itself",
      undefined,
      { command: cli("reviewer") },
      "deny",
      ["lane.memory-not-own"],
    ],
    [
      "main writes for a read-only agent with Write (no recorded writer)",
      undefined,
      { tool: "Write", input: { file_path: mem("t1", "reviewer"), content: "x" } },
      "deny",
      ["lane.memory-not-own"],
    ],
    [
      "main records another writer",
      undefined,
      { command: cli("reviewer", " --written-by orchestrator") },
      "deny",
      ["lane.memory-not-own"],
    ],
    [
      "an orchestrator writes for the reviewer it started",
      "orchestrator",
      { command: cli("reviewer", " --written-by orchestrator") },
      "none",
      [],
    ],
    ["an agent that may spawn the reviewer", "lead", { command: cli("reviewer", " --written-by lead") }, "none", []],
    [
      "an agent that may not spawn the reviewer",
      "backend",
      { command: cli("reviewer", " --written-by backend") },
      "deny",
      ["lane.memory-not-own"],
    ],
    [
      "an orchestrator writing a specialist's file",
      "orchestrator",
      { command: cli("backend", " --written-by orchestrator") },
      "deny",
      ["lane.memory-not-own"],
    ],
    [
      "a subagent lying about the writer of its own file",
      "backend",
      { command: cli("backend", " --written-by main") },
      "deny",
      ["lane.memory-not-own"],
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

describe("writerProblem: the phase gate's check of who wrote a memory file", () => {
  it.each<[string, string, string | undefined, string | undefined]>([
    ["a specialist's own file", "backend", undefined, undefined],
    ["written by itself, recorded", "backend", "backend", undefined],
    [
      "a specialist's file written by the main session",
      "backend",
      "main",
      "it was written by `main`, but `backend` writes its own memory file: only an agent without a tool to write one may have it written for it",
    ],
    ["a read-only agent's file written by the main session", "reviewer", "main", undefined],
    ["... by an orchestrator (it may start any agent)", "reviewer", "orchestrator", undefined],
    ["... by an agent that may start it", "reviewer", "lead", undefined],
    [
      "... by an agent that may not start it",
      "reviewer",
      "backend",
      "it was written by `backend`, which did not start `reviewer` and may not write its memory file",
    ],
    [
      "a read-only agent's file that claims it wrote it",
      "reviewer",
      undefined,
      "`reviewer` has no tool to write a memory file, yet the file says `reviewer` wrote it: the one who started it writes it from its report with `--written-by`",
    ],
    ["the orchestrator's file written by the main session", "orchestrator", "main", undefined],
    ["an agent without a definition", "general-purpose", undefined, undefined],
  ])("%s", (_name, owner, writtenBy, problem) => {
    expect(writerProblem(policy, owner, writtenBy)).toBe(problem);
  });
});

/**
 * The planner's controls (issue 22): `lane.progress-constraints` and `lane.state-not-own`
 * (src/policy/state-lane.ts) for specialists, reviewers, orchestrators and the main session, and a
 * subagent's tree-moving git command judged as writing the dirty files it moves
 * (src/policy/git-moves.ts).
 */
import { describe, expect, it } from "vitest";
import { AgentDefinition } from "../../src/definitions/agent.ts";
import { expectDecision, judge, PROJECT, testPolicy } from "../helpers/guard.ts";

const agent = (name: string, owns: string[], role = "specialist") =>
  AgentDefinition.parse({
    name,
    description: `test ${role} ${name} for the state lane`,
    role,
    identity: `You are ${name}, used by the state-lane tests.`,
    responsibilities: ["work"],
    owns,
  });
const policy = testPolicy(
  [],
  [
    { path: "backend.yaml", definition: agent("backend", ["src/server/**"]) },
    { path: "frontend.yaml", definition: agent("frontend", ["src/components/**"]) },
    { path: "orchestrator.yaml", definition: agent("orchestrator", ["docs/plans/**"], "orchestrator") },
  ],
);
const STATE = `${PROJECT}/.claude/lanes/state`;
const DIRTY = [
  `${PROJECT}/src/server/api.ts`,
  `${PROJECT}/src/server/new-route.ts`,
  `${PROJECT}/src/components/Button.tsx`,
];
const CLI = "node .claude/lanes/dist/cli.mjs";

type Row = [
  string,
  string | undefined,
  { tool?: string; input?: Record<string, unknown>; command?: string },
  "deny" | "none",
  string[],
];

describe("the planner's controls", () => {
  // prettier-ignore
  const rows: Row[] = [
    ["a specialist records its step and hands off", "backend", { command: `${CLI} progress step --expert backend --action build --next-expert qa --next-action test --next-notes done` }, "none", []],
    ["a specialist widens the next step's write paths", "backend", { command: `${CLI} progress step --expert backend --action build --next-expert qa --next-action test --next-write-path 'src/**'` }, "deny", ["lane.progress-constraints"]],
    ["a specialist drops read-only with --next-tool", "backend", { command: `lanes progress step --expert backend --action b --next-expert qa --next-action t --next-tool=Bash` }, "deny", ["lane.progress-constraints"]],
    ["a specialist starts the workflow over", "frontend", { command: "lanes progress init refunds --primary frontend --force" }, "deny", ["lane.progress-constraints"]],
    ["npx lanes progress init by a specialist", "frontend", { command: "npx lanes progress init refunds --primary frontend" }, "deny", ["lane.progress-constraints"]],
    ["the orchestrator sets the next step's constraints", "orchestrator", { command: `${CLI} progress step --expert orchestrator --action plan --next-expert qa --next-action test --next-read-only --next-write-path 'tests/**'` }, "none", []],
    ["the main session starts the workflow over", undefined, { command: "lanes progress init refunds --primary backend --force" }, "none", []],
    ["a specialist shows the progress", "backend", { command: `${CLI} progress show` }, "none", []],
    ["a specialist reads the task store", "backend", { command: "cat .claude/lanes/state/tasks.json" }, "deny", ["lane.state-not-own"]],
    ["a specialist's Read of the agent tree", "backend", { tool: "Read", input: { file_path: `${STATE}/agents.json` } }, "deny", ["lane.state-not-own"]],
    ["a specialist greps the state directory", "backend", { command: "grep -r refund .claude/lanes" }, "deny", ["lane.state-not-own"]],
    ["a specialist's Grep of .claude", "backend", { tool: "Grep", input: { pattern: "QA-TASK", path: `${PROJECT}/.claude` } }, "deny", ["lane.state-not-own"]],
    ["a specialist runs lanes log", "backend", { command: `${CLI} log --task 7` }, "deny", ["lane.state-not-own"]],
    ["a specialist greps its own lane", "backend", { command: "grep -r handler src/server" }, "none", []],
    ["the orchestrator reads the task store", "orchestrator", { command: "cat .claude/lanes/state/tasks.json" }, "none", []],
    ["the main session runs lanes log", undefined, { command: "lanes log --task 7" }, "none", []],
    // git moves, with backend's and frontend's work in progress dirty in the tree
    ["frontend stashes every lane's changes", "frontend", { command: "git stash -q" }, "deny", ["lane.write-outside-owned"]],
    ["frontend stashes with -u and a message", "frontend", { command: "git stash push -u -q -m 'clean tree'" }, "deny", ["lane.write-outside-owned"]],
    ["frontend stashes backend's directory", "frontend", { command: "git stash push -q -- src/server" }, "deny", ["lane.write-outside-owned"]],
    ["frontend stashes its own directory", "frontend", { command: "git stash push -q -- src/components" }, "none", []],
    ["frontend checks out another branch", "frontend", { command: "git checkout feature" }, "deny", ["lane.write-outside-owned"]],
    ["frontend switches branch", "frontend", { command: "git -C . switch feature" }, "deny", ["lane.write-outside-owned"]],
    ["frontend makes a branch at HEAD", "frontend", { command: "git switch -c mine" }, "none", []],
    ["frontend lists the stashes", "frontend", { command: "git stash list" }, "none", []],
    ["the main session stashes", undefined, { command: "git stash" }, "none", []],
  ];
  it.each(rows)("%s", (_name, who, call, decision, rules) => {
    const e = judge(policy, call.command, {
      ...(who !== undefined && { agent: who }),
      ...(call.tool !== undefined && { tool: call.tool, input: call.input! }),
      dirty: DIRTY,
    });
    expectDecision(e, decision, rules);
  });

  it("asks git for the dirty files only for a subagent's tree-moving command", () => {
    let asked = 0;
    const dirty = () => {
      asked++;
      return DIRTY;
    };
    for (const command of ["git status", "git diff", "git log -1", "git stash show -p", "git switch -c x", "ls"])
      judge(policy, command, { agent: "frontend", dirty });
    judge(policy, "git stash", { dirty });
    expect(asked).toBe(0);
    judge(policy, "git stash && git checkout feature", { agent: "frontend", dirty });
    expect(asked).toBe(1);
  });
});

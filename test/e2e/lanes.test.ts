/**
 * Agent lanes against the real client: the pack's own team installed with `lanes init`, subagents
 * started through the Agent tool, and what each subagent saw in its next request.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  explain,
  makeRepo,
  runClaude,
  startMockApi,
  text,
  toolUse,
  type MockApi,
  type TempRepo,
} from "./harness/index.ts";
import { installLanes, lanes } from "./install.ts";

let repo: TempRepo | undefined;
let api: MockApi | undefined;
afterEach(async () => {
  await api?.close();
  repo?.cleanup();
  api = undefined;
  repo = undefined;
});

/** The line that opens the generated backend agent's body, which becomes its system prompt. */
const BACKEND_MARKER = "You are the backend specialist.";

const spawn = (type: string, prompt: string) =>
  toolUse("Agent", { description: `${type} work`, prompt, subagent_type: type, run_in_background: false });

describe("agent lanes in the real client", () => {
  it("denies the backend writing into the frontend's path, naming frontend, and lets it write its own", async () => {
    repo = makeRepo({ "README.md": "# shop\n" });
    installLanes(repo);
    const foreign = repo.path("src/components/Button.tsx");
    const own = repo.path("src/server/orders.ts");
    api = await startMockApi({
      main: [[spawn("backend", "add the orders endpoint and a button for it")], [text("done")]],
      agents: {
        backend: {
          marker: BACKEND_MARKER,
          turns: [
            [toolUse("Write", { file_path: foreign, content: "export const Button = () => null;\n" })],
            [toolUse("Write", { file_path: own, content: "export const orders = [];\n" })],
            [text("backend done")],
          ],
        },
      },
    });
    const run = await runClaude({
      repo,
      api,
      prompt: "build the orders feature",
      args: ["--permission-mode", "acceptEdits"],
    });
    const [denied, written] = api.toolResults("backend");
    expect(denied?.is_error, explain(run, api)).toBe(true);
    expect(denied?.text).toContain("PreToolUse:Write hook error: lanes denied Write of `");
    expect(denied?.text).toContain("by backend [lane.write-outside-owned]: ");
    expect(denied?.text).toContain(
      "is owned by `frontend`, not backend; instead, hand this change to `frontend` through the orchestrator",
    );
    expect(repo.read("src/components/Button.tsx")).toBeUndefined();
    expect(written?.is_error, explain(run, api)).toBe(false);
    expect(repo.read("src/server/orders.ts")).toBe("export const orders = [];\n");
    expect(api.notes).toEqual([]);

    const audit = (repo.read(".claude/lanes/state/audit.jsonl") ?? "")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(audit.find((e) => e["event"] === "boundary-violation")).toMatchObject({
      agent: "backend",
      tool: "Write",
      rules: ["lane.write-outside-owned"],
    });
    expect(audit.find((e) => e["event"] === "subagent-start")).toMatchObject({
      agent: "backend",
      subject: "main → backend",
    });
    expect(audit.some((e) => e["event"] === "file-touched" && e["agent"] === "backend")).toBe(true);
  });

  it("denies a nested spawn beyond the depth bound, with the agent path in the reason", async () => {
    repo = makeRepo({});
    installLanes(repo, ["--guard-only"]);
    const agent = (name: string, spawns: string[]) =>
      [
        `# yaml-language-server: $schema=../schemas/agent.schema.json`,
        `name: ${name}`,
        `description: Test agent ${name} for the nesting scenario, which delegates to the next level down.`,
        `role: orchestrator`,
        `identity: "LANES-E2E-AGENT:${name} You plan and delegate one level down."`,
        `responsibilities: [delegate]`,
        `owns: []`,
        `may_spawn: [${spawns.join(", ")}]`,
        "",
      ].join("\n");
    repo.write(".claude/lanes/agents/planner.yaml", agent("planner", ["lead"]));
    repo.write(".claude/lanes/agents/lead.yaml", agent("lead", ["worker"]));
    repo.write(".claude/lanes/agents/worker.yaml", agent("worker", []));
    repo.write(".claude/lanes.yaml", "version: 1\noptions:\n  max_agent_depth: 2\n");
    lanes(repo, ["build"]);
    api = await startMockApi({
      main: [[spawn("planner", "plan it")], [text("done")]],
      agents: {
        planner: [[spawn("lead", "lead it")], [text("planner done")]],
        lead: [[spawn("worker", "do it")], [text("lead done")]],
        worker: [[text("worker done")]],
      },
    });
    const run = await runClaude({ repo, api, prompt: "go" });
    const [planner] = api.toolResults("main");
    const [lead] = api.toolResults("planner");
    const [worker] = api.toolResults("lead");
    expect(planner?.is_error, explain(run, api)).toBe(false);
    expect(lead?.is_error, explain(run, api)).toBe(false);
    expect(worker?.is_error, explain(run, api)).toBe(true);
    expect(worker?.text).toContain(
      "lanes denied starting agent `worker` by lead [agents.depth-limit]: starting `worker` would nest agents 3 deep (limit 2); path: main → planner → lead",
    );
    expect(api.actors()).not.toContain("worker");
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { agentPath, readAgentTree, recordSpawnIntent, recordSubagentStart, recordSubagentStop } from "../../src/hooks/agent-tree.ts";

const state = mkdtempSync(join(tmpdir(), "lanes-tree-"));
const file = join(state, "agents.json");
afterAll(() => rmSync(state, { recursive: true, force: true }));
const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 0, 0, s));

describe("the live agent tree", () => {
  it("links each subagent to the caller whose spawn it answers, and gives every call its path", () => {
    expect(recordSpawnIntent(file, state, "s", undefined, "orchestrator", at(0))).toBeUndefined();
    recordSubagentStart(file, state, "s", "a-orch", "orchestrator", at(1));
    recordSpawnIntent(file, state, "s", "a-orch", "lanes:backend", at(2));
    recordSpawnIntent(file, state, "s", "a-orch", "frontend", at(2));
    recordSubagentStart(file, state, "s", "a-front", "frontend", at(3));
    recordSubagentStart(file, state, "s", "a-back", "lanes:backend", at(3));
    const tree = readAgentTree(file);
    expect(agentPath(tree, "s", undefined)).toEqual([]);
    expect(agentPath(tree, "s", "a-orch")).toEqual(["orchestrator"]);
    expect(agentPath(tree, "s", "a-back")).toEqual(["orchestrator", "lanes:backend"]);
    expect(agentPath(tree, "s", "a-front")).toEqual(["orchestrator", "frontend"]);
    expect(tree.sessions["s"]?.intents).toEqual([]);
  });

  it("starts an agent without a matching intent at the main session, and keeps sessions apart", () => {
    recordSubagentStart(file, state, "other", "a-x", "qa", at(4));
    expect(agentPath(readAgentTree(file), "other", "a-x")).toEqual(["qa"]);
    expect(agentPath(readAgentTree(file), "s", "a-x")).toEqual([]);
  });

  it("keeps a stopped agent, so its late calls still resolve their path", () => {
    recordSubagentStop(file, state, "s", "a-back", at(5));
    const tree = readAgentTree(file);
    expect(tree.sessions["s"]?.agents["a-back"]?.stopped).toBe(at(5).toISOString());
    expect(agentPath(tree, "s", "a-back")).toEqual(["orchestrator", "lanes:backend"]);
  });

  it("reads a missing or corrupt file as an empty tree", () => {
    expect(readAgentTree(join(state, "nope.json"))).toEqual({ version: 1, sessions: {} });
  });
});

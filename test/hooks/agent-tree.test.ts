import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  agentPath,
  readAgentTree,
  recordSpawnIntent,
  recordSpawnResult,
  recordSubagentStart,
  recordSubagentStop,
} from "../../src/hooks/state/agent-tree.ts";
import { instanceTask, readSpawnPrompt, subagentTranscriptPath } from "../../src/hooks/guard/task-constraints.ts";
import { parseTaskBlock } from "../../src/policy/task-block.ts";
import { fnv1a64 } from "../../src/io/hash.ts";

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

describe("exact links and per-instance task constraints", () => {
  const dir = mkdtempSync(join(tmpdir(), "lanes-tree2-"));
  const tfile = join(dir, "agents.json");
  const transcript = join(dir, "projects", "p", "sess.jsonl");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const promptA = "Add the users endpoint.\n<constraints>\n- only modify src/server/users/**\n</constraints>";
  const promptB =
    "Add the orders endpoint.\n<constraints>\n- only modify src/server/orders/**\n- do not run git push\n</constraints>";
  const writeTranscript = (agentId: string, prompt: string) => {
    const path = subagentTranscriptPath(transcript, "sess", agentId)!;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(
      path,
      `${JSON.stringify({ type: "user", message: { role: "user", content: prompt } })}\n${JSON.stringify({ type: "assistant", message: { content: [] } })}\n`,
    );
  };

  it("links two parallel spawns of one type by their transcripts, not by event order", () => {
    recordSpawnIntent(tfile, dir, "sess", "a-orch", "backend", at(0), {
      prompt: fnv1a64(promptA),
      task: parseTaskBlock(promptA)!,
    });
    recordSpawnIntent(tfile, dir, "sess", undefined, "backend", at(1), {
      prompt: fnv1a64(promptB),
      task: parseTaskBlock(promptB)!,
    });
    // B starts first: event order would give it A's parent
    recordSubagentStart(tfile, dir, "sess", "a-b", "backend", at(2), fnv1a64(promptB));
    recordSubagentStart(tfile, dir, "sess", "a-a", "backend", at(3), fnv1a64(promptA));
    const s = readAgentTree(tfile).sessions["sess"]!;
    expect(s.agents["a-b"]).toMatchObject({
      parent: null,
      link: "transcript",
      task: { onlyPaths: ["src/server/orders/**"], commands: [["git", "push"]] },
    });
    expect(s.agents["a-a"]).toMatchObject({
      parent: "a-orch",
      link: "transcript",
      task: { onlyPaths: ["src/server/users/**"] },
    });
    expect(s.constrainedTypes).toEqual(["backend"]);
  });

  it("gives a subagent whose transcript is not there yet the block every pending spawn of its type carries, and none when they differ", () => {
    recordSpawnIntent(tfile, dir, "sess", undefined, "docs", at(4), {
      prompt: fnv1a64(promptA),
      task: parseTaskBlock(promptA)!,
    });
    recordSubagentStart(tfile, dir, "sess", "a-d1", "docs", at(5));
    expect(readAgentTree(tfile).sessions["sess"]!.agents["a-d1"]).toMatchObject({
      link: "order",
      task: { onlyPaths: ["src/server/users/**"] },
    });
    recordSpawnIntent(tfile, dir, "sess", undefined, "docs", at(6), {
      prompt: fnv1a64(promptA),
      task: parseTaskBlock(promptA)!,
    });
    recordSpawnIntent(tfile, dir, "sess", undefined, "docs", at(6), {
      prompt: fnv1a64(promptB),
      task: parseTaskBlock(promptB)!,
    });
    recordSubagentStart(tfile, dir, "sess", "a-d2", "docs", at(7));
    expect(readAgentTree(tfile).sessions["sess"]!.agents["a-d2"]?.task).toBeUndefined();
  });

  it("the Agent call's PostToolUse corrects a link made by event order", () => {
    recordSpawnIntent(tfile, dir, "sess", "a-orch", "qa", at(4), { prompt: fnv1a64("p1"), task: null });
    recordSpawnIntent(tfile, dir, "sess", "a-a", "qa", at(4), { prompt: fnv1a64("p2"), task: null });
    recordSubagentStart(tfile, dir, "sess", "a-q2", "qa", at(5));
    expect(readAgentTree(tfile).sessions["sess"]!.agents["a-q2"]).toMatchObject({ parent: "a-orch", link: "order" });
    recordSpawnResult(
      tfile,
      dir,
      "sess",
      { agentId: "a-q2", parent: "a-a", type: "qa", prompt: fnv1a64("p2"), task: null },
      at(6),
    );
    expect(readAgentTree(tfile).sessions["sess"]!.agents["a-q2"]).toMatchObject({
      parent: "a-a",
      link: "tool-response",
      task: null,
    });
    expect(agentPath(readAgentTree(tfile), "sess", "a-q2")).toEqual(["backend", "qa"]);
  });

  it.each<[string, () => void, string, Record<string, unknown> | undefined]>([
    [
      "cached block",
      () => undefined,
      "a-a",
      { agentId: "a-a", writePaths: [expect.objectContaining({ globs: ["src/server/users/**"] })] },
    ],
    [
      "block read from the transcript",
      () => writeTranscript("a-new", promptB),
      "a-new",
      { agentId: "a-new", commands: [["git", "push"]] },
    ],
    ["transcript without a block", () => writeTranscript("a-plain", "just do it"), "a-plain", undefined],
  ])("instanceTask: %s", (_name, setup, agentId, expected) => {
    setup();
    const got = instanceTask({
      tree: readAgentTree(tfile),
      session: "sess",
      agentId,
      agentType: "backend",
      transcriptPath: transcript,
      caseInsensitive: false,
      waitForTranscript: false,
    });
    if (expected === undefined) expect(got.task).toBeUndefined();
    else expect(got.task).toMatchObject(expected);
  });

  it("fails closed when agents of the type were started with a block and this one's cannot be read", () => {
    const got = instanceTask({
      tree: readAgentTree(tfile),
      session: "sess",
      agentId: "a-unknown",
      agentType: "lanes:backend",
      transcriptPath: transcript,
      caseInsensitive: false,
      waitForTranscript: false,
    });
    expect(got.task?.unreadable).toContain("is not there yet");
    const other = instanceTask({
      tree: readAgentTree(tfile),
      session: "sess",
      agentId: "a-unknown",
      agentType: "frontend",
      transcriptPath: transcript,
      caseInsensitive: false,
      waitForTranscript: false,
    });
    expect(other.task).toBeUndefined();
  });

  it("reads the prompt from text blocks too, and refuses ids that are not plain", () => {
    const path = subagentTranscriptPath(transcript, "sess", "a-blocks")!;
    writeFileSync(
      path,
      `${JSON.stringify({
        type: "user",
        message: {
          content: [
            { type: "text", text: "line one" },
            { type: "text", text: "line two" },
          ],
        },
      })}\n`,
    );
    expect(readSpawnPrompt(path)).toBe("line one\nline two");
    expect(subagentTranscriptPath(transcript, "sess", "../x")).toBeUndefined();
    expect(readSpawnPrompt(join(dir, "missing.jsonl"))).toBeUndefined();
  });
});

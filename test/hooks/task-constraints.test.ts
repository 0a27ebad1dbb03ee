/**
 * Per-instance task constraints through the real hook processes: the Agent call's PreToolUse
 * records the spawn, the subagent's transcript or the Agent call's PostToolUse gives each instance
 * its own block, and the PreToolUse of each instance applies only its own.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subagentTranscriptPath } from "../../src/hooks/guard/task-constraints.ts";
import { hookInput, installedProject, runHook, type Project } from "../helpers/hooks.ts";

let p: Project;
beforeAll(() => {
  p = installedProject({ "README.md": "# demo\n" });
});
afterAll(() => p.cleanup());

const SESSION = "9e59050b-377d-4726-aa64-e18d3d71bc2e";
const usersPrompt = "Add the users endpoint.\n<constraints>\n- only modify src/server/users/**\n</constraints>";
const ordersPrompt =
  "Add the orders endpoint.\n<constraints>\n- only modify src/server/orders/**\n- do not run git push\n</constraints>";
const agentCall = (prompt: string) => ({ description: "backend work", prompt, subagent_type: "backend" });

function transcript(agentId: string, prompt: string): void {
  const input = hookInput(p, "PreToolUse", {});
  const file = subagentTranscriptPath(input["transcript_path"] as string, SESSION, agentId)!;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ type: "user", message: { role: "user", content: prompt } })}\n`);
}

const subagentCall = (agentId: string, tool: string, input: Record<string, unknown>) =>
  runHook(
    p,
    "pre-tool-use.cjs",
    hookInput(p, "PreToolUse", { tool_name: tool, tool_input: input, agent_id: agentId, agent_type: "backend" }),
  );
const reason = (run: ReturnType<typeof runHook>) =>
  (run.json?.["hookSpecificOutput"] as Record<string, string> | undefined)?.["permissionDecisionReason"] ?? "";

describe("task constraints per spawned agent, through the hooks", () => {
  it("records both spawns, links them, and holds each instance to its own block", () => {
    expect(
      runHook(
        p,
        "pre-tool-use.cjs",
        hookInput(p, "PreToolUse", { tool_name: "Agent", tool_input: agentCall(usersPrompt) }),
      ).stdout,
    ).toBe("");
    expect(
      runHook(
        p,
        "pre-tool-use.cjs",
        hookInput(p, "PreToolUse", { tool_name: "Agent", tool_input: agentCall(ordersPrompt) }),
      ).stdout,
    ).toBe("");
    // the orders agent starts first; its transcript is there at SubagentStart
    transcript("a00000000000000b2", ordersPrompt);
    runHook(p, "events.cjs", hookInput(p, "SubagentStart", { agent_id: "a00000000000000b2", agent_type: "backend" }));
    // the users agent: no transcript yet, linked later by the Agent call's PostToolUse
    runHook(p, "events.cjs", hookInput(p, "SubagentStart", { agent_id: "a00000000000000b1", agent_type: "backend" }));
    runHook(
      p,
      "post-tool-use.cjs",
      hookInput(p, "PostToolUse", {
        tool_name: "Agent",
        tool_input: agentCall(usersPrompt),
        tool_response: { isAsync: true, status: "async_launched", agentId: "a00000000000000b1", prompt: usersPrompt },
      }),
    );

    const tree = JSON.parse(p.read(".claude/state/agents.json")) as {
      sessions: Record<string, { agents: Record<string, { link: string; task: { onlyPaths: string[] } }> }>;
    };
    expect(tree.sessions[SESSION]?.agents["a00000000000000b1"]).toMatchObject({
      link: "tool-response",
      task: { onlyPaths: ["src/server/users/**"] },
    });
    expect(tree.sessions[SESSION]?.agents["a00000000000000b2"]).toMatchObject({
      link: "transcript",
      task: { onlyPaths: ["src/server/orders/**"] },
    });

    expect(
      subagentCall("a00000000000000b1", "Write", { file_path: p.path("src/server/users/a.ts"), content: "x" }).stdout,
    ).toBe("");
    expect(
      reason(subagentCall("a00000000000000b1", "Write", { file_path: p.path("src/server/orders/a.ts"), content: "x" })),
    ).toContain("[task.write-outside-scope]");
    expect(
      subagentCall("a00000000000000b2", "Write", { file_path: p.path("src/server/orders/a.ts"), content: "x" }).stdout,
    ).toBe("");
    expect(
      reason(subagentCall("a00000000000000b2", "Write", { file_path: p.path("src/server/users/a.ts"), content: "x" })),
    ).toContain("[task.write-outside-scope]");
    expect(reason(subagentCall("a00000000000000b2", "Bash", { command: "git commit -m x && git push" }))).toContain(
      "task.command-forbidden",
    );
  });

  it("fails closed for an instance whose block cannot be read yet, then reads it from the transcript", () => {
    const id = "a00000000000000b3";
    runHook(p, "events.cjs", hookInput(p, "SubagentStart", { agent_id: id, agent_type: "backend" }));
    const early = subagentCall(id, "Write", { file_path: p.path("src/server/users/a.ts"), content: "x" });
    expect(reason(early)).toContain("[task.constraints-unreadable]");
    expect(subagentCall(id, "Read", { file_path: p.path("README.md") }).stdout).toBe("");
    transcript(id, "Look around.\n<constraints>\n- read-only\n</constraints>");
    expect(reason(subagentCall(id, "Write", { file_path: p.path("src/server/users/a.ts"), content: "x" }))).toContain(
      "[task.read-only]",
    );
  });

  it("waits for a transcript that Claude Code writes just after the subagent's first call", async () => {
    const id = "a00000000000000b4";
    runHook(p, "events.cjs", hookInput(p, "SubagentStart", { agent_id: id, agent_type: "backend" }));
    const input = hookInput(p, "PreToolUse", {
      tool_name: "Write",
      tool_input: { file_path: p.path("src/server/users/a.ts"), content: "x" },
      agent_id: id,
      agent_type: "backend",
    });
    const child = spawn(process.execPath, [p.path(".claude/lanes/dist/pre-tool-use.cjs")], {
      cwd: p.dir,
      env: { PATH: process.env["PATH"], HOME: p.home, CLAUDE_PROJECT_DIR: p.dir },
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const closed = new Promise((resolve) => child.on("close", resolve));
    child.stdin.end(JSON.stringify(input));
    await new Promise((resolve) => setTimeout(resolve, 300));
    transcript(id, "Look around.\n<constraints>\n- read-only\n</constraints>");
    await closed;
    const decision = JSON.parse(stdout).hookSpecificOutput as Record<string, string>;
    expect(decision["permissionDecisionReason"]).toContain("[task.read-only]");
  });
});

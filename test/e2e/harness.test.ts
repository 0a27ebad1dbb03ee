/**
 * Self-tests of the end-to-end harness against the real `claude` client (2.1.330): a hook deny, an
 * allowed edit, a subagent, a nested subagent, a project skill, and the harness's own safety nets.
 * The observations these tests pin down are written up in `harness/README.md`.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  agentMarker,
  ClaudeTimeoutError,
  explain,
  findActor,
  type HookPayload,
  type JsonObject,
  MAIN,
  makeRepo,
  runClaude,
  type Scenario,
  type ScenarioOptions,
  startMockApi,
  startScenario,
  systemText,
  text,
  toolNames,
  toolUse,
  UNMARKED_SUBAGENT,
  userTexts,
} from "./harness/index.ts";

// ---------------------------------------------------------------------------------------------------
// Fixture: one tiny hook that logs its stdin and denies Bash commands containing a marker
// ---------------------------------------------------------------------------------------------------

const DENY_MARKER = "E2E-DENY";

/** Logs the payload as one JSON line to `$CLAUDE_PROJECT_DIR/<argv[2] ?? hook-log.jsonl>`. */
const FIXTURE_HOOK = `import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
const input = JSON.parse(readFileSync(0, "utf8"));
const log = join(process.env.CLAUDE_PROJECT_DIR ?? input.cwd, process.argv[2] ?? "hook-log.jsonl");
appendFileSync(log, JSON.stringify(input) + "\\n");
const command = input.tool_name === "Bash" ? String(input.tool_input?.command ?? "") : "";
if (input.hook_event_name === "PreToolUse" && command.includes(${JSON.stringify(DENY_MARKER)})) {
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "fixture hook: \`" + command + "\` contains the deny marker, run something else",
    },
  }));
}
`;

const HOOK_PATH = ".claude/hooks/fixture.mjs";
const HOOK_COMMAND = `node "$CLAUDE_PROJECT_DIR/${HOOK_PATH}"`;

/** `.claude/settings.json` wiring the fixture hook (no matcher) on each event. */
function settings(events: readonly string[]): string {
  const hooks: Record<string, unknown> = {};
  for (const event of events) hooks[event] = [{ hooks: [{ type: "command", command: HOOK_COMMAND, timeout: 20 }] }];
  return JSON.stringify({ hooks }, null, 2) + "\n";
}

/** An agent definition whose body carries the harness marker. */
function agentFile(name: string, tools: string, extraFrontmatter = ""): string {
  return `---\nname: ${name}\ndescription: e2e fixture agent ${name}\ntools: ${tools}\n${extraFrontmatter}---\nYou are the ${name} fixture agent. ${agentMarker(name)}\n`;
}

/** Agent tool input that runs the subagent inline (subagents run in the background by default, C.4). */
function spawn(subagentType: string, prompt: string): JsonObject {
  return { description: `run ${subagentType}`, prompt, subagent_type: subagentType, run_in_background: false };
}

const AGENT_ID = /^a[0-9a-f]{16}$/;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(options: ScenarioOptions): Promise<Scenario> {
  const scenario = await startScenario(options);
  cleanups.push(() => scenario.dispose());
  return scenario;
}

function only<T>(items: readonly T[], what: string): T {
  expect(items, `exactly one ${what}`).toHaveLength(1);
  return items[0] as T;
}

// ---------------------------------------------------------------------------------------------------
// Against the real client
// ---------------------------------------------------------------------------------------------------

describe("harness against the real claude client", () => {
  it("(a) a hook deny reaches the model as an is_error tool_result and is listed in permission_denials", async () => {
    const denied = `echo ${DENY_MARKER} please`;
    const s = await start({
      files: { ".claude/settings.json": settings(["PreToolUse"]), [HOOK_PATH]: FIXTURE_HOOK },
      script: {
        main: [
          [
            text("trying both"),
            toolUse("Bash", { command: denied }),
            toolUse("Bash", { command: "echo allowed-output" }),
          ],
          [text("done")],
        ],
      },
    });
    const run = await s.run("run the two commands", { args: ["--allowedTools", "Bash"] });
    const info = explain(run, s.api);

    expect(run.exitCode, info).toBe(0);
    expect(run.json?.result, info).toBe("done");
    expect(s.api.notes, info).toEqual([]);
    const [deniedCall, allowedCall] = s.api.toolUses(MAIN);
    expect(deniedCall?.input).toEqual({ command: denied });

    // the second main request carries both results (in completion order, so look them up by id)
    expect(s.api.toolResults(MAIN).map((r) => r.requestIndex)).toEqual([1, 1]);
    expect(s.api.lastRequest()?.turn).toBe(1);
    expect(s.api.toolResult(String(deniedCall?.id))).toMatchObject({
      is_error: true,
      text: `PreToolUse:Bash hook error: fixture hook: \`${denied}\` contains the deny marker, run something else`,
      toolName: "Bash",
    });
    expect(s.api.toolResult(String(allowedCall?.id))).toMatchObject({ is_error: false, text: "allowed-output" });

    expect(run.json?.permission_denials).toEqual([
      { tool_name: "Bash", tool_use_id: deniedCall?.id, tool_input: { command: denied } },
    ]);
    const log = s.repo.readJsonl("hook-log.jsonl");
    // calls of one turn may reach the hook in either order: compare as a set
    expect(log.map((e) => `${e.hook_event_name}:${String(e.tool_use_id)}`).sort()).toEqual(
      [`PreToolUse:${String(deniedCall?.id)}`, `PreToolUse:${String(allowedCall?.id)}`].sort(),
    );
    expect(log.every((e) => e.agent_id === undefined)).toBe(true);
  });

  it("(b) an allowed Write under --permission-mode acceptEdits creates the file; without it -p denies", async () => {
    // lower-level API: the script needs the repo's absolute path, so make the repo first
    const repo = makeRepo({ ".claude/settings.json": settings(["PreToolUse"]), [HOOK_PATH]: FIXTURE_HOOK });
    cleanups.push(() => repo.cleanup());
    const target = repo.path("notes/out.txt");
    const other = repo.path("notes/other.txt");
    const api = await startMockApi({
      main: [[toolUse("Write", { file_path: target, content: "written by e2e\n" })], [text("written")]],
    });
    cleanups.push(() => api.close());

    const run = await runClaude({ repo, api, prompt: "write the file", args: ["--permission-mode", "acceptEdits"] });
    const info = explain(run, api);
    expect(run.exitCode, info).toBe(0);
    expect(run.json?.permission_denials, info).toEqual([]);
    expect(api.toolResults(MAIN)[0]).toMatchObject({ toolName: "Write", is_error: false });
    expect(repo.read("notes/out.txt")).toBe("written by e2e\n");
    const pre = only(repo.readJsonl("hook-log.jsonl"), "PreToolUse");
    expect(pre).toMatchObject({
      tool_name: "Write",
      permission_mode: "acceptEdits",
      tool_input: { file_path: target },
    });

    // control: the same kind of call in default mode is denied (nobody to ask in -p): `args` do pass through
    const api2 = await startMockApi({
      main: [[toolUse("Write", { file_path: other, content: "x" })], [text("not written")]],
    });
    cleanups.push(() => api2.close());
    const run2 = await runClaude({ repo, api: api2, prompt: "write the other file" });
    const call = only(api2.toolUses(MAIN), "Write call");
    expect(run2.json?.permission_denials, explain(run2, api2)).toEqual([
      { tool_name: "Write", tool_use_id: call.id, tool_input: { file_path: other, content: "x" } },
    ]);
    expect(api2.toolResult(call.id)?.is_error).toBe(true);
    expect(existsSync(other)).toBe(false);
  });

  it("(c) a subagent's tool calls reach the settings hook with agent_id and agent_type", async () => {
    const frontmatterHook = [
      "hooks:",
      "  PreToolUse:",
      "    - matcher: Bash",
      "      hooks:",
      "        - type: command",
      `          command: node "$CLAUDE_PROJECT_DIR/${HOOK_PATH}" frontmatter-log.jsonl`,
      "",
    ].join("\n");
    const s = await start({
      trusted: true, // agent-frontmatter hooks only load in trusted folders
      files: {
        ".claude/settings.json": settings(["PreToolUse", "PostToolUse", "SubagentStart", "SubagentStop"]),
        [HOOK_PATH]: FIXTURE_HOOK,
        ".claude/agents/worker.md": agentFile("worker", "Bash", frontmatterHook),
      },
      script: {
        main: [[toolUse("Agent", spawn("worker", "say hello from the worker"))], [text("main done")]],
        agents: { worker: [[toolUse("Bash", { command: "echo from-worker" })], [text("worker done")]] },
      },
    });
    const run = await s.run("delegate to the worker", { args: ["--allowedTools", "Bash"] });
    const info = explain(run, s.api);
    expect(run.exitCode, info).toBe(0);
    expect(s.api.notes, info).toEqual([]);
    expect(s.api.actors()).toEqual([MAIN, "worker"]);

    const agentCall = only(s.api.toolUses(MAIN), "main tool call");
    const workerCall = only(s.api.toolUses("worker"), "worker tool call");
    expect(s.api.toolResult(workerCall.id)).toMatchObject({ is_error: false, text: "from-worker", actor: "worker" });
    expect(s.api.toolResult(agentCall.id)?.text).toContain("worker done");
    // the worker's system prompt is its markdown body; the prompt arrives as the first user text
    const workerRequest = s.api.mainRequests("worker")[0];
    expect(userTexts(workerRequest)).toContain("say hello from the worker");
    expect(systemText(workerRequest)).toContain(`You are the worker fixture agent. ${agentMarker("worker")}`);
    expect(toolNames(workerRequest)).toEqual(["Bash"]);

    const log = s.repo.readJsonl("hook-log.jsonl");
    const agentPre = only(
      log.filter((e) => e.hook_event_name === "PreToolUse" && e.tool_name === "Agent"),
      "Agent PreToolUse",
    );
    expect(agentPre.agent_id).toBeUndefined();
    expect(agentPre.tool_input).toEqual(spawn("worker", "say hello from the worker"));

    const bashPre = only(
      log.filter((e) => e.hook_event_name === "PreToolUse" && e.tool_use_id === workerCall.id),
      "worker PreToolUse",
    );
    expect(bashPre.agent_type).toBe("worker");
    expect(bashPre.agent_id).toMatch(AGENT_ID);
    const workerId = bashPre.agent_id;

    const startEvent = only(
      log.filter((e) => e.hook_event_name === "SubagentStart"),
      "SubagentStart",
    );
    expect(startEvent).toMatchObject({ agent_id: workerId, agent_type: "worker" });
    const stopEvent = only(
      log.filter((e) => e.hook_event_name === "SubagentStop"),
      "SubagentStop",
    );
    expect(stopEvent).toMatchObject({
      agent_id: workerId,
      agent_type: "worker",
      stop_hook_active: false,
      last_assistant_message: "worker done",
    });
    expect(stopEvent.agent_transcript_path).toBe(
      `${String(stopEvent.transcript_path).replace(/\.jsonl$/, "")}/subagents/agent-${String(workerId)}.jsonl`,
    );
    const agentPost = only(
      log.filter((e) => e.hook_event_name === "PostToolUse" && e.tool_name === "Agent"),
      "Agent PostToolUse",
    );
    expect(agentPost.tool_response).toMatchObject({ status: "completed", agentId: workerId, agentType: "worker" });

    expect(log.map((e) => `${e.hook_event_name}:${e.agent_type ?? MAIN}`)).toEqual([
      "PreToolUse:main",
      "SubagentStart:worker",
      "PreToolUse:worker",
      "PostToolUse:worker",
      "SubagentStop:worker",
      "PostToolUse:main",
    ]);

    // the trusted folder loaded the agent-frontmatter hook too
    const frontmatter = only(s.repo.readJsonl("frontmatter-log.jsonl"), "frontmatter hook call");
    expect(frontmatter).toMatchObject({ tool_use_id: workerCall.id, agent_id: workerId, agent_type: "worker" });
  });

  it("(d) a nested subagent reports its own agent_id; the parent link is only in the Agent call's PostToolUse", async () => {
    const s = await start({
      files: {
        ".claude/settings.json": settings(["PreToolUse", "PostToolUse", "SubagentStart", "SubagentStop"]),
        [HOOK_PATH]: FIXTURE_HOOK,
        ".claude/agents/worker.md": agentFile("worker", "Bash, Agent"),
        ".claude/agents/worker2.md": agentFile("worker2", "Bash"),
      },
      script: {
        main: [[toolUse("Agent", spawn("worker", "delegate further"))], [text("main done")]],
        agents: {
          worker: [
            [toolUse("Agent", spawn("worker2", "nested task"))],
            [toolUse("Bash", { command: "echo from-worker" })],
            [text("worker done")],
          ],
          worker2: [[toolUse("Bash", { command: "echo from-worker2" })], [text("worker2 done")]],
        },
      },
    });
    const run = await s.run("delegate twice", { args: ["--allowedTools", "Bash"] });
    const info = explain(run, s.api);
    expect(run.exitCode, info).toBe(0);
    expect(s.api.notes, info).toEqual([]);
    expect(s.api.actors()).toEqual([MAIN, "worker", "worker2"]);
    expect(run.json?.["subagent_stats"]).toMatchObject({ spawned: 2, max_depth: 2, spawned_by_subagents: 1 });

    const [nestedSpawn, workerBash] = s.api.toolUses("worker");
    const worker2Bash = only(s.api.toolUses("worker2"), "worker2 call");
    const log = s.repo.readJsonl("hook-log.jsonl");
    const pre = (id: string | undefined): HookPayload =>
      only(
        log.filter((e) => e.hook_event_name === "PreToolUse" && e.tool_use_id === id),
        `PreToolUse ${String(id)}`,
      );

    const workerId = pre(workerBash?.id).agent_id;
    const worker2Id = pre(worker2Bash.id).agent_id;
    expect(workerId).toMatch(AGENT_ID);
    expect(worker2Id).toMatch(AGENT_ID);
    expect(worker2Id).not.toBe(workerId);
    expect(pre(worker2Bash.id).agent_type).toBe("worker2");

    // the nested Agent call is made by the worker and names worker2
    expect(pre(nestedSpawn?.id)).toMatchObject({
      agent_id: workerId,
      agent_type: "worker",
      tool_name: "Agent",
      tool_input: spawn("worker2", "nested task"),
    });

    // SubagentStart carries only the new agent's id and type: no parent, no tool_use_id
    const starts = log.filter((e) => e.hook_event_name === "SubagentStart");
    expect(starts.map((e) => [e.agent_id, e.agent_type])).toEqual([
      [workerId, "worker"],
      [worker2Id, "worker2"],
    ]);
    for (const event of starts) {
      expect(Object.keys(event).sort()).toEqual(
        ["agent_id", "agent_type", "cwd", "hook_event_name", "prompt_id", "session_id", "transcript_path"].sort(),
      );
    }
    const stops = log.filter((e) => e.hook_event_name === "SubagentStop");
    expect(stops.map((e) => [e.agent_id, e.agent_type, e.last_assistant_message])).toEqual([
      [worker2Id, "worker2", "worker2 done"],
      [workerId, "worker", "worker done"],
    ]);
    for (const event of stops) {
      expect(Object.keys(event).sort()).toEqual(
        [
          "agent_id",
          "agent_transcript_path",
          "agent_type",
          "background_tasks",
          "cwd",
          "effort",
          "hook_event_name",
          "last_assistant_message",
          "permission_mode",
          "prompt_id",
          "session_crons",
          "session_id",
          "stop_hook_active",
          "transcript_path",
        ].sort(),
      );
      // transcripts of nested agents sit flat next to their parent's
      expect(event.agent_transcript_path).toBe(
        `${String(event.transcript_path).replace(/\.jsonl$/, "")}/subagents/agent-${String(event.agent_id)}.jsonl`,
      );
    }

    // the parent link: the Agent call's PostToolUse is made by the parent and names the child
    const nestedPost = only(
      log.filter((e) => e.hook_event_name === "PostToolUse" && e.tool_use_id === nestedSpawn?.id),
      "nested Agent PostToolUse",
    );
    expect(nestedPost.agent_id).toBe(workerId);
    expect(nestedPost.tool_response).toMatchObject({ status: "completed", agentId: worker2Id, agentType: "worker2" });

    expect(log.map((e) => `${e.hook_event_name}:${e.agent_type ?? MAIN}:${e.tool_name ?? ""}`)).toEqual([
      "PreToolUse:main:Agent",
      "SubagentStart:worker:",
      "PreToolUse:worker:Agent",
      "SubagentStart:worker2:",
      "PreToolUse:worker2:Bash",
      "PostToolUse:worker2:Bash",
      "SubagentStop:worker2:",
      "PostToolUse:worker:Agent",
      "PreToolUse:worker:Bash",
      "PostToolUse:worker:Bash",
      "SubagentStop:worker:",
      "PostToolUse:main:Agent",
    ]);

    // undocumented client file (2.1.330): <session>/subagents/agent-<id>.meta.json names the parent
    const transcriptDir = String(log[0]?.transcript_path).replace(/\.jsonl$/, "");
    const meta = (id: string | undefined): JsonObject =>
      JSON.parse(readFileSync(`${transcriptDir}/subagents/agent-${String(id)}.meta.json`, "utf8")) as JsonObject;
    expect(meta(worker2Id)).toMatchObject({
      agentType: "worker2",
      toolUseId: nestedSpawn?.id,
      parentAgentId: workerId,
      spawnDepth: 2,
    });
    expect(meta(workerId)).toMatchObject({ agentType: "worker", spawnDepth: 1 });
    expect(meta(workerId)["parentAgentId"]).toBeUndefined();
  });

  it("(e) a project skill invoked as /hello reaches the model with $ARGUMENTS substituted", async () => {
    const s = await start({
      files: {
        ".claude/settings.json": settings(["UserPromptExpansion"]),
        [HOOK_PATH]: FIXTURE_HOOK,
        ".claude/skills/hello/SKILL.md":
          "---\nname: hello\ndescription: e2e fixture skill\n---\nLANES-E2E-SKILL hello body. Context: [$ARGUMENTS]. First word: $0.\n",
      },
      script: { main: [[text("hello to you")]] },
    });
    const run = await s.run("/hello some context");
    const info = explain(run, s.api);
    expect(run.exitCode, info).toBe(0);
    expect(run.json?.result, info).toBe("hello to you");

    const texts = userTexts(s.api.lastRequest());
    expect(texts).toContain(
      "<command-message>hello</command-message>\n<command-name>/hello</command-name>\n<command-args>some context</command-args>\n",
    );
    const body = texts.find((t) => t.includes("LANES-E2E-SKILL"));
    expect(body).toBe(
      `Base directory for this skill: ${s.repo.path(".claude/skills/hello")}\n\nLANES-E2E-SKILL hello body. Context: [some context]. First word: some.\n`,
    );
    const expansion = only(s.repo.readJsonl("hook-log.jsonl"), "UserPromptExpansion");
    expect(expansion).toMatchObject({
      expansion_type: "slash_command",
      command_name: "hello",
      command_args: "some context",
    });
  });

  it("answers an exhausted script with a final text and a note instead of hanging; function scripts see results", async () => {
    const s = await start({
      files: {},
      script: {
        respond: ({ actor, turn, api }) => {
          if (actor !== MAIN) return undefined;
          if (turn === 0) return [toolUse("Bash", { command: "echo dynamic" })];
          if (turn === 1) return [toolUse("Agent", spawn("general-purpose", "unscripted agent"))];
          const seen = api.toolResults(MAIN).map((r) => r.text.split("\n")[0]);
          return turn === 2 ? [text(`saw ${JSON.stringify(seen)}`)] : undefined;
        },
      },
    });
    const run = await s.run("go", { args: ["--allowedTools", "Bash"] });
    const info = explain(run, s.api);
    expect(run.exitCode, info).toBe(0);
    // the built-in agent has no marker: it is recognised as a subagent, not served the main script
    expect(s.api.actors()).toEqual([MAIN, UNMARKED_SUBAGENT]);
    expect(s.api.notes).toEqual([
      expect.stringContaining(`(${UNMARKED_SUBAGENT}, turn 0): script has no turn; answered with a final text`),
    ]);
    expect(run.json?.result).toMatch(/^saw \["dynamic",/);
  });

  it("kills the client and its hook processes on timeout", async () => {
    const s = await start({
      files: {
        ".claude/settings.json": JSON.stringify({
          hooks: { PreToolUse: [{ hooks: [{ type: "command", command: 'node "$CLAUDE_PROJECT_DIR/hang.mjs"' }] }] },
        }),
        "hang.mjs": `import { writeFileSync } from "node:fs";
writeFileSync(process.env.CLAUDE_PROJECT_DIR + "/hang.pid", String(process.pid));
setInterval(() => {}, 1000);
`,
      },
      script: { main: [[toolUse("Bash", { command: "echo never" })], [text("never")]] },
    });
    const error = await s.run("go", { timeoutMs: 3_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ClaudeTimeoutError);
    const pid = Number(s.repo.read("hang.pid"));
    expect(pid).toBeGreaterThan(0);
    expect(await isGone(pid)).toBe(true);
  });
});

/** Waits (up to 5 s) until `pid` no longer runs; a zombie counts as gone. */
async function isGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    let state = "gone";
    try {
      process.kill(pid, 0);
      state = existsSync(`/proc/${pid}/stat`)
        ? (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.charAt(0) ?? "?")
        : "?";
    } catch {
      // ESRCH
    }
    if (state === "gone" || state === "Z") return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------
// Without the client
// ---------------------------------------------------------------------------------------------------

describe("mock api on its own", () => {
  it("recognises markers as whole tokens, longest first, and unmarked subagents", () => {
    const markers = [
      { actor: "worker", marker: agentMarker("worker") },
      { actor: "worker2", marker: agentMarker("worker2") },
    ];
    expect(findActor(`x ${agentMarker("worker2")} y`, markers)).toBe("worker2");
    expect(findActor(`x ${agentMarker("worker")}.`, markers)).toBe("worker");
    expect(findActor(`${agentMarker("worker")}-old`, markers)).toBe(MAIN);
    expect(findActor("x-anthropic-billing-header: cc_is_subagent=true;", markers)).toBe(UNMARKED_SUBAGENT);
    expect(findActor("plain main prompt", markers)).toBe(MAIN);
  });

  it("answers side requests, count_tokens and other paths and records them", async () => {
    const api = await startMockApi({ main: [] });
    try {
      const post = (path: string, body: unknown): Promise<Response> =>
        fetch(`${api.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      const side = await post("/v1/messages?beta=true", {
        model: "m",
        messages: [{ role: "user", content: "title?" }],
      });
      expect(await side.json()).toMatchObject({
        type: "message",
        content: [{ type: "text" }],
        stop_reason: "end_turn",
      });
      const count = await post("/v1/messages/count_tokens?beta=true", { messages: [] });
      expect(await count.json()).toEqual({ input_tokens: 100 });
      const other = await fetch(`${api.url}/api/hello`);
      expect(await other.json()).toEqual({});
      const main = await post("/v1/messages", { model: "m", stream: true, tools: [{ name: "Bash" }], messages: [] });
      const sse = await main.text();
      expect(sse).toContain("event: message_start");
      expect(sse).toContain("no scripted turn 0 for main");
      expect(api.requests.map((r) => r.kind)).toEqual(["side", "count_tokens", "other", "main"]);
      expect(api.notes).toHaveLength(1);
    } finally {
      await api.close();
    }
  });
});

/**
 * The built hooks as processes: stdout is exactly one JSON object that validates against the
 * SDK's output type, or nothing; the failure posture holds row by row.
 */
import { existsSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookInput, installedProject, runHook, sdkSchemas, type Project } from "../helpers/hooks.ts";

const schemas = sdkSchemas([
  "SyncHookJSONOutput",
  "PreToolUseHookInput",
  "PostToolUseHookInput",
  "SessionStartHookInput",
  "SubagentStartHookInput",
  "SubagentStopHookInput",
  "PreCompactHookInput",
  "TaskCreatedHookInput",
] as const);
let p: Project;
beforeAll(() => {
  p = installedProject({ ".env": "SECRET=1\n", "README.md": "# demo\n" });
});
afterAll(() => p.cleanup());

const pre = (tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  hookInput(p, "PreToolUse", { tool_name: tool, tool_input: input, ...extra });

function expectValidOutput(stdout: string): void {
  const parsed = schemas.SyncHookJSONOutput.safeParse(JSON.parse(stdout));
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
}

describe("PreToolUse through the real process", () => {
  it("prints nothing for no opinion", () => {
    const input = pre("Bash", { command: "git status", description: "status" });
    expect(schemas.PreToolUseHookInput.safeParse(input).success).toBe(true);
    const run = runHook(p, "pre-tool-use.cjs", input);
    expect(run).toMatchObject({ status: 0, stdout: "" });
  });

  it.each([
    ["Bash", { command: "git reset --hard" }, "deny", "git.reset-hard"],
    ["Bash", { command: 'rm -rf "$TARGET"' }, "ask", "fs.delete-dynamic"],
    ["Read", { file_path: "/PROJECT/.env" }, "deny", "secrets.env-files"],
    [
      "Write",
      { file_path: "/PROJECT/.claude/settings.local.json", content: '{"env":{"DEBUG":"1"}}' },
      "ask",
      "lanes.config",
    ],
    // `{}` over the installed settings drops lanes' wiring: the file on disk is compared (issue 22)
    ["Write", { file_path: "/PROJECT/.claude/settings.json", content: "{}" }, "deny", "guard.settings-write"],
    // a glob compiled at run time: the hook loads the lazy globs bundle (picomatch)
    ["Glob", { pattern: "**/.env" }, "deny", "secrets.env-files"],
  ])("%s %j → %s by %s, as one valid JSON object", (tool, input, effect, rule) => {
    const resolved = JSON.parse(JSON.stringify(input).replace("/PROJECT", p.dir)) as Record<string, unknown>;
    const run = runHook(p, "pre-tool-use.cjs", pre(tool, resolved));
    expect(run.status).toBe(0);
    expectValidOutput(run.stdout);
    const out = run.json?.["hookSpecificOutput"] as Record<string, string>;
    expect(out).toMatchObject({ hookEventName: "PreToolUse", permissionDecision: effect });
    expect(out["permissionDecisionReason"]).toContain(`[${rule}]`);
  });

  it.each([
    [
      "main session, Write",
      "Write",
      { file_path: "/PROJECT/.claude/lanes.yaml", content: "version: 1\n" },
      undefined,
      "ask",
    ],
    // a shell write does not show the change: denied by lanes.config-shell
    ["main session, Bash redirect", "Bash", { command: "echo 'rules: []' >> .claude/lanes.yaml" }, undefined, "deny"],
    [
      "main session, Edit of the hooks",
      "Edit",
      { file_path: "/PROJECT/.claude/lanes/dist/pre-tool-use.cjs", old_string: "a", new_string: "b" },
      undefined,
      "ask",
    ],
    [
      "subagent, Write",
      "Write",
      { file_path: "/PROJECT/.claude/lanes.yaml", content: "version: 1\n" },
      "general-purpose",
      "deny",
    ],
    [
      "subagent, Bash redirect to settings",
      "Bash",
      { command: "echo '{}' > .claude/settings.json" },
      "general-purpose",
      "deny",
    ],
    [
      "subagent, Edit of the compiled policy",
      "Edit",
      { file_path: "/PROJECT/.claude/lanes/state/policy.json", old_string: "a", new_string: "b" },
      "general-purpose",
      "deny",
    ],
  ])("self-protection (%s): %s → %s by lanes.config", (_name, tool, input, agent, effect) => {
    const resolved = JSON.parse(JSON.stringify(input).replace("/PROJECT", p.dir)) as Record<string, unknown>;
    const run = runHook(
      p,
      "pre-tool-use.cjs",
      pre(tool, resolved, agent === undefined ? {} : { agent_id: "a00000000000000f1", agent_type: agent }),
    );
    expectValidOutput(run.stdout);
    const out = run.json?.["hookSpecificOutput"] as Record<string, string>;
    expect(out["permissionDecision"]).toBe(effect);
    expect(out["permissionDecisionReason"]).toMatch(/\[(.*, )?lanes\.config(-shell)?(, .*)?\]/);
  });

  it("escalates per rule: the third denial by one rule tells the agent to stop and report, unrelated rules do not add up, and an allowed call resets", () => {
    const call = (
      command: string,
      agent: Record<string, string> = { agent_id: "a00000000000000e1", agent_type: "backend" },
    ) => runHook(p, "pre-tool-use.cjs", pre("Bash", { command }, agent));
    const reason = (command: string, agent?: Record<string, string>) =>
      (call(command, agent).json?.["hookSpecificOutput"] as Record<string, string> | undefined)?.[
        "permissionDecisionReason"
      ] ?? "";
    expect(reason("git clean -fdx")).not.toContain("denial in a row");
    expect(reason("git reset --hard")).not.toContain("denial in a row");
    expect(reason("git clean -fdx")).not.toContain("denial in a row");
    expect(reason("git clean -fdx")).toContain(
      "— this is the 3rd denial in a row by this rule for backend: stop, do not try another way around it, and report to the agent that started you (the orchestrator) what you need",
    );
    expect(call("git status").stdout).toBe("");
    expect(reason("git clean -fdx")).not.toContain("denial in a row");
    expect(p.read(".claude/lanes/state/audit.jsonl")).toContain('"event":"escalation"');
    // the main session is told to ask the user
    for (let i = 0; i < 2; i++) expect(reason("git reset --hard", {})).not.toContain("denial in a row");
    expect(reason("git reset --hard", {})).toContain(
      "— this is the 3rd denial in a row by this rule: stop, do not try another way around it, and ask the user how to proceed",
    );
  });

  it("logs every decision in the audit log", () => {
    runHook(p, "pre-tool-use.cjs", pre("Bash", { command: "dropdb prod" }));
    const lines = p
      .read(".claude/lanes/state/audit.jsonl")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({
      event: "decision",
      tool: "Bash",
      subject: "dropdb prod",
      decision: "deny",
      risk: "DANGEROUS",
      rules: ["db.dropdb"],
    });
    expect(lines.some((l) => l["decision"] === "none")).toBe(true);
  });
});

describe("failure posture", () => {
  it.each([
    ["empty stdin", "", "stdin was empty"],
    ["not JSON", "{not json", "stdin is not valid JSON"],
    ["not an object", "[1,2]", "stdin is not a JSON object"],
    [
      "no tool_input",
      JSON.stringify({ session_id: "s", cwd: "/", hook_event_name: "PreToolUse", tool_name: "Bash" }),
      "`tool_input` is missing or not an object",
    ],
  ])("unreadable hook input (%s) → deny with a message", (_name, raw, message) => {
    const run = runHook(p, "pre-tool-use.cjs", raw);
    expect(run.status).toBe(0);
    expectValidOutput(run.stdout);
    const out = run.json?.["hookSpecificOutput"] as Record<string, string>;
    expect(out["permissionDecision"]).toBe("deny");
    expect(out["permissionDecisionReason"]).toBe(
      `lanes could not read the hook input: ${message}; the call is blocked because the guard cannot judge it`,
    );
  });

  it("LANES_FAILURE_MODE=open turns a failure into no opinion, and says why on stderr", () => {
    const run = runHook(p, "pre-tool-use.cjs", "{not json", { LANES_FAILURE_MODE: "open" });
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("LANES_FAILURE_MODE=open");
  });

  describe("stale and invalid policy", () => {
    let q: Project;
    beforeAll(() => {
      q = installedProject({ ".env": "SECRET=1\n", "README.md": "# demo\n" });
    });
    afterAll(() => q.cleanup());
    /** The audit entries of one event, as the guard wrote them. */
    const audited = (event: string): Record<string, unknown>[] =>
      q
        .read(".claude/lanes/state/audit.jsonl")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((e) => e["event"] === event);

    it("a lanes.yaml edited mid-session (a new deny rule) is recompiled and enforced by the next call", () => {
      q.write(
        ".claude/lanes.yaml",
        `${q.read(".claude/lanes.yaml")}\n  - id: team.no-cowsay\n    effect: deny\n    why: no cows\n    instead: use echo\n    command: { program: cowsay }\n`.replace(
          "rules: []",
          "rules:",
        ),
      );
      const run = runHook(
        q,
        "pre-tool-use.cjs",
        hookInput(q, "PreToolUse", { tool_name: "Bash", tool_input: { command: "cowsay moo" } }),
      );
      expectValidOutput(run.stdout);
      const out = run.json?.["hookSpecificOutput"] as Record<string, string>;
      expect(out["permissionDecision"]).toBe("deny");
      expect(out["permissionDecisionReason"]).toContain("[team.no-cowsay]");
      expect(out["permissionDecisionReason"]).not.toContain(" build");
      expect(
        runHook(q, "pre-tool-use.cjs", hookInput(q, "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } }))
          .stdout,
      ).toBe("");
      // the recompile is audited once, by the hook that compiled: why the compiled policy was out of date, and which file
      expect(audited("policy-compiled")).toEqual([
        expect.objectContaining({ kind: "stale", file: q.path(".claude/lanes.yaml"), reason: expect.any(String) }),
      ]);
    });

    it("…while non-mutating tools are still judged by the built-in rules", () => {
      expect(
        runHook(
          q,
          "pre-tool-use.cjs",
          hookInput(q, "PreToolUse", { tool_name: "Read", tool_input: { file_path: q.path("README.md") } }),
        ).stdout,
      ).toBe("");
      const secret = runHook(
        q,
        "pre-tool-use.cjs",
        hookInput(q, "PreToolUse", { tool_name: "Read", tool_input: { file_path: q.path(".env") } }),
      );
      expect((secret.json?.["hookSpecificOutput"] as Record<string, string>)["permissionDecision"]).toBe("deny");
    });

    it("an edit that does not compile keeps the last good policy in force and says once which line to fix", () => {
      q.write(
        ".claude/lanes.yaml",
        `${q.read(".claude/lanes.yaml")}  - id: Bad Id\n    why: w\n    instead: i\n    command: { program: x }\n`,
      );
      const first = runHook(
        q,
        "pre-tool-use.cjs",
        hookInput(q, "PreToolUse", { tool_name: "Bash", tool_input: { command: "cowsay moo" } }),
      );
      expectValidOutput(first.stdout);
      const out = first.json?.["hookSpecificOutput"] as Record<string, string>;
      expect(out["permissionDecision"]).toBe("deny");
      expect(out["permissionDecisionReason"]).toContain("[team.no-cowsay]");
      // the notice, then (for the human only) the override code of this denial
      const [notice, offer] = String(first.json?.["systemMessage"]).split("\n");
      expect(notice).toMatch(
        /^lanes policy does not compile: .*lanes\.yaml:\d+: rules\[1\]\.id: a rule id is lowercase words.*the last good policy stays in force$/,
      );
      expect(offer).toMatch(
        /^lanes: to let this exact call run once, send `lanes allow [A-Z2-7]{6}` as your next message to Claude, in Claude Code's prompt, not the shell \(valid \d+ minutes\)$/,
      );
      expect(out["additionalContext"]).toBe(notice);
      // told once: the next call is judged silently by the last good policy
      const second = runHook(
        q,
        "pre-tool-use.cjs",
        hookInput(q, "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } }),
      );
      expect(second.stdout).toBe("");
      // audited once (the second call knows the error): the file and the error's first line
      const errors = audited("policy-error");
      expect(errors).toEqual([expect.objectContaining({ kind: "invalid-source", file: q.path(".claude/lanes.yaml") })]);
      expect(String(errors[0]!["reason"])).toMatch(
        /lanes\.yaml:\d+: rules\[1\]\.id: a rule id is lowercase words[^\n]*$/,
      );
    });

    it("SessionStart recompiles a stale policy, and the guard enforces it again", () => {
      q.write(".claude/lanes.yaml", "version: 1\nrules: []\n");
      const run = runHook(q, "session-start.cjs", hookInput(q, "SessionStart", { source: "startup" }));
      expect(run.stdout).toBe("");
      expect(
        runHook(
          q,
          "pre-tool-use.cjs",
          hookInput(q, "PreToolUse", { tool_name: "Bash", tool_input: { command: "cowsay moo" } }),
        ).stdout,
      ).toBe("");
    });

    it("an invalid lanes.yaml and no good policy: SessionStart reports file and line, the guard denies mutating tools but lets the model fix the file", () => {
      q.write(
        ".claude/lanes.yaml",
        "version: 1\nrules:\n  - id: Bad Id\n    why: w\n    instead: i\n    command: { program: x }\n",
      );
      rmSync(q.path(".claude/lanes/state/policy.json"));
      const start = runHook(q, "session-start.cjs", hookInput(q, "SessionStart", { source: "startup" }));
      expectValidOutput(start.stdout);
      expect(String(start.json?.["systemMessage"])).toMatch(
        /^lanes policy does not compile: .*lanes\.yaml:3: rules\[0\]\.id: a rule id is lowercase words/,
      );
      expect(String(start.json?.["systemMessage"])).not.toContain(" build");
      const denied = runHook(
        q,
        "pre-tool-use.cjs",
        hookInput(q, "PreToolUse", { tool_name: "Write", tool_input: { file_path: q.path("a.txt"), content: "x" } }),
      );
      const reason = (denied.json?.["hookSpecificOutput"] as Record<string, string>)["permissionDecisionReason"];
      expect(reason).toMatch(/^lanes policy does not compile: .*lanes\.yaml:3: .*except edits to the policy files/);
      expect(reason).not.toContain(" build");
      const fix = runHook(
        q,
        "pre-tool-use.cjs",
        hookInput(q, "PreToolUse", {
          tool_name: "Edit",
          tool_input: { file_path: q.path(".claude/lanes.yaml"), old_string: "Bad Id", new_string: "team.ok" },
        }),
      );
      const fixOut = fix.json?.["hookSpecificOutput"] as Record<string, string>;
      // judged by the built-in defaults: a config write is asked, not blocked by the broken policy
      expect([fixOut["permissionDecision"], fixOut["permissionDecisionReason"]]).toEqual([
        "ask",
        expect.stringContaining("[lanes.config]"),
      ]);
    });
  });

  it("a fresh clone without a compiled policy is compiled by SessionStart", () => {
    const r = installedProject();
    try {
      rmSync(r.path(".claude/lanes/state"), { recursive: true });
      runHook(r, "session-start.cjs", hookInput(r, "SessionStart", { source: "startup" }));
      expect(existsSync(r.path(".claude/lanes/state/policy.json"))).toBe(true);
      expect(r.read(".claude/lanes/state/.gitignore")).toContain("*");
    } finally {
      r.cleanup();
    }
  });
});

describe("the other hooks", () => {
  it("PostToolUse records a Write in the audit log and prints nothing", () => {
    const input = hookInput(p, "PostToolUse", {
      tool_name: "Write",
      tool_input: { file_path: p.path("src/a.ts"), content: "x" },
      tool_response: { type: "create", filePath: p.path("src/a.ts") },
    });
    expect(schemas.PostToolUseHookInput.safeParse(input).success).toBe(true);
    expect(runHook(p, "post-tool-use.cjs", input).stdout).toBe("");
    expect(p.read(".claude/lanes/state/audit.jsonl")).toContain(`"event":"file-touched"`);
  });

  it("SubagentStart gives the subagent its lane and records it in the agent tree", () => {
    const input = hookInput(p, "SubagentStart", { agent_id: "a1234567890abcdef", agent_type: "backend" });
    expect(schemas.SubagentStartHookInput.safeParse(input).success).toBe(true);
    const run = runHook(p, "events.cjs", input);
    expectValidOutput(run.stdout);
    expect((run.json?.["hookSpecificOutput"] as Record<string, string>)["additionalContext"]).toMatch(
      /^lanes: you run as `backend` \(path: main → backend\); you may write `src\/server\/\*\*`/,
    );
    expect(
      JSON.parse(p.read(".claude/lanes/state/agents.json")).sessions["9e59050b-377d-4726-aa64-e18d3d71bc2e"].agents[
        "a1234567890abcdef"
      ],
    ).toMatchObject({ type: "backend", parent: null });
  });

  it("SubagentStop, PreCompact and TaskCreated print nothing (TaskCreated is the task channel's)", () => {
    expect(
      runHook(
        p,
        "events.cjs",
        hookInput(p, "SubagentStop", {
          agent_id: "a1234567890abcdef",
          agent_type: "backend",
          stop_hook_active: false,
          agent_transcript_path: "/t",
        }),
      ).stdout,
    ).toBe("");
    expect(
      runHook(p, "events.cjs", hookInput(p, "PreCompact", { trigger: "auto", custom_instructions: null })).stdout,
    ).toBe("");
    expect(
      runHook(p, "tasks.cjs", hookInput(p, "TaskCreated", { task_id: "t1", task_subject: "Implement the API" })).stdout,
    ).toBe("");
    expect(p.read(".claude/lanes/state/audit.jsonl")).toContain(`"event":"task-created"`);
  });
});

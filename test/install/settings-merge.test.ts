import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { hookInput, installedProject } from "../helpers/hooks.ts";
import { mergeHookSettings, removeHookSettings } from "../../src/install/settings-merge.ts";
import { HOOK_CLEARED_VARIABLES, hookLoader, hookWiring, projectCommand } from "../../src/install/wiring.ts";

const wiring = hookWiring(projectCommand);

describe("mergeHookSettings", () => {
  it("writes the wiring into a missing file, enforcing hooks declaring onFailure block and a timeout", () => {
    const result = mergeHookSettings(undefined, wiring, "settings.json");
    expect(result.ok).toBe(true);
    const settings = JSON.parse(result.ok ? result.text : "{}");
    expect(settings.hooks.PreToolUse).toEqual([
      {
        matcher: "*",
        hooks: [
          {
            type: "command",
            command: `NODE_OPTIONS= NODE_EXTRA_CA_CERTS= node -e "${hookLoader(true)}" "$CLAUDE_PROJECT_DIR/.claude/lanes/dist/pre-tool-use.cjs"`,
            timeout: 10,
            onFailure: "block",
          },
        ],
      },
    ]);
    expect(Object.keys(settings.hooks).sort()).toEqual([
      "PostToolUse",
      "PostToolUseFailure",
      "PreCompact",
      "PreToolUse",
      "SessionStart",
      "SubagentStart",
      "SubagentStop",
      "TaskCompleted",
      "TaskCreated",
      "UserPromptSubmit",
    ]);
    // the task channel's enforcing events
    const tasks = `NODE_OPTIONS= NODE_EXTRA_CA_CERTS= node -e "${hookLoader(true)}" "$CLAUDE_PROJECT_DIR/.claude/lanes/dist/tasks.cjs"`;
    for (const event of ["SubagentStop", "TaskCreated", "TaskCompleted"]) {
      expect(settings.hooks[event], event).toContainEqual({
        hooks: [{ type: "command", command: tasks, timeout: expect.any(Number), onFailure: "block" }],
      });
    }
  });

  it("keeps every existing key and hook, and is idempotent", () => {
    const existing = JSON.stringify({
      model: "opus",
      permissions: { deny: ["Bash(rm:*)"] },
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "my-linter" }] }],
        Stop: [{ hooks: [{ type: "command", command: "notify" }] }],
      },
    });
    const once = mergeHookSettings(existing, wiring, "settings.json");
    const twice = once.ok ? mergeHookSettings(once.text, wiring, "settings.json", once.record) : once;
    expect(twice).toEqual(once);
    const settings = JSON.parse(once.ok ? once.text : "{}");
    expect(settings.model).toBe("opus");
    expect(settings.permissions).toEqual({ deny: ["Bash(rm:*)"] });
    expect(settings.hooks.Stop).toEqual([{ hooks: [{ type: "command", command: "notify" }] }]);
    expect(settings.hooks.PreToolUse[0]).toEqual({
      matcher: "Bash",
      hooks: [{ type: "command", command: "my-linter" }],
    });
    expect(settings.hooks.PreToolUse).toHaveLength(2);
  });

  it("replaces the handlers of an older lanes install instead of adding a second set", () => {
    const old = JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash|Write",
            hooks: [
              { type: "command", command: 'node "$CLAUDE_PROJECT_DIR/.claude/lanes/dist/guard.mjs"', timeout: 5 },
            ],
          },
        ],
      },
    });
    const result = mergeHookSettings(old, wiring, "settings.json");
    const settings = JSON.parse(result.ok ? result.text : "{}");
    expect(settings.hooks.PreToolUse).toHaveLength(1);
    expect(settings.hooks.PreToolUse[0].matcher).toBe("*");
  });

  it.each([
    [
      "{ not json",
      "`settings.json` is not valid JSON, so lanes will not rewrite it: fix it (or move it away) and run `npx --no-install lanes init` again",
    ],
    ["[]", "`settings.json` is not a JSON object: fix it and run `npx --no-install lanes init` again"],
    ['{"hooks": 3}', "`hooks` in `settings.json` is not an object: fix it and run `npx --no-install lanes init` again"],
  ])("refuses to rewrite %s", (text, message) => {
    expect(mergeHookSettings(text, wiring, "settings.json")).toEqual({ ok: false, message });
  });

  describe("uninstall gives the file back byte for byte", () => {
    it.each([
      ["no hooks, two-space indent", '{\n  "model": "opus",\n  "permissions": {\n    "deny": ["Bash(rm:*)"]\n  }\n}\n'],
      ["tabs, no final newline", '{\n\t"permissions": {"deny": ["Read(./.env)"], "allow": []}\n}'],
      ["compact one-liner", '{"model":"opus","env":{"A":"1"}}'],
      ["empty object", "{}\n"],
      [
        "other hooks on the same and other events",
        '{\n    "hooks": {\n        "PreToolUse": [\n            {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-linter"}]}\n        ],\n        "Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]\n    },\n    "model": "sonnet"\n}\n',
      ],
      ["an empty hooks object", '{ "hooks": {}, "x": [1, 2] }\n'],
    ])("%s", (_name, original) => {
      const installed = mergeHookSettings(original, wiring, "settings.json");
      expect(installed.ok).toBe(true);
      if (!installed.ok) return;
      const parsed = JSON.parse(installed.text) as { hooks: Record<string, unknown[]> };
      expect(Object.keys(parsed.hooks)).toEqual(expect.arrayContaining(Object.keys(wiring)));
      // a second init changes nothing
      const again = mergeHookSettings(installed.text, wiring, "settings.json", installed.record);
      expect(again.ok && again.text).toBe(installed.text);
      expect(removeHookSettings(installed.text, installed.record)).toBe(original);
    });

    it("a file lanes created is deleted again; one the user added to afterwards is kept with their keys", () => {
      const created = mergeHookSettings(undefined, wiring, "settings.json");
      if (!created.ok) throw new Error("merge failed");
      expect(removeHookSettings(created.text, created.record)).toBeUndefined();
      const edited = created.text.replace('{\n  "hooks"', '{\n  "model": "opus",\n  "hooks"');
      expect(JSON.parse(removeHookSettings(edited, created.record) ?? "null")).toEqual({ model: "opus" });
    });
  });

  it("keeps a user's changed timeout and matcher on lanes' handler, and reports both", () => {
    const first = mergeHookSettings("{}\n", wiring, "settings.json");
    if (!first.ok) throw new Error("merge failed");
    const tuned = first.text
      .replace('"matcher": "*"', '"matcher": "Bash|Edit|Write"')
      .replace('"timeout": 10,\n            "onFailure"', '"timeout": 20,\n            "onFailure"');
    const upgraded = mergeHookSettings(tuned, wiring, "settings.json", first.record);
    if (!upgraded.ok) throw new Error("merge failed");
    const pre = (
      JSON.parse(upgraded.text) as { hooks: { PreToolUse: { matcher: string; hooks: { timeout: number }[] }[] } }
    ).hooks.PreToolUse;
    expect(pre).toEqual([
      { matcher: "Bash|Edit|Write", hooks: [expect.objectContaining({ timeout: 20, onFailure: "block" })] },
    ]);
    expect(upgraded.kept).toEqual([
      "PreToolUse pre-tool-use.cjs: kept your timeout 20 s (lanes writes 10)",
      'PreToolUse pre-tool-use.cjs: kept your matcher "Bash|Edit|Write" (lanes writes "*")',
    ]);
  });
});

describe("the hook command's inline loader", () => {
  it.each([
    ["PreToolUse", 2],
    ["SessionStart", 1],
  ] as const)(
    "%s with its hook file missing: one line naming the file and the fix, exit %d, no stack trace",
    (event, code) => {
      const command = hookWiring(projectCommand)[event]![0]!.hooks[0]!.command;
      const run = spawnSync("bash", ["--norc", "--noprofile", "-c", command], {
        env: { PATH: process.env["PATH"], CLAUDE_PROJECT_DIR: "/nonexistent/repo" },
        input: "{}",
        encoding: "utf8",
      });
      expect(run.status).toBe(code);
      expect(run.stdout).toBe("");
      expect(run.stderr.split("\n")).toEqual([
        expect.stringMatching(
          /^lanes: the hook file \/nonexistent\/repo\/\.claude\/lanes\/dist\/[a-z-]+\.cjs is missing \(the install was not committed\?\): run npx --no-install lanes init in the repository \(lanes installed as a dev dependency\) and commit \.claude\/, or remove lanes hooks from \.claude\/settings\.json$/,
        ),
        "",
      ]);
    },
  );
});

describe("the hook command's environment", () => {
  it("a user's NODE_OPTIONS and NODE_EXTRA_CA_CERTS do not reach the hook: a preloaded module that writes to stdout cannot turn a denial into no objection", () => {
    const p = installedProject();
    try {
      const noisy = p.path("noisy.cjs");
      writeFileSync(noisy, "process.stdout.write('hello from a preload\\n');\n");
      const settings = JSON.parse(p.read(".claude/settings.json"));
      const command: string = settings.hooks.PreToolUse[0].hooks[0].command;
      expect(command.startsWith(`${HOOK_CLEARED_VARIABLES.map((v) => `${v}=`).join(" ")} node -e `)).toBe(true);
      expect(HOOK_CLEARED_VARIABLES).toEqual(["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS"]);
      const env = {
        PATH: process.env["PATH"],
        HOME: p.home,
        CLAUDE_PROJECT_DIR: p.dir,
        NODE_OPTIONS: `--require ${noisy}`,
        NODE_EXTRA_CA_CERTS: p.path("no-such-bundle.pem"),
      };
      // the preload does run in a plain `node` under this environment, so the test can fail
      expect(spawnSync("node", ["-e", "0"], { env, encoding: "utf8" }).stdout).toBe("hello from a preload\n");
      const input = hookInput(p, "PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" } });
      const run = spawnSync("bash", ["--norc", "--noprofile", "-c", command], {
        env,
        input: JSON.stringify(input),
        encoding: "utf8",
      });
      expect(run.status).toBe(0);
      expect(run.stderr).toBe("");
      expect(JSON.parse(run.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
    } finally {
      p.cleanup();
    }
  });
});

import { describe, expect, it } from "vitest";
import { mergeHookSettings } from "../../src/install/settings-merge.ts";
import { hookLoader, hookWiring, projectCommand } from "../../src/install/wiring.ts";

const wiring = hookWiring(projectCommand);

describe("mergeHookSettings", () => {
  it("writes the wiring into a missing file, enforcing hooks declaring onFailure block and a timeout", () => {
    const result = mergeHookSettings(undefined, wiring, "settings.json");
    expect(result.ok).toBe(true);
    const settings = JSON.parse(result.ok ? result.text : "{}");
    expect(settings.hooks.PreToolUse).toEqual([
      { matcher: "*", hooks: [{ type: "command", command: `node -e "${hookLoader(true)}" "$CLAUDE_PROJECT_DIR/.claude/lanes/dist/pre-tool-use.cjs"`, timeout: 10, onFailure: "block" }] },
    ]);
    expect(Object.keys(settings.hooks).sort()).toEqual(["PostToolUse", "PreCompact", "PreToolUse", "SessionStart", "SubagentStart", "SubagentStop", "TaskCompleted", "TaskCreated"]);
  });

  it("keeps every existing key and hook, and is idempotent", () => {
    const existing = JSON.stringify({
      model: "opus",
      permissions: { deny: ["Bash(rm:*)"] },
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "my-linter" }] }], Stop: [{ hooks: [{ type: "command", command: "notify" }] }] },
    });
    const once = mergeHookSettings(existing, wiring, "settings.json");
    const twice = once.ok ? mergeHookSettings(once.text, wiring, "settings.json") : once;
    expect(twice).toEqual(once);
    const settings = JSON.parse(once.ok ? once.text : "{}");
    expect(settings.model).toBe("opus");
    expect(settings.permissions).toEqual({ deny: ["Bash(rm:*)"] });
    expect(settings.hooks.Stop).toEqual([{ hooks: [{ type: "command", command: "notify" }] }]);
    expect(settings.hooks.PreToolUse[0]).toEqual({ matcher: "Bash", hooks: [{ type: "command", command: "my-linter" }] });
    expect(settings.hooks.PreToolUse).toHaveLength(2);
  });

  it("replaces the handlers of an older lanes install instead of adding a second set", () => {
    const old = JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash|Write", hooks: [{ type: "command", command: 'node "$CLAUDE_PROJECT_DIR/.claude/lanes/dist/guard.mjs"', timeout: 5 }] }] } });
    const result = mergeHookSettings(old, wiring, "settings.json");
    const settings = JSON.parse(result.ok ? result.text : "{}");
    expect(settings.hooks.PreToolUse).toHaveLength(1);
    expect(settings.hooks.PreToolUse[0].matcher).toBe("*");
  });

  it.each([
    ["{ not json", "`settings.json` is not valid JSON, so lanes will not rewrite it: fix it (or move it away) and run `lanes init` again"],
    ["[]", "`settings.json` is not a JSON object: fix it and run `lanes init` again"],
    ['{"hooks": 3}', "`hooks` in `settings.json` is not an object: fix it and run `lanes init` again"],
  ])("refuses to rewrite %s", (text, message) => {
    expect(mergeHookSettings(text, wiring, "settings.json")).toEqual({ ok: false, message });
  });
});

import { describe, expect, it } from "vitest";
import { guardChanges, guardNamesIn, guardOffIn } from "../../src/host/settings-guard.ts";

const wiring = { hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "node guard.cjs" }] }] } };

describe("guardChanges: the guard's keys a settings write changes", () => {
  it.each<[string, unknown, unknown, string[]]>([
    ["nothing around the wiring", wiring, { ...wiring, permissions: { allow: ["Bash(npm test)"] } }, []],
    ["the wiring rewritten in another key order", wiring, JSON.parse(JSON.stringify(wiring)), []],
    ["hooks off", wiring, { ...wiring, disableAllHooks: true }, ["disableAllHooks"]],
    ["the wiring removed", wiring, {}, ["hooks"]],
    ["a new file with hooks", undefined, wiring, ["hooks"]],
    ["bypass mode on", {}, { permissions: { defaultMode: "bypassPermissions" } }, ["permissions.defaultMode"]],
    ["bypass mode off", { permissions: { defaultMode: "bypassPermissions" } }, {}, ["permissions.defaultMode"]],
    ["another mode", {}, { permissions: { defaultMode: "acceptEdits" } }, []],
    ["a status line command", {}, { statusLine: { type: "command", command: "x" } }, ["statusLine"]],
    ["an env variable lanes reads", {}, { env: { LANES_FAILURE_MODE: "open" } }, ["env.LANES_FAILURE_MODE"]],
    ["another env variable", {}, { env: { DEBUG: "1" } }, []],
  ])("%s", (_name, before, after, keys) => {
    expect(guardChanges(before, after).map((c) => c.key)).toEqual(keys);
  });
});

describe("guardOffIn: settings given to a nested client", () => {
  it.each<[unknown, string[]]>([
    [{ disableAllHooks: true }, ["disableAllHooks"]],
    [{ disableAllHooks: false }, []],
    [{ permissions: { defaultMode: "bypassPermissions" } }, ["permissions.defaultMode"]],
    [{ env: { CLAUDE_CODE_SIMPLE: "1" } }, ["env.CLAUDE_CODE_SIMPLE"]],
    [{ env: { CLAUDE_CODE_SIMPLE: "0" } }, []],
    [{ hooks: {} }, []],
    [{ model: "sonnet" }, []],
    ["not an object", []],
  ])("%j → %j", (settings, keys) => {
    expect(guardOffIn(settings).map((c) => c.key)).toEqual(keys);
  });

  it("names the guard keys in a piece of settings text", () => {
    expect(guardNamesIn('"disableAllHooks": true, "hooks": {')).toEqual(["disableAllHooks", "hooks"]);
    expect(guardNamesIn('"allow": ["Bash(npm test)"]')).toEqual([]);
  });
});

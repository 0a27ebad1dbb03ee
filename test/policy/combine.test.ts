import { describe, expect, it } from "vitest";
import { combine } from "../../src/policy/combine.ts";
import type { Effect, Layer, Match } from "../../src/policy/types.ts";

const m = (ruleId: string, layer: Layer, effect: Effect, scope = "call"): Match => ({
  ruleId,
  layer,
  effect,
  why: "why",
  instead: "instead",
  subject: "`x`",
  source: "test",
  scope,
});

describe("combine: the one precedence function", () => {
  it.each<[string, Match[], "deny" | "ask" | undefined, string[]]>([
    ["no match → no opinion", [], undefined, []],
    ["only allow → no opinion (allow never grants)", [m("a", "project", "allow")], undefined, []],
    ["a deny decides", [m("d", "builtin", "deny")], "deny", ["d"]],
    ["an ask decides", [m("q", "builtin", "ask")], "ask", ["q"]],
    ["deny beats ask across layers", [m("q", "user", "ask"), m("d", "task", "deny")], "deny", ["d"]],
    ["deny beats ask in one layer", [m("q", "builtin", "ask"), m("d", "builtin", "deny")], "deny", ["d"]],
    ["every deny is listed", [m("d1", "settings", "deny"), m("d2", "builtin", "deny")], "deny", ["d1", "d2"]],
    ["a project allow cancels a built-in deny", [m("a", "project", "allow"), m("d", "builtin", "deny")], undefined, []],
    ["a user allow cancels a project deny", [m("a", "user", "allow"), m("d", "project", "deny")], undefined, []],
    [
      "a local allow cannot cancel a project deny (lower cannot loosen higher)",
      [m("a", "local", "allow"), m("d", "project", "deny")],
      "deny",
      ["d"],
    ],
    [
      "an allow cannot cancel a deny of its own layer",
      [m("a", "project", "allow"), m("d", "project", "deny")],
      "deny",
      ["d"],
    ],
    ["an allow never cancels a settings deny", [m("a", "user", "allow"), m("s", "settings", "deny")], "deny", ["s"]],
    ["an allow never cancels a MUST NOT rule", [m("a", "user", "allow"), m("n", "must-not", "deny")], "deny", ["n"]],
    ["an allow never cancels a role restriction", [m("a", "project", "allow"), m("r", "role", "deny")], "deny", ["r"]],
    ["an allow never cancels a task constraint", [m("a", "project", "allow"), m("t", "task", "deny")], "deny", ["t"]],
    [
      "an allow cancels only the same scope",
      [m("a", "project", "allow", "cmd:0:path:/p/.env.test"), m("d", "builtin", "deny", "cmd:0:path:/p/.env")],
      "deny",
      ["d"],
    ],
    [
      "a command allow covers the paths of that command",
      [m("a", "project", "allow", "cmd:1"), m("d", "builtin", "deny", "cmd:1:path:/p/x")],
      undefined,
      [],
    ],
    [
      "a command allow does not cover another command",
      [m("a", "project", "allow", "cmd:1"), m("d", "builtin", "deny", "cmd:2")],
      "deny",
      ["d"],
    ],
    [
      "a cancelled deny leaves the ask",
      [m("a", "project", "allow", "cmd:0"), m("d", "builtin", "deny", "cmd:0"), m("q", "builtin", "ask", "cmd:1")],
      "ask",
      ["q"],
    ],
  ])("%s", (_name, matches, effect, ids) => {
    const decision = combine(matches);
    expect(decision?.effect).toBe(effect);
    expect(decision?.ruleIds ?? []).toEqual(ids);
  });

  it("is independent of the order of the matches", () => {
    const matches = [
      m("a", "user", "allow"),
      m("d", "project", "deny"),
      m("q", "settings", "ask"),
      m("r", "role", "deny"),
    ];
    const forward = combine(matches);
    const backward = combine([...matches].reverse());
    expect(backward?.effect).toBe(forward?.effect);
    expect(backward?.ruleIds).toEqual(forward?.ruleIds);
  });

  it("lists deciding matches highest layer first and traces every match", () => {
    const decision = combine([
      m("r", "role", "deny"),
      m("s", "settings", "deny"),
      m("a", "user", "allow"),
      m("d", "project", "deny"),
      m("q", "builtin", "ask"),
    ]);
    expect(decision?.layer).toBe("settings");
    expect(decision?.ruleIds).toEqual(["s", "r"]);
    expect(decision?.trace.map((t) => [t.ruleId, t.outcome, t.by])).toEqual([
      ["s", "decides", undefined],
      ["a", "exception", undefined],
      ["d", "cancelled", "a"],
      ["q", "cancelled", "a"],
      ["r", "decides", undefined],
    ]);
  });
});

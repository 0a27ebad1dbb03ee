/** Handoff types of the inter-skill protocol: each type's required options, the record and the preamble. */
import { describe, expect, it } from "vitest";
import { handoffTerms, renderHandoffTerms, type HandoffTermsInput } from "../../src/runtime/handoff-record.ts";

describe("handoffTerms", () => {
  it.each<[string, HandoffTermsInput, unknown]>([
    ["sequential by default", { to: ["b"] }, { type: "sequential", to: ["b"] }],
    [
      "sequential with approval",
      { to: ["b"], requireApproval: true },
      { type: "sequential", to: ["b"], approval: { required: true, status: "pending" } },
    ],
    [
      "conditional",
      { type: "conditional", to: ["evaluator"], proceedIf: "all gates passed", fallbackTo: "advisor" },
      {
        type: "conditional",
        to: ["evaluator"],
        conditions: { proceed_if: "all gates passed", fallback_to: "advisor" },
      },
    ],
    [
      "conditional without a fallback",
      { type: "conditional", to: ["evaluator"], proceedIf: "all gates passed" },
      { type: "conditional", to: ["evaluator"], conditions: { proceed_if: "all gates passed" } },
    ],
    ["parallel", { type: "parallel", to: ["api", "ui", "api"] }, { type: "parallel", to: ["api", "ui"] }],
    [
      "fallback",
      { type: "fallback", to: ["advisor"], reason: "the evaluator scored below the bar twice" },
      { type: "fallback", to: ["advisor"], reason: "the evaluator scored below the bar twice" },
    ],
    [
      "approval",
      { type: "approval", to: ["deploy"] },
      { type: "approval", to: ["deploy"], approval: { required: true, status: "pending" } },
    ],
  ])("%s", (_name, input, expected) => {
    const r = handoffTerms(input);
    expect(r.ok ? r.value : r.issues).toEqual(expected);
  });

  it.each<[string, HandoffTermsInput, string]>([
    [
      "an unknown type",
      { type: "direct", to: ["b"] },
      "`--type direct` is not a handoff type: use sequential, conditional, parallel, fallback, approval",
    ],
    ["no target", { to: [] }, "`--to` is required"],
    [
      "parallel with one target",
      { type: "parallel", to: ["a"] },
      "a parallel handoff starts several skills: pass `--to` once per skill, at least twice",
    ],
    [
      "sequential with two targets",
      { to: ["a", "b"] },
      "a sequential handoff has one target: pass `--to` once, or use `--type parallel`",
    ],
    [
      "conditional without a condition",
      { type: "conditional", to: ["a"] },
      "a conditional handoff needs `--proceed-if <condition>`, e.g. `all gates passed`",
    ],
    [
      "a condition on a sequential handoff",
      { to: ["a"], proceedIf: "x" },
      "`--proceed-if` and `--fallback-to` belong to a conditional handoff: add `--type conditional`",
    ],
    [
      "a fallback to the target itself",
      { type: "conditional", to: ["a"], proceedIf: "x", fallbackTo: "a" },
      "`--fallback-to a` is the target itself: name another skill",
    ],
    [
      "fallback without a reason",
      { type: "fallback", to: ["a"] },
      "a fallback handoff needs `--reason <why the planned skill could not continue>`",
    ],
  ])("refuses %s", (_name, input, message) => {
    const r = handoffTerms(input);
    expect(r.ok ? undefined : r.issues[0]!.message).toBe(message);
  });

  it.each<[HandoffTermsInput, string]>([
    [{ to: ["b"] }, ""],
    [
      { type: "conditional", to: ["evaluator"], proceedIf: "all gates passed", fallbackTo: "advisor" },
      "**Handoff:** conditional, `seq` → `evaluator`\n**Proceed only if:** all gates passed. Otherwise hand off to `advisor` instead.\n\n",
    ],
    [
      { type: "approval", to: ["deploy"] },
      "**Handoff:** approval, `seq` → `deploy`\n**Approval required:** ask the human to approve this handoff and wait for the answer before `deploy` starts.\n\n",
    ],
    [
      { type: "parallel", to: ["api", "ui"] },
      "**Handoff:** parallel, `seq` → `api`, `ui`\nStart every target at once, each on its own part; their write sets must not overlap (check with `lanes independence`).\n\n",
    ],
    [
      { type: "fallback", to: ["advisor"], reason: "scores stayed low" },
      "**Handoff:** fallback, `seq` → `advisor`\n**Fallback because:** scores stayed low\n\n",
    ],
  ])("renders %j", (input, text) => {
    const r = handoffTerms(input);
    if (!r.ok) throw new Error("invalid");
    expect(renderHandoffTerms("seq", r.value)).toBe(text);
  });
});

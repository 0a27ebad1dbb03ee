/** Every hook answer comes from one builder (src/hooks/protocol/response.ts): each shape is what the SDK's output type accepts. */
import { describe, expect, it } from "vitest";
import { block, respond } from "../../src/hooks/protocol/response.ts";
import { sdkSchemas } from "../helpers/hooks.ts";

const schemas = sdkSchemas(["SyncHookJSONOutput"] as const);

describe("hook responses", () => {
  it.each([
    [
      "deny with a notice and a human-only message",
      respond("PreToolUse", { permission: { decision: "deny", reason: "r" }, context: "n", message: "n\nm" }),
      {
        systemMessage: "n\nm",
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "r",
          additionalContext: "n",
        },
      },
    ],
    [
      "ask, nothing else (an empty message is left out)",
      respond("PreToolUse", { permission: { decision: "ask", reason: "r" }, message: "" }),
      { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "r" } },
    ],
    [
      "context for the model",
      respond("SubagentStart", { context: "c" }),
      { hookSpecificOutput: { hookEventName: "SubagentStart", additionalContext: "c" } },
    ],
    [
      "stop after the tool",
      respond("PostToolUse", { stop: "s", context: "c" }),
      {
        continue: false,
        stopReason: "s",
        hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "c" },
      },
    ],
    ["block", block("why"), { decision: "block", reason: "why" }],
  ])("%s", (_name, stdout, expected) => {
    expect(JSON.parse(stdout)).toEqual(expected);
    const parsed = schemas.SyncHookJSONOutput.safeParse(JSON.parse(stdout));
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });
});

/**
 * The task-channel hook on arbitrary input: whatever arrives, it prints one JSON object that the
 * Agent SDK's output schema accepts, or nothing, and never throws.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTaskChannel } from "../../src/hooks/events/task-channel.ts";
import { hookInput, installedProject, ROOT, sdkSchemas, type Project } from "../helpers/hooks.ts";

const { SyncHookJSONOutput } = sdkSchemas(["SyncHookJSONOutput"] as const);
let p: Project;
beforeAll(() => {
  p = installedProject();
});
afterAll(() => p.cleanup());

const deps = () => ({
  env: { HOME: p.home, CLAUDE_PROJECT_DIR: p.dir },
  now: () => new Date(),
  defaultPolicyPath: `${ROOT}/dist/policy.default.json`,
});

function expectOneObjectOrNothing(stdout: string): void {
  if (stdout === "") return;
  const value: unknown = JSON.parse(stdout);
  expect(typeof value === "object" && value !== null && !Array.isArray(value)).toBe(true);
  const parsed = SyncHookJSONOutput.safeParse(value);
  expect(parsed.success, `${stdout}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
}

const field = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);
const event = fc.constantFrom(
  "SubagentStart",
  "SubagentStop",
  "TaskCreated",
  "TaskCompleted",
  "PostToolUse",
  "UserPromptSubmit",
);
const keys = fc.constantFrom(
  "agent_id",
  "agent_type",
  "stop_hook_active",
  "task_id",
  "task_subject",
  "task_description",
  "tool_name",
  "tool_input",
  "tool_response",
  "prompt",
  "teammate_name",
);

describe("the task channel on arbitrary input", () => {
  it("survives random JSON values and text on stdin", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue().map((v) => JSON.stringify(v)),
          fc.string({ maxLength: 200 }),
        ),
        (raw) => {
          expectOneObjectOrNothing(runTaskChannel(raw, deps()).stdout);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("survives malformed inputs of every event it handles", () => {
    fc.assert(
      fc.property(event, fc.dictionary(keys, field, { maxKeys: 6 }), (name, fields) => {
        expectOneObjectOrNothing(runTaskChannel(JSON.stringify(hookInput(p, name, fields)), deps()).stdout);
      }),
      { numRuns: 150 },
    );
  });
});

/**
 * The hooks' view of the progress file: task constraints of the current step, and the workflow key.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { taskConstraintsOf } from "../../src/hooks/guard/task-constraints.ts";
import { workflowKey } from "../../src/hooks/state/touches.ts";
import { progressForHooks, type RawProgress } from "../../src/runtime/progress-hot.ts";

const doc = (extra: Record<string, unknown>): RawProgress => ({
  version: "2.0",
  workflow_id: "wf-1",
  status: "in_progress",
  artifacts: { files_created: [], files_modified: [] },
  ...extra,
});
const next = {
  step: 2,
  expert: "lanes:backend",
  constraints: { write_paths: ["src/server/**"], tools: ["Read", "Edit"], read_only: false },
};

describe("task constraints", () => {
  it("reads the current step's constraints", () => {
    const task = taskConstraintsOf(doc({ next_step: next }), false);
    expect(task).toMatchObject({ agent: "backend", step: 2, tools: ["Read", "Edit"], readOnly: false });
    expect(task?.writePaths?.map((g) => g.globs)).toEqual([["src/server/**"]]);
  });

  it.each<[string, RawProgress | undefined]>([
    ["no progress file", undefined],
    ["a completed workflow", doc({ status: "completed", next_step: next })],
    ["a failed workflow", doc({ status: "failed", next_step: next })],
    ["no next step", doc({ next_step: null })],
    ["no expert", doc({ next_step: { ...next, expert: undefined } })],
    ["no constraints", doc({ next_step: { ...next, constraints: {} } })],
  ])("has none with %s", (_, progress) => {
    expect(taskConstraintsOf(progress, false)).toBeUndefined();
  });
});

describe("workflow key", () => {
  it.each<[string, RawProgress | undefined, string]>([
    ["a running workflow", doc({}), "wf-1"],
    ["a completed workflow", doc({ status: "completed" }), "session-s1"],
    ["no progress file", undefined, "session-s1"],
  ])("is keyed by %s", (_, progress, key) => {
    expect(workflowKey(progress, "s1")).toBe(key);
  });
});

describe("progressForHooks", () => {
  const dir = mkdtempSync(join(tmpdir(), "lanes-progress-hooks-"));
  mkdirSync(join(dir, ".claude", "state"), { recursive: true });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each<[string, string | undefined, boolean]>([
    ["a valid file", JSON.stringify(doc({ next_step: next })), true],
    ["no file", undefined, false],
    ["invalid JSON", "{not json", false],
    ["another version", JSON.stringify({ ...doc({}), version: "1.0" }), false],
  ])("reads %s", (_, text, found) => {
    const file = join(dir, ".claude", "state", "progress.json");
    rmSync(file, { force: true });
    if (text !== undefined) writeFileSync(file, text);
    expect(progressForHooks(dir) !== undefined).toBe(found);
  });
});

/** The task channel's state: tasks per session, the latest assignee for `lanes check`, retention of tasks and run records, the hold. */
import { mkdtempSync, rmSync, utimesSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  clearHold,
  findTask,
  latestAssignee,
  pruneRuns,
  readHold,
  readTasks,
  runPath,
  setHold,
  updateRun,
  updateTask,
  type TaskRecord,
} from "../../src/hooks/state/task-store.ts";

let state: string;
beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), "lanes-task-store-"));
});
afterEach(() => rmSync(state, { recursive: true, force: true }));

const day = 24 * 60 * 60 * 1000;
const at = (ms: number) => new Date(Date.UTC(2026, 10, 1) + ms);
const task = (id: string, assignee: string, when: Date): TaskRecord => ({
  id,
  session: "s",
  subject: `task ${id}`,
  assignee,
  status: "pending",
  updated: when.toISOString(),
});

describe("tasks.json", () => {
  it("keeps tasks per session and finds the latest assignee across sessions", () => {
    expect(
      updateTask(state, "s1", "1", () => ({ ...task("1", "backend", at(0)), session: "s1" }), at(0)),
    ).toBeUndefined();
    expect(
      updateTask(state, "s2", "1", () => ({ ...task("1", "frontend", at(day)), session: "s2" }), at(day)),
    ).toBeUndefined();
    expect(findTask(state, "s1", "1")?.assignee).toBe("backend");
    expect(findTask(state, "s2", "1")?.assignee).toBe("frontend");
    expect(latestAssignee(state, "1")).toBe("frontend");
    expect(latestAssignee(state, "9")).toBeUndefined();
  });

  it("drops tasks not updated for 14 days when another is written", () => {
    updateTask(state, "old", "1", () => task("1", "backend", at(0)), at(0));
    updateTask(state, "new", "2", () => task("2", "qa", at(15 * day)), at(15 * day));
    expect(Object.keys(readTasks(state).tasks)).toEqual(["new/2"]);
  });
});

describe("run records and the hold", () => {
  it("prunes run records older than 14 days", () => {
    for (const id of ["a1", "a2"])
      updateRun(state, id, () => ({ version: 1, session: "s", agent_id: id, agent: "backend", started: "t" }));
    const old = at(0);
    utimesSync(runPath(state, "a1"), old, old);
    utimesSync(runPath(state, "a2"), at(19 * day), at(19 * day));
    pruneRuns(state, at(20 * day));
    expect([existsSync(runPath(state, "a1")), existsSync(runPath(state, "a2"))]).toEqual([false, true]);
  });

  it("sets and clears the hold", () => {
    expect(readHold(state)).toBeUndefined();
    setHold(state, { since: "t", agent: "backend", reason: "attempted `rm -rf /`" });
    expect(readHold(state)).toMatchObject({ agent: "backend" });
    expect(clearHold(state)).toBe(true);
    expect(clearHold(state)).toBe(false);
  });
});

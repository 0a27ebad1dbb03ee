/** Memory files: the phase gate's verdicts (fixtures), and write / read / list / archive. */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  archiveMemory,
  inspectMemory,
  listMemory,
  memoryPath,
  readMemory,
  verifyMemory,
  writeMemory,
} from "../../src/runtime/memory.ts";
import { steppingClock, tempProject } from "./helpers.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/memory/", import.meta.url));
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), "utf8");

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const project = (): string => {
  const p = tempProject();
  cleanups.push(p.cleanup);
  return p.dir;
};

describe("the phase gate (verify) on memory files", () => {
  const expectTo = { taskId: "t1", agent: "planner" };
  it.each([
    ["complete.md", undefined],
    ["numeric-task.md", "`m.md` is for task `42`, not `t1`"],
    ["partial.md", "`m.md` has status `partial`: `planner` did not finish: Ran out of context halfway."],
    ["bad-status.md", '`m.md` frontmatter: status: expected one of "complete"|"partial"|"failed"'],
    ["wrong-task.md", "`m.md` is for task `t2`, not `t1`"],
    ["wrong-agent.md", "`m.md` was written by `reviewer`, not `planner`"],
    ["missing-summary.md", "`m.md` frontmatter: summary: missing (expected string)"],
    ["empty-body.md", "`m.md` has an empty body: the agent must write its findings below the frontmatter"],
    [
      "no-frontmatter.md",
      "`m.md` has no frontmatter: a memory file starts with a `---` block of task_id, agent, status, created and summary",
    ],
    [
      "js-frontmatter.md",
      "`m.md` has unreadable frontmatter: `js` frontmatter is not accepted: use YAML between `---` lines",
    ],
    ["duplicate-key.md", "`m.md` has unreadable frontmatter: map keys must be unique at line 3, column 1"],
    ["list-frontmatter.md", "`m.md` has unreadable frontmatter: frontmatter must be a YAML mapping of keys to values"],
  ])("%s → %s", (name, reason) => {
    const result = inspectMemory(fixture(name), "m.md", expectTo);
    expect(result.ok ? undefined : result.issues[0]!.message).toBe(reason);
    if (!result.ok) expect(result.issues[0]!.code).toBe("verify-failed");
  });

  it("never evaluates `---js` frontmatter", () => {
    inspectMemory(fixture("js-frontmatter.md"), "m.md");
    expect((globalThis as Record<string, unknown>).__lanesPwned).toBeUndefined();
  });

  it("accepts a numeric task id as its text form", () => {
    const result = inspectMemory(fixture("numeric-task.md"), "m.md", { taskId: "42", agent: "planner" });
    expect(result.ok && result.value.frontmatter.task_id).toBe("42");
  });

  it("reports a missing memory file precisely", () => {
    const dir = project();
    const result = verifyMemory(dir, "t1", "planner");
    expect(result.ok ? undefined : result.issues[0]).toMatchObject({
      code: "verify-failed",
      message: "`.claude/memory/t1--planner-memory.md` does not exist: `planner` has not written its memory file",
      help: "run the agent and have it finish with `lanes memory write`",
    });
  });

  it("passes a file copied into place, by path", () => {
    const dir = project();
    mkdirSync(join(dir, ".claude", "memory"));
    copyFileSync(join(FIXTURES, "complete.md"), memoryPath(dir, "t1", "planner"));
    const result = verifyMemory(dir, "t1", "planner");
    expect(result.ok && result.value.frontmatter).toMatchObject({
      summary: "Split the parser into a lexer and a grammar.",
      artifacts: ["docs/plan.md"],
    });
  });
});

describe("writeMemory, readMemory, listMemory", () => {
  it("writes a file that verifies, with private modes and sanitised names", () => {
    const dir = project();
    const written = writeMemory(
      dir,
      {
        taskId: "t/1",
        agent: "planner",
        phase: "0_5",
        summary: "planned",
        artifacts: ["a.md"],
        body: "## Plan\n\nsteps",
      },
      { now: steppingClock() },
    );
    expect(written.ok && written.value.display).toBe(".claude/memory/t_2f1--planner-memory.md");
    const path = join(dir, ".claude", "memory", "t_2f1--planner-memory.md");
    expect(readFileSync(path, "utf8")).toBe(
      "---\ntask_id: t/1\nagent: planner\nphase: 0_5\nstatus: complete\ncreated: 2025-01-02T03:04:05.000Z\nsummary: planned\nartifacts:\n  - a.md\n---\n\n## Plan\n\nsteps\n",
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, ".claude", "memory")).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(dir, ".claude", "memory", ".gitignore"), "utf8")).toBe(
      "# lanes memory files: never committed\n*\n",
    );
    expect(verifyMemory(dir, "t/1", "planner").ok).toBe(true);
    const read = readMemory(dir, "t/1", "planner");
    expect(read.ok && read.value.frontmatter.phase).toBe("0_5");
  });

  it("refuses an empty body", () => {
    const dir = project();
    const result = writeMemory(dir, { taskId: "t1", agent: "a", summary: "s", body: "  \n" });
    expect(result.ok ? undefined : result.issues[0]!.message).toBe(
      "the memory body for `a` is empty: the next phase reads the findings from it",
    );
  });

  it("lists the files of one task, invalid ones with their problem", () => {
    const dir = project();
    writeMemory(dir, { taskId: "t1", agent: "a", summary: "first", body: "x" });
    writeMemory(dir, { taskId: "t1", agent: "b", status: "partial", summary: "second", body: "y" });
    writeMemory(dir, { taskId: "t2", agent: "a", summary: "other task", body: "z" });
    copyFileSync(join(FIXTURES, "no-frontmatter.md"), join(dir, ".claude", "memory", "t1--c-memory.md"));
    const all = listMemory(dir);
    expect(all.ok && all.value.map((e) => e.file)).toEqual([
      "t1--a-memory.md",
      "t1--b-memory.md",
      "t1--c-memory.md",
      "t2--a-memory.md",
    ]);
    const t1 = listMemory(dir, { taskId: "t1" });
    expect(t1.ok && t1.value.map((e) => (e.ok ? `${e.file} ${e.frontmatter.status}` : `${e.file} invalid`))).toEqual([
      "t1--a-memory.md complete",
      "t1--b-memory.md partial",
      "t1--c-memory.md invalid",
    ]);
    expect(listMemory(project())).toEqual({ ok: true, value: [] });
  });

  it("archives a memory file so a rerun must write a fresh one", () => {
    const dir = project();
    writeMemory(dir, { taskId: "t1", agent: "a", summary: "s", body: "x" });
    const moved = archiveMemory(dir, "t1", "a", "iteration-1");
    expect(moved.ok && moved.value).toBe(`${memoryPath(dir, "t1", "a")}.iteration-1`);
    expect(readdirSync(join(dir, ".claude", "memory")).sort()).toEqual([".gitignore", "t1--a-memory.md.iteration-1"]);
    expect(verifyMemory(dir, "t1", "a").ok).toBe(false);
    expect(archiveMemory(dir, "t1", "a", "iteration-2")).toEqual({ ok: true, value: undefined });
  });
});

describe("the phase gate binds a memory file to its phase, run and time", () => {
  const base = { taskId: "t1", agent: "planner" };
  const text = (fm: Record<string, string>) =>
    `---\ntask_id: t1\nagent: planner\n${Object.entries(fm)
      .map(([k, v]) => `${k}: ${v}\n`)
      .join("")}status: complete\nsummary: done\n---\n\nfindings\n`;
  it.each<[string, Record<string, string>, Record<string, string>, string | undefined]>([
    [
      "matching phase, run and time",
      { phase: "1", run: "run-a", created: "2025-01-02T03:04:06.000Z" },
      { phase: "1", run: "run-a", since: "2025-01-02T03:04:05.000Z" },
      undefined,
    ],
    [
      "written at the very start",
      { phase: "1", run: "run-a", created: "2025-01-02T03:04:05.000Z" },
      { phase: "1", run: "run-a", since: "2025-01-02T03:04:05.000Z" },
      undefined,
    ],
    [
      "another phase's file",
      { phase: "0", run: "run-a", created: "2025-01-02T03:04:06.000Z" },
      { phase: "1" },
      "`m.md` was written for phase `0`, not phase `1`: it is not this phase's output",
    ],
    [
      "no phase named",
      { created: "2025-01-02T03:04:06.000Z" },
      { phase: "1" },
      "`m.md` names no phase, not phase `1`: it is not this phase's output",
    ],
    [
      "another run's file",
      { phase: "1", run: "run-old", created: "2025-01-02T03:04:06.000Z" },
      { phase: "1", run: "run-a" },
      "`m.md` belongs to run `run-old`, not the current run `run-a`: it is left from another run or written by hand",
    ],
    [
      "a hand-written file without a run",
      { phase: "1", created: "2025-01-02T03:04:06.000Z" },
      { phase: "1", run: "run-a" },
      "`m.md` names no run, not the current run `run-a`: it is left from another run or written by hand",
    ],
    [
      "written before the phase started",
      { phase: "1", run: "run-a", created: "2025-01-02T03:04:04.000Z" },
      { phase: "1", run: "run-a", since: "2025-01-02T03:04:05.000Z" },
      "`m.md` was created 2025-01-02T03:04:04.000Z, before phase `1` started (2025-01-02T03:04:05.000Z): it is stale",
    ],
    [
      "a created time that is not a time",
      { phase: "1", run: "run-a", created: "yesterday" },
      { phase: "1", run: "run-a", since: "2025-01-02T03:04:05.000Z" },
      "`m.md` was created yesterday, before phase `1` started (2025-01-02T03:04:05.000Z): it is stale",
    ],
  ])("%s", (_name, fm, expect_, reason) => {
    const result = inspectMemory(text(fm), "m.md", { ...base, ...expect_ });
    expect(result.ok ? undefined : result.issues[0]!.message).toBe(reason);
  });

  it("keeps a corrupt memory file as a backup when it is read or verified", () => {
    const dir = project();
    mkdirSync(join(dir, ".claude", "memory"));
    copyFileSync(join(FIXTURES, "duplicate-key.md"), memoryPath(dir, "t1", "planner"));
    const result = verifyMemory(dir, "t1", "planner", {}, { now: steppingClock() });
    expect(result.ok ? undefined : result.issues[0]!.message).toBe(
      "`.claude/memory/t1--planner-memory.md` has unreadable frontmatter: map keys must be unique at line 3, column 1; a copy was kept as `t1--planner-memory.md.corrupt-20250102T030405Z`",
    );
    expect(readFileSync(join(dir, ".claude", "memory", "t1--planner-memory.md.corrupt-20250102T030405Z"), "utf8")).toBe(
      fixture("duplicate-key.md"),
    );
    readMemory(dir, "t1", "planner", { now: steppingClock("2025-01-03T00:00:00.000Z") });
    expect(readdirSync(join(dir, ".claude", "memory")).filter((n) => n.includes(".corrupt-"))).toHaveLength(1);
  });

  it("gives two tasks whose old names collided two files", () => {
    const dir = project();
    writeMemory(dir, { taskId: "日本", agent: "qa", summary: "first", body: "x" });
    writeMemory(dir, { taskId: "中国", agent: "qa", summary: "second", body: "y" });
    writeMemory(dir, { taskId: "a-b", agent: "c", summary: "third", body: "z" });
    writeMemory(dir, { taskId: "a", agent: "b-c", summary: "fourth", body: "w" });
    const read = (t: string, a: string) => {
      const r = readMemory(dir, t, a);
      return r.ok ? r.value.frontmatter.summary : r.issues[0]!.message;
    };
    expect([read("日本", "qa"), read("中国", "qa"), read("a-b", "c"), read("a", "b-c")]).toEqual([
      "first",
      "second",
      "third",
      "fourth",
    ]);
  });

  it("removes temporary files of writers killed mid-write", () => {
    const dir = project();
    mkdirSync(join(dir, ".claude", "memory"));
    const stale = join(dir, ".claude", "memory", `.${"t1--a-memory.md"}.999999999.x.tmp`);
    writeFileSync(stale, "half");
    const old = new Date(Date.now() - 60_000);
    utimesSync(stale, old, old);
    writeMemory(dir, { taskId: "t1", agent: "a", summary: "s", body: "x" });
    expect(existsSync(stale)).toBe(false);
  });
});

describe("memory files of the old naming", () => {
  it("are not read, and the gate says so", () => {
    const dir = project();
    mkdirSync(join(dir, ".claude", "memory"));
    copyFileSync(join(FIXTURES, "complete.md"), join(dir, ".claude", "memory", "t1-planner-memory.md"));
    const result = verifyMemory(dir, "t1", "planner");
    expect(result.ok ? undefined : result.issues[0]!.message).toBe(
      "`.claude/memory/t1--planner-memory.md` does not exist: `planner` has not written its memory file; `t1-planner-memory.md` has the old, ambiguous naming `{task}-{agent}-memory.md` and is not read: write it again",
    );
  });
});

/** Checkpoints: save (CLI and PreCompact), resume, list, pruning and corrupt files. */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Checkpoint } from "../../src/runtime/checkpoint-schema.ts";
import {
  KEEP_PRECOMPACT,
  listCheckpoints,
  resumeCheckpoint,
  saveCheckpoint,
  saveCompactCheckpoint,
} from "../../src/runtime/checkpoints.ts";
import { recordArtifacts } from "../../src/runtime/progress-hot.ts";
import { completeProgress, enterSkill, initProgress, recordStep } from "../../src/runtime/progress.ts";
import { detect, readJson, seededRandom, steppingClock, tempProject } from "./helpers.ts";

let cleanup: () => void = () => {};
afterEach(() => cleanup());
function setup() {
  const p = tempProject();
  cleanup = p.cleanup;
  const deps = { now: steppingClock(), random: seededRandom(), detect };
  return { dir: p.dir, deps, checkpoints: join(p.dir, ".claude", "state", "checkpoints") };
}

describe("saveCheckpoint", () => {
  it("snapshots the task context, the workflow position and the artifacts", () => {
    const { dir, deps, checkpoints } = setup();
    initProgress(dir, { request: "Build the parser", primaryExpert: "p" }, deps);
    enterSkill(dir, "sequential", deps);
    recordStep(dir, { expert: "p", action: "lex", durationMs: 700, next: { expert: "q", action: "parse" } }, deps);
    recordArtifacts(dir, { created: ["src/lexer.ts"], modified: ["README.md"] }, "p");
    const saved = saveCheckpoint(dir, { id: "before-refactor" }, deps);
    expect(saved.ok).toBe(true);
    const file = Checkpoint.parse(readJson(join(checkpoints, "before-refactor.json")));
    expect(file).toMatchObject({
      checkpoint_id: "before-refactor",
      current_skill: "sequential",
      resumable: true,
      reason: "manual",
      task_context: {
        task_id: "wf-20250102T030405Z-8dip1d",
        original_request: "Build the parser",
        current_phase: "sequential",
        metadata: { created_at: "2025-01-02T03:04:05.000Z", total_duration_ms: 700 },
        nesting: { current_depth: 1, max_depth: 3, path: ["sequential"] },
      },
      state_snapshot: {
        workflow: { status: "in_progress", current_step: 2, next_step: { expert: "q", action: "parse" } },
        phases: [],
      },
      artifacts_so_far: [
        { type: "code", content: "src/lexer.ts", created_by: "p", version: 1 },
        { type: "document", content: "README.md", created_by: "unknown", version: 1 },
      ],
    });
  });

  it("works without a progress file, and refuses to overwrite an id", () => {
    const { dir, deps } = setup();
    const first = saveCheckpoint(
      dir,
      { id: "x", skill: "evaluator", state: { scores: [1, 2] }, resumable: false },
      deps,
    );
    expect(first.ok && first.value).toMatchObject({
      current_skill: "evaluator",
      state_snapshot: { scores: [1, 2] },
      resumable: false,
      task_context: { task_id: "x", history: [] },
    });
    const again = saveCheckpoint(dir, { id: "x" }, deps);
    expect(again.ok ? undefined : again.issues[0]!.message).toBe("checkpoint `x` already exists");
  });

  it("sanitises ids that become file names", () => {
    const { dir, deps, checkpoints } = setup();
    saveCheckpoint(dir, { id: "../../escape" }, deps);
    expect(readdirSync(checkpoints)).toEqual(["___.._escape.json"]);
  });
});

describe("saveCompactCheckpoint (PreCompact)", () => {
  it("saves nothing when there is no unfinished work", () => {
    const { dir, deps } = setup();
    expect(saveCompactCheckpoint(dir, "auto", deps)).toEqual({ ok: true, value: undefined });
    initProgress(dir, { request: "r", primaryExpert: "p" }, deps);
    completeProgress(dir, { force: true }, deps);
    expect(saveCompactCheckpoint(dir, "auto", deps)).toEqual({ ok: true, value: undefined });
  });

  it("saves when a composite skill is mid-way, with its state", () => {
    const { dir, deps } = setup();
    const phases = join(dir, ".claude", "state", "phases");
    mkdirSync(phases, { recursive: true });
    const state = { skill: "develop-skill", task_id: "t1", status: "in_progress", current_phase: "1" };
    writeFileSync(join(phases, "develop-skill-t1.json"), JSON.stringify(state));
    const saved = saveCompactCheckpoint(dir, "manual", deps);
    expect(saved.ok && saved.value).toMatchObject({
      current_skill: "develop-skill",
      reason: "precompact-manual",
      state_snapshot: { phases: [state] },
      task_context: { task_id: "t1" },
    });
  });

  it(`keeps the newest ${KEEP_PRECOMPACT} and leaves manual checkpoints alone`, () => {
    const { dir, deps, checkpoints } = setup();
    initProgress(dir, { request: "r", primaryExpert: "p" }, deps);
    saveCheckpoint(dir, { id: "manual-one" }, deps);
    for (let i = 0; i < KEEP_PRECOMPACT + 3; i++) expect(saveCompactCheckpoint(dir, "auto", deps).ok).toBe(true);
    const names = readdirSync(checkpoints).sort();
    expect(names.filter((n) => n.startsWith("precompact-"))).toHaveLength(KEEP_PRECOMPACT);
    expect(names).toContain("manual-one.json");
  });

  it("fails (and writes nothing) on a corrupt progress file", () => {
    const { dir, deps, checkpoints } = setup();
    initProgress(dir, { request: "r", primaryExpert: "p" }, deps);
    writeFileSync(join(dir, ".claude", "state", "progress.json"), "{");
    expect(saveCompactCheckpoint(dir, "auto", deps).ok).toBe(false);
    expect(() => readdirSync(checkpoints)).toThrow();
  });
});

describe("resumeCheckpoint and listCheckpoints", () => {
  it("resumes by id, refuses a checkpoint saved as not resumable, and says when the id is unknown", () => {
    const { dir, deps } = setup();
    initProgress(dir, { request: "r", primaryExpert: "p" }, deps);
    saveCheckpoint(dir, { id: "good" }, deps);
    saveCheckpoint(dir, { id: "final", resumable: false }, deps);
    const good = resumeCheckpoint(dir, "good");
    expect(good.ok && good.value.task_context.original_request).toBe("r");
    expect(resumeCheckpoint(dir, "final")).toMatchObject({
      ok: false,
      issues: [{ code: "refused", message: "checkpoint `final` was saved as not resumable" }],
    });
    expect(resumeCheckpoint(dir, "nope")).toMatchObject({
      ok: false,
      issues: [
        {
          code: "missing",
          message: "there is no checkpoint `nope`",
          help: "run `lanes checkpoint list` to see the saved ones",
        },
      ],
    });
  });

  it("reports a corrupt checkpoint with its first problem and keeps a copy", () => {
    const { dir, deps, checkpoints } = setup();
    saveCheckpoint(dir, { id: "bad" }, deps);
    writeFileSync(join(checkpoints, "bad.json"), JSON.stringify({ checkpoint_id: "bad" }));
    const result = resumeCheckpoint(dir, "bad", deps);
    expect(result.ok ? undefined : result.issues[0]!.message).toMatch(
      /^`\.claude\/state\/checkpoints\/bad\.json` is not usable: task_context: missing \(expected object\): the file was left as is and copied to `bad\.json\.corrupt-/,
    );
  });

  it("lists oldest first, invalid files with their problem", () => {
    const { dir, deps, checkpoints } = setup();
    saveCheckpoint(dir, { id: "b-second" }, deps);
    saveCheckpoint(dir, { id: "a-third" }, deps);
    writeFileSync(join(checkpoints, "broken.json"), "[]");
    const listed = listCheckpoints(dir);
    expect(listed.ok && listed.value.map((e) => (e.ok ? e.id : `${e.id}: ${e.problem}`))).toEqual([
      "broken: `broken.json` is not usable: expected object, received array",
      "b-second",
      "a-third",
    ]);
    expect(readdirSync(checkpoints).filter((n) => n.includes("corrupt"))).toEqual([]);
  });
});

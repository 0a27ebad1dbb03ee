/** The progress library behind `lanes progress`: transitions, refusals, corrupt files. */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  addArtifacts,
  completeProgress,
  enterSkill,
  failProgress,
  initProgress,
  leaveSkill,
  readProgress,
  recordError,
  recordStep,
  resumeProgress,
  type ProgressDeps,
} from "../../src/runtime/progress.ts";
import { ProgressFile } from "../../src/runtime/progress-schema.ts";
import type { Result } from "../../src/io/result.ts";
import { detect, readJson, seededRandom, steppingClock, tempProject } from "./helpers.ts";

let cleanup: () => void = () => {};
afterEach(() => cleanup());

function setup(): { dir: string; file: string; deps: ProgressDeps } {
  const p = tempProject();
  cleanup = p.cleanup;
  return {
    dir: p.dir,
    file: join(p.dir, ".claude", "state", "progress.json"),
    deps: { now: steppingClock(), random: seededRandom(), detect, lock: { timeoutMs: 1_000 } },
  };
}

const value = <T>(r: Result<T>): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.issues)}`);
  return r.value;
};
const issue = <T>(r: Result<T>) => {
  if (r.ok) throw new Error("expected a failure");
  return r.issues[0]!;
};

const started = (dir: string, deps: ProgressDeps) =>
  value(
    initProgress(
      dir,
      {
        request: "Add a test for the hex pattern\nwith details",
        primaryExpert: "n8n-expert",
        supportingExperts: ["vitest-expert"],
        estimatedSteps: 2,
      },
      deps,
    ),
  );

describe("initProgress", () => {
  it("writes a v2.0 file with a fresh workflow id, the project context and private modes", () => {
    const { dir, file, deps } = setup();
    const doc = started(dir, deps);
    expect(doc).toMatchObject({
      version: "2.0",
      workflow_id: "wf-20250102T030405Z-8dip1d",
      created_at: "2025-01-02T03:04:05.000Z",
      task: {
        original_request: "Add a test for the hex pattern\nwith details",
        summary: "Add a test for the hex pattern",
        project_context: { name: "test-project", root: dir },
      },
      classification: {
        primary_expert: "n8n-expert",
        supporting_experts: ["vitest-expert"],
        strategy: "sequential",
        estimated_steps: 2,
      },
      status: "initialized",
      current_step: 1,
      total_steps: 2,
      completed_steps: [],
      next_step: null,
      artifacts: { files_created: [], files_modified: [], documentation_consulted: [] },
      errors: [],
      task_context: {
        current_phase: "init",
        history: [],
        artifacts: {},
        nesting: { current_depth: 0, max_depth: 3, path: [] },
      },
    });
    expect(ProgressFile.parse(readJson(file))).toEqual(doc);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, ".claude", "state")).mode & 0o777).toBe(0o700);
    // runtime state stays out of commits even without `lanes init`
    expect(readFileSync(join(dir, ".claude", "state", ".gitignore"), "utf8")).toBe(
      "# lanes runtime state: never committed\n*\n",
    );
  });

  it("refuses to replace an unfinished workflow, and says how to continue or start over", () => {
    const { dir, file, deps } = setup();
    const first = started(dir, deps);
    const before = readFileSync(file, "utf8");
    expect(issue(initProgress(dir, { request: "other", primaryExpert: "x" }, deps))).toMatchObject({
      code: "refused",
      message: `workflow \`${first.workflow_id}\` is initialized at step 1 of 2: init would discard it`,
      help: "run `lanes progress resume` to continue it, `lanes progress complete` or `fail` to close it, or `lanes progress init --force` to start over",
    });
    expect(readFileSync(file, "utf8")).toBe(before);
    const forced = value(initProgress(dir, { request: "other", primaryExpert: "x", force: true }, deps));
    expect(forced.workflow_id).not.toBe(first.workflow_id);
    expect(forced.classification.strategy).toBe("single");
  });

  it.each(["completed", "failed"] as const)("starts a new workflow over a %s one", (status) => {
    const { dir, deps } = setup();
    started(dir, deps);
    value(
      status === "completed"
        ? completeProgress(dir, { force: true }, deps)
        : failProgress(dir, { message: "gave up" }, deps),
    );
    expect(value(initProgress(dir, { request: "next", primaryExpert: "x" }, deps)).status).toBe("initialized");
  });

  it("refuses input that would make an invalid file", () => {
    const { dir, file, deps } = setup();
    expect(issue(initProgress(dir, { request: "", primaryExpert: "x" }, deps))).toMatchObject({
      code: "invalid-input",
      message:
        "the update would make an invalid progress file: task.original_request: too small: expected string to have >=1 characters",
    });
    expect(() => statSync(file)).toThrow();
  });
});

describe("recordStep", () => {
  it("records the step, advances, sets the handoff and merges artifacts (core protocols: updating progress)", () => {
    const { dir, deps } = setup();
    started(dir, deps);
    const doc = value(
      recordStep(
        dir,
        {
          expert: "n8n-expert",
          action: "analyze_workflow",
          summary: "pattern found",
          result: { line: 245 },
          created: [join(dir, "src", "rule.ts")],
          modified: ["README.md"],
          documentation: ["https://docs.n8n.io"],
          next: {
            expert: "vitest-expert",
            action: "create_test",
            context: { pattern: "hex" },
            constraints: { write_paths: ["test/**"], read_only: false },
          },
        },
        deps,
      ),
    );
    expect(doc.completed_steps).toEqual([
      {
        step: 1,
        expert: "n8n-expert",
        action: "analyze_workflow",
        result: { line: 245, summary: "pattern found" },
        artifacts: ["src/rule.ts", "README.md"],
        duration_ms: 1000,
        timestamp: "2025-01-02T03:04:06.000Z",
      },
    ]);
    expect(doc).toMatchObject({
      status: "in_progress",
      current_step: 2,
      next_step: {
        step: 2,
        expert: "vitest-expert",
        action: "create_test",
        context: { pattern: "hex" },
        constraints: { write_paths: ["test/**"], read_only: false },
      },
      artifacts: {
        files_created: ["src/rule.ts"],
        files_modified: ["README.md"],
        documentation_consulted: ["https://docs.n8n.io"],
      },
    });
    expect(doc.task_context!.artifacts["src/rule.ts"]).toEqual({
      type: "code",
      content: "src/rule.ts",
      created_by: "n8n-expert",
      version: 1,
    });
  });

  it("clears a planned next step that this step did, and grows total_steps past the estimate", () => {
    const { dir, deps } = setup();
    value(
      initProgress(
        dir,
        { request: "r", primaryExpert: "a", estimatedSteps: 1, next: { expert: "a", action: "go" } },
        deps,
      ),
    );
    value(recordStep(dir, { expert: "a", action: "go" }, deps));
    const doc = value(recordStep(dir, { expert: "a", action: "more" }, deps));
    expect(doc).toMatchObject({ next_step: null, current_step: 3, total_steps: 2 });
  });

  it("completes the workflow on the final step, then refuses more", () => {
    const { dir, deps } = setup();
    started(dir, deps);
    const doc = value(recordStep(dir, { expert: "a", action: "all", summary: "everything", final: true }, deps));
    expect(doc).toMatchObject({
      status: "completed",
      next_step: null,
      completion: { summary: "everything", suggestions: [] },
    });
    expect(issue(recordStep(dir, { expert: "a", action: "again" }, deps))).toMatchObject({
      code: "refused",
      message: `workflow \`${doc.workflow_id}\` is completed: no more steps can be recorded`,
    });
  });

  it("needs a workflow", () => {
    const { dir, deps } = setup();
    expect(issue(recordStep(dir, { expert: "a", action: "b" }, deps))).toEqual({
      code: "missing",
      message: "there is no workflow: `.claude/state/progress.json` does not exist",
      help: 'run `lanes progress init "<request>" --primary <expert>` first',
    });
  });

  it("refuses an empty expert without touching the file", () => {
    const { dir, file, deps } = setup();
    started(dir, deps);
    const before = readFileSync(file, "utf8");
    expect(issue(recordStep(dir, { expert: "", action: "b" }, deps)).message).toBe(
      "the update would make an invalid progress file: completed_steps.0.expert: too small: expected string to have >=1 characters",
    );
    expect(readFileSync(file, "utf8")).toBe(before);
  });
});

describe("errors, completion, failure", () => {
  it("logs errors without changing the status", () => {
    const { dir, deps } = setup();
    started(dir, deps);
    const doc = value(
      recordError(
        dir,
        { message: "timeout", expert: "x", errorType: "timeout", severity: "recoverable", suggestion: "retry" },
        deps,
      ),
    );
    expect(doc.status).toBe("initialized");
    expect(doc.errors).toEqual([
      {
        message: "timeout",
        step: 1,
        expert: "x",
        error_type: "timeout",
        severity: "recoverable",
        suggestion: "retry",
        timestamp: "2025-01-02T03:04:06.000Z",
      },
    ]);
  });

  it("completes with a summary and suggestions", () => {
    const { dir, deps } = setup();
    const { workflow_id } = started(dir, deps);
    // two steps planned, none recorded: refused unless forced, and nothing changes
    const open = issue(completeProgress(dir, { summary: "done" }, deps));
    expect([open.code, open.message]).toEqual([
      "refused",
      `workflow \`${workflow_id}\` has 2 step(s) still open (0 of 2 recorded): record them with \`lanes progress step\`, or pass \`--force\` to complete it anyway`,
    ]);
    expect(value(readProgress(dir, deps))?.status).toBe("initialized");
    const doc = value(completeProgress(dir, { summary: "done", suggestions: ["ship it"], force: true }, deps));
    expect(doc).toMatchObject({
      status: "completed",
      next_step: null,
      completion: { summary: "done", suggestions: ["ship it"] },
    });
    expect(issue(completeProgress(dir, {}, deps)).code).toBe("refused");
    expect(issue(failProgress(dir, { message: "late" }, deps)).code).toBe("refused");
  });

  it("fails with a critical error", () => {
    const { dir, deps } = setup();
    started(dir, deps);
    const doc = value(failProgress(dir, { message: "cannot reach the API", expert: "x" }, deps));
    expect(doc.status).toBe("failed");
    expect(doc.errors.at(-1)).toMatchObject({ message: "cannot reach the API", severity: "critical", expert: "x" });
  });

  it("adds artifacts through the validated path", () => {
    const { dir, deps } = setup();
    started(dir, deps);
    const doc = value(
      addArtifacts(
        dir,
        { created: ["a.md"], modified: ["a.md", "b.json"], documentation: ["https://x"] },
        "writer",
        deps,
      ),
    );
    expect(doc.artifacts).toEqual({
      files_created: ["a.md"],
      files_modified: ["b.json"],
      documentation_consulted: ["https://x"],
    });
    expect(doc.task_context!.artifacts["a.md"]).toEqual({
      type: "document",
      content: "a.md",
      created_by: "writer",
      version: 1,
    });
  });
});

describe("resumeProgress", () => {
  it("returns the whole file and whether work remains", () => {
    const { dir, deps } = setup();
    started(dir, deps);
    expect(value(resumeProgress(dir, deps)).unfinished).toBe(true);
    value(completeProgress(dir, { force: true }, deps));
    expect(value(resumeProgress(dir, deps)).unfinished).toBe(false);
  });

  it("fails without a workflow", () => {
    const { dir, deps } = setup();
    expect(issue(resumeProgress(dir, deps)).code).toBe("missing");
  });
});

describe("nesting of skills", () => {
  it("enters up to the maximum depth, refuses cycles and records the history on leave", () => {
    const { dir, deps } = setup();
    value(initProgress(dir, { request: "r", primaryExpert: "a", maxDepth: 2 }, deps));
    value(enterSkill(dir, "orchestrator", deps));
    expect(issue(enterSkill(dir, "orchestrator", deps)).message).toBe(
      "cannot enter `orchestrator`: it is already in the path orchestrator, which would be a cycle",
    );
    const deep = value(enterSkill(dir, "parallel", deps));
    expect(deep.task_context!.nesting).toMatchObject({ current_depth: 2, path: ["orchestrator", "parallel"] });
    expect(deep.task_context!.current_phase).toBe("parallel");
    expect(issue(enterSkill(dir, "sequential", deps)).message).toBe(
      "cannot enter `sequential`: the maximum nesting depth 2 is reached: current path orchestrator → parallel",
    );
    expect(issue(leaveSkill(dir, "orchestrator", { status: "success" }, deps)).message).toBe(
      "cannot leave `orchestrator`: the innermost skill is `parallel`",
    );
    const left = value(leaveSkill(dir, "parallel", { status: "partial", output: { workers: 3 } }, deps));
    expect(left.task_context!.nesting).toMatchObject({ current_depth: 1, path: ["orchestrator"] });
    expect(left.task_context!.current_phase).toBe("orchestrator");
    expect(left.task_context!.history).toEqual([
      {
        skill: "parallel",
        duration_ms: 3000,
        status: "partial",
        output: { workers: 3 },
        timestamp: "2025-01-02T03:04:11.000Z",
      },
    ]);
  });
});

describe("a corrupt progress file", () => {
  const corruptions: [string, (doc: Record<string, unknown>) => unknown, string][] = [
    [
      "a wrong type",
      (d) => ((d.completed_steps as Record<string, unknown>[])[0]!.expert = 3) && d,
      "completed_steps.0.expert: expected string, received number",
    ],
    ["a missing field", (d) => (delete d.classification, d), "classification: missing (expected object)"],
  ];
  const operations: [string, (dir: string, deps: ProgressDeps) => Result<unknown>][] = [
    ["step", (dir, deps) => recordStep(dir, { expert: "a", action: "b" }, deps)],
    ["error", (dir, deps) => recordError(dir, { message: "m" }, deps)],
    ["complete", (dir, deps) => completeProgress(dir, {}, deps)],
    ["fail", (dir, deps) => failProgress(dir, { message: "m" }, deps)],
    ["artifacts", (dir, deps) => addArtifacts(dir, { created: ["x"] }, undefined, deps)],
    ["enter", (dir, deps) => enterSkill(dir, "s", deps)],
    ["init without --force", (dir, deps) => initProgress(dir, { request: "r", primaryExpert: "a" }, deps)],
    ["show", (dir, deps) => readProgress(dir, deps)],
    ["resume", (dir, deps) => resumeProgress(dir, deps)],
  ];

  describe.each(corruptions)("with %s", (_, corrupt, problem) => {
    it.each(operations)("%s refuses, leaves the file as is and keeps one backup", (_, operation) => {
      const { dir, file, deps } = setup();
      started(dir, deps);
      value(recordStep(dir, { expert: "a", action: "b" }, deps));
      const bad = `${JSON.stringify(corrupt(readJson(file) as Record<string, unknown>), null, 2)}\n`;
      writeFileSync(file, bad);
      const first = issue(operation(dir, deps));
      issue(operation(dir, deps));
      const backups = readdirSync(join(dir, ".claude", "state")).filter((n) => n.startsWith("progress.json.corrupt-"));
      expect(backups).toHaveLength(1);
      expect(first).toEqual({
        code: "corrupt",
        message: `\`.claude/state/progress.json\` is not usable: ${problem}: the file was left as is and copied to \`${backups[0]}\``,
        help: "run `lanes progress init --force` to start over, or fix the file by hand",
        file,
      });
      expect(readFileSync(file, "utf8")).toBe(bad);
      expect(readFileSync(join(dir, ".claude", "state", backups[0]!), "utf8")).toBe(bad);
    });
  });

  it("says so when the file is not JSON at all", () => {
    const { dir, file, deps } = setup();
    started(dir, deps);
    writeFileSync(file, '{"version": "2.0", "workflow_');
    expect(issue(readProgress(dir, deps)).message).toMatch(
      /^`\.claude\/state\/progress\.json` is not usable: not valid JSON: .+: the file was left as is and copied to `progress\.json\.corrupt-\d{8}T\d{6}Z`$/,
    );
  });

  it("is replaced by init --force, and the backup stays", () => {
    const { dir, file, deps } = setup();
    started(dir, deps);
    writeFileSync(file, "{}");
    expect(value(initProgress(dir, { request: "again", primaryExpert: "a", force: true }, deps)).status).toBe(
      "initialized",
    );
    const names = readdirSync(join(dir, ".claude", "state"));
    const backup = names.find((n) => n.startsWith("progress.json.corrupt-"))!;
    expect(readFileSync(join(dir, ".claude", "state", backup), "utf8")).toBe("{}");
  });
});

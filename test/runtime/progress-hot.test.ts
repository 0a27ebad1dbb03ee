/** The hooks' hot path: recordArtifacts (PostToolUse), resumeSummary (SessionStart), and what they import. */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterEach, describe, expect, it } from "vitest";
import { recordArtifacts, resumeSummary } from "../../src/runtime/progress-hot.ts";
import { completeProgress, initProgress, recordStep, type ProgressDeps } from "../../src/runtime/progress.ts";
import { ProgressFile } from "../../src/runtime/progress-schema.ts";
import { detect, readJson, seededRandom, steppingClock, tempProject } from "./helpers.ts";

let cleanup: () => void = () => {};
afterEach(() => cleanup());

function setup(init = true): { dir: string; file: string; deps: ProgressDeps } {
  const p = tempProject();
  cleanup = p.cleanup;
  const deps = { now: steppingClock(), random: seededRandom(), detect };
  if (init)
    initProgress(p.dir, { request: "Build the parser", primaryExpert: "parser-expert", estimatedSteps: 3 }, deps);
  return { dir: p.dir, file: join(p.dir, ".claude", "state", "progress.json"), deps };
}

const doc = (file: string) => ProgressFile.parse(readJson(file));

describe("recordArtifacts", () => {
  it("does nothing without a progress file", () => {
    const { dir } = setup(false);
    expect(recordArtifacts(dir, { created: [join(dir, "a.ts")] })).toEqual({ ok: true, value: "no-workflow" });
    expect(readdirSync(join(dir, ".claude"))).toEqual([]);
  });

  it("records created files relative to the project and registers them as typed artifacts", () => {
    const { dir, file } = setup();
    expect(
      recordArtifacts(
        dir,
        { created: [join(dir, "src", "parse.ts"), join(dir, "docs", "parse.md")] },
        "parser-expert",
        { now: () => new Date("2025-02-03T04:05:06Z") },
      ),
    ).toEqual({ ok: true, value: "recorded" });
    const d = doc(file);
    expect(d.artifacts.files_created).toEqual(["src/parse.ts", "docs/parse.md"]);
    expect(d.updated_at).toBe("2025-02-03T04:05:06.000Z");
    expect(d.task_context!.artifacts).toEqual({
      "src/parse.ts": { type: "code", content: "src/parse.ts", created_by: "parser-expert", version: 1 },
      "docs/parse.md": { type: "document", content: "docs/parse.md", created_by: "parser-expert", version: 1 },
    });
  });

  it.each([
    [
      "a modified pre-existing file goes to files_modified",
      { modified: ["README.md"] },
      { files_created: ["src/a.ts"], files_modified: ["README.md"] },
      "recorded",
    ],
    [
      "modifying a file the workflow created bumps its version, not the lists",
      { modified: ["src/a.ts"] },
      { files_created: ["src/a.ts"], files_modified: [] },
      "recorded",
    ],
    [
      "a file outside the project is kept absolute",
      { created: ["/elsewhere/x.ts"] },
      { files_created: ["src/a.ts", "/elsewhere/x.ts"], files_modified: [] },
      "recorded",
    ],
    ["nothing to record", {}, { files_created: ["src/a.ts"], files_modified: [] }, "unchanged"],
    [
      "a file both created and modified in one call counts as created",
      { created: ["b.ts"], modified: ["b.ts"] },
      { files_created: ["src/a.ts", "b.ts"], files_modified: [] },
      "recorded",
    ],
  ] as const)("%s", (_, changes, lists, outcome) => {
    const { dir, file } = setup();
    recordArtifacts(dir, { created: ["src/a.ts"] }, "writer");
    expect(recordArtifacts(dir, changes)).toEqual({ ok: true, value: outcome });
    expect(doc(file).artifacts).toMatchObject(lists);
  });

  it("bumps the version of a created file on every later change", () => {
    const { dir, file } = setup();
    recordArtifacts(dir, { created: ["src/a.ts"] }, "writer");
    recordArtifacts(dir, { modified: ["src/a.ts"] }, "editor");
    recordArtifacts(dir, { modified: ["src/a.ts"] });
    expect(doc(file).task_context!.artifacts["src/a.ts"]).toEqual({
      type: "code",
      content: "src/a.ts",
      created_by: "writer",
      version: 3,
    });
  });

  it("does not write when every file is already listed", () => {
    const { dir, file } = setup();
    recordArtifacts(dir, { modified: ["README.md"] });
    const before = readFileSync(file, "utf8");
    const mtime = statSync(file).mtimeMs;
    expect(recordArtifacts(dir, { modified: ["README.md", join(dir, "README.md")] })).toEqual({
      ok: true,
      value: "unchanged",
    });
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(statSync(file).mtimeMs).toBe(mtime);
  });

  it("leaves a finished workflow alone", () => {
    const { dir, file, deps } = setup();
    completeProgress(dir, { force: true }, deps);
    const before = readFileSync(file, "utf8");
    expect(recordArtifacts(dir, { created: ["late.ts"] })).toEqual({ ok: true, value: "finished" });
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("keeps fields it does not know", () => {
    const { dir, file } = setup();
    writeFileSync(file, JSON.stringify({ ...(readJson(file) as object), added_by_an_agent: [1, 2] }));
    recordArtifacts(dir, { created: ["x.ts"] });
    expect((readJson(file) as Record<string, unknown>).added_by_an_agent).toEqual([1, 2]);
  });

  it.each([
    ["not JSON", '{"version": "2.0", "work', /^`\.claude\/state\/progress\.json` is not usable: not valid JSON: /],
    [
      "another version",
      JSON.stringify({ version: "1.0" }),
      /^`\.claude\/state\/progress\.json` is not usable: version: expected "2\.0", found "1\.0"$/,
    ],
    [
      "artifacts that are not lists",
      JSON.stringify({
        version: "2.0",
        workflow_id: "wf",
        status: "in_progress",
        artifacts: { files_created: "a", files_modified: [] },
      }),
      /artifacts\.files_created: expected an array of strings$/,
    ],
  ])("refuses a corrupt file (%s) without writing or copying it", (_, text, message) => {
    const { dir, file } = setup();
    writeFileSync(file, text);
    const result = recordArtifacts(dir, { created: ["x.ts"] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]!.code).toBe("corrupt");
    expect(result.issues[0]!.message).toMatch(message);
    expect(result.issues[0]!.help).toContain("lanes progress init --force");
    expect(readFileSync(file, "utf8")).toBe(text);
    expect(readdirSync(join(dir, ".claude", "state"))).toEqual([".gitignore", "progress.json"]);
  });
});

describe("resumeSummary", () => {
  it("is empty without a workflow", () => {
    const { dir } = setup(false);
    expect(resumeSummary(dir)).toEqual({ ok: true, value: undefined });
  });

  it("summarises an unfinished workflow and its next step", () => {
    const { dir, deps } = setup();
    recordStep(
      dir,
      { expert: "parser-expert", action: "design", next: { expert: "test-expert", action: "write_tests" } },
      deps,
    );
    const summary = resumeSummary(dir);
    expect(summary.ok && summary.value).toBe(
      [
        "lanes: unfinished workflow `wf-20250102T030405Z-8dip1d` (in_progress, step 2 of 3): Build the parser",
        "next: `test-expert` does `write_tests`",
        "run `lanes progress resume` for the history, the handoff context and the artifacts",
      ].join("\n"),
    );
  });

  it("is empty once the workflow is finished", () => {
    const { dir, deps } = setup();
    completeProgress(dir, { force: true }, deps);
    expect(resumeSummary(dir)).toEqual({ ok: true, value: undefined });
  });

  it("mentions composite skills mid-way and unreadable phase states", () => {
    const { dir } = setup(false);
    const phases = join(dir, ".claude", "state", "phases");
    initProgress(dir, { request: "r", primaryExpert: "a" }, { detect });
    completeProgress(dir, { force: true }, {});
    mkdirSync(phases);
    writeFileSync(
      join(phases, "develop-skill-t1.json"),
      JSON.stringify({ skill: "develop-skill", task_id: "t1", status: "in_progress", current_phase: "2" }),
    );
    writeFileSync(
      join(phases, "develop-skill-t0.json"),
      JSON.stringify({ skill: "develop-skill", task_id: "t0", status: "completed", current_phase: null }),
    );
    writeFileSync(join(phases, "broken-t2.json"), "{");
    const summary = resumeSummary(dir);
    expect(summary.ok && summary.value).toBe(
      [
        "lanes: composite skill `develop-skill` for task `t1` is at phase 2: run `lanes phase status develop-skill --task t1` for its directive",
        "lanes: phase state `broken-t2.json` is unreadable: fix it by hand or delete it",
      ].join("\n"),
    );
  });

  it("is an error value for a corrupt progress file", () => {
    const { dir, file } = setup();
    writeFileSync(file, "[]");
    const summary = resumeSummary(dir);
    expect(summary.ok ? undefined : summary.issues[0]!.message).toBe(
      "`.claude/state/progress.json` is not usable: expected a JSON object",
    );
  });
});

describe("the hot path's imports", () => {
  it.each(["progress-hot.ts", "checkpoints-hot.ts"])("%s bundles without zod, yaml or gray-matter", async (entry) => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL(`../../src/runtime/${entry}`, import.meta.url))],
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((i) => /node_modules\/(zod|yaml|gray-matter)\//.test(i))).toEqual([]);
    expect(inputs.some((i) => i.endsWith(`src/runtime/${entry}`))).toBe(true);
  });
});

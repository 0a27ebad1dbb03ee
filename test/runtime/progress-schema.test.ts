/** The progress file schema against committed fixtures: what is accepted, and the first problem of what is not. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { progressStructureProblem } from "../../src/runtime/progress-hot.ts";
import { ProgressFile } from "../../src/runtime/progress-schema.ts";
import { validatorOf } from "../../src/runtime/zod-problem.ts";

const DIR = fileURLToPath(new URL("../fixtures/progress/", import.meta.url));
const load = (name: string): unknown => JSON.parse(readFileSync(join(DIR, name), "utf8"));
const validate = validatorOf(ProgressFile);

describe("progress fixtures", () => {
  const valid = readdirSync(DIR).filter((n) => n.startsWith("valid-"));
  it.each(valid)("%s is a valid progress file", (name) => {
    expect(validate(load(name))).toMatchObject({ ok: true });
  });

  it("keeps fields it does not know (agents add them by hand)", () => {
    const parsed = ProgressFile.parse(load("valid-full.json"));
    expect(parsed.custom_field_from_an_agent).toEqual({ kept: true });
    expect(parsed.completed_steps[1]!.confidence).toBe("HIGH");
  });

  it.each([
    ["invalid-step-expert-number.json", "completed_steps.2.expert: expected string, received number"],
    ["invalid-version.json", 'version: expected "2.0"'],
    ["invalid-status.json", 'status: expected one of "initialized"|"in_progress"|"completed"|"failed"'],
    ["invalid-missing-artifacts.json", "artifacts: missing (expected object)"],
    ["invalid-timestamp.json", "created_at: invalid ISO datetime"],
    ["invalid-error-without-message.json", "errors.1.message: missing (expected string)"],
    ["invalid-strategy.json", 'classification.strategy: expected one of "sequential"|"parallel"|"single"'],
    ["invalid-artifact-version.json", "task_context.artifacts.report.version: too small: expected number to be >=1"],
    ["invalid-constraints-tools.json", "next_step.constraints.tools: expected array, received string"],
  ])("%s is refused: %s", (name, problem) => {
    expect(validate(load(name))).toEqual({ ok: false, problem });
  });

  it("every invalid fixture is covered by the table above", () => {
    const invalid = readdirSync(DIR).filter((n) => n.startsWith("invalid-") && n !== "invalid-truncated.json");
    expect(invalid).toHaveLength(9);
  });
});

describe("the hot path's structural check", () => {
  it.each([
    ["valid-full.json", undefined],
    ["valid-protocol-example.json", undefined],
    ["invalid-version.json", 'version: expected "2.0", found "1.0"'],
    ["invalid-missing-artifacts.json", "artifacts: expected object"],
    // the hot path only needs the artifact lists: deeper problems are the CLI's to report
    ["invalid-step-expert-number.json", undefined],
  ])("%s → %s", (name, problem) => {
    expect(progressStructureProblem(load(name))).toBe(problem);
  });

  it.each([
    [[], "expected a JSON object"],
    [
      {
        version: "2.0",
        workflow_id: "wf",
        status: "in_progress",
        artifacts: { files_created: [1], files_modified: [] },
      },
      "artifacts.files_created: expected an array of strings",
    ],
    [
      {
        version: "2.0",
        workflow_id: "wf",
        status: "in_progress",
        artifacts: { files_created: [], files_modified: "x" },
      },
      "artifacts.files_modified: expected an array of strings",
    ],
    [{ version: "2.0", status: "in_progress" }, "workflow_id: expected string"],
  ])("%j → %s", (data, problem) => {
    expect(progressStructureProblem(data)).toBe(problem);
  });
});

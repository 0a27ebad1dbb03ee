import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatDuration, renderProgressReport, renderResume } from "../../src/runtime/progress-render.ts";
import { ProgressFile } from "../../src/runtime/progress-schema.ts";

const fixture = (name: string) =>
  ProgressFile.parse(
    JSON.parse(readFileSync(fileURLToPath(new URL(`../fixtures/progress/${name}`, import.meta.url)), "utf8")),
  );

describe("formatDuration", () => {
  it.each([
    [0, "0ms"],
    [999, "999ms"],
    [1000, "1s"],
    [1250, "1.3s"],
    [59_960, "1m 0s"],
    [119_600, "2m 0s"],
    [125_000, "2m 5s"],
    [3_780_000, "1h 3m"],
  ])("%i ms → %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe("renderProgressReport", () => {
  it("renders a completed workflow in the protocol's report format", () => {
    expect(renderProgressReport(fixture("valid-full.json"))).toBe(`🎯 Task: test the hex pattern

📋 Classification:
   • Primary Expert: n8n-expert
   • Supporting Experts: vitest-expert
   • Strategy: sequential
   • Steps: 3

🤖 Step 1/3: n8n-expert
   ├─ ▶️  Action: analyze_workflow
   └─ ✅ Completed (1.2s)

🤖 Step 2/3: vitest-expert
   ├─ ▶️  Action: create_test
   ├─ 📝 test added
   └─ ✅ Completed (3.4s)

🤖 Step 3/3: n8n-expert
   ├─ ▶️  Action: verify
   ├─ 📝 all green
   └─ ✅ Completed (0ms)

⚠️  Errors:
   • first run timed out
   • step 2, vitest-expert: [recoverable timeout] flaky network (suggestion: mock the call)

═══════════════════════════════════════
✨ Task Completed in 5m 55s

📋 Summary:
   hex pattern covered

📁 Artifacts:
   • test/hex.test.ts (created)
   • services/workflow/config/rules.config.json (modified)

💡 Next Steps:
   1. add the octal variant
═══════════════════════════════════════
`);
  });

  it("renders a workflow in progress with its next step and constraints", () => {
    const text = renderProgressReport(fixture("valid-next-step-constraints.json"));
    expect(text).toContain(
      "⏭️  Step 2/3: vitest-expert (next)\n   ├─ ▶️  Action: create_test\n   └─ constraints: writes only `test/**`; tools only `Read`, `Write`\n",
    );
    expect(text.trimEnd().split("\n").at(-1)).toBe("⏳ In progress: workflow wf-20250102T030405Z-k3x9q1, step 2 of 3");
  });
});

describe("renderResume", () => {
  it("gives an incoming expert the history, the handoff context and the artifacts", () => {
    expect(renderResume(fixture("valid-protocol-example.json")))
      .toBe(`workflow wf-20250102T030405Z-k3x9q1 (in_progress), step 2 of 3
task: Add a test for the SQL injection hex pattern
project: guard-service (/srv/guard)

history:
  1. n8n-expert analyze_workflow

next step 2: vitest-expert does create_test
  pattern_to_test: sql_injection_hex
  expected_result: BLOCKED
  relevant_files: ["services/workflow/config/rules.config.json"]
  notes: Pattern added at line 245, category CODE_INJECTION

artifacts:
  created: none
  modified: none

continue from the next step without redoing the history; when done run \`lanes progress step --expert <you> --action <action> --summary <text>\`
`);
  });
});

describe("errors with their context and recovery options", () => {
  const doc = (() => {
    const d = fixture("valid-protocol-example.json");
    d.errors.push({
      message: "gate 3 failed twice: the tests do not compile",
      step: 2,
      expert: "qa",
      skill: "gated-steps",
      error_type: "validation",
      severity: "recoverable",
      context: { command: "npm test", file: "src/a.test.ts" },
      recovery_options: [
        {
          action: "retry",
          description: "retry with the compiler output",
          auto_execute: true,
          requires_user_input: false,
        },
        { action: "escalate", description: "ask the human", auto_execute: false, requires_user_input: true },
      ],
      timestamp: "2025-01-02T03:05:00.000Z",
    });
    return d;
  })();
  it.each([
    ["progress show", () => renderProgressReport(doc), "     "],
    ["progress resume", () => renderResume(doc), "    "],
  ])("%s shows them", (_name, render, indent) => {
    const text = render();
    expect(text).toContain(
      "step 2, gated-steps, qa: [recoverable validation] gate 3 failed twice: the tests do not compile",
    );
    expect(text).toContain(
      [
        `${indent}context: command=npm test, file=src/a.test.ts`,
        `${indent}recovery 1: retry: retry with the compiler output (runs without asking)`,
        `${indent}recovery 2: escalate: ask the human (needs the human)`,
      ].join("\n"),
    );
  });
});

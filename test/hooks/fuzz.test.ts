/**
 * Property tests: whatever arrives on stdin — random JSON, malformed hook inputs, hostile shell
 * strings — the PreToolUse guard never throws, prints exactly one JSON object that validates
 * against the SDK's output type or nothing, and finishes (the shell analysis reports its budget
 * instead of running away; no timing is asserted).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPreToolUse } from "../../src/hooks/events/pre-tool-use.ts";
import { hookInput, installedProject, ROOT, runHook, sdkSchemas, type Project } from "../helpers/hooks.ts";

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

/** Shell-ish text: fragments that stress the parser, the walk and the unwrapping. */
const shellText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "rm",
        "-rf",
        "/",
        "~",
        "$(",
        ")",
        "`",
        "'",
        '"',
        "|",
        "&&",
        ";",
        "<<EOF\n",
        "\nEOF",
        "bash -c",
        "eval",
        "sudo",
        "xargs",
        "find . -exec",
        "{}",
        "\\;",
        "*",
        "..",
        "$HOME",
        "${",
        "}",
        "(",
        "<(",
        ">",
        ">>",
        "2>&1",
        "python3 -c",
        "node -e",
        "cd",
        "&",
        "\n",
        "#",
        "\\",
      ),
      fc.string({ maxLength: 12 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(" "));

const anyTool = fc.constantFrom(
  "Bash",
  "Read",
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
  "Glob",
  "Grep",
  "Agent",
  "Skill",
  "WebFetch",
  "mcp__x__y",
  "TodoWrite",
);

describe("the guard on arbitrary input", () => {
  it("survives random JSON values on stdin", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expectOneObjectOrNothing(runPreToolUse(JSON.stringify(value), deps()).stdout);
      }),
      { numRuns: 300 },
    );
  });

  it("survives random text on stdin", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        expectOneObjectOrNothing(runPreToolUse(text, deps()).stdout);
      }),
      { numRuns: 300 },
    );
  });

  it("survives malformed hook inputs of the right general shape", () => {
    const field = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 8 }), fc.string(), { maxKeys: 3 }),
    );
    fc.assert(
      fc.property(
        anyTool,
        fc.dictionary(
          fc.constantFrom(
            "command",
            "file_path",
            "path",
            "pattern",
            "glob",
            "subagent_type",
            "skill",
            "url",
            "notebook_path",
            "content",
          ),
          field,
        ),
        fc.option(fc.string({ maxLength: 20 })),
        (tool, toolInput, agent) => {
          const input = {
            ...hookInput(p, "PreToolUse", { tool_name: tool, tool_input: toolInput }),
            ...(agent !== null && { agent_id: "a0000000000000001", agent_type: agent }),
          };
          expectOneObjectOrNothing(runPreToolUse(JSON.stringify(input), deps()).stdout);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("survives hostile shell strings, deciding something for each", () => {
    fc.assert(
      fc.property(shellText, (command) => {
        const outcome = runPreToolUse(
          JSON.stringify(hookInput(p, "PreToolUse", { tool_name: "Bash", tool_input: { command } })),
          deps(),
        );
        expectOneObjectOrNothing(outcome.stdout);
      }),
      { numRuns: 400 },
    );
  });

  it("answers ask, not allow, for pathological nesting", () => {
    for (const command of [
      "$(".repeat(3000),
      "(".repeat(5000),
      "a | ".repeat(20000) + "b",
      "eval ".repeat(50) + "'rm -rf /'",
    ]) {
      const outcome = runPreToolUse(
        JSON.stringify(hookInput(p, "PreToolUse", { tool_name: "Bash", tool_input: { command } })),
        deps(),
      );
      expectOneObjectOrNothing(outcome.stdout);
      expect(outcome.stdout, command.slice(0, 20)).not.toBe("");
    }
  });

  it("holds through the real process for a sample of inputs", () => {
    const samples = fc.sample(
      fc.oneof(
        shellText.map((command) => hookInput(p, "PreToolUse", { tool_name: "Bash", tool_input: { command } })),
        fc.jsonValue(),
      ),
      { numRuns: 15, seed: 42 },
    );
    for (const input of samples) {
      const run = runHook(p, "pre-tool-use.cjs", input);
      expect(run.status, run.stderr).toBe(0);
      expectOneObjectOrNothing(run.stdout);
    }
  });
});

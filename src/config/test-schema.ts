/**
 * The schema of `.claude/lanes.test.yaml`, the team's table of expected decisions run by
 * `lanes test` (src/cli/commands/test.ts). Its JSON Schema is generated into `schemas/`.
 */
import { z } from "zod";

/** One expected decision. */
export const TestCase = z
  .object({
    name: z.string().optional().describe("What the case is about (shown in the output)."),
    tool: z.string().default("Bash").describe("Tool name (default Bash)."),
    command: z.string().optional().describe("The Bash command (shortcut for `input: {command: ...}`)."),
    input: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("The tool input; relative paths are relative to the project."),
    agent: z.string().optional().describe("Judge the call as a subagent of this type."),
    decision: z.enum(["deny", "ask", "none"]).describe("The expected decision: deny, ask, or none (no objection)."),
    rules: z
      .array(z.string())
      .optional()
      .describe("The rule ids that decide it (exactly these; omit to check only the decision)."),
    rules_include: z
      .array(z.string())
      .min(1)
      .optional()
      .describe(
        "Rule ids that must be among those that decide it (at least these: the repository's own settings or policy may add more).",
      ),
  })
  .strict()
  .refine((c) => c.command !== undefined || c.input !== undefined, { message: "give `command` (Bash) or `input`" })
  .refine((c) => c.rules === undefined || c.rules_include === undefined, {
    message: "give `rules` (exactly these) or `rules_include` (at least these), not both",
  });

export const TestFile = z
  .object({ cases: z.array(TestCase).min(1).describe("The tool calls and what the team expects of each.") })
  .strict();

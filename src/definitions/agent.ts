/**
 * The agent definition: the team-shared, committed source of truth for one agent's lane. The
 * generator renders it into `agents/<name>.md`; the compiler turns its enforceable parts (owned
 * paths, tools, MUST NOT rules, spawn and skill permissions) into the compiled policy that the
 * guard reads on every subagent tool call.
 */
import { z } from "zod";
import { CommandMatch, KebabName, RuleId, ToolName } from "../schema/atoms.ts";

/** One MUST NOT rule. `text` is always rendered; `paths`, `command` or `tools` make it enforced. */
export const MustNot = z
  .strictObject({
    id: RuleId.optional().describe("Stable id; the compiled rule id is `agent.<name>.<id>`. Required when the rule is enforced."),
    text: z.string().min(1).describe("The rule as the agent reads it, imperative, e.g. `edit database migrations`."),
    paths: z.array(z.string().min(1)).optional().describe("Globs this agent must not write or delete."),
    command: CommandMatch.optional().describe("Commands this agent must not run."),
    tools: z.array(ToolName).optional().describe("Tools this agent must not use."),
    effect: z.enum(["deny", "ask"]).optional().describe("deny (default) or ask"),
  })
  .refine((r) => (r.paths === undefined && r.command === undefined && r.tools === undefined) || r.id !== undefined, {
    message: "an enforced MUST NOT rule (with paths, command or tools) needs an `id`",
    path: ["id"],
  });
export type MustNot = z.infer<typeof MustNot>;

/** A path this agent does not own, with the agent that does. */
export const NotOwned = z.strictObject({
  path: z.string().min(1).describe("Path glob, same convention as `owns`."),
  owner: KebabName.describe("The agent that owns it; it must exist."),
});

/** When this agent hands work to another. */
export const AgentHandoff = z.strictObject({
  to: KebabName.describe("Target agent; it must exist."),
  when: z.string().min(1).describe("The trigger, as a short clause, e.g. `the change needs a schema migration`."),
});

/** An `<example>` block for the description (how Claude Code picks the agent). */
export const AgentExample = z.strictObject({
  context: z.string().min(1).describe("The situation, e.g. `The user wants a new REST endpoint.`"),
  user: z.string().min(1).describe("What the user says."),
  assistant: z.string().min(1).describe("What the main assistant answers before it uses this agent."),
  commentary: z.string().min(1).optional().describe("Why this agent is the right one."),
});

export const AgentDefinition = z
  .strictObject({
    $schema: z.string().optional().describe("Path or URL of the JSON Schema, for editors."),
    name: KebabName.describe("The agent type Claude Code reports as `agent_type` (plugin agents arrive as `<plugin>:<name>`)."),
    description: z.string().min(20).max(500).describe("When to use this agent; trigger-only, at most 500 characters."),
    role: z
      .enum(["orchestrator", "specialist", "reviewer"])
      .describe("orchestrator: plans, delegates and may spawn agents and invoke skills; specialist: works in its lane; reviewer: reads and reports, owns no paths"),
    model: z.enum(["inherit", "haiku", "sonnet", "opus"]).default("inherit").describe("The model this agent runs on; inherit uses the session's."),
    color: z.enum(["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan"]).optional().describe("The colour Claude Code shows the agent in."),
    identity: z.string().min(20).describe("Second-person identity paragraph: `You are ...`."),
    responsibilities: z.array(z.string().min(1)).min(1).describe("Core responsibilities, one per entry."),
    process: z.array(z.string().min(1)).optional().describe("The steps this agent follows, in order."),
    owns: z
      .array(z.string().min(1))
      .describe(
        "Path globs this agent may create, modify or delete, in Claude Code's permission-rule convention: `src/api/**` and `/README.md` are relative to the project root, a bare name such as `*.test.*` matches at any depth. Empty for read-only roles.",
      ),
    does_not_own: z.array(NotOwned).default([]).describe("Paths inside or next to `owns` that belong to another agent; declares the owner where owned paths overlap."),
    tools: z
      .strictObject({
        allowed: z.array(ToolName).optional().describe("If set, the only tools this agent may use (rendered as the frontmatter `tools`)."),
        forbidden: z.array(ToolName).optional().describe("Tools this agent must never use."),
      })
      .default({})
      .describe("Claude Code tools: an allowlist (frontmatter `tools`) and tools never to use."),
    must_not: z.array(MustNot).default([]).describe("MUST NOT rules: always rendered; enforced by the guard when they name paths, a command or tools."),
    handoffs: z.array(AgentHandoff).default([]).describe("Agents this one hands work to (through `next_step` and the orchestrator), and when."),
    may_spawn: z
      .array(KebabName)
      .optional()
      .describe("Agent types this agent may start with the Agent tool. Default: all for orchestrators, none otherwise."),
    may_invoke_skills: z
      .union([z.boolean(), z.array(KebabName)])
      .optional()
      .describe("Whether this agent may use the Skill tool (true, false or a list). Default: true for orchestrators, false otherwise."),
    examples: z.array(AgentExample).default([]).describe("`<example>` blocks appended to the rendered description."),
  })
  .describe("A lanes agent definition.");
export type AgentDefinition = z.infer<typeof AgentDefinition>;
export type AgentDefinitionInput = z.input<typeof AgentDefinition>;

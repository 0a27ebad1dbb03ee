/**
 * The zod schemas of the policy configuration (`lanes.yaml` in `~/.claude/`, `.claude/` and
 * `.claude/lanes.local.yaml`). They are the single source of truth: the TypeScript types are
 * `z.infer`, and `schemas/lanes.schema.json` is generated from them (drift-tested).
 *
 * These schemas are used at build time (`lanes build`, `lanes init`, the SessionStart compile),
 * never on the per-tool-call hot path, which only reads the compiled JSON.
 */
import { z } from "zod";
import { CommandMatch, Effect, PathMatch, RuleId } from "../schema/atoms.ts";

const ruleBase = {
  id: RuleId,
  effect: Effect.default("deny"),
  why: z.string().min(1).describe("What the matched action would do and why it is risky, one lowercase clause."),
  instead: z.string().min(1).describe("The safer alternative, one lowercase clause; it ends every message."),
};

/** One rule of `lanes.yaml`: exactly one of `command`, `paths` or `tools`. */
export const PolicyRule = z.union([
  z.strictObject({ ...ruleBase, command: CommandMatch }),
  z.strictObject({ ...ruleBase, paths: PathMatch }),
  z.strictObject({
    ...ruleBase,
    tools: z.array(z.string().min(1)).min(1).describe("Tool names, e.g. [WebFetch, WebSearch] or mcp__server__*."),
  }),
]);
export type PolicyRule = z.infer<typeof PolicyRule>;

export const PolicyOptions = z
  .strictObject({
    case_insensitive_paths: z.boolean().optional().describe("Match path rules case-insensitively (default: false; true on macOS and Windows volumes)."),
    outside_project_writes: z.enum(["deny", "ask", "off"]).optional().describe("Writes outside the project root and temp dirs (default: ask)."),
    default_lane: z
      .enum(["deny-writes", "global-only"])
      .optional()
      .describe("For a subagent with no lanes definition: deny-writes denies every write, global-only applies only the global rules (default: global-only)."),
    max_agent_depth: z.number().int().min(1).max(10).optional().describe("Maximum nesting of subagents (default 3)."),
    analysis_budget_ms: z.number().int().min(5).max(2000).optional().describe("Time bound of the Bash analysis; past it the answer is ask (default 50)."),
    audit_max_bytes: z.number().int().min(10_000).optional().describe("Size at which the audit log rotates (default 5 MB)."),
    escalate_after: z.number().int().min(2).max(20).optional().describe("Consecutive denials of one agent before it is told to stop and report (default 3)."),
  })
  .describe("Options; a higher layer's value wins.");
export type PolicyOptions = z.infer<typeof PolicyOptions>;

/** The whole file. */
export const PolicyFile = z
  .strictObject({
    $schema: z.string().optional(),
    version: z.literal(1).describe("Format version of this file."),
    options: PolicyOptions.optional(),
    disable: z.array(RuleId).optional().describe("Ids of rules of lower layers (built-in defaults included) to switch off."),
    rules: z.array(PolicyRule).optional(),
  })
  .describe("lanes policy: rules layered user > project > local > built-in; deny > ask > allow.");
export type PolicyFile = z.infer<typeof PolicyFile>;

/**
 * The zod schemas of the policy configuration (`lanes.yaml` in `~/.claude/`, `.claude/` and
 * `.claude/lanes.local.yaml`). They are the single source of truth: the TypeScript types are
 * `z.infer`, and `schemas/lanes.schema.json` is generated from them (drift-tested).
 *
 * These schemas are used at build time (`lanes build`, `lanes init`, the SessionStart compile),
 * never on the per-tool-call hot path, which only reads the compiled JSON.
 */
import { z } from "zod";
import { AUDIT_MIN_BYTES } from "../policy/compiled.ts";
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
    case_insensitive_paths: z
      .boolean()
      .optional()
      .describe("Match path rules case-insensitively (default: false; true on macOS and Windows volumes)."),
    outside_project_writes: z
      .enum(["deny", "ask", "off"])
      .optional()
      .describe("Writes outside the project root and temp dirs (default: ask)."),
    default_lane: z
      .enum(["unowned-only", "deny-writes", "global-only"])
      .optional()
      .describe(
        "Same as `subagents.default_lane` (kept for older files; `subagents.default_lane` wins in the same layer).",
      ),
    max_agent_depth: z.number().int().min(1).max(10).optional().describe("Maximum nesting of subagents (default 3)."),
    analysis_budget_ms: z
      .number()
      .int()
      .min(5)
      .max(2000)
      .optional()
      .describe(
        "Ignored (kept for older files): the Bash analysis is bounded by a count of nodes and nesting depth, never the clock, so every run gives the same answer.",
      ),
    audit_max_bytes: z
      .number()
      .int()
      .min(AUDIT_MIN_BYTES)
      .optional()
      .describe("Size at which the audit log rotates (default 5 MB)."),
    escalate_after: z
      .number()
      .int()
      .min(2)
      .max(20)
      .optional()
      .describe("Consecutive denials of one agent before it is told to stop and report (default 3)."),
    upload_hosts: z
      .array(z.string().min(1))
      .optional()
      .describe(
        "Hosts (`*` wildcards, e.g. `uploads.acme.dev`, `*.corp.example`) a local file may be uploaded to without asking (`curl -T`, `curl -F f=@x`, `scp`, `rsync`); this machine and its local names always may. The lists of every layer add up.",
      ),
    token_hosts: z
      .record(z.string().min(1), z.array(z.string().min(1)).min(1))
      .optional()
      .describe(
        "Hosts (`*` wildcards) a token may be sent to, by variable name (`*` wildcards), beyond the built-in table of well-known tokens (`GITHUB_TOKEN` to GitHub, `OPENAI_API_KEY` to OpenAI...), e.g. {GITHUB_TOKEN: [github.acme.corp], ACME_API_KEY: [api.acme.dev]}; sent to any other host, such a token is exfiltration. The tables of every layer add up.",
      ),
  })
  .describe("Options; a higher layer's value wins.");
export type PolicyOptions = z.infer<typeof PolicyOptions>;

/** The lane of a subagent that has no lanes definition. */
export const DefaultLaneName = z
  .enum(["unowned-only", "deny-writes", "global-only"])
  .describe(
    "unowned-only: may write only paths no lanes agent owns (writes into an agent's lane are denied, naming the owners); deny-writes: may not write at all; global-only: only the global rules apply",
  );

/** A MUST NOT rule that applies to every subagent. */
export const SubagentMustNot = z
  .strictObject({
    id: RuleId.describe("Stable id; the compiled rule id is `subagents.<id>`."),
    text: z.string().min(1).describe("The rule as the agent reads it, imperative, e.g. `publish packages`."),
    paths: z.array(z.string().min(1)).optional().describe("Globs no subagent may write or delete."),
    command: CommandMatch.optional().describe("Commands no subagent may run."),
    tools: z.array(z.string().min(1)).optional().describe("Tools no subagent may use."),
    effect: z.enum(["deny", "ask"]).optional().describe("deny (default) or ask"),
  })
  .refine((r) => r.paths !== undefined || r.command !== undefined || r.tools !== undefined, {
    message: "a subagents MUST NOT rule needs `paths`, `command` or `tools`",
  });
export type SubagentMustNot = z.infer<typeof SubagentMustNot>;

/** `subagents:`: what applies to every subagent, so agent files hold only what is theirs. */
export const SubagentsSection = z
  .strictObject({
    default_lane: DefaultLaneName.optional().describe(
      "Lane of every subagent without a lanes definition and without an entry in `lanes` (default: unowned-only).",
    ),
    lanes: z
      .record(z.string().min(1), DefaultLaneName)
      .optional()
      .describe(
        "Lanes of agent types without a lanes definition, by `agent_type`: built-in (`general-purpose`, `Explore`, `Plan`), plugin (`plugin:agent`) or `.claude/agents` names. Built-in defaults: Explore and Plan deny-writes, every other type the default lane.",
      ),
    tools: z
      .strictObject({
        allowed: z.array(z.string().min(1)).optional().describe("If set, the only tools any subagent may use."),
        forbidden: z.array(z.string().min(1)).optional().describe("Tools no subagent may use."),
      })
      .optional(),
    must_not: z
      .array(SubagentMustNot)
      .optional()
      .describe("MUST NOT rules of every subagent, enforced like an agent's own (layer must-not)."),
  })
  .describe("Rules for every subagent (defined or not); the main session is not a subagent.");
export type SubagentsSection = z.infer<typeof SubagentsSection>;

/** The whole file. */
export const PolicyFile = z
  .strictObject({
    $schema: z.string().optional(),
    version: z.literal(1).describe("Format version of this file."),
    options: PolicyOptions.optional(),
    disable: z
      .array(RuleId)
      .optional()
      .describe(
        "Ids of rules to switch off: rules of lower layers (built-in defaults included), and from any layer the lane, task and spawn-tree rules and MUST NOT rules (`lanes rules` lists every id).",
      ),
    rules: z.array(PolicyRule).optional(),
    subagents: SubagentsSection.optional(),
  })
  .describe("lanes policy: rules layered user > project > local > built-in; deny > ask > allow.");
export type PolicyFile = z.infer<typeof PolicyFile>;

/**
 * The zod schemas of the policy configuration (`lanes.yaml` in `~/.claude/`, `.claude/` and
 * `.claude/lanes.local.yaml`). They are the single source of truth: the TypeScript types are
 * `z.infer`, and `schemas/lanes.schema.json` is generated from them (drift-tested).
 *
 * These schemas are used at build time (`lanes build`, `lanes init`, the SessionStart compile),
 * never on the per-tool-call hot path, which only reads the compiled JSON.
 */
import { z } from "zod";
import { PATH_CLASSES } from "../policy/compiled.ts";

/** A stable rule id: lowercase words separated by `.` or `-`, e.g. `team.no-publish`. */
export const RuleId = z
  .string()
  .regex(/^[a-z0-9]+(?:[.-][a-z0-9]+)*$/, "a rule id is lowercase words joined by `.` or `-`, e.g. `team.no-publish`")
  .describe("Stable rule id; it appears in decisions and the audit log and must not change once used.");

export const Effect = z.enum(["deny", "ask", "allow"]).describe("deny blocks, ask asks the human, allow is an exception that cancels lower policy layers");

/**
 * Classes of paths that rules can name instead of globs. They are resolved against the project
 * root and the home directory after normalisation.
 */
export const PathClass = z
  .enum(PATH_CLASSES)
  .describe(
    "root: `/`; home: the home directory itself; project-root: the project directory itself; parent: an ancestor of the project; system: /etc, /usr, /bin, ...; device: /dev/sd*, /dev/nvme*, ...; broad-glob: a glob that can match everything in root, home, the project or a parent (`*`, `.*`, `*/*`, `**`); outside-project: anywhere outside the project, temp and cache dirs; claude-config: Claude Code and lanes configuration files; home-data: a home directory's documents, desktop, config, keys and source trees; other-home: another user's home directory",
  );
export type PathClass = z.infer<typeof PathClass>;

const stringList = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/** Matches simple commands after unwrapping (sudo, env, xargs, bash -c, find -exec, ...). */
export const CommandMatch = z
  .strictObject({
    program: stringList.describe("Program basename(s), e.g. `git` or [psql, mysql]; `/usr/bin/git` and `\\git` match `git`."),
    args: z
      .array(z.string().min(1))
      .optional()
      .describe("Leading positional words after the program's global options, e.g. [push] or [stash, clear]; `*` matches any one word, `a|b` either word; compared case-insensitively."),
    flags_any: z.array(z.string().min(1)).optional().describe("At least one of these flags is present (clusters like -rf are split, --x=y counts as --x)."),
    flags_all: z
      .array(stringList)
      .optional()
      .describe("Each entry must be present; an entry that is a list is satisfied by any of its spellings, e.g. [[-r, -R, --recursive], [-f, --force]]."),
    flags_none: z.array(z.string().min(1)).optional().describe("None of these flags is present, e.g. [--force-with-lease, --dry-run]."),
    option_values: z
      .record(z.string().min(1), z.array(z.string().min(1)).min(1))
      .optional()
      .describe("Options whose value must match one of the given words (`*` matches any text), e.g. {--prune: [now, all]} or {of: [/dev/*]} for dd."),
    double_dash: z.boolean().optional().describe("When true, the command must contain `--` (end of options), as in `git checkout -- file`."),
    operands: z.array(z.string().min(1)).optional().describe("At least one operand (after `args`) matches one of these path globs, resolved against the command's directory."),
    targets: z.array(PathClass).optional().describe("At least one operand falls in one of these path classes."),
  })
  .describe("Matches a simple command that would execute, wherever it appears in the command string.");
export type CommandMatch = z.infer<typeof CommandMatch>;

/** A path rule: applies to Read, Write, Edit, MultiEdit, NotebookEdit, Glob, Grep and Bash operands and redirections. */
export const PathMatch = z.strictObject({
  access: z
    .enum(["zero-access", "read-only", "no-delete"])
    .describe("zero-access: no read, write or delete; read-only: no write or delete; no-delete: no delete"),
  patterns: z.array(z.string().min(1)).min(1).describe("gitignore-style globs; relative ones are relative to the project root (`**/` is implied for a bare name like `.env`)."),
  except: z.array(z.string().min(1)).optional().describe("Globs exempt from this rule, e.g. .env.example."),
});
export type PathMatch = z.infer<typeof PathMatch>;

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

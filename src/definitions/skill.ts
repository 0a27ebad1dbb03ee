/**
 * The skill definition: the committed source of one skill (`definitions/skills/<id>/skill.yaml`,
 * `.claude/lanes/skills/<id>/skill.yaml` in an installed project). The generator renders it into
 * `skills/<id>/SKILL.md` with the handoff protocol; `lanes lint` checks the whole set (triggers,
 * targets, cycles, owners). Text fields may use placeholders, replaced per render target:
 * `{lanes}` (how to run the lanes CLI), `{skill:<id>}` and `{agent:<name>}` (the names to pass to
 * the Skill and Agent tools, namespaced `lanes:` in the plugin) and `{skill-file:<id>}` (the path
 * of a rendered SKILL.md, for agents that read a skill's guidance).
 */
import { z } from "zod";
import { KebabName, ToolName } from "../schema/atoms.ts";
import { PhaseList } from "./phases.ts";

/**
 * Slots a handoff's `context_template` may use; the model fills them when it hands off, and
 * `lanes handoff` has one option per slot.
 */
export const CONTEXT_SLOTS = ["user_goal", "built", "state", "decisions", "next_step", "files"] as const;

/**
 * A trigger: alternatives separated by `|`, each one or more words, e.g. `auth|login|sign in`.
 * Matching is case-insensitive on whole words (see `findMatchingHandoff`).
 */
export const Trigger = z
  .string()
  .min(1)
  .refine((t) => t.split("|").every((alt) => /[\p{L}\p{N}]/u.test(alt)), {
    message:
      "a trigger is alternatives separated by `|`, each with at least one letter or digit, e.g. `auth|login|sign in`",
  })
  .describe(
    "Alternatives separated by `|`, matched case-insensitively on whole words (a plural `s` is allowed), e.g. `auth|login|sign in`.",
  );

/** One handoff rule: when a message is about `trigger`, hand the work to skill `to`. */
export const SkillHandoff = z
  .strictObject({
    trigger: Trigger,
    to: KebabName.describe("The skill that takes over; it must exist."),
    priority: z
      .number()
      .int()
      .min(0)
      .max(9)
      .default(1)
      .describe("Higher is checked first; ties keep the order of the file (0 to 9, default 1)."),
    why: z.string().min(1).describe("Why the target handles it better, one short clause (the table's `Why` column)."),
    context_template: z
      .string()
      .min(1)
      .describe(
        "How the handoff context starts, with slots such as `{user_goal}`, `{built}`, `{state}`, `{decisions}`, `{next_step}`, `{files}`.",
      ),
    exclude_from: z
      .array(KebabName)
      .default([])
      .describe("Skills this handoff is skipped for when they handed off to this one (breaks handoff cycles)."),
    type: z
      .enum(["sequential", "conditional"])
      .optional()
      .describe(
        "sequential (the default): the target takes over now; conditional: only when `proceed_if` holds, else `fallback_to` (inter-skill protocol §3, e.g. gated steps to the evaluator, with the advisor as fallback).",
      ),
    proceed_if: z
      .string()
      .min(1)
      .optional()
      .describe("The condition of a conditional handoff, e.g. `every gate passed`."),
    fallback_to: KebabName.optional().describe("The skill a conditional handoff goes to when its condition fails."),
    require_approval: z
      .boolean()
      .optional()
      .describe("A checkpoint handoff: save a checkpoint and have the human approve before the target starts."),
  })
  .refine((h) => h.type !== "conditional" || h.proceed_if !== undefined, {
    message: "a conditional handoff needs `proceed_if`",
    path: ["proceed_if"],
  })
  .refine((h) => h.type === "conditional" || (h.proceed_if === undefined && h.fallback_to === undefined), {
    message: "`proceed_if` and `fallback_to` belong to `type: conditional`",
    path: ["type"],
  })
  .refine((h) => h.fallback_to === undefined || h.fallback_to !== h.to, {
    message: "the fallback is the target itself: name another skill",
    path: ["fallback_to"],
  });
/** A parsed handoff rule. */
export type SkillHandoff = z.infer<typeof SkillHandoff>;

/** A topic this skill does not own, with the skill that does. */
export const NotOwnedTopic = z.strictObject({
  topic: z.string().min(1).describe("The topic, e.g. `authentication`."),
  owner: KebabName.describe("The skill that owns it; it must exist."),
});

/** A pattern that works in this domain. */
export const SkillPattern = z.strictObject({
  name: z.string().min(1).describe("Short name, e.g. `validate at the boundary`."),
  description: z.string().min(1).describe("What to do and when, imperative."),
});

/** A pattern to avoid, with the alternative. */
export const SkillAntiPattern = z.strictObject({
  name: z.string().min(1).describe("Short name, e.g. `leaking ORM rows`."),
  why: z.string().min(1).describe("What goes wrong."),
  instead: z.string().min(1).describe("What to do instead."),
});

/** A non-obvious failure: how it shows up and how to avoid it. */
export const SkillSharpEdge = z.strictObject({
  name: z.string().min(1).describe("Short name of the trap."),
  detail: z.string().min(1).describe("How it shows up."),
  fix: z.string().min(1).describe("How to avoid or repair it."),
});

/** A file of `references/` the skill points to instead of loading it on every use. */
export const SkillReference = z.strictObject({
  file: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]*\.md$/, "a reference is a markdown file name in `references/`, e.g. `error-codes.md`")
    .describe("File name in the definition's `references/` folder; copied next to SKILL.md."),
  when: z.string().min(1).describe("When to read it, e.g. `when choosing a pagination scheme`."),
});

/** A file of `resources/`: reference material or a phase script, copied next to SKILL.md (composite skills' resource pattern). */
export const SkillResource = z.strictObject({
  file: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9._-]*$/,
      "a resource is a file name in `resources/`, e.g. `checklist.md` or `check-links.mjs`",
    )
    .describe("File name in the definition's `resources/` folder; copied to `resources/` next to SKILL.md."),
  when: z.string().min(1).describe("When to read or run it, e.g. `in phase 2, to score the draft`."),
});

/** An extra argument of a composite skill (`lanes phase start <skill> --arg name=value`). */
export const SkillArgument = z
  .strictObject({
    name: KebabName.describe("The argument's name, e.g. `depth`."),
    description: z.string().min(1).describe("What it changes."),
    default: z.string().min(1).optional().describe("The value when it is not given."),
    choices: z.array(z.string().min(1)).min(2).optional().describe("The allowed values."),
  })
  .refine((a) => a.default === undefined || a.choices === undefined || a.choices.includes(a.default), {
    message: "the default must be one of the choices",
    path: ["default"],
  });

/** What `lanes phase complete` does after the completion checks (a skill's own completion logic). */
export const SkillCompletion = z.strictObject({
  archive_memory: z
    .boolean()
    .default(false)
    .describe("Move the run's memory files aside once the skill completes (they were consumed)."),
  directive: z.string().min(1).optional().describe("What to do after completion, printed after `<SKILL>_COMPLETE`."),
  capture_learnings: z
    .boolean()
    .default(true)
    .describe(
      "The learnings hook: after completion, offer to capture what the run taught with `develop-learnings` (false for skills too small to learn from; the learnings skill itself never offers it).",
    ),
});

/**
 * Skills whose completion never offers to capture learnings (the seed's `SKILLS_BYPASSING_LEARNINGS`):
 * the learnings skill itself, whose completion would offer it again. Others opt out with
 * `on_complete.capture_learnings: false`.
 */
export const SKILLS_BYPASSING_LEARNINGS: readonly string[] = ["develop-learnings"];

/** Whether the completion of `skill` runs the learnings hook. */
export const offersLearnings = (skill: string, onComplete: { readonly capture_learnings?: boolean }): boolean =>
  !SKILLS_BYPASSING_LEARNINGS.includes(skill) && onComplete.capture_learnings !== false;

/** A trigger test of the skill's handoffs: a message and where it must route (skill collaboration, testing protocol). */
export const SkillTriggerTest = z.strictObject({
  message: z.string().min(1).describe("A user message, e.g. `add a login endpoint`."),
  expect: z
    .union([z.literal("stay"), KebabName, z.array(KebabName).min(2)])
    .describe(
      "`stay` (this skill answers), the skill it must hand off to, or for a multi-domain message the skills in the order they take over.",
    ),
  from: KebabName.optional().describe("The skill that handed off to this one, if the test is about that case."),
});

/**
 * A setting of a pattern skill: a named value with its meaning and the
 * values it may take, shown in SKILL.md so the team can tune the pattern in one place.
 */
export const SkillSetting = z
  .strictObject({
    name: z
      .string()
      .regex(/^[a-z][a-z0-9_]*$/, "a setting name is snake_case, e.g. `auto_pass_threshold`")
      .describe("The setting, snake_case as in the protocol."),
    value: z.union([z.string().min(1), z.number(), z.boolean()]).describe("Its value."),
    description: z.string().min(1).describe("What it controls."),
    choices: z.array(z.string().min(1)).min(2).optional().describe("The allowed values, for a string setting."),
  })
  .refine((x) => x.choices === undefined || (typeof x.value === "string" && x.choices.includes(x.value)), {
    message: "the value must be one of the choices",
    path: ["value"],
  });

/** The whole `skill.yaml`. The TypeScript type and `schemas/skill.schema.json` derive from it. */
export const SkillDefinition = z
  .strictObject({
    $schema: z.string().optional().describe("Path or URL of the JSON Schema, for editors."),
    id: KebabName.describe(
      "The skill's name in Claude Code (`/<id>`, `lanes:<id>` in the plugin); equal to its folder name.",
    ),
    name: z.string().min(1).max(64).describe("Display name, e.g. `API design`."),
    description: z
      .string()
      .min(20)
      .max(500)
      .describe("When to use this skill (how Claude Code picks it): trigger-only, at most 500 characters."),
    identity: z.string().min(20).describe("Second-person identity paragraph: `You are ...`."),
    owns: z
      .array(z.string().min(1))
      .min(1)
      .describe("The topics this skill is authoritative on, specific, e.g. `REST resource design`."),
    does_not_own: z
      .array(NotOwnedTopic)
      .default([])
      .describe("Topics next to this domain and the skill that owns each."),
    handoffs: z.array(SkillHandoff).default([]).describe("When to hand the conversation to another skill."),
    specializes: z
      .array(KebabName)
      .default([])
      .describe(
        "Skills this one is more specific than: when a trigger routes to both, this one wins (resolves `trigger-collision`).",
      ),
    pairs_with: z.array(KebabName).default([]).describe("Skills that work well next to this one; they must exist."),
    requires: z.array(z.string().min(1)).default([]).describe("Knowledge this skill assumes, not necessarily a skill."),
    steps: z
      .array(z.string().min(1))
      .optional()
      .describe("The procedure when the skill is used, in order, imperative."),
    output: z.string().min(1).optional().describe("What the skill reports when it is done (markdown)."),
    patterns: z.array(SkillPattern).default([]).describe("Approaches that work in this domain."),
    anti_patterns: z.array(SkillAntiPattern).default([]).describe("Approaches to avoid, each with the alternative."),
    sharp_edges: z.array(SkillSharpEdge).default([]).describe("Non-obvious failures and how to avoid them."),
    references: z
      .array(SkillReference)
      .default([])
      .describe("Longer material kept out of SKILL.md and read when needed."),
    settings: z
      .array(SkillSetting)
      .default([])
      .describe("Pattern settings (e.g. `auto_pass_threshold`, `merge_strategy`), shown in SKILL.md."),
    trigger_tests: z
      .array(SkillTriggerTest)
      .default([])
      .describe("Messages and where they must route; `lanes lint` runs them (`trigger-test-failed`)."),
    resources: z
      .array(SkillResource)
      .default([])
      .describe("Reference material and phase scripts in the definition's `resources/` folder."),
    phases: PhaseList.optional().describe(
      "Makes this a composite skill, run phase by phase with `lanes phase start|advance|complete`.",
    ),
    arguments: z
      .array(SkillArgument)
      .default([])
      .describe("Composite skills: extra arguments of `lanes phase start` (`--arg name=value`), shown to every phase."),
    on_complete: SkillCompletion.optional().describe(
      "Composite skills: what `lanes phase complete` does after its checks.",
    ),
    argument_hint: z
      .string()
      .min(1)
      .max(80)
      .optional()
      .describe("Shown after `/<id>` in the slash menu (frontmatter `argument-hint`)."),
    user_invocable: z.boolean().default(true).describe("false hides it from the `/` menu: only the model invokes it."),
    model_invocable: z
      .boolean()
      .default(true)
      .describe("false makes it user-only (`disable-model-invocation`): handoffs to it ask the user to run it."),
    allowed_tools: z
      .array(z.string().min(1))
      .optional()
      .describe(
        "Tools usable without a prompt while the skill is active (frontmatter `allowed-tools`). A skill with it needs a `Skill(<id>)` allow rule to be model-invoked without a prompt; set it only when needed.",
      ),
  })
  .superRefine((s, ctx) => {
    s.handoffs.forEach((h, i) => {
      if (h.to === s.id)
        ctx.addIssue({ code: "custom", message: "a skill cannot hand off to itself", path: ["handoffs", i, "to"] });
    });
    if (s.phases === undefined && (s.arguments.length > 0 || s.on_complete !== undefined))
      ctx.addIssue({
        code: "custom",
        message: "`arguments` and `on_complete` belong to composite skills (with `phases`)",
        path: [s.arguments.length > 0 ? "arguments" : "on_complete"],
      });
    s.phases?.forEach((p, i) => {
      if (p.script !== undefined && !s.resources.some((r) => r.file === p.script))
        ctx.addIssue({
          code: "custom",
          message: `phase \`${p.id}\` runs script \`${p.script}\`, which is not listed in \`resources\``,
          path: ["phases", i, "script"],
        });
    });
    if (!s.user_invocable && !s.model_invocable)
      ctx.addIssue({
        code: "custom",
        message: "a skill nobody can invoke: set `user_invocable` or `model_invocable` to true",
        path: ["user_invocable"],
      });
    s.allowed_tools?.forEach((tool, i) => {
      const name = tool.replace(/\(.*\)$/s, "");
      if (!ToolName.safeParse(name).success)
        ctx.addIssue({
          code: "custom",
          message: `\`${tool}\` is not a Claude Code tool or rule such as \`Read\` or \`Bash(npm test:*)\``,
          path: ["allowed_tools", i],
        });
    });
  })
  .describe("A lanes skill definition.");
/** A validated skill definition, defaults applied. */
export type SkillDefinition = z.infer<typeof SkillDefinition>;
/** What a `skill.yaml` may contain (fields with defaults optional). */
export type SkillDefinitionInput = z.input<typeof SkillDefinition>;

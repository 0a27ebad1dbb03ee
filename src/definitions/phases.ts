/**
 * Phases of a composite (multi-phase) skill: a state machine of numbered phases.
 * Declared in a skill definition's `phases`; run by `lanes phase start|advance|complete`
 * (src/runtime/phases.ts), which saves state before printing each directive.
 */
import { z } from "zod";
import { KebabName } from "../schema/atoms.ts";

/**
 * LINEAR: always runs, then `next`. OPTIONAL: runs when `trigger` holds, else skipped.
 * ITERATIVE: repeats until its gate passes (bounded by `max_iterations`). REMEDIATION: on gate
 * failure returns to `remediation_target` (bounded by `max_remediation`). AUTO: no agent, the
 * runtime completes it. PARALLEL: starts every branch agent at once and waits for all memory files.
 */
export const PhaseType = z.enum(["LINEAR", "OPTIONAL", "ITERATIVE", "REMEDIATION", "AUTO", "PARALLEL"]);
export type PhaseType = z.infer<typeof PhaseType>;

export const PhaseId = z.string().regex(/^[0-9]+(?:_[0-9]+)?$/, "phase ids are numbers like `0`, `1` or `0_5`");

export const Phase = z
  .strictObject({
    id: PhaseId.describe("The phase id: `0` first, then `1`, `2`, or `0_5` for a sub-phase."),
    name: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/, "phase names are UPPER_SNAKE_CASE, e.g. `CLARIFICATION`")
      .describe("Internal name, UPPER_SNAKE_CASE."),
    title: z.string().min(1).describe("Human-readable title."),
    type: PhaseType.describe("LINEAR, OPTIONAL, ITERATIVE, REMEDIATION, AUTO or PARALLEL."),
    agent: KebabName.optional().describe(
      "The agent that does this phase's work and writes its memory file (none for AUTO).",
    ),
    content: z.string().min(1).describe("Instructions for this phase, markdown."),
    next: PhaseId.nullable().describe("The phase after this one; null for the final phase."),
    description: z.string().min(1).describe("What this phase accomplishes, one line."),
    trigger: z.string().min(1).optional().describe("OPTIONAL phases: when to run it."),
    remediation_target: PhaseId.optional().describe("REMEDIATION phases: the phase to return to."),
    max_remediation: z
      .number()
      .int()
      .min(1)
      .max(10)
      .optional()
      .describe("REMEDIATION phases: how many times it may send the work back."),
    max_iterations: z.number().int().min(1).max(20).optional().describe("ITERATIVE phases: the bound."),
    branches: z.array(KebabName).min(2).optional().describe("PARALLEL phases: the agents to run at once."),
    runs_in: z
      .enum(["main", "subagent"])
      .optional()
      .describe(
        "`main`: the main session does the phase itself, in the conversation with the human (clarification, approvals: a subagent cannot ask the human); `subagent`: the Agent tool runs `agent`. Default: `main` for phase 0, `subagent` otherwise.",
      ),
    configuration: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Phase-specific settings, shown to whoever runs the phase (e.g. `{ coverage: 80 }`)."),
    script: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9._-]*$/,
        "a phase script is a file name in the skill's `resources/` folder, e.g. `check-links.mjs`",
      )
      .optional()
      .describe(
        "An optional phase script: a file in the skill's `resources/` folder the phase runs first (the directive names it).",
      ),
  })
  .superRefine((p, ctx) => {
    if (p.type === "AUTO" && p.agent !== undefined)
      ctx.addIssue({ code: "custom", message: "an AUTO phase has no agent", path: ["agent"] });
    if (p.type !== "AUTO" && p.type !== "PARALLEL" && p.agent === undefined)
      ctx.addIssue({
        code: "custom",
        message: `a ${p.type} phase needs the \`agent\` that does its work`,
        path: ["agent"],
      });
    if (p.type === "OPTIONAL" && p.trigger === undefined)
      ctx.addIssue({ code: "custom", message: "an OPTIONAL phase needs a `trigger`", path: ["trigger"] });
    if (p.type === "REMEDIATION" && p.remediation_target === undefined)
      ctx.addIssue({
        code: "custom",
        message: "a REMEDIATION phase needs a `remediation_target`",
        path: ["remediation_target"],
      });
    if (p.type === "PARALLEL" && p.branches === undefined)
      ctx.addIssue({ code: "custom", message: "a PARALLEL phase needs `branches`", path: ["branches"] });
    if (p.runs_in === "main" && (p.type === "PARALLEL" || p.type === "AUTO"))
      ctx.addIssue({
        code: "custom",
        message: `${p.type === "AUTO" ? "an" : "a"} ${p.type} phase cannot run in the main session`,
        path: ["runs_in"],
      });
    if (p.id === "0" && p.runs_in === "subagent")
      ctx.addIssue({
        code: "custom",
        message: "phase 0 (clarification) runs in the main session, where the human can answer",
        path: ["runs_in"],
      });
  });

/** Whether the main session does `phase` itself (phase 0 by default, and phases marked `runs_in: main`). */
export const runsInMain = (p: Phase): boolean => p.runs_in === "main" || (p.runs_in === undefined && p.id === "0");
export type Phase = z.infer<typeof Phase>;

/**
 * A phase list with its invariants: phase 0 exists and is LINEAR (clarification is
 * never optional), ids are unique, every `next` and `remediation_target` exists, and following
 * `next` from phase 0 visits every phase once and ends.
 */
export const PhaseList = z
  .array(Phase)
  .min(1)
  .superRefine((phases, ctx) => {
    const ids = new Map(phases.map((p, i) => [p.id, i]));
    if (ids.size !== phases.length) ctx.addIssue({ code: "custom", message: "phase ids must be unique" });
    const first = phases.find((p) => p.id === "0");
    if (first === undefined) ctx.addIssue({ code: "custom", message: "a composite skill starts at phase `0`" });
    else if (first.type !== "LINEAR")
      ctx.addIssue({ code: "custom", message: "phase 0 must be LINEAR: clarification is never optional" });
    phases.forEach((p, i) => {
      if (p.next !== null && !ids.has(p.next))
        ctx.addIssue({
          code: "custom",
          message: `phase \`${p.id}\` goes to unknown phase \`${p.next}\``,
          path: [i, "next"],
        });
      if (p.remediation_target !== undefined && !ids.has(p.remediation_target))
        ctx.addIssue({
          code: "custom",
          message: `phase \`${p.id}\` remediates to unknown phase \`${p.remediation_target}\``,
          path: [i, "remediation_target"],
        });
    });
    const seen = new Set<string>();
    for (let id: string | null = "0"; id !== null && ids.has(id);) {
      if (seen.has(id)) {
        ctx.addIssue({
          code: "custom",
          message: `phases loop back to \`${id}\` through \`next\`; use a REMEDIATION phase for retries`,
        });
        return;
      }
      seen.add(id);
      id = phases[ids.get(id)!]!.next;
    }
    const unreachable = phases.filter((p) => !seen.has(p.id)).map((p) => p.id);
    if (first !== undefined && unreachable.length > 0)
      ctx.addIssue({
        code: "custom",
        message: `phases not reachable from phase 0 through \`next\`: ${unreachable.join(", ")}`,
      });
  });
export type PhaseList = z.infer<typeof PhaseList>;

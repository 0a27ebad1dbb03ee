/**
 * The typed part of a handoff record (what the handoff section of a skill declares): how the work passes from one skill
 * to the next. Pure: `lanes handoff` validates the options with {@link handoffTerms} and prints
 * {@link renderHandoffTerms} above the context, so the receiving skill (and the human) see the
 * conditions and whether approval is needed before the target may start.
 *
 * - `sequential`: the target continues now (the protocol's direct handoff).
 * - `conditional`: the target continues only if `proceed_if` holds, else `fallback_to` takes over.
 * - `parallel`: several targets start at once on independent parts (`to` lists them).
 * - `fallback`: the planned skill could not continue; this target takes over (`reason` says why).
 * - `approval`: the target starts only after the human approves (a checkpoint handoff).
 */
import { fail, ok, type Result } from "../io/result.ts";

/** The kinds of handoff a skill declares. */
export const HANDOFF_TYPES = ["sequential", "conditional", "parallel", "fallback", "approval"] as const;
export type HandoffType = (typeof HANDOFF_TYPES)[number];

/** The typed terms of a handoff, as recorded in `.claude/state/handoffs/*.json`. */
export interface HandoffTerms {
  readonly type: HandoffType;
  /** The skills taking over: one, or several for `parallel`. */
  readonly to: readonly string[];
  /** `conditional`: the condition to continue with `to`, and the skill to use when it fails. */
  readonly conditions?: { readonly proceed_if: string; readonly fallback_to?: string };
  /** `approval` (or any handoff with `--require-approval`): the human approves before `to` starts. */
  readonly approval?: { readonly required: true; readonly status: "pending" };
  /** `fallback`: why the planned skill could not continue. */
  readonly reason?: string;
}

/** Options of {@link handoffTerms}, as the CLI received them. */
export interface HandoffTermsInput {
  readonly type?: string | undefined;
  readonly to: readonly string[];
  readonly proceedIf?: string | undefined;
  readonly fallbackTo?: string | undefined;
  readonly requireApproval?: boolean | undefined;
  readonly reason?: string | undefined;
}

/** Validates the typed terms: each type's required options, and none that do not belong to it. */
export function handoffTerms(input: HandoffTermsInput): Result<HandoffTerms> {
  const type = (input.type ?? "sequential") as HandoffType;
  if (!HANDOFF_TYPES.includes(type))
    return fail("invalid-input", `\`--type ${input.type}\` is not a handoff type: use ${HANDOFF_TYPES.join(", ")}`);
  const to = [...new Set(input.to)];
  if (to.length === 0) return fail("invalid-input", "`--to` is required");
  if (type === "parallel" && to.length < 2)
    return fail(
      "invalid-input",
      "a parallel handoff starts several skills: pass `--to` once per skill, at least twice",
    );
  if (type !== "parallel" && to.length > 1)
    return fail("invalid-input", `a ${type} handoff has one target: pass \`--to\` once, or use \`--type parallel\``);
  if (type === "conditional" && (input.proceedIf ?? "").trim() === "")
    return fail("invalid-input", "a conditional handoff needs `--proceed-if <condition>`, e.g. `all gates passed`");
  if (type !== "conditional" && (input.proceedIf !== undefined || input.fallbackTo !== undefined))
    return fail(
      "invalid-input",
      "`--proceed-if` and `--fallback-to` belong to a conditional handoff: add `--type conditional`",
    );
  if (input.fallbackTo !== undefined && to.includes(input.fallbackTo))
    return fail("invalid-input", `\`--fallback-to ${input.fallbackTo}\` is the target itself: name another skill`);
  if (type === "fallback" && (input.reason ?? "").trim() === "")
    return fail("invalid-input", "a fallback handoff needs `--reason <why the planned skill could not continue>`");
  const approval = type === "approval" || input.requireApproval === true;
  return ok({
    type,
    to,
    ...(type === "conditional"
      ? {
          conditions: {
            proceed_if: input.proceedIf!.trim(),
            ...(input.fallbackTo === undefined ? {} : { fallback_to: input.fallbackTo }),
          },
        }
      : {}),
    ...(approval ? { approval: { required: true as const, status: "pending" as const } } : {}),
    ...(input.reason === undefined ? {} : { reason: input.reason.trim() }),
  });
}

/** The lines printed above the handoff context: what kind of handoff it is and what must happen first; none for a plain sequential one (pure). */
export function renderHandoffTerms(from: string, terms: HandoffTerms): string {
  // a plain sequential handoff needs no preamble: the target simply continues
  if (terms.type === "sequential" && terms.approval === undefined) return "";
  const targets = terms.to.map((t) => `\`${t}\``).join(", ");
  const lines = [`**Handoff:** ${terms.type}, \`${from}\` → ${targets}`];
  if (terms.type === "parallel")
    lines.push(
      "Start every target at once, each on its own part; their write sets must not overlap (check with `lanes independence`).",
    );
  if (terms.conditions !== undefined) {
    const otherwise =
      terms.conditions.fallback_to === undefined
        ? `stay in \`${from}\` and report why`
        : `hand off to \`${terms.conditions.fallback_to}\` instead`;
    lines.push(`**Proceed only if:** ${terms.conditions.proceed_if}. Otherwise ${otherwise}.`);
  }
  if (terms.reason !== undefined) lines.push(`**Fallback because:** ${terms.reason}`);
  if (terms.approval !== undefined)
    lines.push(
      `**Approval required:** ask the human to approve this handoff and wait for the answer before ${targets} starts.`,
    );
  return `${lines.join("\n")}\n\n`;
}

/**
 * Decide, the guard's second step: pure. The evaluation of the gathered call (src/policy/, the one
 * precedence function), and whether a human may let a denial run once. Nothing here reads or
 * writes the machine; the hook, `lanes check` and `lanes test` decide with these functions.
 */
import type { Evaluation } from "../../policy/evaluate.ts";
import { evaluate } from "../../policy/evaluate.ts";
import { describeCall, renderReason, type Escalation } from "../../policy/render.ts";
import { riskOf, type Decision, type GuardRequest } from "../../policy/types.ts";
import { OVERRIDE_RULES } from "../state/override.ts";
import type { Judgement } from "./gather.ts";

/** What the guard decided about one call. */
export interface Verdict {
  readonly evaluation: Evaluation;
  /** The decision; `undefined` = no opinion. */
  readonly decision: Decision | undefined;
  /**
   * A human may let this exact call run once (`lanes allow <code>`, state/override.ts): a DANGEROUS
   * denial in the main session, not by a rule that protects the override itself.
   */
  readonly overridable: boolean;
}

export function decide(judgement: Judgement): Verdict {
  const evaluation = evaluate(judgement.request, judgement.context);
  const d = evaluation.decision;
  const overridable =
    d?.effect === "deny" &&
    riskOf(d.effect) === "DANGEROUS" &&
    judgement.main &&
    !d.ruleIds.some((id) => OVERRIDE_RULES.includes(id));
  return { evaluation, decision: d, overridable };
}

/** The reason shown for a decision about `request`, made for `agent` (its name, if a subagent). */
export const reasonFor = (
  decision: Decision,
  request: GuardRequest,
  agent: string | undefined,
  escalation?: Escalation,
): string => renderReason(decision, { call: describeCall(request.tool, request.input), agent, escalation });

/**
 * The one formatter of decisions: the reason the model (and the human) reads, one line, ending
 * with the safer alternative.
 */
import type { Decision } from "./types.ts";

const MAX = 900;

/** Extra text for repeated denials of one agent (retry → escalate → block). */
export interface Escalation {
  readonly agent: string;
  readonly count: number;
}

const ordinal = (n: number): string => `${n}${n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th"}`;

/**
 * `lanes denied <subject> [<rule ids>]: <why>; instead, <alternative>` — with the agent named
 * when the call came from one, and the escalation notice after repeated denials.
 */
export function renderReason(decision: Decision, options: { agent?: string | undefined; escalation?: Escalation | undefined } = {}): string {
  const first = decision.matches[0]!;
  const verb = decision.effect === "deny" ? "denied" : "asks before";
  const who = options.agent === undefined ? "" : ` for ${options.agent}`;
  const others = decision.matches.slice(1).filter((m) => m.ruleId !== first.ruleId);
  const also = others.length === 0 ? "" : `; also ${others.slice(0, 3).map((m) => `${m.subject} [${m.ruleId}]`).join(", ")}`;
  let text = `lanes ${verb} ${first.subject}${who} [${decision.ruleIds.join(", ")}]: ${first.why}${also}; instead, ${first.instead}`;
  if (options.escalation !== undefined) {
    const { agent, count } = options.escalation;
    text += ` — this is the ${ordinal(count)} denial in a row for ${agent}: stop, do not try another way around it, and report to the orchestrator or the user what you need`;
  }
  text = text.replace(/\s*\n\s*/g, " ");
  return text.length > MAX ? `${text.slice(0, MAX - 3)}...` : text;
}

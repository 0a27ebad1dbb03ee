/**
 * The one formatter of decisions: the reason the model (and the human) reads, one line, ending
 * with the safer alternative.
 */
import { toolSpec } from "../host/tools.ts";
import type { Decision } from "./types.ts";

const MAX = 900;

/** Extra text for repeated denials of one agent instance by one rule (retry → escalate → block). */
export interface Escalation {
  readonly agent: string;
  readonly count: number;
  /** The main session: it asks the user (there is no orchestrator above it). */
  readonly main?: boolean;
}

/** Layers of an agent's own rules: their alternatives are the ones that agent may follow. */
const AGENT_LAYERS = new Set(["must-not", "role", "task"]);

const ordinal = (n: number): string =>
  `${n}${n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th")}`;

/** How a tool call is named in a message: the command for Bash, the tool and path for file tools. */
export function describeCall(tool: string, input: Readonly<Record<string, unknown>>): string {
  const clip = (text: string) => (text.length > 160 ? `${text.slice(0, 157)}...` : text).replace(/\s*\n\s*/g, " ");
  const str = (key: string) => (typeof input[key] === "string" ? (input[key] as string) : undefined);
  const spec = toolSpec(tool);
  const command = spec?.command === undefined ? undefined : str(spec.command);
  if (command !== undefined) return `\`${clip(command)}\``;
  const path = [...(spec?.writes ?? []), ...(spec?.reads ?? []), "file_path", "notebook_path", "path"]
    .map(str)
    .find((v) => v !== undefined);
  if (path !== undefined) return `${tool} of \`${clip(path)}\``;
  const agent = spec?.spawns === undefined ? undefined : str(spec.spawns);
  if (agent !== undefined) return `starting agent \`${agent}\``;
  const skill = spec?.skill?.map(str).find((v) => v !== undefined);
  if (skill !== undefined) return `skill \`${skill}\``;
  return `the ${tool} call`;
}

/** Sentences past this many rules are summed up by their ids. */
const MAX_SENTENCES = 4;
/** Subjects of one sentence past this many are counted (a branch switch deletes every file of lanes at once). */
const MAX_SUBJECTS = 3;

/** One sentence of a reason: a rule's why, with the subjects it matched that the text has not named yet. */
interface Sentence {
  readonly ruleId: string;
  readonly why: string;
  readonly subjects: string[];
}

/** The deciding matches as sentences: one per rule and why, in precedence order. */
function sentencesOf(decision: Decision): Sentence[] {
  const sentences: Sentence[] = [];
  for (const m of decision.matches) {
    const same = sentences.find((s) => s.ruleId === m.ruleId && s.why === m.why);
    if (same === undefined) sentences.push({ ruleId: m.ruleId, why: m.why, subjects: [m.subject] });
    else if (!same.subjects.includes(m.subject)) same.subjects.push(m.subject);
  }
  return sentences;
}

/**
 * `lanes denied <call> [by <agent>] [<rule id>]: <detail><why>; instead, <alternative>` for one
 * rule; for several, `lanes denied <call> [by <agent>]: <why> [<rule id>]; <why> [<rule id>]; instead,
 * <alternative>`, one sentence per rule, each with its own reason, the subjects named once. The
 * detail says which part of the call matched when that is not the whole call and the why does not
 * already name it; the escalation notice follows repeated denials.
 */
export function renderReason(
  decision: Decision,
  options: { call: string; agent?: string | undefined; escalation?: Escalation | undefined },
): string {
  const first = decision.matches[0]!;
  // The alternative comes from the agent's own rules when one of them decides too: a global rule's
  // alternative (`--force-with-lease` for a force push) may be what the agent's own rules forbid.
  const alternative =
    decision.alternative ?? (decision.matches.find((m) => AGENT_LAYERS.has(m.layer)) ?? first).instead;
  const verb = decision.effect === "deny" ? "denied" : "asks before";
  const by = options.agent === undefined ? "" : ` by ${options.agent}`;
  // the call names the subject: the whole command, or the path of a file tool (`Write of \`/p/a.ts\``)
  const named = (subject: string): boolean => subject === options.call || options.call.endsWith(` of ${subject}`);
  // what the text has said so far: a subject named there is not named again
  const said: string[] = [];
  const sentence = ({ why, subjects }: Sentence): string => {
    const fresh = subjects.filter((s) => !named(s) && !why.includes(s) && !said.some((t) => t.includes(s)));
    const more = fresh.length - MAX_SUBJECTS;
    const listed = more > 1 ? `${fresh.slice(0, MAX_SUBJECTS).join(", ")} and ${more} more` : fresh.join(", ");
    const text = `${fresh.length === 0 ? "" : `${listed}: `}${why}`;
    said.push(text);
    return text;
  };
  const sentences = sentencesOf(decision);
  let body: string;
  if (new Set(sentences.map((s) => s.ruleId)).size <= 1) {
    // one rule: its why once, the other subjects it matched in the detail
    body = ` [${decision.ruleIds.join(", ")}]: ${sentences.map(sentence).join("; ")}`;
  } else {
    const shown = sentences.slice(0, MAX_SENTENCES);
    const rest = [...new Set(sentences.slice(MAX_SENTENCES).map((s) => s.ruleId))];
    body = `: ${shown.map((s) => `${sentence(s)} [${s.ruleId}]`).join("; ")}${rest.length === 0 ? "" : `; and by ${rest.length === 1 ? "rule" : "rules"} [${rest.join(", ")}]`}`;
  }
  let text = `lanes ${verb} ${options.call}${by}${body}; instead, ${alternative}`;
  if (options.escalation !== undefined) {
    const { agent, count, main } = options.escalation;
    text +=
      main === true
        ? ` — this is the ${ordinal(count)} denial in a row by this rule: stop, do not try another way around it, and ask the user how to proceed`
        : ` — this is the ${ordinal(count)} denial in a row by this rule for ${agent}: stop, do not try another way around it, and report to the agent that started you (the orchestrator) what you need`;
  }
  text = text.replace(/\s*\n\s*/g, " ");
  return text.length > MAX ? `${text.slice(0, MAX - 3)}...` : text;
}

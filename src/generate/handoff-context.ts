/**
 * The structured context a skill passes when it hands off (what `lanes handoff` prints): previous
 * and new skill, what was being built, current state, the user's goal, decisions, and where to
 * continue. {@link summarizeContext} bounds it, keeping headings and bullets. Pure.
 */

/** The parts of a handoff context. Every field but `from` and `to` may be empty. */
export interface HandoffContextInput {
  readonly from: string;
  readonly to: string;
  /** Free-form summary of the work so far. */
  readonly context?: string;
  /** What was being built. */
  readonly built?: string;
  /** Current state, one bullet each (files, focus, last action). */
  readonly state?: readonly string[];
  /** Files created or changed so far. */
  readonly files?: readonly string[];
  /** The user's goal. */
  readonly goal?: string;
  /** Decisions made, one bullet each. */
  readonly decisions?: readonly string[];
  /** The specific next step for the new skill. */
  readonly next?: string;
}

/** Default bound of a rendered context, in characters. */
export const DEFAULT_CONTEXT_LIMIT = 1500;

/** The marker appended when {@link summarizeContext} had to cut. */
export const TRUNCATION_MARKER = "[context truncated to fit the handoff limit]";

const clean = (text: string | undefined): string => (text ?? "").replace(/\r\n?/g, "\n").trim();

/** Renders the full, unbounded handoff context as markdown. */
export function renderHandoffContext(input: HandoffContextInput): string {
  const sections: string[] = [`## Handoff context\n\n**Previous skill:** ${input.from}\n**New skill:** ${input.to}`];
  const built = [clean(input.built), clean(input.context)].filter((t) => t !== "").join("\n\n");
  if (built !== "") sections.push(`### What was being built\n${built}`);
  const state = [
    ...(input.state ?? []).map(clean).filter((s) => s !== ""),
    ...((input.files ?? []).length > 0 ? [`Files: ${(input.files ?? []).join(", ")}`] : []),
  ];
  if (state.length > 0) sections.push(`### Current state\n${state.map((s) => `- ${s}`).join("\n")}`);
  if (clean(input.goal) !== "") sections.push(`### User's goal\n${clean(input.goal)}`);
  const decisions = (input.decisions ?? []).map(clean).filter((d) => d !== "");
  if (decisions.length > 0) sections.push(`### Relevant decisions\n${decisions.map((d) => `- ${d}`).join("\n")}`);
  if (clean(input.next) !== "") sections.push(`### Continue from here\n${clean(input.next)}`);
  return `${sections.join("\n\n")}\n`;
}

/** A bounded context and whether it was cut. */
export interface Summary {
  readonly text: string;
  readonly truncated: boolean;
}

/** Sections kept first when space is short: the goal and the next step matter most. */
const PRIORITY = [
  "### Continue from here",
  "### User's goal",
  "### Current state",
  "### Relevant decisions",
  "### What was being built",
];

/**
 * Bounds a markdown context to `limit` characters (trailing newline included). Headings and
 * `**Label:**` lines are kept; body lines are kept whole while they fit, section by section in
 * {@link PRIORITY} order, long lines are shortened with `…`, and {@link TRUNCATION_MARKER} ends a
 * cut text.
 */
export function summarizeContext(text: string, limit: number = DEFAULT_CONTEXT_LIMIT): Summary {
  const normalized = text.endsWith("\n") ? text : `${text}\n`;
  if (normalized.length <= limit) return { text: normalized, truncated: false };

  const lines = normalized.slice(0, -1).split("\n");
  const isHeader = (line: string) => /^#{1,6} /.test(line) || /^\*\*[^*]+:\*\*/.test(line);
  const keep = lines.map((line) => isHeader(line) || line === "");
  const shown = lines.map((line) => (isHeader(line) ? line : ""));
  const size = () =>
    shown.reduce((n, line, i) => n + (keep[i] ? line.length + 1 : 0), 0) + TRUNCATION_MARKER.length + 2;

  // body line indexes grouped by section, in priority order
  const sections: number[][] = [];
  let current: number[] = [];
  const rank: number[] = [];
  lines.forEach((line, i) => {
    if (/^#{1,6} /.test(line)) {
      sections.push((current = []));
      const p = PRIORITY.indexOf(line.trim());
      rank.push(p === -1 ? PRIORITY.length : p);
    } else if (!isHeader(line) && line !== "") {
      if (sections.length === 0) {
        sections.push((current = []));
        rank.push(PRIORITY.length + 1);
      }
      current.push(i);
    }
  });
  const order = sections.map((_, i) => i).sort((a, b) => rank[a]! - rank[b]! || a - b);

  for (const s of order) {
    for (const i of sections[s]!) {
      const line = lines[i]!;
      const room = limit - size() - 1;
      if (room <= 8) break;
      shown[i] = line.length <= room ? line : `${line.slice(0, room - 1).trimEnd()}…`;
      keep[i] = true;
    }
  }
  const out = lines.map((_, i) => (keep[i] ? shown[i]! : undefined)).filter((l): l is string => l !== undefined);
  // drop blank lines that no longer separate anything
  const compact = out.filter((line, i) => !(line === "" && (i === 0 || out[i - 1] === "")));
  let result = `${compact.join("\n").trimEnd()}\n\n${TRUNCATION_MARKER}\n`;
  // only when the headings alone do not fit: cut hard
  if (result.length > limit)
    result = `${result.slice(0, Math.max(0, limit - TRUNCATION_MARKER.length - 3))}\n\n${TRUNCATION_MARKER}\n`;
  return { text: result, truncated: true };
}

/**
 * Handoff trigger matching: which of a skill's handoffs a message calls for. The rendered HANDOFF
 * PROTOCOL asks the model to apply the same rule; the skill renderer and `lanes lint` use this code.
 *
 * A trigger is alternatives separated by `|`. An alternative matches when its words appear in the
 * text as whole words, case-insensitively, separated by spaces, hyphens or underscores, with an
 * optional plural `s`/`es` on the last word: `sign in` matches "Sign-in page", `migration` matches
 * "two migrations", `auth` does not match "author".
 */
import type { SkillDefinition, SkillHandoff } from "../definitions/skill.ts";

/** The alternatives of a trigger, lowercased, whitespace collapsed, empty ones dropped. */
export function triggerAlternatives(trigger: string): string[] {
  return trigger
    .split("|")
    .map((alt) => alt.trim().toLowerCase().replace(/\s+/g, " "))
    .filter((alt) => alt !== "");
}

const cache = new Map<string, RegExp>();

function alternativeRegex(alternative: string): RegExp {
  let re = cache.get(alternative);
  if (re === undefined) {
    const words = alternative.split(/[\s_-]+/).filter((w) => w !== "");
    const body = words.map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("[\\s_-]+");
    re = new RegExp(`(?<![\\p{L}\\p{N}])${body}(?:e?s)?(?![\\p{L}\\p{N}])`, "iu");
    cache.set(alternative, re);
  }
  return re;
}

/** True when `alternative` (one trigger alternative) occurs in `text` as whole words. */
export function matchesAlternative(text: string, alternative: string): boolean {
  return alternativeRegex(alternative.trim().toLowerCase()).test(text);
}

/** The first alternative of `trigger` found in `text`, preferring the longest. */
export function matchTrigger(trigger: string, text: string): string | undefined {
  return triggerAlternatives(trigger)
    .filter((alt) => matchesAlternative(text, alt))
    .sort((a, b) => b.length - a.length)[0];
}

/** A handoff a message calls for. */
export interface HandoffMatch {
  /** The target skill. */
  readonly to: string;
  /** The alternative that matched. */
  readonly matched: string;
  readonly handoff: SkillHandoff;
}

/** Options of {@link findMatchingHandoff}. */
export interface FindHandoffOptions {
  /** The skill that handed off to this one: its handoffs with `exclude_from` naming it are skipped, and so is a handoff back to it. */
  readonly from?: string;
}

/**
 * The handoff `text` calls for in `skill`, or `undefined` when the skill should stay.
 * Handoffs are tried by priority (highest first); among equal priorities the longer matched
 * alternative wins (it is more specific), then the order of the definition.
 */
export function findMatchingHandoff(
  skill: Pick<SkillDefinition, "handoffs">,
  text: string,
  options: FindHandoffOptions = {},
): HandoffMatch | undefined {
  const { from } = options;
  const candidates: { match: HandoffMatch; index: number }[] = [];
  skill.handoffs.forEach((handoff, index) => {
    if (from !== undefined && (handoff.to === from || handoff.exclude_from.includes(from))) return;
    const matched = matchTrigger(handoff.trigger, text);
    if (matched !== undefined) candidates.push({ match: { to: handoff.to, matched, handoff }, index });
  });
  candidates.sort(
    (a, b) =>
      b.match.handoff.priority - a.match.handoff.priority ||
      b.match.matched.length - a.match.matched.length ||
      a.index - b.index,
  );
  return candidates[0]?.match;
}

/**
 * A multi-domain message (skill collaboration, edge case 2): every target the message calls for,
 * one entry per target skill, in the order they are taken (the order of
 * {@link findMatchingHandoff}: priority, then the longer match, then the definition). The first is
 * handed the work with the others listed as what comes next.
 */
export function splitByDomain(
  skill: Pick<SkillDefinition, "handoffs">,
  text: string,
  options: FindHandoffOptions = {},
): HandoffMatch[] {
  const out: HandoffMatch[] = [];
  let rest = skill.handoffs;
  for (
    let match = findMatchingHandoff({ handoffs: rest }, text, options);
    match !== undefined;
    match = findMatchingHandoff({ handoffs: rest }, text, options)
  ) {
    out.push(match);
    const taken = match.to;
    rest = rest.filter((h) => h.to !== taken);
  }
  return out;
}

/** Handoffs sorted for the triggers table: priority (highest first), then definition order. */
export function sortedHandoffs(handoffs: readonly SkillHandoff[]): SkillHandoff[] {
  return handoffs
    .map((handoff, index) => ({ handoff, index }))
    .sort((a, b) => b.handoff.priority - a.handoff.priority || a.index - b.index)
    .map((entry) => entry.handoff);
}

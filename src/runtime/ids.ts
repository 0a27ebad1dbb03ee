/**
 * Ids that become file names. Everything that reaches a path (task ids, agent names, checkpoint
 * ids, session ids) goes through {@link safeId} first, so `../x` or `a/b` cannot escape a state
 * directory.
 */

const MAX_ID = 128;

/**
 * A file-name-safe id: every character outside `[A-Za-z0-9._-]` becomes `_`, leading dots are
 * replaced (no hidden files, no `.` or `..`), the result is capped at 128 characters and never
 * empty (`_` for an empty input).
 */
export function safeId(id: string): string {
  const replaced = id.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, (dots) => "_".repeat(dots.length));
  const capped = replaced.slice(0, MAX_ID);
  return capped.length === 0 ? "_" : capped;
}

/** `20250102T030405Z`: a compact UTC timestamp for ids and file names (sorts as time). */
export function compactTimestamp(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/** `n` lowercase base-36 characters drawn from `random`. */
export function randomSuffix(random: () => number, n = 6): string {
  let out = "";
  for (let i = 0; i < n; i++) out += Math.floor(random() * 36).toString(36);
  return out;
}

/** A workflow id as the progress protocol spells it: `wf-{timestamp}-{random}`, e.g. `wf-20250102T030405Z-k3x9q1`. */
export function newWorkflowId(now: Date, random: () => number): string {
  return `wf-${compactTimestamp(now)}-${randomSuffix(random)}`;
}

/** A generated id with another prefix (`cp` for checkpoints, `task` for composite-skill tasks). */
export function newId(prefix: string, now: Date, random: () => number): string {
  return `${prefix}-${compactTimestamp(now)}-${randomSuffix(random)}`;
}

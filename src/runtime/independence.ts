/**
 * Independence verification before a parallel fan-out, using lanes'
 * lanes: each branch's planned write set is its agent's lane (or globs given for the branch). Two
 * branches conflict when some file could be written by both (`file_conflict`) or one needs the
 * other's output (`data_dependency`). A file is in a branch's set as the guard reads lanes: the
 * caller passes `covers` (src/policy/lanes.ts `inLane`: `owns` minus the `does_not_own` carve-outs),
 * tried on witnesses of each pair of overlapping globs (src/globs/overlap.ts). After the fan-out,
 * {@link overlapsAfter} reports the files a branch modified inside another branch's set, and files
 * two branches both modified. Pure: the CLI (`lanes independence`) reads the policy and the touches.
 */
import { overlapWitnesses, showWitness } from "../globs/overlap.ts";

/** One branch of a planned fan-out. */
export interface Branch {
  /** The branch (its agent's name). */
  readonly name: string;
  /** Globs of the paths it may write, relative to the project (its agent's `owns`, or the globs given). */
  readonly writes: readonly string[];
  /**
   * Whether the branch may write the project-relative `path` (the agent's lane with its carve-outs).
   * Default: the path matches one of `writes` (every witness of two overlapping globs does).
   */
  readonly covers?: (path: string) => boolean;
}

/** A conflict between two branches, as the protocol's `ConflictDetail`. */
export interface ConflictDetail {
  readonly task_a: string;
  readonly task_b: string;
  readonly conflict_type: "shared_resource" | "data_dependency" | "state_dependency" | "file_conflict";
  readonly description: string;
  readonly resolution: string;
}

/** The protocol's `ConflictReport`. */
export interface ConflictReport {
  readonly verified: boolean;
  readonly conflicts: readonly ConflictDetail[];
  readonly recommendations: readonly string[];
}

/** Options of {@link verifyIndependence}. */
export interface IndependenceOptions {
  /** Compare paths without case (the policy's `case_insensitive_paths`). */
  readonly caseInsensitive?: boolean;
}

/** A path both branches may write, for a pair of their globs: the first witness both lanes cover. */
function sharedPath(a: Branch, b: Branch, x: string, y: string, options: IndependenceOptions): string | undefined {
  const witnesses = overlapWitnesses(x, y, { caseInsensitive: options.caseInsensitive === true });
  return witnesses.find((w) => (a.covers?.(w) ?? true) && (b.covers?.(w) ?? true));
}

/** Checks every pair of branches: a file both may write, then declared dependencies (`[a, b]`: b needs a's output). */
export function verifyIndependence(
  branches: readonly Branch[],
  dependsOn: readonly (readonly [string, string])[] = [],
  options: IndependenceOptions = {},
): ConflictReport {
  const conflicts: ConflictDetail[] = [];
  for (let i = 0; i < branches.length; i++) {
    for (let j = i + 1; j < branches.length; j++) {
      const a = branches[i]!;
      const b = branches[j]!;
      const shared = a.writes.flatMap((x) =>
        b.writes.flatMap((y) => {
          const path = sharedPath(a, b, x, y, options);
          if (path === undefined) return [];
          const globs = x === y ? `\`${x}\`` : `\`${x}\` and \`${y}\``;
          const example = showWitness(path);
          return [example === x || example === y ? globs : `${globs} (e.g. \`${example}\`)`];
        }),
      );
      if (shared.length > 0) {
        conflicts.push({
          task_a: a.name,
          task_b: b.name,
          conflict_type: "file_conflict",
          description: `both may write ${shared.join(", ")}`,
          resolution: "run them one after the other, or narrow each branch's paths so they do not overlap",
        });
        continue;
      }
      const dep = dependsOn.find(([x, y]) => (x === a.name && y === b.name) || (x === b.name && y === a.name));
      if (dep !== undefined) {
        conflicts.push({
          task_a: a.name,
          task_b: b.name,
          conflict_type: "data_dependency",
          description: `\`${dep[1]}\` needs the output of \`${dep[0]}\``,
          resolution: `run \`${dep[0]}\` first, then \`${dep[1]}\``,
        });
      }
    }
  }
  const recommendations: string[] = [];
  if (conflicts.length === 0) recommendations.push("safe to run every branch in parallel");
  if (conflicts.some((c) => c.conflict_type === "file_conflict"))
    recommendations.push("give overlapping paths one owner, or run the branches that share them sequentially");
  if (conflicts.some((c) => c.conflict_type === "data_dependency"))
    recommendations.push("reorder the branches so each starts after the output it needs exists");
  return { verified: conflicts.length === 0, conflicts, recommendations };
}

/** One file modified in the workflow (from the guard's touches). */
export interface TouchedFile {
  /** Project-relative path. */
  readonly file: string;
  /** Every agent that modified it, in the order they first did. */
  readonly writers: readonly string[];
}

/** An overlap found after the fan-out. */
export interface Overlap {
  readonly file: string;
  readonly written_by: string;
  /** The branch whose planned write set holds the file. */
  readonly planned_for?: string;
  /** Another branch that modified the same file. */
  readonly also_written_by?: string;
}

/**
 * After the fan-out: files a branch modified inside another branch's planned write set, and files
 * two branches both modified (a stray write the owner overwrote later still counts).
 * `matches(glob, file)` tells whether a project-relative path matches a glob; a branch's `covers`
 * is used when it has one.
 */
export function overlapsAfter(
  branches: readonly Branch[],
  touched: readonly TouchedFile[],
  matches: (glob: string, file: string) => boolean,
): Overlap[] {
  const out: Overlap[] = [];
  const covers = (b: Branch, file: string) => b.covers?.(file) ?? b.writes.some((g) => matches(g, file));
  for (const t of touched) {
    const writers = branches.filter((b) => t.writers.includes(b.name));
    for (const w of writers) {
      for (const b of branches)
        if (b.name !== w.name && covers(b, t.file)) out.push({ file: t.file, written_by: w.name, planned_for: b.name });
    }
    for (let i = 0; i < writers.length; i++)
      for (let j = i + 1; j < writers.length; j++) {
        const [a, b] = [writers[i]!, writers[j]!];
        if (!out.some((o) => o.file === t.file && (o.planned_for === b.name || o.planned_for === a.name)))
          out.push({ file: t.file, written_by: a.name, also_written_by: b.name });
      }
  }
  return out;
}

/** The overlaps as text (pure). */
export function renderOverlaps(overlaps: readonly Overlap[]): string {
  if (overlaps.length === 0) return "no overlaps: every branch stayed in its own paths\n";
  return `${overlaps
    .map((o) =>
      o.planned_for !== undefined
        ? `- \`${o.file}\` was written by ${o.written_by} inside ${o.planned_for}'s paths`
        : `- \`${o.file}\` was written by both ${o.written_by} and ${o.also_written_by}`,
    )
    .join("\n")}\n`;
}

/** The report as text (pure). */
export function renderReport(report: ConflictReport): string {
  const lines = [
    report.verified
      ? "independent: the branches can run in parallel"
      : `not independent: ${report.conflicts.length} conflict${report.conflicts.length === 1 ? "" : "s"}`,
  ];
  for (const c of report.conflicts)
    lines.push(`- ${c.task_a} / ${c.task_b}: ${c.conflict_type}: ${c.description}; ${c.resolution}`);
  for (const r of report.recommendations) lines.push(`recommendation: ${r}`);
  return `${lines.join("\n")}\n`;
}

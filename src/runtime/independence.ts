/**
 * Independence verification before a parallel fan-out (no branch reads another's output or writes its files), using lanes'
 * lanes: each branch's planned write set is its agent's owned paths (or globs given for the
 * branch), two branches conflict when some path matches both write sets (`file_conflict`) or one
 * needs the other's output (`data_dependency`). After the fan-out, {@link overlapsAfter} reports
 * the files a branch actually modified inside another branch's write set, and the conflicts the
 * guard recorded. Pure: the CLI (`lanes independence`) reads the policy and the touches.
 */
import { globsOverlap } from "../globs/overlap.ts";

/** One branch of a planned fan-out. */
export interface Branch {
  /** The branch (its agent's name). */
  readonly name: string;
  /** Globs of the paths it will write, relative to the project. */
  readonly writes: readonly string[];
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

/** Checks every pair of branches: overlapping write sets, then declared dependencies (`[a, b]`: b needs a's output). */
export function verifyIndependence(
  branches: readonly Branch[],
  dependsOn: readonly (readonly [string, string])[] = [],
): ConflictReport {
  const conflicts: ConflictDetail[] = [];
  for (let i = 0; i < branches.length; i++) {
    for (let j = i + 1; j < branches.length; j++) {
      const a = branches[i]!;
      const b = branches[j]!;
      const shared = a.writes.flatMap((x) =>
        b.writes.filter((y) => globsOverlap(x, y)).map((y) => (x === y ? `\`${x}\`` : `\`${x}\` and \`${y}\``)),
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

/** One file a branch modified (from the guard's touches). */
export interface TouchedFile {
  /** Project-relative path. */
  readonly file: string;
  /** The agent that modified it last. */
  readonly agent: string;
}

/** An overlap found after the fan-out. */
export interface Overlap {
  readonly file: string;
  readonly written_by: string;
  /** The branch whose planned write set holds the file. */
  readonly planned_for: string;
}

/**
 * After the fan-out: files a branch modified inside another branch's planned write set. `matches`
 * tells whether a project-relative path matches a glob (injected: the CLI uses lanes' compiled globs).
 */
export function overlapsAfter(
  branches: readonly Branch[],
  touched: readonly TouchedFile[],
  matches: (glob: string, file: string) => boolean,
): Overlap[] {
  const out: Overlap[] = [];
  for (const t of touched) {
    if (!branches.some((b) => b.name === t.agent)) continue;
    for (const b of branches) {
      if (b.name !== t.agent && b.writes.some((g) => matches(g, t.file)))
        out.push({ file: t.file, written_by: t.agent, planned_for: b.name });
    }
  }
  return out;
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

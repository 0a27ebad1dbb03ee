/**
 * Upgrading the team's copies of the pack's definitions: a three-way merge of the installed file
 * (yours), the pack's new version (theirs) and the version lanes installed last time (the base,
 * kept in `.claude/lanes/base/`, committed). Line-based, by `git merge-file`.
 *
 * | installed vs base | pack vs base | result                                       |
 * |-------------------|--------------|----------------------------------------------|
 * | absent            | any          | the pack's version                            |
 * | same              | any          | the pack's version (you changed nothing)      |
 * | changed           | same         | yours, kept                                   |
 * | changed           | changed      | merged; on conflict yours is kept unchanged, a summary is shown, the conflict is recorded and the base is not advanced |
 * | no base recorded  | differs      | yours, kept; the pack's version becomes the base |
 *
 * A recorded conflict (install.json's `conflicts`: the hashes of your file and of the pack's version
 * when it was found) is resolved once your file has changed since, holds no conflict markers, and the
 * pack's version is still the one recorded: then your file is kept and the base advances to the pack's
 * version, so the next init merges from there and does not report the conflict again.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runGit } from "../io/git.ts";
import { hashText } from "./record.ts";

export type MergeOutcome =
  | { readonly kind: "pack" | "kept" | "merged" | "resolved"; readonly content: string; readonly base: string }
  | {
      readonly kind: "conflict";
      readonly content: string;
      readonly base: string;
      /** The merge with conflict markers. */
      readonly conflict: string;
      /** How many conflicting hunks. */
      readonly hunks: number;
      /** What to record so that the next init can tell the conflict was resolved. */
      readonly pending: PendingConflict;
    };

/** An open upgrade conflict, recorded in install.json: the FNV-1a 64 hashes of your file and of the pack's version. */
export interface PendingConflict {
  readonly yours: string;
  readonly lanes: string;
}

const MARKER = /^(?:<{7}|>{7}|={7})(?: |$)/m;

/** Whether a file still holds merge conflict markers. */
export const hasConflictMarkers = (text: string): boolean => MARKER.test(text);

/** Line-based three-way merge; `clean: false` with conflict markers when both sides changed the same lines. */
export function mergeFile(ours: string, base: string, theirs: string): { clean: boolean; text: string } {
  const dir = mkdtempSync(join(tmpdir(), "lanes-merge-"));
  try {
    const [o, b, t] = [join(dir, "yours"), join(dir, "base"), join(dir, "lanes")];
    writeFileSync(o, ours);
    writeFileSync(b, base);
    writeFileSync(t, theirs);
    const run = runGit({
      args: ["merge-file", "-p", "-L", "yours", "-L", "installed", "-L", "lanes", o, b, t],
      cwd: dir,
    });
    if (run.status === null || run.status < 0 || run.error !== undefined) return { clean: false, text: ours };
    return { clean: run.status === 0, text: run.stdout.toString("utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What init writes for one shipped definition; `pending` is the conflict recorded for it last time, if any. */
export function upgradeDefinition(
  installed: string | undefined,
  base: string | undefined,
  pack: string,
  pending?: PendingConflict,
): MergeOutcome {
  if (installed === undefined || installed === pack) return { kind: "pack", content: pack, base: pack };
  const lanes = hashText(pack);
  const yours = hashText(installed);
  const hunksOf = (text: string) => text.split("\n").filter((l) => l.startsWith("<<<<<<< ")).length;
  if (hasConflictMarkers(installed))
    return {
      kind: "conflict",
      content: installed,
      base: base ?? pack,
      conflict: installed,
      hunks: hunksOf(installed),
      pending: pending ?? { yours, lanes },
    };
  if (base === undefined) return { kind: "kept", content: installed, base: pack };
  if (installed === base) return { kind: "pack", content: pack, base: pack };
  if (pack === base) return { kind: "kept", content: installed, base };
  const merged = mergeFile(installed, base, pack);
  if (merged.clean) return { kind: "merged", content: merged.text, base: pack };
  if (pending !== undefined && pending.lanes === lanes && pending.yours !== yours && !hasConflictMarkers(installed))
    return { kind: "resolved", content: installed, base: pack };
  return {
    kind: "conflict",
    content: installed,
    base,
    conflict: merged.text,
    hunks: hunksOf(merged.text),
    pending: { yours, lanes },
  };
}

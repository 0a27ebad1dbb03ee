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
 * | changed           | changed      | merged; on conflict yours is kept unchanged, the conflict is shown, and the base is not advanced so the next init shows it again |
 * | no base recorded  | differs      | yours, kept; the pack's version becomes the base |
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runGit } from "../io/git.ts";

export type MergeOutcome =
  | { readonly kind: "pack" | "kept" | "merged"; readonly content: string; readonly base: string }
  | { readonly kind: "conflict"; readonly content: string; readonly base: string; readonly conflict: string };

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

/** What init writes for one shipped definition. */
export function upgradeDefinition(installed: string | undefined, base: string | undefined, pack: string): MergeOutcome {
  if (installed === undefined || installed === pack) return { kind: "pack", content: pack, base: pack };
  if (base === undefined) return { kind: "kept", content: installed, base: pack };
  if (installed === base) return { kind: "pack", content: pack, base: pack };
  if (pack === base) return { kind: "kept", content: installed, base };
  const merged = mergeFile(installed, base, pack);
  if (merged.clean) return { kind: "merged", content: merged.text, base: pack };
  return { kind: "conflict", content: installed, base, conflict: merged.text };
}

/**
 * What `lanes init` added to a repository, recorded in `.claude/lanes/install.json` (committed):
 * the files it created with the hash of what it wrote, what it created in `settings.json`, the
 * lines it added to `.claude/.gitignore`, and the negation rules it added to ignore files. `lanes
 * uninstall` removes exactly that, and `lanes doctor` compares against it. No timestamps: the file
 * only changes when the install does.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fnv1a64 } from "../io/hash.ts";
import type { IgnoreFix } from "./git-ignore.ts";
import type { PendingConflict } from "./merge.ts";
import type { SettingsRecord } from "./settings-merge.ts";

export interface InstallRecord {
  /** Record format. */
  readonly format: 1;
  /** The lanes version that wrote the install. */
  readonly version: string;
  /** Files lanes created, relative to `.claude/`, with the FNV-1a 64 hash of the content it wrote. */
  readonly files: Readonly<Record<string, string>>;
  readonly settings: SettingsRecord;
  /** Lines lanes added to an existing `.claude/.gitignore`. */
  readonly gitignoreLines: readonly string[];
  /** Negations that keep the install tracked (git-ignore.ts). */
  readonly ignoreFixes: readonly IgnoreFix[];
  /** Upgrade conflicts still open, by definition path relative to `.claude/` (merge.ts); absent when none. */
  readonly conflicts?: Readonly<Record<string, PendingConflict>>;
}

/** Where the record lives, relative to `.claude/`. */
export const RECORD_PATH = "lanes/install.json";

export const hashText = (text: string): string => fnv1a64(text);

/** The record of an earlier install, if there is a readable one. */
export function readInstallRecord(claudeDir: string): InstallRecord | undefined {
  const path = join(claudeDir, RECORD_PATH);
  if (!existsSync(path)) return undefined;
  try {
    const record = JSON.parse(readFileSync(path, "utf8")) as InstallRecord;
    return record.format === 1 && typeof record.files === "object" ? record : undefined;
  } catch {
    return undefined;
  }
}

/** The record as committed: stable key order, two-space JSON, trailing newline. */
export function renderInstallRecord(record: InstallRecord): string {
  const files = Object.fromEntries(Object.entries(record.files).sort(([a], [b]) => a.localeCompare(b)));
  const { conflicts, ...rest } = record;
  const open = conflicts === undefined || Object.keys(conflicts).length === 0 ? {} : { conflicts };
  return `${JSON.stringify({ ...rest, files, ...open }, null, 2)}\n`;
}

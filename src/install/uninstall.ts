/**
 * `lanes uninstall`: removes exactly what `lanes init` added, as recorded in
 * `.claude/lanes/install.json` (record.ts):
 * - lanes' handlers in `settings.json`, cut out as text (and the events, `hooks` key or file it
 *   created, when now empty): every other byte stays;
 * - the files it created, when they still hold what it wrote; a file the team changed (their
 *   `lanes.yaml`, an edited agent definition) is kept and listed, unless `purge`;
 * - the lines it added to `.claude/.gitignore` and the negations it added to ignore files;
 * - the `sandbox` entries it added (install/sandbox.ts), per `.claude/lanes/installed-sandbox.json`;
 * - its runtime state (`.claude/lanes/state/`: compiled policy, caches) and folders left empty;
 *   the audit log stays (it is the team's record of what the guard decided) unless `purge`, and so
 *   do the team's work state (`.claude/state/`: progress, checkpoints, phases, handoffs) and memory
 *   files, with the `.claude/.gitignore` lines that keep them out of commits.
 * Planned apart from applied, like init.
 */
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { projectPaths } from "../host/layout.ts";
import { IGNORE_MARKER, removeNegations } from "./git-ignore.ts";
import { hashText, readInstallRecord, RECORD_PATH } from "./record.ts";
import { removeHookSettings } from "./settings-merge.ts";
import { INSTALLED_SANDBOX_FILE, readSandboxRecord, removeSandbox } from "./sandbox.ts";
import { disableTaskTools, INSTALLED_ENV_FILE } from "./task-env.ts";

export interface UninstallPlan {
  /** Paths relative to the target, to delete. */
  readonly remove: readonly string[];
  /** Files kept because the team changed them (relative to the target). */
  readonly kept: readonly string[];
  /** settings.json: the new text, `null` to delete it, `undefined` to leave it alone. */
  readonly settings: string | null | undefined;
  /** `.claude/.gitignore` without lanes' lines, when it changes. */
  readonly gitignore: string | undefined;
  /** Audit logs left in `.claude/lanes/state/` (relative to the target); empty with `purge`. */
  readonly keptState: readonly string[];
  /**
   * The team's own state, kept unless `purge` (relative to the target): the work state in
   * `.claude/state/` (progress, checkpoints, phases, handoffs) and the memory files in `.claude/memory/`.
   */
  readonly keptWork: readonly string[];
}

/** What is in the work zone that the team wrote, and the `.claude/.gitignore` line that keeps it out of commits. */
const TEAM_STATE: readonly { readonly dir: "workState" | "memory"; readonly line: string }[] = [
  { dir: "workState", line: "state/" },
  { dir: "memory", line: "memory/" },
];

/** What lanes writes to `.claude/state/` for itself (upgrade conflicts): removed with the install. */
const OWN_WORK_STATE = new Set(["upgrade"]);

/** The audit logs, kept by an uninstall unless purged. */
const AUDIT_LOGS = ["audit.jsonl", "audit.1.jsonl"];

export type UninstallResult = { ok: true; plan: UninstallPlan } | { ok: false; message: string };

export function planUninstall(target: string, options: { readonly purge?: boolean } = {}): UninstallResult {
  const paths = projectPaths(target);
  const record = readInstallRecord(paths.claude);
  if (record === undefined)
    return {
      ok: false,
      message: `no lanes install record in \`${join(paths.claude, RECORD_PATH)}\`: lanes was not installed here by \`lanes init\` (or the record was deleted); remove lanes' hooks from .claude/settings.json by hand`,
    };
  const remove: string[] = [];
  const kept: string[] = [];
  for (const [file, hash] of Object.entries(record.files)) {
    const abs = join(paths.claude, file);
    if (!existsSync(abs)) continue;
    const rel = relative(target, abs);
    let text = readFileSync(abs, "utf8");
    // lanes' own .gitignore may also hold negations it added later: compare without them
    if (file === ".gitignore") {
      const ours = new Set([
        IGNORE_MARKER,
        ...record.ignoreFixes.filter((f) => f.file === ".claude/.gitignore").map((f) => f.line),
      ]);
      text = text
        .split("\n")
        .filter((l) => !ours.has(l))
        .join("\n");
    }
    if (options.purge === true || hashText(text) === hash) remove.push(rel);
    else kept.push(rel);
  }
  remove.push(relative(target, join(paths.claude, RECORD_PATH)));
  if (existsSync(join(paths.claude, INSTALLED_SANDBOX_FILE)))
    remove.push(relative(target, join(paths.claude, INSTALLED_SANDBOX_FILE)));
  let settings: string | null | undefined;
  if (existsSync(paths.settings)) {
    const text = readFileSync(paths.settings, "utf8");
    try {
      const env = join(paths.claude, INSTALLED_ENV_FILE);
      const sandboxRecord = join(paths.claude, INSTALLED_SANDBOX_FILE);
      const next = removeHookSettings(
        removeSandbox(
          disableTaskTools(text, existsSync(env) ? readFileSync(env, "utf8") : undefined),
          readSandboxRecord(existsSync(sandboxRecord) ? readFileSync(sandboxRecord, "utf8") : undefined),
        ),
        record.settings,
      );
      settings = next === undefined ? null : next === text ? undefined : next;
    } catch {
      return {
        ok: false,
        message: `\`${paths.settings}\` is not valid JSON: fix it, then run \`lanes uninstall\` again`,
      };
    }
  }
  const keptState =
    options.purge === true
      ? []
      : AUDIT_LOGS.map((f) => join(paths.state, f))
          .filter((f) => existsSync(f))
          .map((f) => relative(target, f));
  const keptWork: string[] = [];
  // what stays must stay out of commits: its ignore lines are kept too
  const keepLines = new Set<string>(keptState.length > 0 ? ["lanes/state/"] : []);
  if (options.purge !== true)
    for (const { dir, line } of TEAM_STATE) {
      const abs = paths[dir];
      const entries = existsSync(abs) ? readdirSync(abs).filter((e) => !OWN_WORK_STATE.has(e)) : [];
      if (entries.length === 0) continue;
      keptWork.push(`${relative(target, abs)}/`);
      keepLines.add(line);
    }
  let gitignore: string | undefined;
  const ignoreRel = relative(target, paths.gitignore);
  const header = "# lanes: runtime state and personal files stay out of commits";
  if (existsSync(paths.gitignore)) {
    const text = readFileSync(paths.gitignore, "utf8");
    const present = text.split("\n");
    if (remove.includes(ignoreRel)) {
      // lanes created the file: it goes, unless something kept needs one of its lines
      const needed = present.filter((l) => keepLines.has(l));
      if (needed.length > 0) {
        remove.splice(remove.indexOf(ignoreRel), 1);
        gitignore = `${header}\n${needed.join("\n")}\n`;
      }
    } else if (record.gitignoreLines.length > 0) {
      const lines = new Set([...record.gitignoreLines, header]);
      const next = present.filter((l) => !lines.has(l) || keepLines.has(l)).join("\n");
      if (next !== text) gitignore = next;
    }
  }
  return { ok: true, plan: { remove: remove.sort(), kept: kept.sort(), settings, gitignore, keptState, keptWork } };
}

function removeEmptyDirs(dir: string, stop: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return;
  for (const entry of readdirSync(dir)) removeEmptyDirs(join(dir, entry), stop);
  if (dir !== stop && readdirSync(dir).length === 0) rmdirSync(dir);
}

/** Applies an uninstall plan; returns the ignore files it changed. */
export function applyUninstall(target: string, plan: UninstallPlan): string[] {
  const paths = projectPaths(target);
  const record = readInstallRecord(paths.claude);
  for (const rel of plan.remove) {
    const abs = join(target, rel);
    if (existsSync(abs)) unlinkSync(abs);
  }
  if (plan.settings === null) unlinkSync(paths.settings);
  else if (plan.settings !== undefined) writeFileSync(paths.settings, plan.settings);
  if (plan.gitignore !== undefined) writeFileSync(paths.gitignore, plan.gitignore);
  const changed = record === undefined ? [] : removeNegations(target, record.ignoreFixes);
  for (const dir of [paths.state, paths.workState])
    if (existsSync(dir) && !plan.keptWork.includes(`${relative(target, dir)}/`))
      for (const entry of readdirSync(dir))
        if (!plan.keptState.includes(relative(target, join(dir, entry))))
          rmSync(join(dir, entry), { recursive: true, force: true });
  if (plan.keptWork.includes(`${relative(target, paths.workState)}/`))
    for (const entry of OWN_WORK_STATE) rmSync(join(paths.workState, entry), { recursive: true, force: true });
  if (!plan.keptWork.includes(`${relative(target, paths.memory)}/`))
    rmSync(paths.memory, { recursive: true, force: true });
  removeEmptyDirs(paths.claude, dirname(paths.claude));
  return changed;
}

/**
 * Consecutive denials per agent instance and per rule, for error recovery: retry (1st)
 * → escalate (2nd) → block (3rd and later: the reason tells the agent to stop and report). A
 * denial counts for each rule that decided it; denials by unrelated rules do not add up. A call
 * that is not denied resets the instance's counts.
 *
 * One small log per session and agent (`.claude/state/violations/<session>-<agent>.jsonl`): each
 * denial reads it and appends one line (the rules that decided it and the time) with a single
 * `write`, both through one `O_APPEND` descriptor, and a call that is not denied removes the log.
 * Appending, not rewriting: replacing a file by rename made the file system flush it first (ext4's
 * `auto_da_alloc`), most of a millisecond on every denial. An agent's own calls come one after another, so no lock is needed.
 */
import { closeSync, existsSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir } from "../../io/atomic.ts";
import { APPEND, openState, readToEnd } from "../../io/read.ts";
import { safeId } from "../../host/ids.ts";
import { ensureStateDir } from "./state-dir.ts";
import { isoTime } from "../../io/time.ts";

/** One line of an agent instance's log: a denial. */
export interface DenialLine {
  /** The rules that decided the denial. */
  readonly rules: readonly string[];
  readonly agent: string;
  /** ISO time of the denial. */
  readonly at: string;
}

/** The log of one agent instance. */
export const violationsLog = (stateDir: string, session: string, agentKey: string): string =>
  join(stateDir, "violations", `${safeId(session)}-${safeId(agentKey)}.jsonl`);

/** Denials so far by rule id; a line that does not parse (a writer killed mid-line) is skipped. */
function countsOf(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    try {
      const rules = (JSON.parse(line) as Partial<DenialLine>).rules;
      if (!Array.isArray(rules)) continue;
      for (const id of new Set(rules)) if (typeof id === "string") counts.set(id, (counts.get(id) ?? 0) + 1);
    } catch {
      // torn or foreign line
    }
  }
  return counts;
}

/** The log open for reading and appending (created, with the state directories, when missing). */
function openLog(file: string, stateDir: string): number {
  try {
    return openState(file, APPEND);
  } catch (error) {
    // a link at the log's name is refused (O_NOFOLLOW), never written through
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    ensureStateDir(stateDir);
    ensurePrivateDir(join(stateDir, "violations"));
    return openState(file, APPEND);
  }
}

/**
 * Updates the counts of `agentKey` (an agent_id, or `main`) after a decision and returns the count
 * of the most repeated rule among `rules` (0 after a reset). Errors leave the count unknown
 * (`undefined`), never the decision changed.
 */
export function countDenial(
  stateDir: string,
  session: string,
  agentKey: string,
  agent: string,
  rules: readonly string[] | undefined,
  now: Date,
): number | undefined {
  const file = violationsLog(stateDir, session, agentKey);
  try {
    // most calls are not denied and have nothing to reset: checked without reading (or throwing)
    if (rules === undefined || rules.length === 0) {
      if (existsSync(file)) rmSync(file, { force: true });
      return 0;
    }
    // one descriptor reads the log and appends to it: a first denial opens a new log, and nothing throws
    const fd = openLog(file, stateDir);
    try {
      const text = readToEnd(fd).toString("utf8");
      const counts = countsOf(text);
      const count = Math.max(...rules.map((id) => (counts.get(id) ?? 0) + 1));
      // a torn last line (a writer killed mid-write) stays apart from this one
      const line: DenialLine = { rules, agent, at: isoTime(now) };
      const bytes = Buffer.from(`${text !== "" && !text.endsWith("\n") ? "\n" : ""}${JSON.stringify(line)}\n`, "utf8");
      if (writeSync(fd, bytes) !== bytes.length) throw new Error(`short write to ${file}`);
      return count;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * Consecutive denials per agent instance and per rule, for the seeds' error recovery: retry (1st)
 * → escalate (2nd) → block (3rd and later: the reason tells the agent to stop and report). A
 * denial counts for each rule that decided it; denials by unrelated rules do not add up. A call
 * that is not denied resets the instance's counts.
 *
 * One small file per session and agent (`.claude/state/violations/<session>-<agent>.json`): an
 * agent's own calls come one after another, so no two writers share a read-modify-write and no
 * lock is needed; writes are atomic renames, and only happen when the count changes.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFile, ensurePrivateDir } from "../io/atomic.ts";
import { safeId } from "../host/ids.ts";
import { ensureStateDir } from "./state-dir.ts";
import { isoTime } from "../io/time.ts";

/** The file of one agent instance's counts. */
export interface ViolationCount {
  /** The highest count among `rules` (kept for readers of the older format). */
  readonly count: number;
  /** Consecutive denials by rule id. */
  readonly rules?: Readonly<Record<string, number>>;
  readonly agent: string;
  /** ISO time of the last denial. */
  readonly last: string;
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
  const file = join(stateDir, "violations", `${safeId(session)}-${safeId(agentKey)}.json`);
  try {
    // most calls are not denied and have nothing to reset: checked without reading (or throwing)
    if (rules === undefined || rules.length === 0) {
      if (existsSync(file)) rmSync(file, { force: true });
      return 0;
    }
    let current: Record<string, number> = {};
    try {
      const data = JSON.parse(readFileSync(file, "utf8")) as ViolationCount;
      current = typeof data.rules === "object" && data.rules !== null ? { ...data.rules } : {};
    } catch {
      current = {};
    }
    for (const id of rules) current[id] = (current[id] ?? 0) + 1;
    const count = Math.max(...rules.map((id) => current[id]!));
    ensureStateDir(stateDir);
    ensurePrivateDir(join(stateDir, "violations"));
    const next: ViolationCount = { count, rules: current, agent, last: isoTime(now) };
    atomicWriteFile(file, `${JSON.stringify(next)}\n`, { durable: false });
    return count;
  } catch {
    return undefined;
  }
}

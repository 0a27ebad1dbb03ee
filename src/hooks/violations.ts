/**
 * Consecutive denials per agent, for the seeds' error recovery: retry (1st) → escalate (2nd) →
 * block (3rd and later: the reason tells the agent to stop and report). A call that is not denied
 * resets the agent's count.
 *
 * One small file per session and agent (`.claude/state/violations/<session>-<agent>.json`): an
 * agent's own calls come one after another, so no two writers share a read-modify-write and no
 * lock is needed; writes are atomic renames, and only happen when the count changes.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFile, ensurePrivateDir } from "../io/atomic.ts";
import { safeId } from "../runtime/ids.ts";
import { ensureStateDir } from "./state-dir.ts";

/** The file of one agent's count. */
export interface ViolationCount {
  readonly count: number;
  readonly agent: string;
  /** ISO time of the last denial. */
  readonly last: string;
}

/**
 * Updates the count of `agentKey` (an agent_id, or `main`) after a decision and returns the new
 * count (0 after a reset). Errors leave the count unknown (`undefined`), never the decision changed.
 */
export function countDenial(stateDir: string, session: string, agentKey: string, agent: string, denied: boolean, now: Date): number | undefined {
  const file = join(stateDir, "violations", `${safeId(session)}-${safeId(agentKey)}.json`);
  let current = 0;
  try {
    current = (JSON.parse(readFileSync(file, "utf8")) as ViolationCount).count || 0;
  } catch {
    current = 0;
  }
  try {
    if (!denied) {
      if (current > 0) rmSync(file, { force: true });
      return 0;
    }
    ensureStateDir(stateDir);
    ensurePrivateDir(join(stateDir, "violations"));
    const next: ViolationCount = { count: current + 1, agent, last: now.toISOString() };
    atomicWriteFile(file, `${JSON.stringify(next)}\n`, { durable: false });
    return next.count;
  } catch {
    return undefined;
  }
}

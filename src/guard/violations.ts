/**
 * Consecutive denials per agent (`.claude/state/violations.json`), for the seeds' error recovery:
 * retry (1st) → escalate (2nd) → block (3rd and later: the reason tells the agent to stop and
 * report). A call that is not denied resets the agent's count. Written only when a count changes.
 */
import { readFileSync } from "node:fs";
import { atomicWriteFile } from "../runtime/atomic.ts";
import { withLockSync } from "../runtime/lock.ts";
import { ensureStateDir } from "./state-dir.ts";

/** Counts keyed by `<session>/<agent_id or main>`. */
export interface ViolationsFile {
  readonly version: 1;
  readonly counts: Readonly<Record<string, { readonly count: number; readonly agent: string; readonly last: string }>>;
}

const read = (path: string): ViolationsFile => {
  try {
    const data = JSON.parse(readFileSync(path, "utf8")) as ViolationsFile;
    return data?.version === 1 && typeof data.counts === "object" ? data : { version: 1, counts: {} };
  } catch {
    return { version: 1, counts: {} };
  }
};

/**
 * Updates the count for `key` after a decision and returns the new count (0 after a reset).
 * Errors leave the count unknown (`undefined`), never the decision changed.
 */
export function countDenial(path: string, stateDir: string, key: string, agent: string, denied: boolean, now: Date): number | undefined {
  const current = read(path).counts[key]?.count ?? 0;
  if (!denied && current === 0) return 0;
  ensureStateDir(stateDir);
  let next: number | undefined;
  const result = withLockSync(path, () => {
    const file = read(path);
    const count = denied ? (file.counts[key]?.count ?? 0) + 1 : 0;
    const counts = { ...file.counts };
    if (count === 0) delete counts[key];
    else counts[key] = { count, agent, last: now.toISOString() };
    atomicWriteFile(path, `${JSON.stringify({ version: 1, counts })}\n`);
    next = count;
  });
  return result.ok ? next : undefined;
}

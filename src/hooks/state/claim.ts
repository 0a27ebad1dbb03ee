/**
 * One guard per call. Installed both as a plugin and in the project (or at user and project level),
 * lanes' PreToolUse hook runs twice for each tool call, in parallel, with different command strings
 * (so Claude Code's dedup of identical commands does not apply). Both still judge the call and print
 * the same decision (the stricter one wins anyway), but only the hook that claims the call first
 * records it: one audit entry, one denial count, one spawn intent.
 *
 * The claim is the exclusive creation of `state/claims/<event>-<session>-<tool_use_id>`. A claim
 * matters only while the other installation's hook may still run: the two start together, and
 * each is wired with a timeout of seconds. So the winner of about one call in {@link SWEEP_EVERY}
 * (chosen by a hash of the call's id, random in practice) removes the claims older than
 * {@link MAX_AGE_MS}: the directory holds the claims of the last two minutes, whatever the number
 * of calls the session made.
 */
import { openSync, closeSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir } from "../../io/atomic.ts";
import { safeId } from "../../host/ids.ts";
import { fnv1a64 } from "../../io/hash.ts";

/** Age after which a claim is no longer needed: far beyond the hook timeouts of the event table. */
export const MAX_AGE_MS = 120_000;
/** About one claiming call in this many sweeps the directory. */
export const SWEEP_EVERY = 32;

/** True when this process is the first to claim the call (or the call has no id to claim by). */
export function claimCall(
  stateDir: string,
  event: string,
  session: string,
  toolUseId: string | undefined,
  now: Date,
): boolean {
  if (toolUseId === undefined || toolUseId === "") return true;
  const dir = join(stateDir, "claims");
  // keyed by session too: tool_use ids are unique in practice, but a replayed or scripted session must not inherit claims
  const file = join(dir, `${event}-${safeId(session)}-${safeId(toolUseId)}`);
  // the directory exists after the first claim: create it only when the claim finds it missing
  const claim = (): void => closeSync(openSync(file, "wx", 0o600));
  try {
    try {
      claim();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      ensurePrivateDir(dir);
      claim();
    }
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "EEXIST";
  }
  if (sweeps(toolUseId)) sweep(dir, now.getTime(), file);
  return true;
}

/** Whether the winner of the call `toolUseId` sweeps old claims (about one in {@link SWEEP_EVERY}). */
export const sweeps = (toolUseId: string): boolean => parseInt(fnv1a64(toolUseId).slice(-4), 16) % SWEEP_EVERY === 0;

/** Removes the claims older than {@link MAX_AGE_MS}, never the one just made (`own`). */
function sweep(dir: string, now: number, own: string): void {
  try {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (path === own) continue;
      try {
        if (now - statSync(path).mtimeMs > MAX_AGE_MS) unlinkSync(path);
      } catch {
        // another sweeper got it
      }
    }
  } catch {
    // nothing to sweep
  }
}

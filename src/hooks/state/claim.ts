/**
 * One guard per call. Installed both as a plugin and in the project (or at user and project level),
 * lanes' PreToolUse hook runs twice for each tool call, in parallel, with different command strings
 * (so Claude Code's dedup of identical commands does not apply). Both still judge the call and print
 * the same decision (the stricter one wins anyway), but only the hook that claims the call first
 * records it: one audit entry, one denial count, one spawn intent.
 *
 * The claim is the exclusive creation of `state/claims/<event>-<session>-<tool_use_id>`. Claims older than an
 * hour are swept by a winner whose id ends in `00` (the ids end in random characters: rarely).
 */
import { openSync, closeSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir } from "../../io/atomic.ts";
import { safeId } from "../../host/ids.ts";

const MAX_AGE_MS = 3_600_000;

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
  if (toolUseId.endsWith("0") && toolUseId.at(-2) === "0") sweep(dir, now.getTime());
  return true;
}

function sweep(dir: string, now: number): void {
  try {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
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

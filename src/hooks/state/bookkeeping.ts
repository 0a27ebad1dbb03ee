/**
 * The guard's bookkeeping files (agent tree, touches): a locked read-change-write with an atomic,
 * non-durable write (they are cheap to lose on a power cut, never half-written). Reads elsewhere
 * need no lock: they see the old file or the new one.
 */
import { atomicWriteFile } from "../../io/atomic.ts";
import { HOOK_LOCK, withLockSync } from "../../io/lock.ts";
import { ensureStateDir } from "./state-dir.ts";

/** Applies `change` to the file's content under its lock; returns a problem message, if any. */
export function updateBookkeeping<T>(
  path: string,
  stateDir: string,
  read: (path: string) => T,
  change: (current: T) => T,
): string | undefined {
  ensureStateDir(stateDir);
  const result = withLockSync(
    path,
    () => {
      atomicWriteFile(path, `${JSON.stringify(change(read(path)))}\n`, { durable: false });
    },
    HOOK_LOCK,
  );
  return result.ok ? undefined : result.issues.map((i) => i.message).join("; ");
}

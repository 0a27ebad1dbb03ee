/**
 * The runtime state directory (`.claude/state/`): created private (0700) with a `.gitignore` that
 * ignores everything in it, so state never ends up in a commit, whether lanes was installed with
 * `lanes init` or runs as a plugin.
 */
import { existsSync, writeFileSync } from "node:fs";
import { assertOwnDir, ensurePrivateDir } from "../../io/atomic.ts";

const IGNORE = "# lanes runtime state: never committed\n*\n";

/**
 * Creates the state directory and its `.gitignore` if missing. Throws when the state directory is
 * a symbolic link (`assertOwnDir`): lanes never writes its state through one.
 */
export function ensureStateDir(stateDir: string): void {
  if (existsSync(`${stateDir}/.gitignore`)) {
    assertOwnDir(stateDir);
    return;
  }
  ensurePrivateDir(stateDir);
  try {
    writeFileSync(`${stateDir}/.gitignore`, IGNORE, { flag: "wx", mode: 0o600 });
  } catch {
    // another hook created it first
  }
}

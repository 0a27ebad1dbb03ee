/**
 * Writing the sandbox section (sandbox.ts) into the project's `.claude/settings.json`, after
 * `lanes init` and `lanes build` compiled the policy. The only I/O of the second wall.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { projectPaths } from "../host/layout.ts";
import { atomicWriteFile } from "../io/atomic.ts";
import type { CompiledPolicy } from "../policy/compiled.ts";
import { INSTALLED_SANDBOX_FILE, mergeSandbox, wantedSandbox, type SandboxWanted } from "./sandbox.ts";

/** Platforms where Claude Code's Bash sandbox runs (bubblewrap on Linux, Seatbelt on macOS). */
export const SANDBOX_PLATFORMS: readonly NodeJS.Platform[] = ["linux", "darwin"];

/** What {@link syncSandboxSettings} did. */
export interface SandboxSync {
  /** `written`: settings changed; `unchanged`; `off`: the policy or the platform turned it off. */
  readonly status: "written" | "unchanged" | "off";
  readonly wanted: SandboxWanted;
  /** Keys of the user's settings kept against lanes' wish, for the init report. */
  readonly kept: readonly string[];
}

const read = (path: string): string | undefined => (existsSync(path) ? readFileSync(path, "utf8") : undefined);

/**
 * Merges the sandbox section the policy asks for into `.claude/settings.json` (created when
 * missing) and records what lanes added; with the sandbox off (policy or platform), takes out what
 * an earlier install added. `privateDir`: lanes' private store, denied for reading.
 */
export function syncSandboxSettings(
  projectDir: string,
  policy: Pick<CompiledPolicy, "options" | "rules">,
  options: { readonly home: string; readonly platform: NodeJS.Platform; readonly privateDir?: string },
): SandboxSync {
  const paths = projectPaths(projectDir);
  const supported = SANDBOX_PLATFORMS.includes(options.platform);
  const wanted = wantedSandbox(policy, options.privateDir, options.home);
  const effective = supported ? wanted : { ...wanted, enabled: false };
  const recordPath = join(paths.claude, INSTALLED_SANDBOX_FILE);
  const before = read(paths.settings) ?? "{}\n";
  let merged;
  try {
    merged = mergeSandbox(before, effective, read(recordPath));
  } catch {
    return {
      status: "unchanged",
      wanted,
      kept: ["`.claude/settings.json` is not valid JSON: lanes wrote no sandbox settings"],
    };
  }
  if (merged.settings !== before) atomicWriteFile(paths.settings, merged.settings, { mode: 0o644 });
  if (merged.record === undefined) rmSync(recordPath, { force: true });
  else if (merged.record !== read(recordPath)) atomicWriteFile(recordPath, merged.record, { mode: 0o644 });
  return {
    status: !effective.enabled ? "off" : merged.settings !== before ? "written" : "unchanged",
    wanted,
    kept: merged.kept,
  };
}

/** One line for init and build: what the sandbox section now says. */
export function sandboxLine(sync: SandboxSync): string {
  if (sync.status === "off")
    return sync.wanted.enabled
      ? "off: Claude Code's Bash sandbox does not run on this platform (the guard alone holds)"
      : "off: the policy says `options.sandbox: off` (the guard alone holds)";
  return `${sync.status === "written" ? "written" : "unchanged"}: .claude/settings.json \`sandbox\` denies writes to ${sync.wanted.denyWrite.length} guard-zone paths and reads of ${sync.wanted.denyRead.length} secrets`;
}

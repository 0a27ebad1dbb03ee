/**
 * Recompiling a stale policy inside the hook that found it stale, so that an edit to `lanes.yaml`,
 * `lanes.local.yaml` or an agent definition mid-session is enforced from the next tool call on, and
 * never wedges the session (the model is never told to run a command the guard then blocks).
 *
 * Staleness is rare, so its cost is fine: the compiler (zod, YAML) is its own bundle,
 * `compile.impl.cjs`, which the hot bundles load only here (scripts/build/bundles.ts swaps the import of
 * `config/load.ts` for src/hooks/lazy/compiler-proxy.ts). Parallel hooks compile once: the compile runs
 * under the lock of the compiled policy, and a hook that waited re-reads what the first one wrote.
 *
 * When the files do not compile, the error is remembered with a fingerprint of the sources
 * (`state/policy-error.json`), so later calls neither recompile nor repeat the notice until a
 * source changes again.
 *
 * Both outcomes are audited by the hook that compiled: a `policy-compiled` entry (why the compiled
 * policy was out of date: `kind` missing, invalid or stale, and the `file` that made it so) and a
 * `policy-error` entry (`kind: "invalid-source"`, the `file` at fault, the error's first line).
 */
import { statSync } from "node:fs";
import { readState } from "../../io/read.ts";
import { join } from "node:path";
import { buildPolicy } from "../../config/load.ts";
import { projectPaths, userPaths } from "../../host/layout.ts";
import type { CompiledPolicy } from "../../policy/compiled.ts";
import { atomicWriteFile, ensurePrivateDir } from "../../io/atomic.ts";
import { withLockSync } from "../../io/lock.ts";
import { listDefinitions, readCompiledPolicy } from "../../config/policy-file.ts";
import { isoTime } from "../../io/time.ts";
import { auditLog } from "../state/audit.ts";

export interface RecompileOptions {
  readonly projectDir: string;
  readonly home: string;
  readonly lanesVersion: string;
  /** The pack's agent definitions, for projects without their own (plugin installs). */
  readonly fallbackAgentsDir?: string;
  /** The session whose hook compiles, for the audit entry. */
  readonly session?: string;
  /** The time of the audit entry (defaults to now). */
  readonly now?: Date;
}

export type RecompileResult =
  | { readonly ok: true; readonly policy: CompiledPolicy }
  /** `fresh`: the first time this error is seen for these sources (tell the user once). */
  | { readonly ok: false; readonly message: string; readonly fresh: boolean };

/** size and mtime of every file a compile reads: changes when any source changes. */
function sourcesKey(options: RecompileOptions): string {
  const p = projectPaths(options.projectDir);
  const files = [
    p.policy,
    p.policyLocal,
    userPaths(options.home).policy,
    ...listDefinitions(p.agentDefinitions).map((e) => join(p.agentDefinitions, e)),
  ];
  return files
    .map((f) => {
      try {
        const s = statSync(f);
        return `${f}:${s.size}:${s.mtimeMs}`;
      } catch {
        return `${f}:-`;
      }
    })
    .join("\n");
}

interface ErrorRecord {
  readonly key: string;
  readonly message: string;
}

function readErrorRecord(path: string): ErrorRecord | undefined {
  try {
    const record = JSON.parse(readState(path)) as ErrorRecord;
    return typeof record.key === "string" && typeof record.message === "string" ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Compiles the policy again (unless another hook just did, or these sources are known not to compile). */
export function recompilePolicy(options: RecompileOptions): RecompileResult {
  const paths = projectPaths(options.projectDir);
  const errorFile = join(paths.state, "policy-error.json");
  const key = sourcesKey(options);
  const known = readErrorRecord(errorFile);
  if (known?.key === key) return { ok: false, message: known.message, fresh: false };
  ensurePrivateDir(paths.state);
  const locked = withLockSync(paths.compiledPolicy, (): RecompileResult => {
    const again = readCompiledPolicy(paths.compiledPolicy);
    if (again.ok) return { ok: true, policy: again.policy };
    const built = buildPolicy({
      projectDir: options.projectDir,
      home: options.home,
      lanesVersion: options.lanesVersion,
      ...(options.fallbackAgentsDir !== undefined && { fallbackAgentsDir: options.fallbackAgentsDir }),
    });
    const audit = auditLog(paths, built.ok ? built.policy.options.auditMaxBytes : undefined);
    const entry = {
      ts: isoTime(options.now ?? new Date()),
      ...(options.session !== undefined && { session: options.session }),
    };
    if (built.ok) {
      audit.append({ ...entry, event: "policy-compiled", kind: again.kind, file: again.file, reason: again.message });
      return { ok: true, policy: built.policy };
    }
    const first = built.issues[0]!;
    const where = firstLine(first.message.startsWith(first.file) ? first.message : `${first.file}: ${first.message}`);
    const message = `${where}${built.issues.length > 1 ? ` (and ${built.issues.length - 1} more)` : ""}`;
    atomicWriteFile(errorFile, `${JSON.stringify({ key, message } satisfies ErrorRecord)}\n`);
    audit.append({ ...entry, event: "policy-error", kind: "invalid-source", file: first.file, reason: message });
    return { ok: false, message, fresh: true };
  });
  if (!locked.ok)
    return { ok: false, message: locked.issues[0]?.message ?? "the compiled policy is locked", fresh: false };
  return locked.value;
}

/** The first line of a compile error (YAML errors add the source lines after it). */
function firstLine(message: string): string {
  const at = message.indexOf("\n");
  return at < 0 ? message : message.slice(0, at);
}

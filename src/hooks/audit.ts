/**
 * The append-only audit log, `.claude/state/audit.jsonl`: one JSON object per line, bounded in
 * size (past the limit the file rotates to `audit.1.jsonl`, replacing the previous one). Each line
 * is appended with a single `write` on an `O_APPEND` descriptor, so concurrent hooks never
 * interleave within a line. Failing to log never changes a decision: errors go to stderr.
 */
import { appendFileSync, readFileSync, renameSync, statSync } from "node:fs";
import type { EventAudit } from "../host/events.ts";
import { AUDIT_MIN_BYTES, DEFAULT_OPTIONS } from "../policy/compiled.ts";
import type { RiskClass } from "../policy/types.ts";
import { ensureStateDir } from "./state-dir.ts";

/** Events lanes records: those of the guard and the runtime, and those of the event table's handlers. */
export type AuditEvent =
  | "decision"
  | "boundary-violation"
  | "escalation"
  | "file-touched"
  | "conflict"
  | "policy-error"
  | "policy-compiled"
  | "checkpoint"
  | EventAudit;

/** One line of the audit log. Fields beyond these depend on the event. */
export interface AuditEntry {
  /** ISO 8601 time. */
  readonly ts: string;
  readonly event: AuditEvent;
  readonly session?: string;
  /** `agent_id` of the subagent, absent for the main session. */
  readonly agent_id?: string;
  /** `agent_type`, absent for the main session. */
  readonly agent?: string;
  readonly tool?: string;
  /** What the event is about: a command, a path, a task subject. */
  readonly subject?: string;
  /** For decisions: `deny`, `ask` or `none` (no opinion). */
  readonly decision?: "deny" | "ask" | "none";
  /** For decisions: the risk class (SAFE, REVIEW_REQUIRED, DANGEROUS). */
  readonly risk?: RiskClass;
  readonly rules?: readonly string[];
  readonly reason?: string;
  readonly [key: string]: unknown;
}

/** The audit log of one project: the only writer of `audit.jsonl`, and the keeper of its size limit. */
export interface AuditLog {
  /** Appends one entry, rotating the file past the size limit; returns a problem message instead of throwing. */
  append(entry: AuditEntry): string | undefined;
}

/**
 * The size limit of the compiled policy at `compiledPolicy` (`audit_max_bytes`), read without the
 * staleness check (a stale limit only rotates a little early or late), else the default.
 */
function limitOf(compiledPolicy: string): number {
  try {
    const limit = (JSON.parse(readFileSync(compiledPolicy, "utf8")) as { options?: { auditMaxBytes?: unknown } })
      .options?.auditMaxBytes;
    return typeof limit === "number" && limit >= AUDIT_MIN_BYTES ? limit : DEFAULT_OPTIONS.auditMaxBytes;
  } catch {
    return DEFAULT_OPTIONS.auditMaxBytes;
  }
}

/**
 * The audit log of a project. `maxBytes` is the size limit of the policy in force when the caller
 * holds it; otherwise the limit is read from the compiled policy, and only once the log has grown
 * past the smallest limit a policy may set (below it no limit can apply).
 */
export function auditLog(
  paths: { readonly state: string; readonly compiledPolicy: string },
  maxBytes?: number,
): AuditLog {
  let limit = maxBytes;
  const path = `${paths.state}/audit.jsonl`;
  return {
    append(entry) {
      try {
        ensureStateDir(paths.state);
        try {
          const size = statSync(path).size;
          if (size > AUDIT_MIN_BYTES && size > (limit ??= limitOf(paths.compiledPolicy)))
            renameSync(path, `${paths.state}/audit.1.jsonl`);
        } catch {
          // no log yet, or another hook rotated it first
        }
        appendFileSync(path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
        return undefined;
      } catch (error) {
        return `lanes: could not write the audit log \`${path}\`: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
  };
}

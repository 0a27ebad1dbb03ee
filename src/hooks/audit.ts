/**
 * The append-only audit log, `.claude/state/audit.jsonl`: one JSON object per line, bounded in
 * size (past the limit the file rotates to `audit.1.jsonl`, replacing the previous one). Each line
 * is appended with a single `write` on an `O_APPEND` descriptor, so concurrent hooks never
 * interleave within a line. Failing to log never changes a decision: errors go to stderr. Secrets
 * (env assignment values, tokens, Authorization headers, key shapes) are redacted before writing.
 */
import { appendFileSync, renameSync, statSync } from "node:fs";
import { redactSecrets } from "../shell/redact.ts";
import { ensureStateDir } from "./state-dir.ts";

/** The fields that carry free text (commands, paths, reasons): redacted before they are stored. */
const FREE_TEXT = ["subject", "reason"] as const;

/** The entry with secrets redacted from its free-text fields (src/shell/redact.ts): the log never stores them. */
export function redactEntry(entry: AuditEntry): AuditEntry {
  const out: Record<string, unknown> = { ...entry };
  for (const key of FREE_TEXT) if (typeof out[key] === "string") out[key] = redactSecrets(out[key] as string);
  return out as AuditEntry;
}

/** Events lanes records. */
export type AuditEvent =
  | "decision"
  | "boundary-violation"
  | "risk-classification"
  | "escalation"
  | "subagent-start"
  | "subagent-stop"
  | "task-created"
  | "task-completed"
  | "file-touched"
  | "conflict"
  | "policy-error"
  | "policy-compiled"
  | "checkpoint"
  | "hook-error";

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
  readonly risk?: "SAFE" | "REVIEW_REQUIRED" | "DANGEROUS";
  readonly rules?: readonly string[];
  readonly reason?: string;
  readonly [key: string]: unknown;
}

/** Appends one entry; rotates when the file passed `maxBytes`. Returns an error message instead of throwing. */
export function appendAudit(stateDir: string, entry: AuditEntry, maxBytes: number): string | undefined {
  const path = `${stateDir}/audit.jsonl`;
  try {
    ensureStateDir(stateDir);
    try {
      if (statSync(path).size > maxBytes) renameSync(path, `${stateDir}/audit.1.jsonl`);
    } catch {
      // no log yet, or another hook rotated it first
    }
    appendFileSync(path, `${JSON.stringify(redactEntry(entry))}\n`, { mode: 0o600 });
    return undefined;
  } catch (error) {
    return `lanes: could not write the audit log \`${path}\`: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * The append-only audit log, `.claude/state/audit.jsonl`: one JSON object per line, bounded in
 * size (past the limit the file rotates to `audit.1.jsonl`, replacing the previous one). Each line
 * is appended with a single `write` on an `O_APPEND` descriptor, so concurrent hooks never
 * interleave within a line. Failing to log never changes a decision: errors go to stderr.
 */
import { appendFileSync, closeSync, openSync, readSync, renameSync, statSync } from "node:fs";
import { ensureStateDir } from "./state-dir.ts";

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
    let torn = false;
    try {
      const size = statSync(path).size;
      if (size > maxBytes) renameSync(path, `${stateDir}/audit.1.jsonl`);
      else torn = size > 0 && !endsWithNewline(path, size);
    } catch {
      // no log yet, or another hook rotated it first
    }
    // a writer killed mid-line left a torn last line: start on a fresh line so this entry stays whole
    appendFileSync(path, `${torn ? "\n" : ""}${JSON.stringify(entry)}\n`, { mode: 0o600 });
    return undefined;
  } catch (error) {
    return `lanes: could not write the audit log \`${path}\`: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Whether the file's last byte is a newline (one byte read at the end). */
function endsWithNewline(path: string, size: number): boolean {
  const fd = openSync(path, "r");
  try {
    const byte = Buffer.alloc(1);
    return readSync(fd, byte, 0, 1, size - 1) === 1 && byte[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

/** Parses the text of an audit log: the entries, and how many torn lines (cut by a crash mid-write) were skipped. */
export function parseAuditLog(text: string): { entries: AuditEntry[]; torn: number } {
  const entries: AuditEntry[] = [];
  let torn = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const parsed = parseLine(line);
    if (parsed !== undefined) {
      entries.push(parsed);
      continue;
    }
    torn++;
    // a torn line followed by a whole entry on the same line (written by lanes before the torn-line
    // fix): recover the entry that starts after the tear
    for (let at = line.indexOf('{"ts":', 1); at > 0; at = line.indexOf('{"ts":', at + 1)) {
      const rest = parseLine(line.slice(at));
      if (rest !== undefined) {
        entries.push(rest);
        break;
      }
    }
  }
  return { entries, torn };
}

function parseLine(line: string): AuditEntry | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as { ts?: unknown }).ts === "string" ? (value as AuditEntry) : undefined;
  } catch {
    return undefined;
  }
}

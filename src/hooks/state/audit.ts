/**
 * The append-only audit log, `.claude/state/audit.jsonl`: one JSON object per line, bounded in
 * size (past the limit the file rotates to `audit.1.jsonl`, replacing the previous one). Each line
 * is appended with a single `write` on an `O_APPEND` descriptor, so concurrent hooks never
 * interleave within a line. Failing to log never changes a decision: errors go to stderr. Secrets
 * (values secret by name or by shape, src/shell/redact.ts) are redacted before writing.
 */
import { closeSync, constants, fstatSync, renameSync, writeSync } from "node:fs";
import { APPEND, openState, readAt, readState } from "../../io/read.ts";
import { compiledOptions } from "../../config/policy-file.ts";
import type { EventAudit } from "../../host/events.ts";
import { AUDIT_MIN_BYTES, DEFAULT_OPTIONS } from "../../policy/compiled.ts";
import type { RiskClass } from "../../policy/types.ts";
import { redactSecrets } from "../../shell/redact.ts";
import { ensureStateDir } from "./state-dir.ts";

/** The fields that carry free text (commands, paths, reasons): redacted before they are stored. */
const FREE_TEXT = ["subject", "reason"] as const;

/** The entry with secrets redacted from its free-text fields (src/shell/redact.ts): the log never stores them. */
export function redactEntry(entry: AuditEntry): AuditEntry {
  const out: Record<string, unknown> = { ...entry };
  for (const key of FREE_TEXT) if (typeof out[key] === "string") out[key] = redactSecrets(out[key] as string);
  return out as AuditEntry;
}

/** Events lanes records: those of the guard and the runtime, and those of the event table's handlers. */
export type AuditEvent =
  | "decision"
  | "boundary-violation"
  | "escalation"
  | "task-assigned"
  | "task-updated"
  | "task-refused"
  | "validation"
  | "human-decision"
  | "file-touched"
  | "conflict"
  | "policy-error"
  | "policy-compiled"
  | "checkpoint"
  | "handoff"
  | "skill-completed"
  | "snapshot"
  | "undo"
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
  /** For decisions: `deny`, `ask` or `none` (no opinion); for human decisions: `allow-once`. */
  readonly decision?: "deny" | "ask" | "none" | "allow-once";
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
    // the first line holds the options (a parse of the whole file cost more than the rest of a PostToolUse call)
    const limit = (compiledOptions(compiledPolicy) ??
      (JSON.parse(readState(compiledPolicy)) as { options?: Record<string, unknown> }).options)?.["auditMaxBytes"];
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
        const line = `${JSON.stringify(redactEntry(entry))}\n`;
        // one descriptor for the size, the last byte and the append (O_APPEND: concurrent hooks never interleave)
        // never through a link planted at the log's name (O_NOFOLLOW), only into a regular file
        let fd = openState(path, APPEND);
        try {
          let size = fstatSync(fd).size;
          if (size > AUDIT_MIN_BYTES && size > (limit ??= limitOf(paths.compiledPolicy))) {
            closeSync(fd);
            try {
              renameSync(path, `${paths.state}/audit.1.jsonl`);
            } catch {
              // another hook rotated it first
            }
            fd = openState(path, APPEND);
            size = fstatSync(fd).size;
          }
          // a writer killed mid-line left a torn last line: start on a fresh line so this entry stays whole
          writeSync(fd, size > 0 && !endsWithNewline(fd, size) ? `\n${line}` : line);
        } finally {
          closeSync(fd);
        }
        return undefined;
      } catch (error) {
        return `lanes: could not write the audit log \`${path}\`: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
  };
}

/** Whether the file's last byte is a newline (one byte read at the end). */
function endsWithNewline(fd: number, size: number): boolean {
  return readAt(fd, size - 1, 1)[0] === 0x0a;
}

/**
 * Where the audit log stood at a moment (a subagent's start): the log file's inode, its size and
 * its first bytes (an inode number is reused once a rotated file is gone; a log's first entry,
 * time-stamped to the millisecond, is not). What was appended after it is read from there
 * ({@link auditAfter}) instead of parsing a log of up to two files of several megabytes for its tail.
 */
export interface AuditMark {
  readonly ino: number;
  readonly size: number;
  readonly head: string;
}

/** The bytes of a log that tell it from a later one in the same inode. */
const MARK_HEAD = 64;

/** The mark of a log file, and its text from byte `from` (none with `from` undefined); `undefined` when absent or unreadable. */
function readLog(path: string, from?: number): { readonly mark: AuditMark; readonly text: string } | undefined {
  try {
    const fd = openState(path, constants.O_RDONLY);
    try {
      const { ino, size } = fstatSync(fd);
      const head = readAt(fd, 0, Math.min(size, MARK_HEAD)).toString("latin1");
      const start = Math.min(from ?? size, size);
      return { mark: { ino, size, head }, text: readAt(fd, start, size - start).toString("utf8") };
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** The mark of the log at `state` now; `undefined` when there is no log yet. */
export function auditMark(state: string): AuditMark | undefined {
  return readLog(`${state}/audit.jsonl`)?.mark;
}

/** Whether a log, as it is now, is the one a mark was taken of. */
const sameLog = (now: AuditMark, mark: AuditMark): boolean =>
  now.ino === mark.ino && now.size >= mark.size && now.head.startsWith(mark.head);

/**
 * The text appended to the log at `state` since `mark`: from the mark's offset of the file it was
 * taken in, now `audit.jsonl` or, rotated since, `audit.1.jsonl` (then all of the new log after it);
 * both files whole when the mark is older than both (rotated twice) or there was no log at the mark.
 * A line cut at the mark is dropped by the parser as a torn one.
 */
export function auditAfter(state: string, mark: AuditMark | undefined): string {
  const log = `${state}/audit.jsonl`;
  const rotatedLog = `${state}/audit.1.jsonl`;
  const tail = readLog(log, mark?.size ?? 0);
  if (mark !== undefined && tail !== undefined && sameLog(tail.mark, mark)) return tail.text;
  // rotated since the mark, or no log at the mark: the new log whole, after the old one from the mark
  const current = mark === undefined ? tail : readLog(log, 0);
  const rotated = readLog(rotatedLog, mark?.size ?? 0);
  const older =
    rotated === undefined
      ? ""
      : mark === undefined || sameLog(rotated.mark, mark)
        ? rotated.text
        : (readLog(rotatedLog, 0)?.text ?? "");
  return `${older}${older === "" || older.endsWith("\n") ? "" : "\n"}${current?.text ?? ""}`;
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
    return typeof value === "object" &&
      value !== null &&
      !Array.isArray(value) &&
      typeof (value as { ts?: unknown }).ts === "string"
      ? (value as AuditEntry)
      : undefined;
  } catch {
    return undefined;
  }
}

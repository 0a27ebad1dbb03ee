/**
 * `lanes log`: read the audit log (`.claude/state/audit.jsonl` and its rotated predecessor),
 * filtered by agent, event, decision and session.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseAuditLog, type AuditEntry, type AuditEvent } from "../../hooks/state/audit.ts";
import { findProjectDir } from "../../host/env.ts";
import { projectPaths } from "../../host/layout.ts";
import { parseCommandArgs } from "../args.ts";
import { CliError, type Command } from "../types.ts";
import { homeOf } from "../../host/env.ts";
import { policyForCli } from "../policy-source.ts";
import { laneRules } from "./rules.ts";

/** Every event of the audit log, with what it records (the type check keeps the list complete). */
export const AUDIT_EVENTS: Readonly<Record<AuditEvent, string>> = {
  decision: "the guard's decision on a tool call",
  "boundary-violation": "a write outside the agent's lane",
  escalation: "repeated denials: the agent is told to stop and report",
  "subagent-start": "a subagent started",
  "subagent-stop": "a subagent stopped",
  "task-created": "a task was created",
  "task-assigned": "a task was assigned",
  "task-updated": "a task was updated",
  "task-completed": "a task was completed",
  "task-refused": "a task's creation or completion was refused",
  validation: "a subagent run validated (VALID / VIOLATION, SAFE / REVIEW_REQUIRED / DANGEROUS)",
  "human-decision": "a human's override or decision",
  "tool-failed": "a tool call that failed",
  "file-touched": "files a call created or modified",
  conflict: "two agents modified the same file",
  checkpoint: "a checkpoint saved",
  "policy-error": "the policy did not compile",
  "policy-compiled": "the policy was compiled",
  handoff: "a skill handed off to another (type, target, whether the target was available)",
  "skill-completed": "a composite skill completed (its learnings hook)",
  snapshot: "a snapshot kept before a destructive call (or why none could be)",
  undo: "`lanes undo` restored files of a snapshot",
};

/** Entry #n in words: what was called, by whom, what lanes decided and why, and the rules as the policy states them today. */
function explain(e: Numbered, projectDir: string, env: Readonly<Record<string, string | undefined>>): string {
  const lines = [`#${e.n} ${e.event} at ${e.ts}${e.session === undefined ? "" : ` (session ${e.session})`}`];
  lines.push(
    `  by:       ${e.agent === undefined ? "the main session" : `subagent ${e.agent}${e.agent_id === undefined ? "" : ` (${e.agent_id})`}`}`,
  );
  if (e.tool !== undefined)
    lines.push(`  call:     ${e.tool}${e.subject === undefined || e.subject === "" ? "" : ` ${e.subject}`}`);
  if (e.decision !== undefined)
    lines.push(
      `  decision: ${e.decision === "none" ? "no objection (the call went on to Claude Code's own permissions)" : e.decision}${e.risk === undefined ? "" : ` (${e.risk})`}`,
    );
  if (e.reason !== undefined) lines.push(`  reason:   ${e.reason}`);
  const ids = e.rules ?? [];
  if (ids.length > 0) {
    let rules: readonly { id: string; why: string; instead: string; source: string }[] = [];
    let lanes: ReturnType<typeof laneRules> = [];
    try {
      const policy = policyForCli(projectDir, homeOf(env)).policy;
      rules = policy.rules;
      lanes = laneRules(policy);
    } catch {
      // the policy does not compile now: explain from the entry alone
    }
    for (const id of ids) {
      const rule = rules.find((r) => r.id === id);
      const lane = rule === undefined ? lanes.find((r) => r.id === id) : undefined;
      lines.push(
        rule !== undefined
          ? `  rule ${id} (${rule.source}): ${rule.why}; instead, ${rule.instead}`
          : lane !== undefined
            ? `  rule ${id} (${lane.layer} layer, built in${lane.on ? "" : ", switched off today"}): ${lane.what}; the reason above says what to do instead`
            : id.startsWith("settings.") || id.includes("(")
              ? `  rule ${id}: a Claude Code settings rule (\`permissions.deny\`/\`ask\`)`
              : `  rule ${id}: not in today's policy (removed or renamed)`,
      );
    }
  }
  if (e.tool === "Bash" && e.subject !== undefined && e.subject !== "")
    lines.push(
      `  today:    \`lanes check ${JSON.stringify(e.subject)}${e.agent === undefined ? "" : ` --agent ${e.agent}`}\` judges it with the current policy (secrets in it were redacted)`,
    );
  return `${lines.join("\n")}\n`;
}

const usage = `usage: lanes log [options]

show the audit log of decisions and agent events, oldest first

options:
  --agent <name>      only this agent type (\`main\` for the main session)
  --event <name>      only this event (${Object.keys(AUDIT_EVENTS).join(", ")});
                      with \`handoff\`, a last line counts how many reached their target
  --decision <d>      only decisions deny, ask or none
  --session <id>      only this session
  --task <id>         one task's history: created, assigned, updated, validated, completed or refused
  --tail <n>          the last n entries (default 50; 0 for all)
  --project <dir>     project root (default: nearest ancestor with .claude/)
  --explain <n>       explain entry #n (the number in the first column): the call, the decision,
                      each deciding rule's why and what to do instead, and how it is judged today
  --json              print the entries as JSON lines (each with its number \`n\`)

secrets in commands (values secret by name: TOKEN=, --password, Authorization headers; or by
shape: key prefixes, JWTs, long random words) are redacted before they are written, so the log
never holds them; ordinary assignments (FOO=bar make) are kept`;

/** The entries of one log file; torn lines (cut by a crash mid-write) are skipped with a warning on stderr. */
function readEntries(path: string, warn: (text: string) => void): AuditEntry[] {
  if (!existsSync(path)) return [];
  const { entries, torn } = parseAuditLog(readFileSync(path, "utf8"));
  if (torn > 0)
    warn(
      `lanes: skipped ${torn} torn line${torn === 1 ? "" : "s"} in \`${path}\` (a writer was killed mid-line); the entries around ${torn === 1 ? "it" : "them"} are shown\n`,
    );
  return entries;
}

type Numbered = AuditEntry & { readonly n: number };

function render(e: Numbered): string {
  const who = e.agent ?? "main";
  const what = e.decision !== undefined ? `${e.decision.padEnd(4)} ` : "";
  const rules = e.rules !== undefined && e.rules.length > 0 ? `  [${e.rules.join(", ")}]` : "";
  const subject = e.subject === undefined || e.subject === "" ? "" : `  ${e.subject.replace(/\s+/g, " ")}`;
  return `#${String(e.n).padEnd(5)} ${e.ts}  ${e.event.padEnd(18)} ${what}${who.padEnd(16)} ${(e.tool ?? "").padEnd(8)}${subject}${rules}${taskDetails(e)}`;
}

/** The task-channel fields of an entry, when it has any. */
function taskDetails(e: AuditEntry): string {
  const parts: string[] = [];
  if (typeof e["task_id"] === "string") parts.push(`task #${e["task_id"]}`);
  if (typeof e["assignee"] === "string") parts.push(`assignee ${e["assignee"]}`);
  if (typeof e["boundary"] === "string") parts.push(`${e["boundary"]}, ${String(e["risk"])}`);
  if (typeof e["outcome"] === "string") parts.push(`outcome ${e["outcome"]}`);
  if (Array.isArray(e["files"]) && e["files"].length > 0 && e.event !== "file-touched")
    parts.push(`files ${(e["files"] as unknown[]).join(" ")}`);
  if (Array.isArray(e["reassign_to"]) && e["reassign_to"].length > 0)
    parts.push(`reassign to ${(e["reassign_to"] as unknown[]).join(", ")}`);
  return parts.length === 0 ? "" : `  (${parts.join("; ")})`;
}

/** The handoff success line (skill collaboration: monitor the handoff success rate). */
export function handoffRate(entries: readonly AuditEntry[]): string {
  const handoffs = entries.filter((e) => e.event === "handoff");
  const reached = handoffs.filter((e) => e["available"] === true).length;
  const pct = handoffs.length === 0 ? 0 : Math.round((reached / handoffs.length) * 100);
  return `handoffs: ${handoffs.length}, ${reached} reached their target (${pct}%), ${handoffs.length - reached} to a skill that was not available`;
}

/** One task's history: its own entries, plus the validations of the runs that worked on it. */
export function taskHistory<E extends AuditEntry>(entries: readonly E[], taskId: string): E[] {
  const own = (e: E) => e["task_id"] === taskId;
  const runs = new Set(entries.filter((e) => own(e) && typeof e.agent_id === "string").map((e) => e.agent_id));
  return entries.filter(
    (e) => own(e) || (e.event === "validation" && e.agent_id !== undefined && runs.has(e.agent_id)),
  );
}

export const logCommand: Command = {
  name: "log",
  summary: "show the audit log, filtered by agent, event or decision",
  usage,
  async run(args, ctx) {
    const { values } = parseCommandArgs(
      args,
      {
        agent: { type: "string" },
        event: { type: "string" },
        decision: { type: "string" },
        session: { type: "string" },
        task: { type: "string" },
        tail: { type: "string" },
        project: { type: "string" },
        json: { type: "boolean" },
        explain: { type: "string" },
      },
      usage,
      false,
    );
    const tail = values.tail === undefined ? 50 : Number(values.tail);
    if (!Number.isInteger(tail) || tail < 0)
      throw new CliError(`\`--tail\` expects a whole number, received \`${values.tail}\``, 64, usage);
    if (values.event !== undefined && !Object.hasOwn(AUDIT_EVENTS, values.event))
      throw new CliError(
        `\`--event\` is one of ${Object.keys(AUDIT_EVENTS).join(", ")}, received \`${values.event}\``,
        64,
        usage,
      );
    if (values.decision !== undefined && !["deny", "ask", "none"].includes(values.decision))
      throw new CliError(`\`--decision\` is deny, ask or none, received \`${values.decision}\``, 64, usage);
    const projectDir = values.project ?? findProjectDir(ctx.cwd, ctx.env);
    const state = projectPaths(projectDir).state;
    let entries: Numbered[] = [
      ...readEntries(`${state}/audit.1.jsonl`, ctx.err),
      ...readEntries(`${state}/audit.jsonl`, ctx.err),
    ].map((e, i) => ({ ...e, n: i + 1 }));
    if (values.explain !== undefined) {
      const n = Number(values.explain);
      const entry = entries.find((e) => e.n === n);
      if (entry === undefined)
        throw new CliError(
          `there is no entry #${values.explain} in ${state}/audit.jsonl (it holds ${entries.length}); run \`lanes log\` to see the numbers`,
          1,
        );
      ctx.out(explain(entry, projectDir, ctx.env));
      return 0;
    }
    if (values.agent !== undefined) entries = entries.filter((e) => (e.agent ?? "main") === values.agent);
    if (values.event !== undefined) entries = entries.filter((e) => e.event === values.event);
    if (values.decision !== undefined) entries = entries.filter((e) => e.decision === values.decision);
    if (values.session !== undefined) entries = entries.filter((e) => e.session === values.session);
    if (values.task !== undefined) entries = taskHistory(entries, values.task);
    if (tail > 0) entries = entries.slice(-tail);
    if (values.json === true) {
      for (const e of entries) ctx.out(`${JSON.stringify(e)}\n`);
      return 0;
    }
    if (entries.length === 0) {
      ctx.out(`no matching entries in ${state}/audit.jsonl\n`);
      return 0;
    }
    for (const e of entries) ctx.out(`${render(e)}\n`);
    if (values.event === "handoff") ctx.out(`${handoffRate(entries)}\n`);
    return 0;
  },
};

/**
 * `lanes log`: read the audit log (`.claude/state/audit.jsonl` and its rotated predecessor),
 * filtered by agent, event, decision and session.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseAuditLog, type AuditEntry } from "../../hooks/audit.ts";
import { findProjectDir } from "../../host/env.ts";
import { projectPaths } from "../../host/layout.ts";
import { parseCommandArgs } from "../args.ts";
import { CliError, type Command } from "../types.ts";

const usage = `usage: lanes log [options]

show the audit log of decisions and agent events, oldest first

options:
  --agent <name>      only this agent type (\`main\` for the main session)
  --event <name>      only this event (decision, boundary-violation, escalation, subagent-start,
                      subagent-stop, task-created, task-completed, file-touched, conflict,
                      policy-error, policy-compiled)
  --decision <d>      only decisions deny, ask or none
  --session <id>      only this session
  --tail <n>          the last n entries (default 50; 0 for all)
  --project <dir>     project root (default: nearest ancestor with .claude/)
  --json              print the entries as JSON lines`;

/** The entries of one log file; torn lines (cut by a crash mid-write) are skipped with a warning on stderr. */
function readEntries(path: string, warn: (text: string) => void): AuditEntry[] {
  if (!existsSync(path)) return [];
  const { entries, torn } = parseAuditLog(readFileSync(path, "utf8"));
  if (torn > 0) warn(`lanes: skipped ${torn} torn line${torn === 1 ? "" : "s"} in \`${path}\` (a writer was killed mid-line); the entries around ${torn === 1 ? "it" : "them"} are shown\n`);
  return entries;
}

function render(e: AuditEntry): string {
  const who = e.agent ?? "main";
  const what = e.decision !== undefined ? `${e.decision.padEnd(4)} ` : "";
  const rules = e.rules !== undefined && e.rules.length > 0 ? `  [${e.rules.join(", ")}]` : "";
  const subject = e.subject === undefined || e.subject === "" ? "" : `  ${e.subject.replace(/\s+/g, " ")}`;
  return `${e.ts}  ${e.event.padEnd(18)} ${what}${who.padEnd(16)} ${(e.tool ?? "").padEnd(8)}${subject}${rules}`;
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
        tail: { type: "string" },
        project: { type: "string" },
        json: { type: "boolean" },
      },
      usage,
      false,
    );
    const tail = values.tail === undefined ? 50 : Number(values.tail);
    if (!Number.isInteger(tail) || tail < 0) throw new CliError(`\`--tail\` expects a whole number, received \`${values.tail}\``, 64, usage);
    if (values.decision !== undefined && !["deny", "ask", "none"].includes(values.decision)) throw new CliError(`\`--decision\` is deny, ask or none, received \`${values.decision}\``, 64, usage);
    const projectDir = values.project ?? findProjectDir(ctx.cwd, ctx.env);
    const state = projectPaths(projectDir).state;
    let entries = [...readEntries(`${state}/audit.1.jsonl`, ctx.err), ...readEntries(`${state}/audit.jsonl`, ctx.err)];
    if (values.agent !== undefined) entries = entries.filter((e) => (e.agent ?? "main") === values.agent);
    if (values.event !== undefined) entries = entries.filter((e) => e.event === values.event);
    if (values.decision !== undefined) entries = entries.filter((e) => e.decision === values.decision);
    if (values.session !== undefined) entries = entries.filter((e) => e.session === values.session);
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
    return 0;
  },
};

/**
 * `lanes log`: read the audit log (`.claude/state/audit.jsonl` and its rotated predecessor),
 * filtered by agent, event, decision and session.
 */
import { existsSync, readFileSync } from "node:fs";
import type { AuditEntry } from "../../hooks/audit.ts";
import { findProjectDir } from "../../host/env.ts";
import { projectPaths } from "../../host/layout.ts";
import { parseCommandArgs } from "../args.ts";
import { CliError, type Command } from "../types.ts";
import { homeOf } from "../../host/env.ts";
import { policyForCli } from "../policy-source.ts";

/** Entry #n in words: what was called, by whom, what lanes decided and why, and the rules as the policy states them today. */
function explain(e: Numbered, projectDir: string, env: Readonly<Record<string, string | undefined>>): string {
  const lines = [`#${e.n} ${e.event} at ${e.ts}${e.session === undefined ? "" : ` (session ${e.session})`}`];
  lines.push(`  by:       ${e.agent === undefined ? "the main session" : `subagent ${e.agent}${e.agent_id === undefined ? "" : ` (${e.agent_id})`}`}`);
  if (e.tool !== undefined) lines.push(`  call:     ${e.tool}${e.subject === undefined || e.subject === "" ? "" : ` ${e.subject}`}`);
  if (e.decision !== undefined) lines.push(`  decision: ${e.decision === "none" ? "no objection (the call went on to Claude Code's own permissions)" : e.decision}${e.risk === undefined ? "" : ` (${e.risk})`}`);
  if (e.reason !== undefined) lines.push(`  reason:   ${e.reason}`);
  const ids = e.rules ?? [];
  if (ids.length > 0) {
    let rules: readonly { id: string; why: string; instead: string; source: string }[] = [];
    try {
      rules = policyForCli(projectDir, homeOf(env)).policy.rules;
    } catch {
      // the policy does not compile now: explain from the entry alone
    }
    for (const id of ids) {
      const rule = rules.find((r) => r.id === id);
      lines.push(rule === undefined ? `  rule ${id}: not in today's policy (removed, renamed, or from settings or an agent's lane)` : `  rule ${id} (${rule.source}): ${rule.why}; instead, ${rule.instead}`);
    }
  }
  if (e.tool === "Bash" && e.subject !== undefined && e.subject !== "") lines.push(`  today:    \`lanes check ${JSON.stringify(e.subject)}${e.agent === undefined ? "" : ` --agent ${e.agent}`}\` judges it with the current policy (secrets in it were redacted)`);
  return `${lines.join("\n")}\n`;
}

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
  --explain <n>       explain entry #n (the number in the first column): the call, the decision,
                      each deciding rule's why and what to do instead, and how it is judged today
  --json              print the entries as JSON lines (each with its number \`n\`)

secrets in commands (env assignment values, tokens, Authorization headers, key shapes) are
redacted before they are written, so the log never holds them`;

function readEntries(path: string): AuditEntry[] {
  if (!existsSync(path)) return [];
  const entries: AuditEntry[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      entries.push(JSON.parse(line) as AuditEntry);
    } catch {
      // a line cut by a crash mid-write: skip it
    }
  }
  return entries;
}

type Numbered = AuditEntry & { readonly n: number };

function render(e: Numbered): string {
  const who = e.agent ?? "main";
  const what = e.decision !== undefined ? `${e.decision.padEnd(4)} ` : "";
  const rules = e.rules !== undefined && e.rules.length > 0 ? `  [${e.rules.join(", ")}]` : "";
  const subject = e.subject === undefined || e.subject === "" ? "" : `  ${e.subject.replace(/\s+/g, " ")}`;
  return `#${String(e.n).padEnd(5)} ${e.ts}  ${e.event.padEnd(18)} ${what}${who.padEnd(16)} ${(e.tool ?? "").padEnd(8)}${subject}${rules}`;
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
        explain: { type: "string" },
      },
      usage,
      false,
    );
    const tail = values.tail === undefined ? 50 : Number(values.tail);
    if (!Number.isInteger(tail) || tail < 0) throw new CliError(`\`--tail\` expects a whole number, received \`${values.tail}\``, 64, usage);
    if (values.decision !== undefined && !["deny", "ask", "none"].includes(values.decision)) throw new CliError(`\`--decision\` is deny, ask or none, received \`${values.decision}\``, 64, usage);
    const projectDir = values.project ?? findProjectDir(ctx.cwd, ctx.env);
    const state = projectPaths(projectDir).state;
    let entries: Numbered[] = [...readEntries(`${state}/audit.1.jsonl`), ...readEntries(`${state}/audit.jsonl`)].map((e, i) => ({ ...e, n: i + 1 }));
    if (values.explain !== undefined) {
      const n = Number(values.explain);
      const entry = entries.find((e) => e.n === n);
      if (entry === undefined) throw new CliError(`there is no entry #${values.explain} in ${state}/audit.jsonl (it holds ${entries.length}); run \`lanes log\` to see the numbers`, 1);
      ctx.out(explain(entry, projectDir, ctx.env));
      return 0;
    }
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

/**
 * `lanes decide approve|reject`: the human's decision on a DANGEROUS outcome.
 * While a hold waits, lanes refuses task creation and completion and stops the session after a
 * subagent's DANGEROUS run; the decision clears the hold and is logged with its context.
 */
import { findProjectDir } from "../../host/env.ts";
import { auditLog } from "../../hooks/state/audit.ts";
import { clearHold, readHold } from "../../hooks/state/task-store.ts";
import { projectPaths } from "../../host/layout.ts";
import { parseCommandArgs } from "../args.ts";
import { CliError, type Command } from "../types.ts";
import { isoTime } from "../../io/time.ts";

const usage = `usage: lanes decide approve|reject [--note <text>] [--project <dir>]

records the human's decision on a DANGEROUS outcome and lets work continue:
  approve   the output stands; the orchestrator may go on
  reject    the output is rejected; the orchestrator has it reverted or redone
without a decision pending, says so and changes nothing`;

export const decideCommand: Command = {
  name: "decide",
  summary: "record the human's decision on a DANGEROUS outcome",
  usage,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(
      args,
      { note: { type: "string" }, project: { type: "string" } },
      usage,
      true,
    );
    const decision = positionals[0];
    if (decision !== "approve" && decision !== "reject")
      throw new CliError(`the decision is \`approve\` or \`reject\`, received \`${decision ?? ""}\``, 64, usage);
    const projectDir = values.project ?? findProjectDir(ctx.cwd, ctx.env);
    const state = projectPaths(projectDir).state;
    const hold = readHold(state);
    if (hold === undefined) {
      ctx.out("no decision is pending: nothing changed\n");
      return 0;
    }
    clearHold(state);
    const problem = auditLog(projectPaths(projectDir)).append({
      ts: isoTime(new Date()),
      event: "human-decision",
      decision: decision === "approve" ? "none" : "deny",
      subject: decision,
      reason: hold.reason,
      agent: hold.agent,
      ...(hold.agent_id !== undefined && { agent_id: hold.agent_id }),
      ...(hold.task_id !== undefined && { task_id: hold.task_id }),
      ...(values.note !== undefined && { note: values.note }),
      held_since: hold.since,
    });
    if (problem !== undefined) ctx.err(`${problem}\n`);
    ctx.out(`${decision === "approve" ? "approved" : "rejected"}: ${hold.reason}; work may continue\n`);
    return 0;
  },
};

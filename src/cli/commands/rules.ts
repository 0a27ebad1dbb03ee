/**
 * `lanes rules`: every rule in force, with its id, layer, effect and source; the switched-off
 * ones; and the agent lanes.
 */
import { findProjectDir, homeOf } from "../../host/env.ts";
import { parseCommandArgs } from "../args.ts";
import { policyForCli } from "../policy-source.ts";
import type { Command } from "../types.ts";

const usage = `usage: lanes rules [--json] [--project <dir>]

list the rules in force (highest layer first), the rules switched off, and the agent lanes`;

export const rulesCommand: Command = {
  name: "rules",
  summary: "list the rules in force and the agent lanes",
  usage,
  async run(args, ctx) {
    const { values } = parseCommandArgs(args, { json: { type: "boolean" }, project: { type: "string" } }, usage, false);
    const projectDir = values.project ?? findProjectDir(ctx.cwd, ctx.env);
    const { policy, origin, note } = policyForCli(projectDir, homeOf(ctx.env));
    if (values.json === true) {
      ctx.out(`${JSON.stringify({ policy: origin, options: policy.options, rules: policy.rules.map((r) => ({ id: r.id, layer: r.layer, effect: r.effect, kind: r.match.kind, why: r.why, instead: r.instead, source: r.source })), disabled: policy.disabled, agents: policy.agents.map((a) => ({ name: a.name, role: a.role, owns: a.owns.flatMap((g) => g.globs), mustNot: a.mustNot.map((r) => r.id), maySpawn: a.maySpawn, mayInvokeSkills: a.mayInvokeSkills, source: a.source })) })}\n`);
      return 0;
    }
    const w = Math.max(...policy.rules.map((r) => r.id.length));
    ctx.out(`rules in force (${policy.rules.length}), highest layer first:\n`);
    for (const r of policy.rules) ctx.out(`  ${r.layer.padEnd(8)} ${r.effect.padEnd(5)} ${r.id.padEnd(w)}  ${r.why}\n`);
    if (policy.disabled.length > 0) {
      ctx.out("switched off:\n");
      for (const d of policy.disabled) ctx.out(`  ${d.id}  (by ${d.by})\n`);
    }
    ctx.out(`agent lanes (${policy.agents.length}):\n`);
    for (const a of policy.agents) ctx.out(`  ${a.name.padEnd(16)} ${a.role.padEnd(12)} owns ${a.owns.length === 0 ? "nothing" : a.owns.flatMap((g) => g.globs).join(", ")}\n`);
    ctx.out(`options: ${JSON.stringify(policy.options)}\npolicy: ${origin}\n`);
    if (note !== undefined) ctx.err(`${note}\n`);
    return 0;
  },
};

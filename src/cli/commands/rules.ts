/**
 * `lanes rules`: every rule in force, with its id, layer, effect and source; the switched-off
 * ones; and the agent lanes.
 */
import { findProjectDir, homeOf } from "../../host/env.ts";
import { parseCommandArgs } from "../args.ts";
import { policyForCli } from "../policy-source.ts";
import type { Command } from "../types.ts";
import { LANE_RULES } from "../../policy/lanes.ts";
import { MEMORY_LANE_RULE } from "../../policy/memory-lane.ts";
import { TASK_RULES } from "../../policy/tasks.ts";

/** Every rule enforced below the policy layers: lane, memory, task-channel, task, spawn-tree, subagents and agent MUST NOT rules. */
export function laneRules(
  policy: ReturnType<typeof policyForCli>["policy"],
): { id: string; layer: string; effect: string; what: string; on: boolean }[] {
  const off = new Set(policy.disabled.map((d) => d.id));
  const rows: { id: string; layer: string; effect: string; what: string; on: boolean }[] = Object.entries(
    LANE_RULES,
  ).map(([id, r]) => ({ id, layer: r.layer, effect: r.effect, what: r.what, on: !off.has(id) }));
  rows.push({ ...MEMORY_LANE_RULE, on: true });
  for (const [id, r] of Object.entries(TASK_RULES))
    rows.push({ id, layer: r.layer, effect: r.effect, what: r.what, on: !off.has(id) });
  const mustNot = [...policy.subagents.mustNot, ...policy.agents.flatMap((a) => a.mustNot)];
  for (const r of mustNot)
    if (!rows.some((x) => x.id === r.id))
      rows.push({ id: r.id, layer: r.layer, effect: r.effect, what: r.why, on: true });
  for (const d of policy.disabled)
    if (!rows.some((x) => x.id === d.id) && (d.id.startsWith("agent.") || d.id.startsWith("subagents.")))
      rows.push({ id: d.id, layer: "must-not", effect: "deny", what: "MUST NOT rule", on: false });
  return rows;
}

const usage = `usage: lanes rules [--json] [--project <dir>]

list the rules in force (highest layer first), the lane, task and spawn-tree rules, the rules
switched off, and the agent lanes. Any id can go in \`disable:\`; \`allow\` rules cancel only rules of
lower policy layers, never lane, task, spawn-tree or MUST NOT rules`;

export const rulesCommand: Command = {
  name: "rules",
  summary: "list the rules in force and the agent lanes",
  usage,
  async run(args, ctx) {
    const { values } = parseCommandArgs(args, { json: { type: "boolean" }, project: { type: "string" } }, usage, false);
    const projectDir = values.project ?? findProjectDir(ctx.cwd, ctx.env);
    const { policy, origin, note } = policyForCli(projectDir, homeOf(ctx.env));
    if (values.json === true) {
      ctx.out(
        `${JSON.stringify({ policy: origin, options: policy.options, rules: policy.rules.map((r) => ({ id: r.id, layer: r.layer, effect: r.effect, kind: r.match.kind, why: r.why, instead: r.instead, source: r.source })), disabled: policy.disabled, laneRules: laneRules(policy), subagents: { defaultLane: policy.options.defaultLane, lanes: policy.subagents.lanes, toolsAllowed: policy.subagents.toolsAllowed, toolsForbidden: policy.subagents.toolsForbidden }, agents: policy.agents.map((a) => ({ name: a.name, role: a.role, owns: a.owns.flatMap((g) => g.globs), mustNot: a.mustNot.map((r) => r.id), maySpawn: a.maySpawn, mayInvokeSkills: a.mayInvokeSkills, source: a.source })) })}\n`,
      );
      return 0;
    }
    const w = Math.max(...policy.rules.map((r) => r.id.length));
    ctx.out(`rules in force (${policy.rules.length}), highest layer first:\n`);
    for (const r of policy.rules) ctx.out(`  ${r.layer.padEnd(8)} ${r.effect.padEnd(5)} ${r.id.padEnd(w)}  ${r.why}\n`);
    const lane = laneRules(policy);
    const lw = Math.max(...lane.map((r) => r.id.length));
    ctx.out(
      `lane, task, spawn-tree and MUST NOT rules (${lane.length}; \`disable:\` switches them off, \`allow\` never cancels them):\n`,
    );
    for (const r of lane)
      ctx.out(`  ${r.layer.padEnd(8)} ${r.effect.padEnd(5)} ${r.id.padEnd(lw)}  ${r.on ? "" : "(off) "}${r.what}\n`);
    if (policy.disabled.length > 0) {
      ctx.out("switched off:\n");
      for (const d of policy.disabled) ctx.out(`  ${d.id}  (by ${d.by})\n`);
    }
    ctx.out(`agent lanes (${policy.agents.length}):\n`);
    for (const a of policy.agents)
      ctx.out(
        `  ${a.name.padEnd(16)} ${a.role.padEnd(12)} owns ${a.owns.length === 0 ? "nothing" : a.owns.flatMap((g) => g.globs).join(", ")}\n`,
      );
    const named = { ...{ Explore: "deny-writes", Plan: "deny-writes" }, ...policy.subagents.lanes };
    ctx.out(
      `subagents without a definition: ${Object.entries(named)
        .map(([t, l]) => `${t} ${l}`)
        .join(", ")}, every other one (general-purpose, plugin agents) ${policy.options.defaultLane}\n`,
    );
    ctx.out(`options: ${JSON.stringify(policy.options)}\npolicy: ${origin}\n`);
    if (note !== undefined) ctx.err(`${note}\n`);
    return 0;
  },
};

/**
 * `lanes agents`: the live agent tree of each recent session (`.claude/state/agents.json`), each
 * agent with its lane (what it may write) and its task constraints, and how it was linked to its
 * parent.
 */
import { projectPaths } from "../../host/layout.ts";
import { findProjectDir, homeOf } from "../../host/env.ts";
import { readAgentTree, type AgentNode, type SessionTree } from "../../hooks/state/agent-tree.ts";
import type { CompiledPolicy } from "../../policy/compiled.ts";
import { baseAgentName, laneOfUndefined } from "../../policy/lanes.ts";
import { taskText } from "../../policy/task-block.ts";
import { parseCommandArgs } from "../args.ts";
import { policyForCli } from "../policy-source.ts";
import type { Command } from "../types.ts";

const usage = `usage: lanes agents [--json] [--session <id>] [--project <dir>]

show the live agent tree of each recent session: every subagent with its lane, its task
constraints (from the constraint block of the Agent call that started it) and how it was linked
to its parent (tool-response and transcript are exact; order is a guess by event order)`;

/** The lane of an agent type, one line. */
export function laneText(policy: CompiledPolicy, type: string): string {
  const agent = policy.agents.find((a) => a.name === baseAgentName(type));
  if (agent === undefined) return `no definition, lane ${laneOfUndefined(policy, type)}`;
  const owns = agent.owns.flatMap((g) => g.globs);
  return owns.length === 0 ? "owns nothing (read-only)" : `owns ${owns.join(", ")}`;
}

function printSession(id: string, s: SessionTree, policy: CompiledPolicy, out: (t: string) => void): void {
  out(`session ${id} (updated ${s.updated})\n  main\n`);
  const children = new Map<string | null, [string, AgentNode][]>();
  for (const [agentId, node] of Object.entries(s.agents)) {
    const parent = node.parent !== null && s.agents[node.parent] !== undefined ? node.parent : null;
    children.set(parent, [...(children.get(parent) ?? []), [agentId, node]]);
  }
  const walk = (parent: string | null, depth: number) => {
    for (const [agentId, node] of (children.get(parent) ?? []).sort((a, b) =>
      a[1].started.localeCompare(b[1].started),
    )) {
      const pad = "  ".repeat(depth + 2);
      const state = node.stopped === undefined ? "running" : "stopped";
      out(
        `${pad}└ ${node.type} ${agentId} (${state}, linked by ${node.link ?? "order"})${node.description === undefined ? "" : `: ${node.description}`}\n`,
      );
      out(`${pad}    lane: ${laneText(policy, node.type)}\n${pad}    task: ${taskText(node.task)}\n`);
      walk(agentId, depth + 1);
    }
  };
  walk(null, 0);
  if (s.intents.length > 0) out(`  waiting to start: ${s.intents.map((i) => i.type).join(", ")}\n`);
}

export const agentsCommand: Command = {
  name: "agents",
  summary: "show the live agent tree with each agent's lane and task constraints",
  usage,
  async run(args, ctx) {
    const { values } = parseCommandArgs(
      args,
      { json: { type: "boolean" }, session: { type: "string" }, project: { type: "string" } },
      usage,
      false,
    );
    const projectDir = values.project ?? findProjectDir(ctx.cwd, ctx.env);
    const tree = readAgentTree(projectPaths(projectDir).agentTree);
    const sessions = Object.entries(tree.sessions)
      .filter(([id]) => values.session === undefined || id === values.session)
      .sort((a, b) => b[1].updated.localeCompare(a[1].updated));
    if (values.json === true) {
      ctx.out(`${JSON.stringify({ sessions: Object.fromEntries(sessions) })}\n`);
      return 0;
    }
    if (sessions.length === 0) {
      ctx.out("lanes agents: no agent was started in a recent session\n");
      return 0;
    }
    const { policy } = policyForCli(projectDir, homeOf(ctx.env));
    for (const [id, s] of sessions) printSession(id, s, policy, ctx.out);
    return 0;
  },
};

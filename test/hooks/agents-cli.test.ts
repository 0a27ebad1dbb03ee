/**
 * `lanes agents` (the live tree with lanes and constraints) and the lane rules in `lanes rules`.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { agentsCommand } from "../../src/cli/commands/agents.ts";
import { rulesCommand } from "../../src/cli/commands/rules.ts";
import type { Command } from "../../src/cli/types.ts";
import { recordSpawnIntent, recordSpawnResult, recordSubagentStart } from "../../src/hooks/state/agent-tree.ts";
import { parseTaskBlock } from "../../src/policy/task-block.ts";
import { fnv1a64 } from "../../src/io/hash.ts";

const ROOT = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "lanes-agents-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, ".claude", "lanes"), { recursive: true });
cpSync(join(ROOT, "definitions", "agents"), join(dir, ".claude", "lanes", "agents"), { recursive: true });
writeFileSync(
  join(dir, ".claude", "lanes.yaml"),
  'version: 1\ndisable: [agents.depth-limit]\nsubagents:\n  lanes: { "other:helper": global-only }\n',
);

async function run(command: Command, args: string[]) {
  let out = "";
  let err = "";
  const code =
    (await command.run(args, {
      cwd: dir,
      env: { HOME: dir, CLAUDE_PROJECT_DIR: dir },
      out: (t) => void (out += t),
      err: (t) => void (err += t),
      stdin: async () => "",
    })) ?? 0;
  return { code, out, err };
}

describe("lanes agents", () => {
  it("says when no agent ran", async () => {
    expect(await run(agentsCommand, [])).toMatchObject({
      code: 0,
      out: "lanes agents: no agent was started in a recent session\n",
    });
  });

  it("shows the tree with each agent's lane, task constraints and link", async () => {
    const tree = join(dir, ".claude", "state", "agents.json");
    const state = join(dir, ".claude", "state");
    const now = new Date("2026-11-22T10:00:00Z");
    const task = "<constraints>\n- only modify src/server/users/**\n- do not run git push\n- be quick\n</constraints>";
    recordSpawnIntent(tree, state, "s1", undefined, "orchestrator", now, {
      prompt: fnv1a64("plan"),
      task: null,
      description: "plan the feature",
    });
    recordSubagentStart(tree, state, "s1", "a-orch", "lanes:orchestrator", now, fnv1a64("plan"));
    recordSpawnResult(
      tree,
      state,
      "s1",
      {
        agentId: "a-back",
        parent: "a-orch",
        type: "backend",
        prompt: fnv1a64(task),
        task: parseTaskBlock(task)!,
        description: "users endpoint",
      },
      now,
    );
    recordSpawnResult(
      tree,
      state,
      "s1",
      { agentId: "a-gp", parent: undefined, type: "general-purpose", prompt: fnv1a64("tidy"), task: null },
      now,
    );
    const { code, out } = await run(agentsCommand, []);
    expect(code).toBe(0);
    const lines = out.split("\n");
    expect(lines[1]).toBe("  main");
    expect(out).toContain("└ lanes:orchestrator a-orch (running, linked by transcript): plan the feature");
    expect(out).toContain("└ backend a-back (running, linked by tool-response): users endpoint");
    expect(out).toContain('task: only modify src/server/users/**; do not run git push; not understood: "- be quick"');
    expect(out).toContain("lane: owns src/server/**,");
    expect(out).toContain("└ general-purpose a-gp (running, linked by tool-response)");
    expect(out).toContain("lane: no definition, lane unowned-only");
    // backend sits under the orchestrator
    expect(out.indexOf("a-back")).toBeGreaterThan(out.indexOf("a-orch"));
    expect(lines.find((l) => l.includes("a-back"))?.startsWith("      └")).toBe(true);
  });
});

describe("lanes rules lists the lane rules with their state", () => {
  it("lists lane, task, spawn-tree and MUST NOT rules, marks the switched-off ones, and the lanes of agents without a definition", async () => {
    const { code, out } = await run(rulesCommand, []);
    expect(code).toBe(0);
    expect(out).toMatch(/role +deny +agents\.depth-limit +\(off\) starting an agent nested deeper/);
    expect(out).toMatch(/task +deny +task\.command-forbidden +a command the task says not to run/);
    expect(out).toMatch(
      /must-not deny +agent\.database\.no-prod-migrate +database must not run migrations with a production environment/,
    );
    expect(out).toContain(
      "subagents without a definition: Explore deny-writes, Plan deny-writes, other:helper global-only, every other one (general-purpose, plugin agents) unowned-only",
    );
  });
});

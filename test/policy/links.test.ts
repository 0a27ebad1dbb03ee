/**
 * Paths judged by where they lead, for agents' lanes (issue 22): a subagent's link to another
 * lane is a write of that lane, a write through a link in its own lane that leads into another is
 * denied, and links inside its own lane stay quiet. Then names on a case-insensitive file system,
 * and what the reasons say.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentDefinition } from "../../src/definitions/agent.ts";
import { parseDefinition } from "../../src/definitions/load.ts";
import { renderReason } from "../../src/policy/render.ts";
import { fakeDisk, type FakeDisk } from "../helpers/disk.ts";
import { expectDecision, judge, PROJECT, testPolicy } from "../helpers/guard.ts";

const dir = join(import.meta.dirname, "..", "..", "definitions", "agents");
const agents = readdirSync(dir)
  .filter((f) => f.endsWith(".yaml"))
  .map((f) => {
    const parsed = parseDefinition(AgentDefinition, readFileSync(join(dir, f), "utf8"), f);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    return { path: f, definition: parsed.value.value };
  });
const policy = testPolicy([], agents);
const abs = (rel: string) => `${PROJECT}/${rel}`;
/** Project-relative keys, as a corpus case writes them. */
const onDisk = (d: FakeDisk) =>
  fakeDisk({
    files: Object.fromEntries(Object.entries(d.files ?? {}).map(([k, v]) => [abs(k), v])),
    links: Object.fromEntries(Object.entries(d.links ?? {}).map(([k, v]) => [abs(k), v])),
  });

interface Case {
  readonly as: string;
  readonly command?: string;
  readonly tool?: string;
  readonly input?: Record<string, unknown>;
  readonly disk?: FakeDisk;
  readonly decision: "deny" | "ask" | "none";
  readonly rules?: readonly string[];
}

const cases: Case[] = [
  // a link to another lane is a write of it, made and used on one line or in the next call
  {
    as: "frontend",
    command: "ln -s ../server src/components/srv",
    decision: "deny",
    rules: ["lane.write-outside-owned"],
  },
  {
    as: "frontend",
    command: "ln -s ../server/api.ts src/components/api-proxy.ts && echo x > src/components/api-proxy.ts",
    decision: "deny",
    rules: ["lane.write-outside-owned"],
  },
  {
    as: "frontend",
    command: "ln src/server/users.ts src/components/users.ts",
    decision: "deny",
    rules: ["lane.write-outside-owned"],
  },
  {
    as: "frontend",
    command: "cp -l src/server/users.ts src/components/",
    decision: "deny",
    rules: ["lane.write-outside-owned"],
  },
  {
    as: "frontend",
    command: "python3 -c \"import os; os.symlink('../server', 'src/components/srv')\"",
    decision: "deny",
    rules: ["lane.write-outside-owned"],
  },
  {
    as: "frontend",
    command: "ln -s ../server src/components/server-view && git -C src/components/server-view stash push -q -- api.ts",
    decision: "deny",
    rules: ["lane.write-outside-owned"],
  },
  // through a link already in the tree
  {
    as: "frontend",
    command: "echo 'export const hacked = 1;' > src/components/srv/api.ts",
    disk: { links: { "src/components/srv": "../server" } },
    decision: "deny",
    rules: ["lane.write-outside-owned"],
  },
  {
    as: "frontend",
    command: "cd src/components/srv && sed -i 's/a/b/' api.ts",
    disk: { links: { "src/components/srv": "../server" } },
    decision: "deny",
    rules: ["lane.write-outside-owned"],
  },
  {
    as: "frontend",
    tool: "Write",
    input: { file_path: abs("src/components/server/api.ts"), content: "x" },
    disk: { links: { "src/components/server": "../server" } },
    decision: "deny",
    rules: ["lane.write-outside-owned"],
  },
  {
    as: "frontend",
    tool: "Edit",
    input: { file_path: abs("src/components/backend-view/api.ts"), old_string: "a", new_string: "b" },
    disk: { links: { "src/components/backend-view": "../server" } },
    decision: "deny",
    rules: ["lane.write-outside-owned"],
  },
  {
    as: "frontend",
    tool: "Write",
    input: { file_path: abs("src/components/api.ts"), content: "x" },
    disk: { links: { "src/components/api.ts": "../server/api.ts" } },
    decision: "deny",
    rules: ["lane.write-outside-owned"],
  },
  // another agent's memory file through a link in qa's own lane
  {
    as: "qa",
    command: "ln -s ../.claude/memory/L1--design-reviewer-memory.md tests/notes.md",
    decision: "deny",
    rules: ["lane.memory-not-own"],
  },
  {
    as: "qa",
    command: "printf 'forged\\n' > tests/notes.md",
    disk: { links: { "tests/notes.md": "../.claude/memory/L1--design-reviewer-memory.md" } },
    decision: "deny",
    rules: ["lane.memory-not-own"],
  },
  // outside the project and lanes' own files, for a subagent
  {
    as: "backend",
    command: "ln -s /work/outside src/server/ext",
    decision: "ask",
    rules: ["fs.write-outside-project"],
  },
  {
    as: "backend",
    command: "echo x > src/server/ext/notes.txt",
    disk: { links: { "src/server/ext": "/work/outside" } },
    decision: "ask",
    rules: ["fs.write-outside-project"],
  },
  {
    as: "backend",
    tool: "Write",
    input: { file_path: abs("src/server/cfg/settings.json"), content: "{}" },
    disk: { links: { "src/server/cfg": "../../.claude" } },
    decision: "deny",
    rules: ["lane.write-outside-owned", "lanes.config"],
  },
  // links inside the agent's own lane stay quiet
  {
    as: "frontend",
    command: "ln -s ../../docs/guide.md src/components/guide.md",
    decision: "deny",
    rules: ["lane.write-outside-owned"],
  },
  { as: "frontend", command: "ln -s ../ui/Button.tsx src/components/Button.tsx", decision: "none" },
  {
    as: "frontend",
    command: "ln -s ../pages/home src/components/home && echo x > src/components/home/index.tsx",
    decision: "none",
  },
  { as: "frontend", command: "ln -s Button.tsx src/components/Btn.tsx", decision: "none" },
  {
    as: "frontend",
    tool: "Write",
    input: { file_path: abs("src/components/shared/x.tsx"), content: "x" },
    disk: { links: { "src/components/shared": "../styles/shared" } },
    decision: "none",
  },
  {
    as: "backend",
    command: "cat src/server/srv-view/api.ts && ls -l src/server",
    disk: { links: { "src/server/srv-view": "../components" } },
    decision: "none",
  },
];

describe("a subagent's links and writes through links", () => {
  it.each(
    cases.map((c) => [`${c.as}: ${c.command ?? `${c.tool} ${JSON.stringify(c.input)}`} -> ${c.decision}`, c] as const),
  )("%s", (_name, c) => {
    expectDecision(
      judge(policy, c.command, {
        agent: c.as,
        ...(c.tool !== undefined && { tool: c.tool }),
        ...(c.input !== undefined && { input: c.input }),
        ...(c.disk !== undefined && { disk: onDisk(c.disk) }),
      }),
      c.decision,
      c.rules,
    );
  });

  it("names the path as written and where it leads", () => {
    const e = judge(policy, "echo x > src/components/srv/api.ts", {
      agent: "frontend",
      disk: onDisk({ links: { "src/components/srv": "../server" } }),
    });
    const reason = renderReason(e.decision!, { call: "`echo x > src/components/srv/api.ts`", agent: "frontend" });
    expect(reason).toContain("`src/components/srv/api.ts` (which leads to `src/server/api.ts`)");
    expect(reason).toContain("`src/server/api.ts` is owned by `backend`");
    const link = judge(policy, "ln -s ../server src/components/srv", { agent: "frontend" });
    expect(renderReason(link.decision!, { call: "`ln -s ../server src/components/srv`", agent: "frontend" })).toContain(
      "a link `src/components/srv` to `../server`: `src/server` is owned by `backend`",
    );
  });
});

describe("names on a case-insensitive file system", () => {
  const ci = testPolicy([
    { layer: "project", path: "/p/lanes.yaml", file: { version: 1, options: { case_insensitive_paths: true } } },
  ]);
  it.each<[string, "deny" | "ask" | "none", string[], "deny" | "ask" | "none", string[]]>([
    // case-insensitive: the same files as their lowercase names; case-sensitive: other files
    ["echo '{}' > .CLAUDE/settings.json", "deny", ["lanes.config-shell"], "none", []],
    ["cat .Env", "deny", ["secrets.env-files"], "none", []],
    ["ln -s .Claude/Lanes/Dist d", "deny", ["lanes.config-shell"], "none", []],
    [
      "ln -s .claude/lanes/dist D && : > d/pre-tool-use.cjs",
      "deny",
      ["lanes.config-shell"],
      "deny",
      ["lanes.config-shell"],
    ],
    ["cat .claude/state/OVERRIDES.json", "deny", ["lanes.override"], "none", []],
  ])("%s → %s (case-insensitive), %s (case-sensitive)", (command, ciEffect, ciRules, csEffect, csRules) => {
    expectDecision(judge(ci, command), ciEffect, ciRules);
    expectDecision(judge(testPolicy(), command), csEffect, csRules);
  });
});

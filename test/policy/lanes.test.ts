/**
 * Agent lanes with the pack's own team: in-lane and out-of-lane writes through every tool,
 * MUST NOT rules, tools, skills, spawns, nesting and cycles, task constraints, and precedence
 * against the global rules.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compilePathGlob } from "../../src/globs/compile.ts";
import { AgentDefinition } from "../../src/definitions/agent.ts";
import { parseDefinition } from "../../src/definitions/load.ts";
import type { TaskConstraints } from "../../src/policy/lanes.ts";
import { describeCall, renderReason } from "../../src/policy/render.ts";
import {
  expectAsk,
  expectDecision,
  expectDenied,
  expectNoOpinion,
  judge,
  PROJECT,
  testPolicy,
} from "../helpers/guard.ts";

const dir = join(import.meta.dirname, "..", "..", "definitions", "agents");
const agents = readdirSync(dir)
  .filter((f) => f.endsWith(".yaml"))
  .map((f) => {
    const parsed = parseDefinition(AgentDefinition, readFileSync(join(dir, f), "utf8"), f);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    return { path: f, definition: parsed.value.value };
  });
/** A specialist with every tool, so each tool's writes are judged by the lane alone. */
const api = AgentDefinition.parse({
  name: "api",
  description: "test specialist with every tool, owning the server paths",
  role: "specialist",
  identity: "You are the API specialist used by the lane tests.",
  responsibilities: ["serve"],
  owns: ["src/server/**", "src/services/**", "src/jobs/**", "api/**", "server/**"],
});
const policy = testPolicy(
  [],
  [
    ...agents.filter((a) => a.definition.name !== "backend"),
    { path: "api.yaml", definition: api },
    ...agents.filter((a) => a.definition.name === "backend"),
  ],
);
const abs = (rel: string) => `${PROJECT}/${rel}`;

describe("writes inside and outside an agent's lane, through every tool", () => {
  it.each<[string, string, Record<string, unknown>]>([
    ["Write", "src/server/app.ts", { file_path: abs("src/server/app.ts"), content: "x" }],
    ["Edit", "src/server/app.ts", { file_path: abs("src/server/app.ts"), old_string: "a", new_string: "b" }],
    ["MultiEdit", "api/users.ts", { file_path: abs("api/users.ts"), edits: [] }],
    ["NotebookEdit", "server/analysis.ipynb", { notebook_path: abs("server/analysis.ipynb"), new_source: "x" }],
    ["Bash", "src/server/app.ts", { command: "echo 'export {}' > src/server/app.ts" }],
    ["Bash", "src/services/log.txt", { command: "npm test 2>&1 | tee src/services/log.txt" }],
    ["Bash", "src/server/app.ts", { command: "sed -i 's/a/b/' src/server/app.ts" }],
    ["Bash", "src/server/copy.ts", { command: "cp README.md src/server/copy.ts" }],
    ["Bash", "src/jobs/new.ts", { command: "mkdir -p src/jobs && touch src/jobs/new.ts" }],
    ["Bash", "src/server/old.ts", { command: "rm src/server/old.ts" }],
  ])("an agent may %s %s in its lane", (tool, _path, input) => {
    expectNoOpinion(judge(policy, undefined, { tool, input, agent: "api" }));
  });

  it.each<[string, string, Record<string, unknown>, string]>([
    ["Write", "src/components/Button.tsx", { file_path: abs("src/components/Button.tsx"), content: "x" }, "frontend"],
    [
      "Edit",
      "src/components/Button.tsx",
      { file_path: abs("src/components/Button.tsx"), old_string: "a", new_string: "b" },
      "frontend",
    ],
    ["MultiEdit", "migrations/001.sql", { file_path: abs("migrations/001.sql"), edits: [] }, "database"],
    ["NotebookEdit", "docs/guide.md", { notebook_path: abs("docs/guide.md"), new_source: "x" }, "docs"],
    ["Bash", "src/components/a.tsx", { command: "echo x > src/components/a.tsx" }, "frontend"],
    ["Bash", "src/components/a.tsx", { command: "echo x | tee src/components/a.tsx" }, "frontend"],
    ["Bash", "src/styles/app.css", { command: "sed -i 's/red/blue/' src/styles/app.css" }, "frontend"],
    ["Bash", "prisma/schema.prisma", { command: "cp /tmp/schema.prisma prisma/schema.prisma" }, "database"],
    ["Bash", "test/api.test.ts", { command: "mv src/server/api.test.ts test/api.test.ts" }, "qa"],
    ["Bash", "docs/adr.md", { command: "touch docs/adr.md" }, "docs"],
    ["Bash", "app/page.tsx", { command: "touch app/page.tsx" }, "frontend"],
    ["Bash", "db/seed.sql", { command: "rm db/seed.sql" }, "database"],
    ["Bash", "public/logo.svg", { command: "ln -s ../assets/logo.svg public/logo.svg" }, "frontend"],
  ])("an agent may not %s %s, owned by %s", (tool, _path, input, owner) => {
    const e = judge(policy, undefined, { tool, input, agent: "api" });
    expectDenied(e, "lane.write-outside-owned");
    expect(e.decision?.matches[0]?.why).toContain(`owned by \`${owner}\``);
    expect(e.decision?.matches[0]?.instead).toContain(`hand this change to \`${owner}\` through the orchestrator`);
  });

  it("denies a tool the agent's definition does not allow, before looking at paths", () => {
    expectDenied(
      judge(policy, undefined, {
        tool: "NotebookEdit",
        input: { notebook_path: abs("src/server/a.ipynb"), new_source: "x" },
        agent: "backend",
      }),
      "lane.tool-not-allowed",
    );
  });

  it("follows does_not_own: frontend owns app/** but app/api/** is the backend's", () => {
    expectNoOpinion(
      judge(policy, undefined, {
        tool: "Write",
        input: { file_path: abs("app/dashboard/page.tsx"), content: "x" },
        agent: "frontend",
      }),
    );
    const e = judge(policy, undefined, {
      tool: "Write",
      input: { file_path: abs("app/api/users/route.ts"), content: "x" },
      agent: "frontend",
    });
    expectDenied(e, "lane.write-outside-owned");
    expect(e.decision?.matches[0]?.why).toContain("owned by `backend`");
  });

  it("names no owner when nobody owns the path", () => {
    const e = judge(policy, undefined, {
      tool: "Write",
      input: { file_path: abs("Makefile"), content: "x" },
      agent: "backend",
    });
    expectDenied(e, "lane.write-outside-owned");
    expect(e.decision?.matches[0]?.why).toBe("`Makefile` is outside backend's lane and no agent owns it");
  });

  it("lets every agent write its memory file", () => {
    expectNoOpinion(
      judge(policy, undefined, {
        tool: "Write",
        input: { file_path: abs(".claude/memory/t1--backend-memory.md"), content: "x" },
        agent: "backend",
      }),
    );
  });

  it("accepts plugin-namespaced agent types", () => {
    expectDenied(
      judge(policy, undefined, {
        tool: "Write",
        input: { file_path: abs("src/components/a.tsx"), content: "x" },
        agent: "lanes:backend",
      }),
      "lane.write-outside-owned",
    );
  });

  it("asks when a subagent writes a path known only at run time", () => {
    expectAsk(judge(policy, 'echo x > "$OUT"', { agent: "backend" }), "lane.write-unknown-path");
  });

  it("allows reads anywhere", () => {
    expectNoOpinion(judge(policy, "cat src/components/Button.tsx", { agent: "backend" }));
    expectNoOpinion(
      judge(policy, undefined, { tool: "Read", input: { file_path: abs("migrations/001.sql") }, agent: "backend" }),
    );
  });
});

describe("MUST NOT rules, tools, skills and spawns", () => {
  it("enforces an agent's MUST NOT command rule", () => {
    expectDenied(judge(policy, "git push origin feature/x", { agent: "backend" }), "agent.backend.no-push");
    expectNoOpinion(judge(policy, "git push origin feature/x"));
  });
  it("enforces a MUST NOT rule with effect ask", () => {
    expectAsk(judge(policy, "prisma migrate deploy", { agent: "database" }), "agent.database.ask-deploy");
  });
  it("enforces MUST NOT tools for a read-only reviewer", () => {
    expectDenied(
      judge(policy, "ls", { agent: "design-reviewer" }),
      "agent.design-reviewer.read-only",
      "lane.tool-not-allowed",
    );
  });
  it("denies tools outside the allowed list", () => {
    expectDenied(
      judge(policy, undefined, {
        tool: "Agent",
        input: { description: "x", prompt: "y", subagent_type: "qa" },
        agent: "backend",
      }),
      "lane.spawn-not-allowed",
      "lane.tool-not-allowed",
    );
  });
  it("keeps skills for the human and the orchestrator", () => {
    expectDenied(
      judge(policy, undefined, { tool: "Skill", input: { skill: "risk-classifier" }, agent: "backend" }),
      "lane.skill-not-allowed",
      "lane.tool-not-allowed",
    );
    expectNoOpinion(
      judge(policy, undefined, { tool: "Skill", input: { skill: "risk-classifier" }, agent: "orchestrator" }),
    );
    expectNoOpinion(judge(policy, undefined, { tool: "Skill", input: { skill: "risk-classifier" } }));
  });
});

describe("spawning agents: existence, depth and cycles", () => {
  const spawn = (type: string) => ({ tool: "Agent", input: { description: "d", prompt: "p", subagent_type: type } });
  it("lets the main session and the orchestrator start known agents", () => {
    expectNoOpinion(judge(policy, undefined, spawn("orchestrator")));
    expectNoOpinion(judge(policy, undefined, { ...spawn("backend"), agent: "orchestrator" }));
    expectNoOpinion(judge(policy, undefined, spawn("general-purpose")));
  });
  it("denies an agent type that does not exist, listing the known ones", () => {
    const e = judge(policy, undefined, spawn("backnd"));
    expectDenied(e, "agents.unknown-type");
    expect(e.decision?.matches[0]?.instead).toContain("backend");
  });
  it("denies nesting beyond the bound, with the path in the reason", () => {
    // main → orchestrator → orchestrator-2 → orchestrator-3 would be 4 deep (limit 3)
    const e = judge(policy, undefined, {
      ...spawn("backend"),
      agent: "orchestrator",
      path: ["lanes:orchestrator", "orchestrator"],
    });
    expectDenied(e, "agents.depth-limit");
    expect(e.decision?.matches.map((m) => m.why)).toContain(
      "starting `backend` would nest agents 4 deep (limit 3); path: main → orchestrator → orchestrator → orchestrator",
    );
  });
  it("denies a cycle: an agent type already on the path", () => {
    const e = judge(policy, undefined, { ...spawn("orchestrator"), agent: "orchestrator" });
    expectDenied(e, "agents.cycle");
    expect(e.decision?.matches[0]?.why).toBe("`orchestrator` is already on the agent path main → orchestrator");
  });
});

describe("precedence between layers", () => {
  it("a global deny beats an agent's allowance: backend owns src/server/** but not its secrets", () => {
    expectDenied(
      judge(policy, undefined, {
        tool: "Edit",
        input: { file_path: abs("src/server/.env"), old_string: "K=1", new_string: "K=2" },
        agent: "backend",
      }),
      "secrets.env-files",
    );
  });
  it("global destructive rules apply inside a lane", () => {
    expectDenied(
      judge(policy, "rm -rf src/server/../..", { agent: "backend" }),
      "lane.write-outside-owned",
      "fs.delete-project-root",
    );
  });
  it("the main session, which has no agent_id, gets only the global rules", () => {
    expectNoOpinion(
      judge(policy, undefined, { tool: "Write", input: { file_path: abs("src/components/Button.tsx"), content: "x" } }),
    );
  });
  it("a task constraint narrows a lane", () => {
    const task = {
      agent: "backend",
      step: 2,
      writePaths: [compilePathGlob("src/server/users/**", { caseInsensitive: false })],
      tools: undefined,
      readOnly: false,
    };
    expectNoOpinion(
      judge(policy, undefined, {
        tool: "Write",
        input: { file_path: abs("src/server/users/a.ts"), content: "x" },
        agent: "backend",
        task,
      }),
    );
    expectDenied(
      judge(policy, undefined, {
        tool: "Write",
        input: { file_path: abs("src/server/orders/a.ts"), content: "x" },
        agent: "backend",
        task,
      }),
      "task.write-outside-scope",
    );
  });
  it("a task constraint cannot relax anything: paths outside the lane stay denied", () => {
    const task = {
      agent: "backend",
      step: 2,
      writePaths: [compilePathGlob("src/components/**", { caseInsensitive: false })],
      tools: undefined,
      readOnly: false,
    };
    expectDenied(
      judge(policy, undefined, {
        tool: "Write",
        input: { file_path: abs("src/components/a.tsx"), content: "x" },
        agent: "backend",
        task,
      }),
      "lane.write-outside-owned",
    );
  });
  it("a read-only task step denies writes, and applies only to the step's agent", () => {
    const task = { agent: "backend", step: 1, writePaths: undefined, tools: undefined, readOnly: true };
    expectDenied(
      judge(policy, undefined, {
        tool: "Write",
        input: { file_path: abs("src/server/a.ts"), content: "x" },
        agent: "backend",
        task,
      }),
      "task.read-only",
    );
    expectNoOpinion(
      judge(policy, undefined, {
        tool: "Write",
        input: { file_path: abs("src/components/a.tsx"), content: "x" },
        agent: "frontend",
        task,
      }),
    );
  });
  it("a task tool list narrows the tools", () => {
    const task = { agent: "qa", step: 3, writePaths: undefined, tools: ["Read", "Grep"], readOnly: false };
    expectDenied(judge(policy, "npm test", { agent: "qa", task }), "task.tool-not-allowed");
  });
});

describe("agents without a lanes definition", () => {
  it("get only the global rules by default", () => {
    expectNoOpinion(
      judge(policy, undefined, {
        tool: "Write",
        input: { file_path: abs("x.ts"), content: "x" },
        agent: "general-purpose",
      }),
    );
  });
  it("get no writes when the team's default lane is deny-writes", () => {
    const strict = testPolicy(
      [{ layer: "project", path: "/p/lanes.yaml", file: { version: 1, options: { default_lane: "deny-writes" } } }],
      agents,
    );
    expectDenied(
      judge(strict, undefined, {
        tool: "Write",
        input: { file_path: abs("x.ts"), content: "x" },
        agent: "general-purpose",
      }),
      "lane.undefined-agent",
    );
    expectNoOpinion(judge(strict, "git status", { agent: "general-purpose" }));
  });
});

// ---------------------------------------------------------------------------------------------
// per-instance task constraints and lanes: tables of cases, decision and rule ids
// ---------------------------------------------------------------------------------------------

const write = (rel: string) => ({ tool: "Write", input: { file_path: abs(rel), content: "x" } });
const glob = (g: string) => compilePathGlob(g, { caseInsensitive: false });

describe("shared ownership", () => {
  it.each<[string, string, "deny" | "none", string[]]>([
    ["backend", "docs/api/openapi.yaml", "none", []],
    ["docs", "docs/api/openapi.yaml", "none", []],
    ["frontend", "docs/api/openapi.yaml", "deny", ["lane.write-outside-owned"]],
    ["qa", "src/server/users.spec.ts", "none", []],
    ["backend", "src/server/users.spec.ts", "deny", ["lane.write-outside-owned"]],
    ["backend", "src/server/users.ts", "none", []],
  ])("%s writing %s → %s %j", (agent, rel, effect, rules) => {
    expectDecision(judge(policy, undefined, { ...write(rel), agent }), effect, rules);
  });
  it("a denial names every owner of a shared path", () => {
    const e = judge(policy, undefined, { ...write("docs/api/openapi.yaml"), agent: "frontend" });
    expect(e.decision?.matches[0]?.why).toBe("`docs/api/openapi.yaml` is owned by `backend` and `docs`, not frontend");
    expect(e.decision?.matches[0]?.instead).toContain(
      "hand this change to `backend` or `docs` through the orchestrator",
    );
  });
  it("does_not_own still carves out: backend's *.spec.* belongs to qa, named as the owner", () => {
    const e = judge(policy, undefined, { ...write("src/server/users.spec.ts"), agent: "backend" });
    expect(e.decision?.matches[0]?.why).toBe("`src/server/users.spec.ts` is owned by `api` and `qa`, not backend");
  });
});

describe("task constraints per spawned agent instance", () => {
  const task = (agentId: string, block: Partial<TaskConstraints>): TaskConstraints => ({
    agent: "backend",
    agentId,
    step: undefined,
    writePaths: undefined,
    tools: undefined,
    readOnly: false,
    source: `task of backend agent ${agentId}`,
    ...block,
  });
  const users = task("a1", { writePaths: [glob("src/server/users/**")] });
  const orders = task("a2", { writePaths: [glob("src/server/orders/**")], commands: [["git", "commit"]] });
  it.each<[string, string, Record<string, unknown>, "deny" | "none", string[]]>([
    ["a1", "own scope", write("src/server/users/a.ts"), "none", []],
    ["a1", "the other's scope", write("src/server/orders/a.ts"), "deny", ["task.write-outside-scope"]],
    ["a2", "own scope", write("src/server/orders/a.ts"), "none", []],
    ["a2", "the other's scope", write("src/server/users/a.ts"), "deny", ["task.write-outside-scope"]],
    ["a2", "a forbidden command", { command: "git commit -m x" }, "deny", ["task.command-forbidden"]],
    ["a1", "the command the other may not run", { command: "git commit -m x" }, "none", []],
    ["a3", "an instance with no task of its own", write("src/server/orders/a.ts"), "none", []],
  ])("backend %s: %s → %s %j", (agentId, _what, call, effect, rules) => {
    const options =
      "command" in call
        ? { agent: "backend", agentId, tasks: [users, orders] }
        : {
            ...(call as { tool: string; input: Record<string, unknown> }),
            agent: "backend",
            agentId,
            tasks: [users, orders],
          };
    expectDecision(judge(policy, "command" in call ? (call["command"] as string) : undefined, options), effect, rules);
  });
  it.each<
    [
      string,
      Partial<TaskConstraints>,
      string | undefined,
      Record<string, unknown> | undefined,
      "deny" | "none" | "ask",
      string[],
    ]
  >([
    ["read-only denies a write", { readOnly: true }, undefined, write("src/server/a.ts"), "deny", ["task.read-only"]],
    ["read-only allows reads", { readOnly: true }, "cat src/server/a.ts", undefined, "none", []],
    [
      "do not modify",
      { forbiddenPaths: [glob("src/server/auth/**")] },
      undefined,
      write("src/server/auth/x.ts"),
      "deny",
      ["task.write-forbidden"],
    ],
    [
      "do not modify leaves the rest",
      { forbiddenPaths: [glob("src/server/auth/**")] },
      undefined,
      write("src/server/x.ts"),
      "none",
      [],
    ],
    [
      "fixtures: a snapshot file",
      { fixturePaths: ["__snapshots__/", "*.snap", "fixtures/"].map(glob) },
      undefined,
      write("src/server/__snapshots__/a.snap"),
      "deny",
      ["task.fixtures"],
    ],
    [
      "fixtures: a fixture in the lane",
      { fixturePaths: ["__snapshots__/", "*.snap", "fixtures/"].map(glob) },
      undefined,
      write("src/server/fixtures/users.json"),
      "deny",
      ["task.fixtures"],
    ],
    [
      "constraints only narrow: an only-modify outside the lane stays denied",
      { writePaths: [glob("src/components/**")] },
      undefined,
      write("src/components/a.tsx"),
      "deny",
      ["lane.write-outside-owned"],
    ],
    [
      "unreadable constraints fail closed for writes",
      { unreadable: "its transcript is not there yet" },
      undefined,
      write("src/server/a.ts"),
      "deny",
      ["task.constraints-unreadable"],
    ],
    [
      "unreadable constraints fail closed for commands",
      { unreadable: "its transcript is not there yet" },
      "ls",
      undefined,
      "deny",
      ["task.constraints-unreadable"],
    ],
    [
      "unreadable constraints let reads through",
      { unreadable: "its transcript is not there yet" },
      undefined,
      { tool: "Read", input: { file_path: abs("src/server/a.ts") } },
      "none",
      [],
    ],
  ])("%s", (_name, block, command, call, effect, rules) => {
    expectDecision(
      judge(policy, command, { ...(call ?? {}), agent: "backend", agentId: "a7", tasks: [task("a7", block)] }),
      effect,
      rules,
    );
  });
  it("qa under a read-only task is denied a snapshot update", () => {
    const qaTask: TaskConstraints = {
      agent: "qa",
      agentId: "q1",
      step: undefined,
      writePaths: undefined,
      tools: undefined,
      readOnly: true,
    };
    expectDenied(judge(policy, "npx vitest run -u", { agent: "qa", agentId: "q1", tasks: [qaTask] }), "task.read-only");
    expectAsk(
      judge(policy, "npx vitest run -u", { agent: "qa", agentId: "q2", tasks: [qaTask] }),
      "agent.qa.ask-snapshot-update",
    );
  });
});

describe("rules for every subagent and agents without a definition", () => {
  const withSub = testPolicy(
    [
      {
        layer: "project",
        path: "/p/lanes.yaml",
        file: {
          version: 1,
          subagents: {
            lanes: { "other:helper": "deny-writes" },
            tools: { forbidden: ["WebSearch"] },
            must_not: [
              { id: "no-publish", text: "publish packages", command: { program: "npm", args: ["run", "release"] } },
            ],
          },
        },
      },
    ],
    agents,
  );
  it.each<[string, string | undefined, Record<string, unknown>, "deny" | "none", string[]]>([
    ["general-purpose", undefined, write("src/components/Button.tsx"), "deny", ["lane.write-into-owned"]],
    ["general-purpose", undefined, write("scripts/release.sh"), "none", []],
    ["Explore", undefined, write("scripts/release.sh"), "deny", ["lane.undefined-agent"]],
    ["Plan", undefined, write("notes.md"), "deny", ["lane.undefined-agent"]],
    ["other:helper", undefined, write("notes.md"), "deny", ["lane.undefined-agent"]],
    ["other:tool", undefined, write("migrations/001.sql"), "deny", ["lane.write-into-owned"]],
    ["backend", "npm run release", {}, "deny", ["subagents.no-publish"]],
    ["general-purpose", "npm run release", {}, "deny", ["subagents.no-publish"]],
    ["backend", undefined, { tool: "WebSearch", input: { query: "x" } }, "deny", ["subagents.tool-forbidden"]],
  ])("%s %s %j → %s %j", (agent, command, call, effect, rules) => {
    expectDecision(judge(withSub, command, { ...call, agent }), effect, rules);
  });
  it("the main session is not a subagent", () => {
    expectNoOpinion(judge(withSub, "npm run release"));
    expectNoOpinion(judge(withSub, undefined, write("src/components/Button.tsx")));
  });
  it("a general-purpose denial names the owners", () => {
    const e = judge(policy, undefined, { ...write("docs/api/openapi.yaml"), agent: "general-purpose" });
    expectDenied(e, "lane.write-into-owned");
    expect(e.decision?.matches[0]?.why).toContain("is in the lane of `backend` and `docs`");
  });
});

describe("what a rule can match: env assignments, option values as words, writes through flags", () => {
  it.each<[string, string, "deny" | "ask" | "none", string[]]>([
    ["database", "NODE_ENV=production npx prisma migrate deploy", "deny", ["agent.database.no-prod-migrate"]],
    ["database", "npx prisma migrate deploy", "ask", ["agent.database.ask-deploy"]],
    ["database", "NODE_ENV=production prisma migrate deploy", "deny", ["agent.database.no-prod-migrate"]],
    ["database", "env NODE_ENV=production prisma migrate deploy", "deny", ["agent.database.no-prod-migrate"]],
    ["database", "NODE_ENV=production npm run migrate", "deny", ["agent.database.no-prod-migrate-script"]],
    ["database", "NODE_ENV=development npm run migrate", "none", []],
    ["database", "knex migrate:latest --env production", "deny", ["agent.database.no-prod-migrate-env"]],
    ["database", "knex migrate:latest --env=production", "deny", ["agent.database.no-prod-migrate-env"]],
    ["database", "npm run migrate -- --target prod", "deny", ["agent.database.no-prod-target"]],
    ["database", "npm run migrate -- --target staging", "none", []],
    ["frontend", "npx eslint --fix src/components/", "none", []],
    ["backend", "npx eslint --fix src/components/", "deny", ["lane.write-outside-owned"]],
    ["backend", "prettier --write src/components/Button.tsx", "deny", ["lane.write-outside-owned"]],
    ["backend", "prettier --check src/components/Button.tsx", "none", []],
    ["backend", "npx eslint src/components/", "none", []],
    ["backend", "npm pkg set scripts.x=y", "deny", ["lane.write-outside-owned"]],
    ["backend", "git apply fix.patch", "ask", ["lane.write-unknown-path"]],
    ["backend", "git apply --check fix.patch", "none", []],
    ["backend", "npx vitest run -u", "deny", ["lane.write-outside-owned"]],
    ["backend", "npx playwright test --update-snapshots", "deny", ["lane.write-outside-owned"]],
    ["backend", "npx jscodeshift -t transform.js src/components/", "deny", ["lane.write-outside-owned"]],
    ["backend", "npx jscodeshift -t transform.js src/server/", "none", []],
    ["backend", "sed -i 's/a/b/' src/components/a.tsx", "deny", ["lane.write-outside-owned"]],
  ])("%s: %s → %s %j", (agent, command, effect, rules) => {
    expectDecision(judge(policy, command, { agent }), effect, rules);
  });
});

describe("lane rules are data: disable and allow by one rule", () => {
  const spawnDeep = {
    tool: "Agent",
    input: { description: "d", prompt: "p", subagent_type: "backend" },
    agent: "orchestrator",
    path: ["lanes:orchestrator", "orchestrator"],
  };
  it("disable switches a spawn-tree rule off from a project layer", () => {
    const off = testPolicy(
      [{ layer: "project", path: "/p/lanes.yaml", file: { version: 1, disable: ["agents.depth-limit"] } }],
      agents,
    );
    expectNoOpinion(judge(off, undefined, spawnDeep));
    expectDenied(judge(policy, undefined, spawnDeep), "agents.depth-limit");
  });
  it("disable switches lane, task and MUST NOT rules off by id", () => {
    const off = testPolicy(
      [
        {
          layer: "local",
          path: "/p/lanes.local.yaml",
          file: { version: 1, disable: ["lane.write-outside-owned", "agent.backend.no-push", "task.read-only"] },
        },
      ],
      agents,
    );
    expectNoOpinion(judge(off, undefined, { ...write("src/components/a.tsx"), agent: "backend" }));
    expectNoOpinion(judge(off, "git push origin x", { agent: "backend" }));
    expectNoOpinion(
      judge(off, undefined, {
        ...write("src/server/a.ts"),
        agent: "backend",
        task: { agent: "backend", step: 1, writePaths: undefined, tools: undefined, readOnly: true },
      }),
    );
  });
  it("an allow rule never cancels a lane or spawn-tree rule", () => {
    const allow = testPolicy(
      [
        {
          layer: "project",
          path: "/p/lanes.yaml",
          file: {
            version: 1,
            rules: [{ id: "team.allow-agents", effect: "allow", why: "w", instead: "i", tools: ["Agent", "Write"] }],
          },
        },
      ],
      agents,
    );
    expectDenied(judge(allow, undefined, spawnDeep), "agents.depth-limit");
    expectDenied(
      judge(allow, undefined, { ...write("src/components/a.tsx"), agent: "backend" }),
      "lane.write-outside-owned",
    );
  });
  it("disable of an unknown id is still refused", () => {
    expect(() =>
      testPolicy([{ layer: "project", path: "/p/lanes.yaml", file: { version: 1, disable: ["lane.nope"] } }], agents),
    ).toThrow("`disable` names unknown rule `lane.nope`");
  });
});

describe("the safer alternative is never denied by the agent's own rules", () => {
  it("backend, banned from pushing, is not told to use --force-with-lease", () => {
    const e = judge(policy, "git push --force origin main", { agent: "backend" });
    expectDenied(e, "git.push-force", "agent.backend.no-push");
    expect(renderReason(e.decision!, { call: "`git push --force origin main`", agent: "backend" })).not.toContain(
      "force-with-lease",
    );
    expect(renderReason(e.decision!, { call: "`git push --force origin main`", agent: "backend" })).toContain(
      "instead, hand this part of the task back to the orchestrator",
    );
  });
  it("the main session keeps the global alternative", () => {
    const e = judge(policy, "git push --force origin main");
    expect(renderReason(e.decision!, { call: "`git push --force origin main`" })).toContain("force-with-lease");
  });
});

describe("option values as separate words before a subcommand", () => {
  const team = testPolicy(
    [
      {
        layer: "project",
        path: "/p/lanes.yaml",
        file: {
          version: 1,
          rules: [
            {
              id: "team.no-cdk-deploy",
              effect: "deny",
              why: "deploys go through the pipeline",
              instead: "open a release pull request",
              command: { program: "cdk", args: ["deploy"] },
            },
            {
              id: "team.no-prod-target",
              effect: "deny",
              why: "production is off limits",
              instead: "use the staging target",
              command: { program: "deploy-tool", option_values: { "--target": ["prod", "production"] } },
            },
          ],
        },
      },
    ],
    agents,
  );
  it.each<[string, "deny" | "none", string[]]>([
    ["cdk deploy", "deny", ["team.no-cdk-deploy"]],
    ["cdk --profile prod deploy", "deny", ["team.no-cdk-deploy"]],
    ["npx cdk --profile prod deploy", "deny", ["team.no-cdk-deploy"]],
    ["cdk --profile prod diff", "none", []],
    ["deploy-tool --target prod", "deny", ["team.no-prod-target"]],
    ["deploy-tool --target=production", "deny", ["team.no-prod-target"]],
    ["deploy-tool --target staging", "none", []],
  ])("%s → %s %j", (command, effect, rules) => {
    expectDecision(judge(team, command), effect, rules);
  });
});

describe("an alternative the agent's own rules deny is never offered", () => {
  const fetcher = AgentDefinition.parse({
    name: "fetcher",
    description: "test specialist that may not use wget, for the alternative check",
    role: "specialist",
    identity: "You are the fetcher used by the alternative tests.",
    responsibilities: ["fetch"],
    owns: ["vendor/**"],
    must_not: [{ id: "no-wget", text: "use wget", command: { program: "wget" } }],
  });
  const team = testPolicy(
    [
      {
        layer: "project",
        path: "/p/lanes.yaml",
        file: {
          version: 1,
          rules: [
            {
              id: "team.no-curl",
              effect: "deny",
              why: "curl is not allowed here",
              instead: "use `wget -q https://example.com/x`",
              command: { program: "curl" },
            },
          ],
        },
      },
    ],
    [{ path: "fetcher.yaml", definition: fetcher }],
  );
  it.each<[string | undefined, string]>([
    [undefined, "instead, use `wget -q https://example.com/x`"],
    ["backend", "instead, use `wget -q https://example.com/x`"],
    ["fetcher", "instead, stop and report to whoever started you what you need; do not work around the rule"],
  ])("as %s", (agent, expected) => {
    const e = judge(team, "curl https://example.com/x", agent === undefined ? {} : { agent });
    expectDenied(e, "team.no-curl");
    expect(renderReason(e.decision!, { call: "`curl https://example.com/x`", agent })).toContain(expected);
  });
});

describe("a denial by several rules reads one sentence per rule", () => {
  const task: TaskConstraints = {
    agent: "backend",
    step: 2,
    writePaths: [compilePathGlob("src/server/users/**", { caseInsensitive: false })],
    forbiddenPaths: [compilePathGlob("src/components/**", { caseInsensitive: false })],
    tools: undefined,
    readOnly: false,
  };
  it.each<[string, string | undefined, { tool?: string; input?: Record<string, unknown> }, string[], string]>([
    [
      "a lane rule and two task constraints: each rule's reason once, the path named once",
      undefined,
      { tool: "Write", input: { file_path: abs("src/components/Nav.tsx"), content: "x" } },
      ["lane.write-outside-owned", "task.write-forbidden", "task.write-outside-scope"],
      `lanes denied Write of \`${abs("src/components/Nav.tsx")}\` by backend: \`src/components/Nav.tsx\` is owned by \`frontend\`, not backend [lane.write-outside-owned]; step 2 says not to modify \`src/components/**\` [task.write-forbidden]; step 2 may only write \`src/server/users/**\` [task.write-outside-scope]; instead, hand this change to \`frontend\` through the orchestrator (say what to change in your report); do not work around the lane`,
    ],
    [
      "one rule over two paths: one sentence",
      "rm src/server/users/a.ts src/server/users/b.ts",
      {},
      ["task.read-only"],
      "lanes denied `rm src/server/users/a.ts src/server/users/b.ts` by backend [task.read-only]: `src/server/users/a.ts`, `src/server/users/b.ts`: step 2 is read-only; instead, report your findings instead of changing files",
    ],
  ])("%s", (_name, command, call, rules, reason) => {
    const read = rules.length === 1 ? { ...task, readOnly: true } : task;
    const e = judge(policy, command, { ...call, agent: "backend", tasks: [read] });
    expectDenied(e, ...rules);
    const shown = describeCall(call.tool ?? "Bash", call.input ?? { command });
    expect(renderReason(e.decision!, { call: shown, agent: "backend" })).toBe(reason);
  });
});

describe("a denial of many paths by one rule", () => {
  it("names three of them and counts the rest", () => {
    const files = ["a", "b", "c", "d", "e", "f"].map((f) => `/home/dev/.ssh/${f}`);
    const e = judge(policy, `rm ${files.join(" ")}`);
    expect(e.decision?.effect).toBe("deny");
    const reason = renderReason(e.decision!, { call: "`rm ...`" });
    expect(reason).toContain("and 3 more: ");
    expect(files.filter((f) => reason.includes(`\`${f}\``))).toHaveLength(3);
  });
});

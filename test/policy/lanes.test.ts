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
import { expectAsk, expectDenied, expectNoOpinion, judge, PROJECT, testPolicy } from "../helpers/guard.ts";

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
const policy = testPolicy([], [...agents.filter((a) => a.definition.name !== "backend"), { path: "api.yaml", definition: api }, ...agents.filter((a) => a.definition.name === "backend")]);
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
    ["Edit", "src/components/Button.tsx", { file_path: abs("src/components/Button.tsx"), old_string: "a", new_string: "b" }, "frontend"],
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
    expectDenied(judge(policy, undefined, { tool: "NotebookEdit", input: { notebook_path: abs("src/server/a.ipynb"), new_source: "x" }, agent: "backend" }), "lane.tool-not-allowed");
  });

  it("follows does_not_own: frontend owns app/** but app/api/** is the backend's", () => {
    expectNoOpinion(judge(policy, undefined, { tool: "Write", input: { file_path: abs("app/dashboard/page.tsx"), content: "x" }, agent: "frontend" }));
    const e = judge(policy, undefined, { tool: "Write", input: { file_path: abs("app/api/users/route.ts"), content: "x" }, agent: "frontend" });
    expectDenied(e, "lane.write-outside-owned");
    expect(e.decision?.matches[0]?.why).toContain("owned by `backend`");
  });

  it("names no owner when nobody owns the path", () => {
    const e = judge(policy, undefined, { tool: "Write", input: { file_path: abs("Makefile"), content: "x" }, agent: "backend" });
    expectDenied(e, "lane.write-outside-owned");
    expect(e.decision?.matches[0]?.why).toBe("`Makefile` is outside backend's lane and no agent owns it");
  });

  it("lets every agent write its memory file", () => {
    expectNoOpinion(judge(policy, undefined, { tool: "Write", input: { file_path: abs(".claude/memory/t1-backend-memory.md"), content: "x" }, agent: "backend" }));
  });

  it("accepts plugin-namespaced agent types", () => {
    expectDenied(judge(policy, undefined, { tool: "Write", input: { file_path: abs("src/components/a.tsx"), content: "x" }, agent: "lanes:backend" }), "lane.write-outside-owned");
  });

  it("asks when a subagent writes a path known only at run time", () => {
    expectAsk(judge(policy, 'echo x > "$OUT"', { agent: "backend" }), "lane.write-unknown-path");
  });

  it("allows reads anywhere", () => {
    expectNoOpinion(judge(policy, "cat src/components/Button.tsx", { agent: "backend" }));
    expectNoOpinion(judge(policy, undefined, { tool: "Read", input: { file_path: abs("migrations/001.sql") }, agent: "backend" }));
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
    expectDenied(judge(policy, "ls", { agent: "design-reviewer" }), "agent.design-reviewer.read-only", "lane.tool-not-allowed");
  });
  it("denies tools outside the allowed list", () => {
    expectDenied(judge(policy, undefined, { tool: "Agent", input: { description: "x", prompt: "y", subagent_type: "qa" }, agent: "backend" }), "lane.spawn-not-allowed", "lane.tool-not-allowed");
  });
  it("keeps skills for the human and the orchestrator", () => {
    expectDenied(judge(policy, undefined, { tool: "Skill", input: { skill: "risk-classifier" }, agent: "backend" }), "lane.skill-not-allowed", "lane.tool-not-allowed");
    expectNoOpinion(judge(policy, undefined, { tool: "Skill", input: { skill: "risk-classifier" }, agent: "orchestrator" }));
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
    const e = judge(policy, undefined, { ...spawn("backend"), agent: "orchestrator", path: ["lanes:orchestrator", "orchestrator"] });
    expectDenied(e, "agents.depth-limit");
    expect(e.decision?.matches.map((m) => m.why)).toContain("starting `backend` would nest agents 4 deep (limit 3); path: main → orchestrator → orchestrator → orchestrator");
  });
  it("denies a cycle: an agent type already on the path", () => {
    const e = judge(policy, undefined, { ...spawn("orchestrator"), agent: "orchestrator" });
    expectDenied(e, "agents.cycle");
    expect(e.decision?.matches[0]?.why).toBe("`orchestrator` is already on the agent path main → orchestrator");
  });
});

describe("precedence between layers", () => {
  it("a global deny beats an agent's allowance: backend owns src/server/** but not its secrets", () => {
    expectDenied(judge(policy, undefined, { tool: "Write", input: { file_path: abs("src/server/.env"), content: "K=1" }, agent: "backend" }), "secrets.env-files");
  });
  it("global destructive rules apply inside a lane", () => {
    expectDenied(judge(policy, "rm -rf src/server/../..", { agent: "backend" }), "lane.write-outside-owned", "fs.delete-project-root");
  });
  it("the main session, which has no agent_id, gets only the global rules", () => {
    expectNoOpinion(judge(policy, undefined, { tool: "Write", input: { file_path: abs("src/components/Button.tsx"), content: "x" } }));
  });
  it("a task constraint narrows a lane", () => {
    const task = { agent: "backend", step: 2, writePaths: [compilePathGlob("src/server/users/**", { caseInsensitive: false })], tools: undefined, readOnly: false };
    expectNoOpinion(judge(policy, undefined, { tool: "Write", input: { file_path: abs("src/server/users/a.ts"), content: "x" }, agent: "backend", task }));
    expectDenied(judge(policy, undefined, { tool: "Write", input: { file_path: abs("src/server/orders/a.ts"), content: "x" }, agent: "backend", task }), "task.write-outside-scope");
  });
  it("a task constraint cannot relax anything: paths outside the lane stay denied", () => {
    const task = { agent: "backend", step: 2, writePaths: [compilePathGlob("src/components/**", { caseInsensitive: false })], tools: undefined, readOnly: false };
    expectDenied(judge(policy, undefined, { tool: "Write", input: { file_path: abs("src/components/a.tsx"), content: "x" }, agent: "backend", task }), "lane.write-outside-owned");
  });
  it("a read-only task step denies writes, and applies only to the step's agent", () => {
    const task = { agent: "backend", step: 1, writePaths: undefined, tools: undefined, readOnly: true };
    expectDenied(judge(policy, undefined, { tool: "Write", input: { file_path: abs("src/server/a.ts"), content: "x" }, agent: "backend", task }), "task.read-only");
    expectNoOpinion(judge(policy, undefined, { tool: "Write", input: { file_path: abs("src/components/a.tsx"), content: "x" }, agent: "frontend", task }));
  });
  it("a task tool list narrows the tools", () => {
    const task = { agent: "qa", step: 3, writePaths: undefined, tools: ["Read", "Grep"], readOnly: false };
    expectDenied(judge(policy, "npm test", { agent: "qa", task }), "task.tool-not-allowed");
  });
});

describe("agents without a lanes definition", () => {
  it("get only the global rules by default", () => {
    expectNoOpinion(judge(policy, undefined, { tool: "Write", input: { file_path: abs("x.ts"), content: "x" }, agent: "general-purpose" }));
  });
  it("get no writes when the team's default lane is deny-writes", () => {
    const strict = testPolicy([{ layer: "project", path: "/p/lanes.yaml", file: { version: 1, options: { default_lane: "deny-writes" } } }], agents);
    expectDenied(judge(strict, undefined, { tool: "Write", input: { file_path: abs("x.ts"), content: "x" }, agent: "general-purpose" }), "lane.undefined-agent");
    expectNoOpinion(judge(strict, "git status", { agent: "general-purpose" }));
  });
});

/**
 * A team with its own agents: `lanes init` installs the starter pack, the team replaces the agents
 * with its own, and `lanes build` still works. Shipped skills that name starter agents are set
 * aside with one warning each naming the agents they need; `lanes lint` says so; the other skills
 * render without references to them; `phase start` of a set-aside skill is refused with the reason.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
let base: string;
let dir: string;
let home: string;
const lanes = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), ...args], {
    cwd: dir,
    env: { PATH: process.env["PATH"], HOME: home },
    encoding: "utf8",
  });

const agent = (
  name: string,
  role: string,
  owns: string[],
  tools?: string,
) => `# yaml-language-server: $schema=../schemas/agent.schema.json
name: ${name}
description: >-
  Use this agent for the ${name} work of this team: a team of its own, not the starter pack's.
role: ${role}
identity: >-
  You are ${name}, one of this team's own agents, with its own lane and tools.
responsibilities:
  - Do the ${name} work.
owns: [${owns.map((o) => JSON.stringify(o)).join(", ")}]
${tools === undefined ? "" : `tools: { allowed: [${tools}] }\n`}`;

let build: ReturnType<typeof lanes>;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "lanes-team-")));
  dir = join(base, "repo");
  home = join(base, "home");
  mkdirSync(home, { recursive: true });
  mkdirSync(dir, { recursive: true });
  spawnSync("git", ["init", "-q"], { cwd: dir });
  writeFileSync(join(dir, "README.md"), "# shop\n");
  const init = lanes("init", dir);
  if (init.status !== 0) throw new Error(init.stderr);
  // the team's own agents replace the starter team
  const agents = join(dir, ".claude", "lanes", "agents");
  for (const f of readdirSync(agents)) rmSync(join(agents, f));
  writeFileSync(join(agents, "lead.yaml"), agent("lead", "orchestrator", ["plans/**"]));
  writeFileSync(join(agents, "api.yaml"), agent("api", "specialist", ["server/**"]));
  writeFileSync(join(agents, "web.yaml"), agent("web", "specialist", ["client/**"]));
  writeFileSync(join(agents, "auditor.yaml"), agent("auditor", "reviewer", [], "Read, Grep"));
  build = lanes("build");
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const ASIDE = {
  "coordinate-work": ["backend", "frontend"],
  "deliver-feature": ["orchestrator", "database", "backend", "frontend", "qa", "docs"],
  "develop-command": ["orchestrator", "qa"],
  "develop-learnings": ["orchestrator", "design-reviewer", "qa", "docs"],
  "develop-skill": ["orchestrator", "design-reviewer", "qa", "docs"],
  "route-request": ["backend", "frontend", "database", "qa", "docs"],
};

describe("a team that replaces the starter agents with its own", () => {
  it("builds: the policy compiles with its lanes, and every other skill is rendered", () => {
    expect(build.status, build.stderr).toBe(0);
    expect(build.stdout).toContain("policy compiled (");
    expect(build.stdout).toContain("4 agent lanes");
    for (const name of ["lead", "api", "web", "auditor"])
      expect(existsSync(join(dir, ".claude", "agents", `${name}.md`))).toBe(true);
    expect(existsSync(join(dir, ".claude", "agents", "backend.md"))).toBe(false);
    for (const kept of ["gated-steps", "parallel-work", "orchestrate-team", "choose-pattern", "api-design"])
      expect(existsSync(join(dir, ".claude", "skills", kept, "SKILL.md")), kept).toBe(true);
  });

  it("sets aside each shipped skill that needs missing agents, with one warning naming them", () => {
    const warnings = build.stderr.split("\n").filter((l) => l.includes("warning skill-set-aside:"));
    expect(warnings).toHaveLength(Object.keys(ASIDE).length);
    for (const [id, needs] of Object.entries(ASIDE)) {
      const line = warnings.find((w) => w.includes(`shipped skill \`${id}\``));
      expect(line, id).toBeDefined();
      for (const a of needs) expect(line, `${id} needs ${a}`).toContain(`\`${a}\``);
      expect(existsSync(join(dir, ".claude", "skills", id, "SKILL.md")), id).toBe(false);
    }
  });

  it("leaves handoffs to a set-aside skill out of the others", () => {
    const advisor = readFileSync(join(dir, ".claude", "skills", "choose-pattern", "SKILL.md"), "utf8");
    expect(advisor).not.toMatch(/\| `deliver-feature` \|/);
    expect(advisor).not.toContain("- to `deliver-feature`");
    expect(advisor).not.toMatch(/\| `route-request`/);
    expect(advisor).toMatch(/\| `orchestrate-team` \|/);
    // a placeholder of a set-aside skill is its plain name, not a reference to a skill that is not there
    expect(advisor).toContain("a feature across several lanes, `deliver-feature`.");
  });

  it("lint says so, without failing", () => {
    const lint = lanes("lint");
    expect(lint.status, lint.stdout).toBe(0);
    expect(lint.stdout).toMatch(/lanes lint: 0 errors, \d+ warnings?/);
    expect(lint.stdout).toContain(
      "shipped skill `develop-command` needs agents `orchestrator`, `qa`, which this team does not have: it is set aside (not rendered)",
    );
  });

  it("refuses to start a set-aside composite skill, naming what it needs", () => {
    const start = lanes("phase", "start", "develop-command", "--task", "c1");
    expect(start.status).toBe(1);
    expect(start.stderr).toContain(
      "skill `develop-command` needs agents `orchestrator`, `qa`, which this team does not have",
    );
  });

  it("still fails on a skill of the team's own that names a missing agent", () => {
    const own = join(dir, ".claude", "lanes", "skills", "ship-it");
    mkdirSync(own, { recursive: true });
    writeFileSync(
      join(own, "skill.yaml"),
      '# yaml-language-server: $schema=../../schemas/skill.schema.json\nid: ship-it\nname: Ship it\ndescription: Use to ship a release of this team\'s product, end to end.\nidentity: You ship releases for this team, carefully and in order.\nowns: [releases]\nsteps:\n  - "Give the release notes to `{agent:writer}`."\n',
    );
    try {
      const again = lanes("build");
      expect(again.status).toBe(1);
      expect(again.stderr).toContain("`ship-it` refers to agent `writer`, which does not exist");
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});

/**
 * Validation on the way out, as tables: the files a run changed (recorded touches and work-tree
 * changes) against the pack's lanes, the commands it ran by risk class, attribution while other
 * agents ran, and the one-line outcome the orchestrator, the audit log and the task get.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentDefinition } from "../../src/definitions/agent.ts";
import { parseDefinition } from "../../src/definitions/load.ts";
import {
  commandRisk,
  reassignTo,
  renderValidation,
  validateRun,
  type ChangeEvidence,
  type CommandEvidence,
  type Risk,
} from "../../src/hooks/validation/validation.ts";
import { HOME, PROJECT, testPolicy } from "../helpers/guard.ts";

const dir = join(import.meta.dirname, "..", "..", "definitions", "agents");
const policy = testPolicy(
  [],
  readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => {
      const parsed = parseDefinition(AgentDefinition, readFileSync(join(dir, f), "utf8"), f);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      return { path: f, definition: parsed.value.value };
    }),
);
const roots = { projectDir: PROJECT, home: HOME, caseInsensitive: false };
const touch = (rel: string, change: ChangeEvidence["change"] = "modified"): ChangeEvidence => ({
  path: `${PROJECT}/${rel}`,
  change,
  source: "touch",
});
const tree = (
  rel: string,
  change: ChangeEvidence["change"] = "created",
  alsoRunning: string[] = [],
): ChangeEvidence => ({ path: `${PROJECT}/${rel}`, change, source: "worktree", alsoRunning });
const bash = (
  subject: string,
  decision: CommandEvidence["decision"] = "none",
  rules: string[] = [],
): CommandEvidence => ({ tool: "Bash", subject, decision, rules });

describe("boundaries: every changed file against the lane", () => {
  it.each<[string, string, ChangeEvidence[], "VALID" | "VIOLATION", [string, string, string | undefined][]]>([
    ["no changes", "backend", [], "VALID", []],
    [
      "backend edits its own file",
      "backend",
      [touch("src/server/users.ts")],
      "VALID",
      [["src/server/users.ts", "in-lane", undefined]],
    ],
    [
      "backend's script creates a file in its lane",
      "backend",
      [tree("src/server/gen/schema.ts")],
      "VALID",
      [["src/server/gen/schema.ts", "in-lane", undefined]],
    ],
    [
      "backend writes a memory file (shared)",
      "backend",
      [touch(".claude/memory/t1/backend.md", "created")],
      "VALID",
      [[".claude/memory/t1/backend.md", "in-lane", undefined]],
    ],
    [
      "a write outside the project is the global rules' business",
      "backend",
      [{ path: "/tmp/out.json", change: "created", source: "touch" }],
      "VALID",
      [["/tmp/out.json", "in-lane", undefined]],
    ],
    [
      "frontend's Edit into backend's lane",
      "frontend",
      [touch("src/server/users.ts")],
      "VIOLATION",
      [["src/server/users.ts", "violation", "backend"]],
    ],
    [
      "frontend's generator writes into backend's lane",
      "frontend",
      [touch("src/components/Form.tsx"), tree("src/server/routes.gen.ts")],
      "VIOLATION",
      [
        ["src/components/Form.tsx", "in-lane", undefined],
        ["src/server/routes.gen.ts", "violation", "backend"],
      ],
    ],
    [
      "frontend writes its carve-out, owned by backend",
      "frontend",
      [tree("src/app/api/users/route.ts")],
      "VIOLATION",
      [["src/app/api/users/route.ts", "violation", "backend"]],
    ],
    [
      "frontend deletes a migration",
      "frontend",
      [tree("migrations/001_users.sql", "deleted")],
      "VIOLATION",
      [["migrations/001_users.sql", "violation", "database"]],
    ],
    [
      "backend writes a path no agent owns",
      "backend",
      [tree("Makefile", "modified")],
      "VIOLATION",
      [["Makefile", "violation", undefined]],
    ],
    [
      "the reviewer (owns nothing) writes anything",
      "design-reviewer",
      [tree("src/components/Button.tsx", "modified")],
      "VIOLATION",
      [["src/components/Button.tsx", "violation", "frontend"]],
    ],
    [
      "an agent without a definition has no lane to check",
      "general-purpose",
      [tree("src/server/x.ts")],
      "VALID",
      [["src/server/x.ts", "in-lane", undefined]],
    ],
    [
      "a script's write while other agents ran commands is unattributed",
      "frontend",
      [tree("src/server/x.ts", "created", ["backend"])],
      "VALID",
      [["src/server/x.ts", "unattributed", "backend"]],
    ],
    [
      "a recorded touch is the run's own even while others ran",
      "frontend",
      [tree("src/server/x.ts", "created", ["backend"]), touch("src/server/x.ts", "created")],
      "VIOLATION",
      [["src/server/x.ts", "violation", "backend"]],
    ],
  ])("%s", (_name, agent, changes, boundary, files) => {
    const result = validateRun({ agentName: agent, policy, roots, changes, commands: [] });
    expect(result.boundary).toBe(boundary);
    expect(result.files.map((f) => [f.path, f.verdict, f.owner])).toEqual(files);
  });

  it("names the paths and their owners, and the agents to reassign to", () => {
    const result = validateRun({
      agentName: "frontend",
      policy,
      roots,
      changes: [tree("src/server/routes.gen.ts"), tree("migrations/002.sql")],
      commands: [bash("npm run gen")],
    });
    expect(reassignTo(result)).toEqual(["backend", "database"]);
    expect(renderValidation(result)).toBe(
      "lanes validation of frontend: VIOLATION, SAFE; files: migrations/002.sql (created), src/server/routes.gen.ts (created); 1 command ran; outside the lane: `migrations/002.sql` (owned by `database`); `src/server/routes.gen.ts` (owned by `backend`)",
    );
  });
});

describe("risk: every command the run ran, by class", () => {
  it.each<[string, CommandEvidence, Risk]>([
    ["no objection", bash("npm test"), "SAFE"],
    ["asked the user", bash("git push", "ask", ["git.push"]), "REVIEW_REQUIRED"],
    ["denied by a global rule", bash("rm -rf /", "deny", ["fs.rm-root"]), "DANGEROUS"],
    [
      "denied by a lane rule only: a blocked boundary attempt",
      bash("echo x > src/components/a.tsx", "deny", ["lane.write-outside-owned"]),
      "REVIEW_REQUIRED",
    ],
    [
      "denied by a lane and a global rule",
      bash("rm -rf src/components", "deny", ["lane.write-outside-owned", "fs.rm-recursive"]),
      "DANGEROUS",
    ],
    ["denied by a task rule", bash("echo x > a", "deny", ["task.read-only"]), "REVIEW_REQUIRED"],
    [
      "denied by an agent's MUST NOT rule",
      bash("npm run migrate", "deny", ["agent.database.no-prod-migrate"]),
      "REVIEW_REQUIRED",
    ],
    ["denied by a rule for every subagent", bash("git push", "deny", ["subagents.no-push"]), "REVIEW_REQUIRED"],
  ])("%s", (_name, command, risk) => {
    expect(commandRisk(command)).toBe(risk);
  });

  it.each<[string, CommandEvidence[], ChangeEvidence[], Risk]>([
    ["nothing ran", [], [], "SAFE"],
    ["only safe commands", [bash("npm test"), bash("ls")], [], "SAFE"],
    [
      "the highest class wins",
      [bash("npm test"), bash("git push", "ask", ["git.push"]), bash("rm -rf /", "deny", ["fs.rm-root"])],
      [],
      "DANGEROUS",
    ],
    [
      "an unattributed change needs review",
      [bash("npm test")],
      [tree("src/server/x.ts", "created", ["main"])],
      "REVIEW_REQUIRED",
    ],
  ])("%s", (_name, commands, changes, risk) => {
    expect(validateRun({ agentName: "frontend", policy, roots, changes, commands }).risk).toBe(risk);
  });

  it("lists blocked attempts and commands that need review in the outcome", () => {
    const text = renderValidation(
      validateRun({
        agentName: "backend",
        policy,
        roots,
        changes: [],
        commands: [bash("git push", "ask", ["git.push"]), bash("rm -rf /", "deny", ["fs.rm-root"])],
      }),
    );
    expect(text).toBe(
      "lanes validation of backend: VALID, DANGEROUS; no files changed; 1 command ran; review required for `git push`; blocked attempts: `rm -rf /`",
    );
  });
});

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDefinitionSet } from "../../src/definitions/load.ts";
import { generate } from "../../src/generate/generate.ts";
import { lint } from "../../src/generate/lint.ts";

const ROOT = join(import.meta.dirname, "../..");
const set = loadDefinitionSet(join(ROOT, "definitions"), ROOT);

describe("the pack's own definitions", () => {
  it("all load and validate", () => {
    expect(set.issues).toEqual([]);
  });

  it("ship the default team", () => {
    expect(set.agents.map((a) => a.value.name).sort()).toEqual(["backend", "database", "design-reviewer", "docs", "frontend", "orchestrator", "qa"]);
    expect(set.skills.map((s) => s.value.id)).toEqual(
      expect.arrayContaining(["validate-agent-boundaries", "risk-classifier", "coordinate-work", "api-design", "ui-components", "schema-migrations", "test-strategy", "technical-writing", "auth-security"]),
    );
  });

  it("lint clean, warnings included", () => {
    // shared ownership is information, not a problem (issue 11): the pack shares docs/api/openapi.yaml and snapshots
    expect(lint(set).filter((f) => f.severity !== "info")).toEqual([]);
  });

  it.each([...set.agents, ...set.skills].map((d) => [d.file, d.text] as const))("%s starts with its yaml-language-server schema comment", (file, text) => {
    const kind = file.startsWith("definitions/agents/") ? "../../schemas/agent.schema.json" : "../../../schemas/skill.schema.json";
    expect(text.split("\n")[0]).toBe(`# yaml-language-server: $schema=${kind}`);
  });

  it("match the committed agents/, skills/ and schemas/ (npm run gen refreshes them)", () => {
    const result = generate({ root: ROOT, target: "plugin", check: true });
    expect(result.findings.filter((f) => f.severity !== "info")).toEqual([]);
    expect(result.changes.filter((c) => c.status !== "unchanged").map((c) => `${c.status}: ${c.path}`)).toEqual([]);
  });

  it("give every specialist and reviewer a lane the guard can enforce", () => {
    for (const agent of set.agents) {
      const { role, owns, tools } = agent.value;
      if (role === "reviewer") {
        expect(owns, agent.value.name).toEqual([]);
        expect(tools.allowed, agent.value.name).not.toContain("Bash");
      }
      if (role === "specialist") {
        expect(owns.length, agent.value.name).toBeGreaterThan(0);
        expect(tools.allowed, agent.value.name).not.toContain("Agent");
        expect(tools.allowed, agent.value.name).not.toContain("Skill");
      }
    }
  });
});

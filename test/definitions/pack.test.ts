import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDefinitionSet } from "../../src/definitions/load.ts";
import { generate } from "../../src/generate/generate.ts";
import { lint } from "../../src/generate/lint.ts";
import { SkillSetting } from "../../src/definitions/skill.ts";

const ROOT = join(import.meta.dirname, "../..");
const set = loadDefinitionSet(join(ROOT, "definitions"), ROOT);

describe("the pack's own definitions", () => {
  it("all load and validate", () => {
    expect(set.issues).toEqual([]);
  });

  it("ship the default team", () => {
    expect(set.agents.map((a) => a.value.name).sort()).toEqual([
      "backend",
      "database",
      "design-reviewer",
      "docs",
      "frontend",
      "orchestrator",
      "qa",
    ]);
    expect(set.skills.map((s) => s.value.id)).toEqual(
      expect.arrayContaining([
        "validate-agent-boundaries",
        "risk-classifier",
        "coordinate-work",
        "api-design",
        "ui-components",
        "schema-migrations",
        "test-strategy",
        "technical-writing",
        "auth-security",
      ]),
    );
  });

  it("lint clean, warnings included", () => {
    // shared ownership is information, not a problem: the pack shares docs/api/openapi.yaml and snapshots
    expect(lint(set).filter((f) => f.severity !== "info")).toEqual([]);
  });

  it.each([...set.agents, ...set.skills].map((d) => [d.file, d.text] as const))(
    "%s starts with its yaml-language-server schema comment",
    (file, text) => {
      const kind = file.startsWith("definitions/agents/")
        ? "../../schemas/agent.schema.json"
        : "../../../schemas/skill.schema.json";
      expect(text.split("\n")[0]).toBe(`# yaml-language-server: $schema=${kind}`);
    },
  );

  it("match the committed agents/, skills/ and schemas/ (npm run build refreshes them)", () => {
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

describe("the pack's composite skills", () => {
  const composite = (id: string) => set.skills.find((s) => s.value.id === id)?.value;
  it.each([
    ["deliver-feature", 6],
    ["develop-skill", 9],
    ["develop-learnings", 7],
    ["develop-command", 3],
  ])("%s has %i phases, phase 0 in the main session", (id, count) => {
    const skill = composite(id);
    expect(skill?.phases?.length).toBe(count);
    const first = skill?.phases?.find((p) => p.id === "0");
    expect(first?.type).toBe("LINEAR");
    expect(first?.runs_in).toBe("main");
  });

  it("use all six phase types between them", () => {
    const types = new Set(
      ["deliver-feature", "develop-skill", "develop-learnings", "develop-command"].flatMap(
        (id) => composite(id)?.phases?.map((p) => p.type) ?? [],
      ),
    );
    expect([...types].sort()).toEqual(["AUTO", "ITERATIVE", "LINEAR", "OPTIONAL", "PARALLEL", "REMEDIATION"]);
  });

  it("say in every main-session phase's text that it runs in the main session", () => {
    for (const s of set.skills) {
      for (const p of s.value.phases ?? []) {
        if (p.runs_in === "main")
          expect(p.content, `${s.value.id} phase ${p.id}`).toMatch(
            /^You do this phase yourself, (in the main session|with the human)/,
          );
        else expect(p.content, `${s.value.id} phase ${p.id}`).not.toMatch(/do this phase yourself/i);
      }
    }
  });

  it("ship their resources next to SKILL.md, phase scripts included", () => {
    const cmd = set.skills.find((s) => s.value.id === "develop-command");
    expect(cmd?.resources?.map((r) => r.file)).toEqual(["check-command.mjs", "command-checklist.md"]);
    expect(cmd?.value.phases?.find((p) => p.script !== undefined)?.script).toBe("check-command.mjs");
  });
});

describe("pattern settings of skills", () => {
  it.each([
    ["gated-steps", ["auto_pass_threshold", "require_all_checks", "max_retries"]],
    ["parallel-work", ["mode", "timeout_seconds", "merge_strategy", "max_agents"]],
    ["orchestrate-team", ["orchestration_mode", "max_replanning_cycles", "max_subtasks"]],
    ["choose-pattern", ["constraints", "expected_outcome"]],
  ])("%s declares %j", (id, names) => {
    expect(set.skills.find((s) => s.value.id === id)?.value.settings.map((s) => s.name)).toEqual(names);
  });

  it("refuses a value outside its choices", () => {
    const bad = SkillSetting.safeParse({
      name: "mode",
      value: "racing",
      choices: ["sectioning", "voting"],
      description: "d",
    });
    expect(bad.success ? undefined : bad.error.issues[0]?.message).toBe("the value must be one of the choices");
  });
});

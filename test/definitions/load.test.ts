import { describe, expect, it } from "vitest";
import { AgentDefinition } from "../../src/definitions/agent.ts";
import { formatLoadIssue, parseDefinition, toKebab } from "../../src/definitions/load.ts";
import { SkillDefinition } from "../../src/definitions/skill.ts";

const skill = (extra: string) => `# yaml-language-server: $schema=../../../schemas/skill.schema.json
id: demo
name: Demo
description: Use for demonstrating how the loader reports problems.
identity: You are the demo skill, used only in tests.
owns:
  - demonstrations
${extra}`;

const first = (text: string, schema: typeof SkillDefinition | typeof AgentDefinition = SkillDefinition) => {
  const result = parseDefinition(schema, text, "definitions/skills/demo/skill.yaml");
  if (result.ok) throw new Error("expected a problem");
  return result.issues;
};

describe("parseDefinition", () => {
  it("accepts a valid definition and keeps the line of every value", () => {
    const result = parseDefinition(
      SkillDefinition,
      skill(
        "handoffs:\n  - trigger: auth|login\n    to: auth-security\n    why: security\n    context_template: '{user_goal}'\n",
      ),
      "skill.yaml",
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.value.handoffs[0]?.priority).toBe(1);
    expect(result.value.line(["handoffs", 0, "to"])).toBe(10);
    expect(result.value.line(["owns", 0])).toBe(7);
  });

  it.each([
    [
      "a wrong type",
      "handoffs:\n  - trigger: auth\n    to: auth-security\n    priority: high\n    why: x\n    context_template: y\n",
      "definitions/skills/demo/skill.yaml:11: handoffs[0].priority: expected number, received string",
      "invalid-definition",
    ],
    [
      "a number out of range",
      "handoffs:\n  - trigger: auth\n    to: auth-security\n    priority: 12\n    why: x\n    context_template: y\n",
      "definitions/skills/demo/skill.yaml:11: handoffs[0].priority: expected at most 9, received 12",
      "invalid-definition",
    ],
    [
      "a missing key",
      "handoffs:\n  - trigger: auth\n    why: x\n    context_template: y\n",
      "definitions/skills/demo/skill.yaml:9: handoffs[0].to: expected string, received nothing",
      "invalid-definition",
    ],
    [
      "an unknown enum value",
      "phases:\n  - id: '0'\n    name: CLARIFY\n    title: Clarify\n    type: FIRST\n    agent: orchestrator\n    content: x\n    description: y\n    next: null\n",
      'definitions/skills/demo/skill.yaml:12: phases[0].type: expected one of LINEAR, OPTIONAL, ITERATIVE, REMEDIATION, AUTO, PARALLEL, received "FIRST"',
      "invalid-definition",
    ],
    [
      "a name that is not kebab-case",
      "pairs_with: [API_Design]\n",
      'definitions/skills/demo/skill.yaml:8: pairs_with[0]: names are kebab-case: lowercase letters, digits and single hyphens, e.g. `design-reviewer`, received "API_Design"',
      "name-not-kebab",
    ],
    ["an unknown key", "handof: []\n", "definitions/skills/demo/skill.yaml:8: unknown key `handof`", "unknown-key"],
  ])("reports %s as file:line: path: expected, received", (_, extra, formatted, id) => {
    const issues = first(skill(extra));
    expect(issues.map((i) => [formatLoadIssue(i), i.id])).toEqual([[formatted, id]]);
  });

  it("suggests the nearest key for an unknown one", () => {
    const [issue] = first(skill("handof: []\n"));
    expect(issue?.fix).toMatch(/^rename it to `handoffs`; allowed keys here: id, name, description/);
  });

  it("reports a description over 500 characters as description-too-long", () => {
    const text = skill("").replace("Use for demonstrating how the loader reports problems.", "x".repeat(501));
    const [issue] = first(text);
    expect(issue).toMatchObject({
      id: "description-too-long",
      line: 4,
      message: "description: expected at most 500 characters, received 501",
    });
  });

  it("reports YAML syntax errors with their line", () => {
    const [issue] = first(skill("owns:\n  - twice\n"));
    expect(issue).toMatchObject({ id: "invalid-yaml", line: 8 });
    expect(issue?.message).toMatch(/^not valid YAML: map keys must be unique/);
  });

  it("reports refinements of the schema with their path", () => {
    const issues = first(skill("handoffs:\n  - trigger: x\n    to: demo\n    why: x\n    context_template: y\n"));
    expect(issues.map(formatLoadIssue)).toEqual([
      "definitions/skills/demo/skill.yaml:10: handoffs[0].to: a skill cannot hand off to itself",
    ]);
  });

  it("reports an enforced MUST NOT rule without an id on the agent schema", () => {
    const agent = `name: demo
description: Use this agent for demonstrating the loader in tests.
role: specialist
identity: You are a demo agent used only in tests.
responsibilities: [demonstrate]
owns: [demo/**]
must_not:
  - text: push
    command:
      program: git
`;
    const issues = first(agent, AgentDefinition);
    expect(issues.map(formatLoadIssue)).toEqual([
      "definitions/skills/demo/skill.yaml:8: must_not[0].id: an enforced MUST NOT rule (with paths, command or tools) needs an `id`",
    ]);
  });
});

describe("toKebab", () => {
  it.each([
    ["DesignReviewer", "design-reviewer"],
    ["API_Design", "api-design"],
    ["already-kebab", "already-kebab"],
  ])("%s → %s", (input, expected) => expect(toKebab(input)).toBe(expected));
});

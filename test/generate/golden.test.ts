/**
 * The committed `agents/` and `skills/` are the golden files: each is compared with what the
 * renderer produces from its definition. `npm run build` (or `vitest -u`) refreshes them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDefinitionSet } from "../../src/definitions/load.ts";
import { renderAgent } from "../../src/generate/agent.ts";
import { renderAll, skillContext } from "../../src/generate/generate.ts";
import { renderSkill, type SkillSummary } from "../../src/generate/skill.ts";
import { parseFrontmatter } from "../../src/markdown/frontmatter.ts";

const ROOT = join(import.meta.dirname, "../..");
const set = loadDefinitionSet(join(ROOT, "definitions"), ROOT);
const skills = new Map<string, SkillSummary>(
  set.skills.map((s) => [s.value.id, { name: s.value.name, model_invocable: s.value.model_invocable }]),
);
const plugin = { target: "plugin" as const };

/** Claude Code frontmatter keys (reference C.2 and D.2) lanes may write. */
const AGENT_KEYS = ["name", "description", "tools", "disallowedTools", "model", "color"];
const SKILL_KEYS = [
  "name",
  "description",
  "argument-hint",
  "allowed-tools",
  "disable-model-invocation",
  "user-invocable",
];

describe("golden files", () => {
  it.each(set.agents.map((a) => [a.value.name, a.value] as const))(
    "agents/%s.md is the rendered definition",
    async (name, def) => {
      await expect(renderAgent(def, plugin)).toMatchFileSnapshot(join(ROOT, "agents", `${name}.md`));
    },
  );

  it.each(set.skills.map((s) => [s.value.id, s.value] as const))(
    "skills/%s/SKILL.md is the rendered definition",
    async (id, def) => {
      await expect(renderSkill(def, skillContext(set, plugin))).toMatchFileSnapshot(
        join(ROOT, "skills", id, "SKILL.md"),
      );
    },
  );

  it.each(
    set.skills.flatMap((s) => s.references.map((r) => [`${s.value.id}/references/${r.file}`, r.content] as const)),
  )("skills/%s is copied from the definition", (path, content) => {
    expect(readFileSync(join(ROOT, "skills", path), "utf8")).toBe(content);
  });
});

describe("rendering", () => {
  it("is deterministic: two renders are identical, with \\n line ends and one trailing newline", () => {
    const a = renderAll(set, plugin, { schemas: true });
    const b = renderAll(set, plugin, { schemas: true });
    expect(b).toEqual(a);
    for (const file of a) {
      expect(file.content, file.path).not.toContain("\r");
      expect(file.content.endsWith("\n") && !file.content.endsWith("\n\n"), file.path).toBe(true);
    }
  });

  it.each(set.agents.map((a) => [a.value.name, a.value] as const))(
    "agent %s has valid Claude Code frontmatter and the core sections",
    (name, def) => {
      const text = renderAgent(def, plugin);
      const parsed = parseFrontmatter(text);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      const data = parsed.value.data as Record<string, unknown>;
      expect(Object.keys(data).filter((k) => !AGENT_KEYS.includes(k))).toEqual([]);
      expect(data["name"]).toBe(name);
      expect(String(data["description"])).toContain("<example>");
      const body = parsed.value.body;
      const order = [
        "You are",
        "## Core responsibilities",
        "## Your lane",
        "### Progress file",
        "### Documentation and confidence",
        "### Response format",
        "### Errors",
        "### Handoff",
      ].map((h) => body.indexOf(h));
      expect(
        order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!)),
        `sections of ${name} in order`,
      ).toBe(true);
    },
  );

  it.each(set.skills.map((s) => [s.value.id, s.value] as const))(
    "skill %s has valid frontmatter, the handoff protocol and the incoming context",
    (id, def) => {
      const text = renderSkill(def, { ...plugin, skills });
      const parsed = parseFrontmatter(text);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      const data = parsed.value.data as Record<string, unknown>;
      expect(Object.keys(data).filter((k) => !SKILL_KEYS.includes(k))).toEqual([]);
      expect(data["name"]).toBe(id);
      expect(text.indexOf("\n---\n", 4)).toBeLessThanOrEqual(1024);
      const body = parsed.value.body;
      const order = ["## Handoff protocol", "## Domain", "## Context from previous skill", "$ARGUMENTS"].map((h) =>
        body.indexOf(h),
      );
      expect(
        order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!)),
        `sections of ${id} in order`,
      ).toBe(true);
      // Claude Code substitutes $ARGUMENTS once per occurrence: the body has exactly one
      expect(body.split("$ARGUMENTS").length).toBe(2);
    },
  );
});

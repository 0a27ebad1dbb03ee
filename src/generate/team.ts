/**
 * A team's own agents next to the pack's skills. `lanes init` installs the starter team and the
 * pack's skills; a team that replaces the agents with its own keeps the skills, and some of them
 * name starter agents (a composite skill's phases, `{agent:backend}` in a pattern's steps). Such a
 * shipped skill cannot run here, and it must not stop the build either: it is set aside (not
 * rendered) with one warning naming the agents it needs, and the other skills' references to it
 * (handoff rows, fallbacks, topics it owns, trigger tests routing to it, `{skill:<id>}`) are left
 * out of their render, so no skill points to one that is not there. A skill of the team's own that
 * names a missing agent is still an error. Pure: the caller says which skills are shipped (those
 * with a copy in `.claude/lanes/base/`, the version lanes installed).
 */
import type { DefinitionSet, LocatedSkill } from "../definitions/load.ts";
import type { SkillDefinition } from "../definitions/skill.ts";
import { placeholderRefs } from "./context.ts";
import { lint, type Finding } from "./lint.ts";

/** A shipped skill left out of the build, and why. */
export interface SetAside {
  readonly id: string;
  /** Its definition file, relative to the root. */
  readonly file: string;
  /** The line of its `id`. */
  readonly line?: number | undefined;
  /** The agents it names that the team does not have. */
  readonly agents: readonly string[];
}

/** What {@link lintTeam} found: the set to render, the findings (set-aside warnings included) and what was set aside. */
export interface TeamLint {
  readonly set: DefinitionSet;
  readonly findings: Finding[];
  readonly setAside: readonly SetAside[];
}

/** Every string of a value. */
function texts(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(texts);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(texts);
  return [];
}

/** The agents a skill names: its phases' agents and branches, and `{agent:<name>}` in its text. */
export function agentsNamed(def: SkillDefinition): string[] {
  const names = [
    ...(def.phases ?? []).flatMap((p) => [...(p.agent === undefined ? [] : [p.agent]), ...(p.branches ?? [])]),
    ...texts(def).flatMap((t) => placeholderRefs(t).agents),
  ];
  return [...new Set(names)];
}

/** Replaces every string of a value (a definition is plain JSON data). */
function mapTexts<T>(value: T, f: (text: string) => string): T {
  if (typeof value === "string") return f(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => mapTexts(v, f)) as T;
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapTexts(v, f)])) as T;
  return value;
}

/** The definition without its references to the skills `aside`: what it renders to in a team without them. */
export function withoutSkills(def: SkillDefinition, aside: ReadonlySet<string>): SkillDefinition {
  if (aside.size === 0) return def;
  const keep = (id: string) => !aside.has(id);
  const routesAside = (expect: SkillDefinition["trigger_tests"][number]["expect"]) =>
    (Array.isArray(expect) ? expect : [expect]).some((e) => aside.has(e));
  const pruned: SkillDefinition = {
    ...def,
    handoffs: def.handoffs
      .filter((h) => keep(h.to))
      .map((h) => {
        const { fallback_to, ...rest } = h;
        return {
          ...rest,
          exclude_from: h.exclude_from.filter(keep),
          ...(fallback_to === undefined || !keep(fallback_to) ? {} : { fallback_to }),
        };
      }),
    does_not_own: def.does_not_own.filter((n) => keep(n.owner)),
    pairs_with: def.pairs_with.filter(keep),
    specializes: def.specializes.filter(keep),
    trigger_tests: def.trigger_tests.filter((t) => !routesAside(t.expect)),
  };
  // a placeholder of a skill that is not rendered becomes its plain id
  return mapTexts(pruned, (text) =>
    text.replace(/\{skill(?:-file)?:([a-z0-9-]+)\}/g, (whole, id: string) => (aside.has(id) ? id : whole)),
  );
}

/**
 * Lints the set as this team has it: shipped skills that name agents the team lacks are set aside
 * (a warning each), the rest is linted without references to them.
 */
export function lintTeam(set: DefinitionSet, shipped: ReadonlySet<string>): TeamLint {
  const agents = new Set(set.agents.map((a) => a.value.name));
  const setAside: SetAside[] = set.skills.flatMap((s) => {
    if (!shipped.has(s.value.id)) return [];
    const missing = agentsNamed(s.value).filter((n) => !agents.has(n));
    return missing.length === 0 ? [] : [{ id: s.value.id, file: s.file, line: s.line(["id"]), agents: missing }];
  });
  if (setAside.length === 0) return { set, findings: lint(set), setAside };
  const aside = new Set(setAside.map((s) => s.id));
  const skills: LocatedSkill[] = set.skills
    .filter((s) => !aside.has(s.value.id))
    .map((s) => ({ ...s, value: withoutSkills(s.value, aside) }));
  const kept = { ...set, skills };
  const warnings: Finding[] = setAside.map((s) => ({
    id: "skill-set-aside",
    severity: "warning",
    file: s.file,
    ...(s.line === undefined ? {} : { line: s.line }),
    message: `shipped skill \`${s.id}\` needs agent${s.agents.length === 1 ? "" : "s"} ${s.agents.map((a) => `\`${a}\``).join(", ")}, which this team does not have: it is set aside (not rendered), and other skills' handoffs to it are left out`,
    fix: `add ${s.agents.length === 1 ? "that agent" : "those agents"} under \`.claude/lanes/agents/\`, adapt the skill's definition to your agents, or delete \`${s.file.replace(/\/skill\.yaml$/, "/")}\` to drop it`,
  }));
  const findings = [...lint(kept), ...warnings].sort(
    (a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || a.id.localeCompare(b.id),
  );
  return { set: kept, findings, setAside };
}

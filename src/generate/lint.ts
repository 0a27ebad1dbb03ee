/**
 * `lanes lint`: checks a set of agent and skill definitions as a team. Load problems (YAML, schema,
 * unknown keys, names, description length) come from the loader; this module adds the checks that
 * need the whole set: references to skills and agents that do not exist, trigger collisions and
 * vague triggers, handoff cycles, frontmatter size, owned paths that overlap without a declared
 * owner. Every finding has an id, a location and a fix. Pure: it never reads files.
 */
import type { LoadIssue, LocatedAgent, LocatedSkill, DefinitionSet, ValuePath } from "../definitions/load.ts";
import { CONTEXT_SLOTS } from "../definitions/skill.ts";
import { placeholderRefs } from "./context.ts";
import { globsOverlap } from "../globs/overlap.ts";
import { findMatchingHandoff, matchesAlternative, splitByDomain, triggerAlternatives } from "./handoff.ts";
import { renderSkillFrontmatter } from "./skill.ts";

/** Every finding id, with what it means. */
export const FINDING_IDS = {
  "invalid-yaml": "the file is not valid YAML",
  "invalid-definition": "a value does not match the schema",
  "unknown-key": "a key the schema does not know",
  "name-not-kebab": "a name that is not kebab-case",
  "description-too-long": "a description over 500 characters",
  "frontmatter-too-long": "a skill whose rendered frontmatter is over 1024 characters",
  "name-mismatch": "a name that differs from its file or folder name",
  "unknown-handoff-target": "a skill handoff to a skill that does not exist",
  "unknown-skill": "a reference to a skill that does not exist",
  "unknown-agent": "a reference to an agent that does not exist",
  "unknown-owner": "a `does_not_own` entry whose owner does not exist",
  "handoff-cycle": "skills that can hand a message around in a circle",
  "trigger-collision": "one topic routed to two different skills",
  "vague-trigger": "a trigger alternative that is a single common word",
  "unknown-template-slot": "a context template slot lanes does not fill",
  "owned-path-overlap": "two agents own the same paths: both may write them (shared ownership, information only)",
  "missing-reference": "a reference file that does not exist",
  "skill-substitution": "skill text that Claude Code would substitute or execute",
  "missing-schema-comment": "a definition without the `yaml-language-server` schema comment",
  "trigger-test-failed": "a skill's trigger test whose message does not route where it expects",
  "skill-set-aside":
    "a shipped skill that names agents the team does not have: not rendered, and handoffs to it are left out (warning)",
} as const;

/** The id of a finding. */
export type FindingId = keyof typeof FINDING_IDS;

/** One problem: what, where, and how to fix it. */
export interface Finding {
  readonly id: FindingId;
  /** `error` fails `lanes lint` and `lanes build`; `warning` and `info` are printed only. */
  readonly severity: "error" | "warning" | "info";
  /** The file, relative to the directory the set was loaded from. */
  readonly file: string;
  /** 1-based line, when known. */
  readonly line?: number;
  /** One line, lowercase. */
  readonly message: string;
  /** What to do, one line. */
  readonly fix: string;
}

/** Single words too common to be a trigger on their own. */
export const VAGUE_WORDS: ReadonlySet<string> = new Set(
  (
    "help fix bug bugs error errors issue issues problem question code change changes update add remove delete create make build " +
    "implement write read new do run use work thing stuff task feature app application project system file files function data page " +
    "improve check review design model style format setup config configure support handle the a an it this that please"
  ).split(" "),
);

/** Frontmatter limit of a skill (characters, `---` lines included). */
export const FRONTMATTER_LIMIT = 1024;

/** Lints a loaded set. Findings are sorted by file, line and id. */
export function lint(set: DefinitionSet): Finding[] {
  const findings: Finding[] = set.issues.map((issue: LoadIssue) => ({ ...issue, severity: "error" as const }));
  const skills = new Map(set.skills.map((s) => [s.value.id, s]));
  const agents = new Map(set.agents.map((a) => [a.value.name, a]));

  const at = (located: { file: string; line: (p: ValuePath) => number | undefined }, path: ValuePath) => {
    const line = located.line(path);
    return line === undefined ? { file: located.file } : { file: located.file, line };
  };
  const add = (
    id: FindingId,
    where: { file: string; line?: number },
    message: string,
    fix: string,
    severity: Finding["severity"] = "error",
  ) => findings.push({ id, severity, ...where, message, fix });

  for (const located of [...set.skills, ...set.agents]) {
    if (!located.text.startsWith("# yaml-language-server: $schema="))
      add(
        "missing-schema-comment",
        { file: located.file, line: 1 },
        "no `yaml-language-server` schema comment on the first line",
        `start the file with \`# yaml-language-server: $schema=<relative path to schemas/${"stem" in located ? "agent" : "skill"}.schema.json>\` for completion and checks in editors`,
        "warning",
      );
  }

  for (const skill of set.skills) lintSkill(skill, skills, agents, at, add);
  for (const agent of set.agents) lintAgent(agent, skills, agents, at, add);
  lintCollisions(set.skills, skills, at, add);
  lintCycles(set.skills, skills, at, add);
  lintOverlaps(set.agents, at, add);

  return findings.sort(
    (a, b) =>
      a.file.localeCompare(b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      a.id.localeCompare(b.id) ||
      a.message.localeCompare(b.message),
  );
}

type At = (
  located: { file: string; line: (p: ValuePath) => number | undefined },
  path: ValuePath,
) => { file: string; line?: number };
type Add = (
  id: FindingId,
  where: { file: string; line?: number },
  message: string,
  fix: string,
  severity?: Finding["severity"],
) => void;

/** Every string of a value with its path. */
function strings(value: unknown, path: PropertyKey[] = []): [PropertyKey[], string][] {
  if (typeof value === "string") return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, [...path, i]));
  if (typeof value === "object" && value !== null)
    return Object.entries(value).flatMap(([k, v]) => strings(v, [...path, k]));
  return [];
}

function lintSkill(
  skill: LocatedSkill,
  skills: Map<string, LocatedSkill>,
  agents: Map<string, LocatedAgent>,
  at: At,
  add: Add,
): void {
  const def = skill.value;
  if (skill.dir !== def.id)
    add(
      "name-mismatch",
      at(skill, ["id"]),
      `skill id \`${def.id}\` differs from its folder \`${skill.dir}\``,
      `rename the folder to \`${def.id}\` or set \`id: ${skill.dir}\``,
    );

  const frontmatter = renderSkillFrontmatter(def);
  if (frontmatter.length > FRONTMATTER_LIMIT)
    add(
      "frontmatter-too-long",
      at(skill, ["description"]),
      `the rendered frontmatter of \`${def.id}\` is ${frontmatter.length} characters, over ${FRONTMATTER_LIMIT}`,
      "shorten `description` or `argument_hint`, or drop `allowed_tools` entries",
    );

  const skillRefs: [ValuePath, string][] = [
    ...def.pairs_with.map((id, i): [ValuePath, string] => [["pairs_with", i], id]),
    ...def.specializes.map((id, i): [ValuePath, string] => [["specializes", i], id]),
    ...def.handoffs.flatMap((h, i) =>
      h.exclude_from.map((id, j): [ValuePath, string] => [["handoffs", i, "exclude_from", j], id]),
    ),
  ];
  const agentRefs: [ValuePath, string][] = [];
  for (const [path, text] of strings(def)) {
    const refs = placeholderRefs(text);
    for (const id of refs.skills) skillRefs.push([path, id]);
    for (const name of refs.agents) agentRefs.push([path, name]);
    // Claude Code replaces $ARGUMENTS, $0, $1… and runs !`cmd` in skill bodies (reference D.3)
    const substituted = /\$(?:ARGUMENTS|[0-9])/.exec(text)?.[0] ?? /(?:^|\s)!`[^`]+`/.exec(text)?.[0].trim();
    if (substituted !== undefined)
      add(
        "skill-substitution",
        at(skill, path),
        `\`${substituted}\` in a skill is replaced by Claude Code when the skill loads`,
        substituted.startsWith("!")
          ? "write the command in a code block without the leading `!`, or put a space after `!`"
          : "write it differently, e.g. `$ 1` or `the first argument`",
      );
  }
  def.phases?.forEach((phase, i) => {
    if (phase.agent !== undefined) agentRefs.push([["phases", i, "agent"], phase.agent]);
    phase.branches?.forEach((b, j) => agentRefs.push([["phases", i, "branches", j], b]));
  });
  for (const [path, id] of skillRefs)
    if (!skills.has(id))
      add(
        "unknown-skill",
        at(skill, path),
        `\`${def.id}\` refers to skill \`${id}\`, which does not exist`,
        `create \`${id}\` or fix the name${near(id, skills)}`,
      );
  for (const [path, name] of agentRefs)
    if (!agents.has(name))
      add(
        "unknown-agent",
        at(skill, path),
        `\`${def.id}\` refers to agent \`${name}\`, which does not exist`,
        `create agent \`${name}\` or fix the name${near(name, agents)}`,
      );

  def.does_not_own.forEach((n, i) => {
    if (!skills.has(n.owner))
      add(
        "unknown-owner",
        at(skill, ["does_not_own", i, "owner"]),
        `\`${n.topic}\` is owned by \`${n.owner}\`, which is not a skill`,
        `name an existing skill${near(n.owner, skills)}, or create \`${n.owner}\``,
      );
  });

  // the skill's own trigger tests (skill collaboration, testing protocol): each message must route as declared
  def.trigger_tests.forEach((t, i) => {
    const options = t.from === undefined ? {} : { from: t.from };
    if (Array.isArray(t.expect)) {
      const order = splitByDomain(def, t.message, options).map((m) => m.to);
      if (order.join(",") !== t.expect.join(","))
        add(
          "trigger-test-failed",
          at(skill, ["trigger_tests", i, "message"]),
          `\`${def.id}\` splits "${t.message}" into ${order.length === 0 ? "nothing" : order.map((o) => `\`${o}\``).join(", ")}, the test expects ${t.expect.map((o) => `\`${o}\``).join(", ")}`,
          "fix the handoff triggers or priorities, or the test",
        );
      return;
    }
    const got = findMatchingHandoff(def, t.message, options);
    const routed = got === undefined ? "stay" : got.to;
    if (routed !== t.expect) {
      const how = got === undefined ? "stays" : `hands off to \`${got.to}\` (matched \`${got.matched}\`)`;
      add(
        "trigger-test-failed",
        at(skill, ["trigger_tests", i, "message"]),
        `\`${def.id}\` ${how} for "${t.message}", the test expects ${t.expect === "stay" ? "it to stay" : `\`${t.expect}\``}`,
        "fix the handoff triggers or priorities, or the test",
      );
    }
  });
  def.resources.forEach((r, i) => {
    if (!(skill.resources ?? []).some((f) => f.file === r.file))
      add(
        "missing-reference",
        at(skill, ["resources", i, "file"]),
        `resource \`${r.file}\` is not in \`resources/\``,
        `add \`${skill.file.replace(/skill\.yaml$/, `resources/${r.file}`)}\` or remove the entry`,
      );
  });
  def.references.forEach((r, i) => {
    if (!skill.references.some((f) => f.file === r.file))
      add(
        "missing-reference",
        at(skill, ["references", i, "file"]),
        `reference \`${r.file}\` is not in \`references/\``,
        `add \`${skill.file.replace(/skill\.yaml$/, `references/${r.file}`)}\` or remove the entry`,
      );
  });

  def.handoffs.forEach((h, i) => {
    if (h.fallback_to !== undefined && !skills.has(h.fallback_to))
      add(
        "unknown-handoff-target",
        at(skill, ["handoffs", i, "fallback_to"]),
        `\`${def.id}\` falls back to \`${h.fallback_to}\`, which does not exist`,
        `create the skill \`${h.fallback_to}\` or name an existing fallback${near(h.fallback_to, skills)}`,
      );
    if (!skills.has(h.to))
      add(
        "unknown-handoff-target",
        at(skill, ["handoffs", i, "to"]),
        `\`${def.id}\` hands off to \`${h.to}\`, which does not exist`,
        `create the skill \`${h.to}\` or point the handoff at an existing one${near(h.to, skills)}`,
      );
    for (const alt of triggerAlternatives(h.trigger)) {
      if (!alt.includes(" ") && VAGUE_WORDS.has(alt))
        add(
          "vague-trigger",
          at(skill, ["handoffs", i, "trigger"]),
          `trigger alternative \`${alt}\` is a common word and would fire on most messages`,
          `replace \`${alt}\` with words specific to \`${h.to}\`, e.g. \`${alt} endpoint\``,
        );
    }
    for (const slot of h.context_template.matchAll(/\{([^{}]*)\}/g)) {
      if (!(CONTEXT_SLOTS as readonly string[]).includes(slot[1]!))
        add(
          "unknown-template-slot",
          at(skill, ["handoffs", i, "context_template"]),
          `context template slot \`{${slot[1]}}\` is not one lanes knows`,
          `use ${CONTEXT_SLOTS.map((s) => `\`{${s}}\``).join(", ")}`,
          "warning",
        );
    }
  });
}

function lintAgent(
  agent: LocatedAgent,
  skills: Map<string, LocatedSkill>,
  agents: Map<string, LocatedAgent>,
  at: At,
  add: Add,
): void {
  const def = agent.value;
  if (agent.stem !== def.name)
    add(
      "name-mismatch",
      at(agent, ["name"]),
      `agent name \`${def.name}\` differs from its file \`${agent.stem}.yaml\``,
      `rename the file to \`${def.name}.yaml\` or set \`name: ${agent.stem}\``,
    );

  const agentRefs: [ValuePath, string][] = [
    ...def.handoffs.map((h, i): [ValuePath, string] => [["handoffs", i, "to"], h.to]),
    ...(def.may_spawn ?? []).map((n, i): [ValuePath, string] => [["may_spawn", i], n]),
  ];
  const skillRefs: [ValuePath, string][] = Array.isArray(def.may_invoke_skills)
    ? def.may_invoke_skills.map((s, i): [ValuePath, string] => [["may_invoke_skills", i], s])
    : [];
  for (const [path, text] of strings(def)) {
    const refs = placeholderRefs(text);
    for (const id of refs.skills) skillRefs.push([path, id]);
    for (const name of refs.agents) agentRefs.push([path, name]);
  }
  for (const [path, name] of agentRefs)
    if (!agents.has(name))
      add(
        "unknown-agent",
        at(agent, path),
        `\`${def.name}\` refers to agent \`${name}\`, which does not exist`,
        `create agent \`${name}\` or fix the name${near(name, agents)}`,
      );
  for (const [path, id] of skillRefs)
    if (!skills.has(id))
      add(
        "unknown-skill",
        at(agent, path),
        `\`${def.name}\` refers to skill \`${id}\`, which does not exist`,
        `create \`${id}\` or fix the name${near(id, skills)}`,
      );
  def.does_not_own.forEach((n, i) => {
    if (!agents.has(n.owner))
      add(
        "unknown-owner",
        at(agent, ["does_not_own", i, "owner"]),
        `\`${n.path}\` is owned by \`${n.owner}\`, which is not an agent`,
        `name an existing agent${near(n.owner, agents)}, or create \`${n.owner}\``,
      );
  });
}

function near(name: string, known: Map<string, unknown>): string {
  const candidates = [...known.keys()].filter(
    (k) => k.includes(name) || name.includes(k) || k.split("-")[0] === name.split("-")[0],
  );
  return candidates.length === 0 ? "" : ` (did you mean \`${candidates.sort()[0]}\`?)`;
}

/** One alternative → target route, with where it is declared. */
interface Route {
  readonly skill: LocatedSkill;
  readonly index: number;
  readonly alt: string;
  readonly to: string;
}

function lintCollisions(list: readonly LocatedSkill[], skills: Map<string, LocatedSkill>, at: At, add: Add): void {
  const routes: Route[] = list.flatMap((skill) =>
    skill.value.handoffs.flatMap((h, index) =>
      triggerAlternatives(h.trigger).map((alt) => ({ skill, index, alt, to: h.to })),
    ),
  );
  const specializes = (a: string, b: string) => skills.get(a)?.value.specializes.includes(b) === true;
  const reported = new Set<string>();
  routes.forEach((b, j) => {
    for (const a of routes.slice(0, j)) {
      if (a.to === b.to) continue;
      if (!(matchesAlternative(a.alt, b.alt) || matchesAlternative(b.alt, a.alt))) continue;
      if (specializes(a.to, b.to) || specializes(b.to, a.to)) continue;
      const key = [`${a.alt}→${a.to}`, `${b.alt}→${b.to}`].sort().join(" ");
      if (reported.has(key)) continue;
      reported.add(key);
      const where = a.skill === b.skill ? "in the same skill" : `in \`${a.skill.value.id}\``;
      add(
        "trigger-collision",
        at(b.skill, ["handoffs", b.index, "trigger"]),
        `trigger \`${b.alt}\` hands off to \`${b.to}\` here, but \`${a.alt}\` hands off to \`${a.to}\` ${where}`,
        `route this topic to one skill everywhere, or declare the more specific one, e.g. \`specializes: [${a.to}]\` in \`${b.to}\``,
      );
    }
  });
}

/**
 * Handoff cycles, over states "at skill u, arrived from skill p": the handoff u → v can be taken
 * from that state unless its `exclude_from` names p. A cycle among these states is a loop that the
 * `exclude_from` lists do not break (for two skills: each hands the message back to the other).
 */
function lintCycles(list: readonly LocatedSkill[], skills: Map<string, LocatedSkill>, at: At, add: Add): void {
  const edges = new Map<string, { to: string; exclude: readonly string[]; index: number }[]>();
  for (const s of [...list].sort((a, b) => a.value.id.localeCompare(b.value.id)))
    edges.set(
      s.value.id,
      s.value.handoffs.flatMap((h, index) => (skills.has(h.to) ? [{ to: h.to, exclude: h.exclude_from, index }] : [])),
    );
  const key = (p: string, u: string) => `${p}>${u}`;
  const states: [string, string][] = [];
  for (const [p, out] of edges)
    for (const e of out) if (!states.some(([a, b]) => a === p && b === e.to)) states.push([p, e.to]);
  const next = (p: string, u: string): [string, string][] =>
    [...new Set((edges.get(u) ?? []).filter((e) => !e.exclude.includes(p)).map((e) => e.to))].map((v) => [u, v]);

  // Tarjan's strongly connected components over the states
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: [string, string][] = [];
  const components: [string, string][][] = [];
  let counter = 0;
  const visit = (state: [string, string]) => {
    const k = key(...state);
    index.set(k, counter);
    low.set(k, counter++);
    stack.push(state);
    onStack.add(k);
    for (const n of next(...state)) {
      const nk = key(...n);
      if (!index.has(nk)) {
        visit(n);
        low.set(k, Math.min(low.get(k)!, low.get(nk)!));
      } else if (onStack.has(nk)) low.set(k, Math.min(low.get(k)!, index.get(nk)!));
    }
    if (low.get(k) === index.get(k)) {
      const component: [string, string][] = [];
      for (;;) {
        const s = stack.pop()!;
        onStack.delete(key(...s));
        component.push(s);
        if (key(...s) === k) break;
      }
      if (component.length > 1) components.push(component);
    }
  };
  for (const state of states) if (!index.has(key(...state))) visit(state);

  for (const component of components) {
    const inside = new Set(component.map((s) => key(...s)));
    // shortest cycle through the smallest state of the component (breadth-first)
    const start = [...component].sort((a, b) => key(...a).localeCompare(key(...b)))[0]!;
    const parent = new Map<string, [string, string]>();
    const queue: [string, string][] = [start];
    let closing: [string, string] | undefined;
    while (queue.length > 0 && closing === undefined) {
      const s = queue.shift()!;
      for (const n of next(...s)) {
        if (!inside.has(key(...n))) continue;
        if (key(...n) === key(...start)) {
          closing = s;
          break;
        }
        if (!parent.has(key(...n))) {
          parent.set(key(...n), s);
          queue.push(n);
        }
      }
    }
    if (closing === undefined) continue;
    const path: [string, string][] = [closing];
    while (key(...path[0]!) !== key(...start)) path.unshift(parent.get(key(...path[0]!))!);
    const names = [...path.map(([, u]) => u), start[1]];
    // fix at the closing transition: at `closing[1]`, arrived from `closing[0]`, handing to start[1]
    const [p, u] = closing;
    const v = start[1];
    const source = skills.get(u)!;
    const handoff = (edges.get(u) ?? []).find((e) => e.to === v && !e.exclude.includes(p))!;
    add(
      "handoff-cycle",
      at(source, ["handoffs", handoff.index, "to"]),
      `handoffs can loop: ${names.map((n) => `\`${n}\``).join(" → ")}, and no \`exclude_from\` breaks it`,
      `add \`${p}\` to \`exclude_from\` of the \`${u}\` → \`${v}\` handoff (skip it when \`${u}\` was reached from \`${p}\`)`,
    );
  }
}

function lintOverlaps(list: readonly LocatedAgent[], at: At, add: Add): void {
  const sorted = [...list].sort((a, b) => a.value.name.localeCompare(b.value.name));
  sorted.forEach((a, i) => {
    for (const b of sorted.slice(i + 1)) {
      a.value.owns.forEach((ga, ia) => {
        b.value.owns.forEach((gb) => {
          if (!globsOverlap(ga, gb)) return;
          const declared = (x: LocatedAgent, y: LocatedAgent) =>
            x.value.does_not_own.some(
              (n) => n.owner === y.value.name && globsOverlap(n.path, ga) && globsOverlap(n.path, gb),
            );
          if (declared(a, b) || declared(b, a)) return;
          add(
            "owned-path-overlap",
            at(a, ["owns", ia]),
            `\`${a.value.name}\` owns \`${ga}\` and \`${b.value.name}\` owns \`${gb}\`: the paths both match are shared, and either may write them`,
            `if only one of them should, add \`{ path: "${narrower(ga, gb)}", owner: ${narrower(ga, gb) === gb ? b.value.name : a.value.name} }\` to \`does_not_own\` of \`${narrower(ga, gb) === gb ? a.value.name : b.value.name}\`, or narrow one of the globs`,
            "info",
          );
        });
      });
    }
  });
}

/**
 * The glob to suggest as the declared exception: a bare name (`*.test.*`, cross-cutting) over a
 * folder glob, else the one with the longer literal prefix (`src/app/api/**` over `src/app/**`).
 */
function narrower(a: string, b: string): string {
  const floating = (g: string) => !g.replace(/\/+$/, "").includes("/");
  if (floating(a) !== floating(b)) return floating(a) ? a : b;
  const prefix = (g: string) => /^[^*?[{]*/.exec(g)![0].length;
  return prefix(b) > prefix(a) ? b : a;
}

/** Formats findings for a terminal: `file:line: severity id: message`, then the fix indented. */
export function formatFindings(findings: readonly (Omit<Finding, "id"> & { readonly id: string })[]): string {
  return findings
    .map(
      (f) =>
        `${f.file}${f.line === undefined ? "" : `:${f.line}`}: ${f.severity} ${f.id}: ${f.message}\n  fix: ${f.fix}\n`,
    )
    .join("");
}

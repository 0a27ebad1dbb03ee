/**
 * One fixture per finding: `test/fixtures/definitions/lint/<id>/` holds definitions that are
 * correct except for exactly that problem.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDefinitionSet, type LocatedSkill } from "../../src/definitions/load.ts";
import { SkillDefinition } from "../../src/definitions/skill.ts";
import { FINDING_IDS, formatFindings, lint, type FindingId } from "../../src/generate/lint.ts";
import { shippedSkills } from "../../src/generate/generate.ts";
import { lintTeam } from "../../src/generate/team.ts";

const FIXTURES = join(import.meta.dirname, "../fixtures/definitions/lint");
const lintFixture = (id: string) => {
  const dir = join(FIXTURES, id);
  return lintTeam(loadDefinitionSet(dir, dir), shippedSkills(dir)).findings;
};

const cases: [FindingId, string, number | undefined, RegExp, RegExp][] = [
  ["invalid-yaml", "skills/broken/skill.yaml", 8, /^not valid YAML: map keys must be unique$/, /fix the YAML syntax/],
  [
    "invalid-definition",
    "agents/boss.yaml",
    4,
    /^role: expected one of orchestrator, specialist, reviewer, received "boss"$/,
    /use one of the listed values/,
  ],
  ["unknown-key", "skills/typo/skill.yaml", 8, /^unknown key `handof`$/, /^rename it to `handoffs`/],
  [
    "name-not-kebab",
    "agents/design-reviewer.yaml",
    2,
    /^name: names are kebab-case: .*, received "Design_Reviewer"$/,
    /rename it to `design-reviewer`/,
  ],
  [
    "description-too-long",
    "skills/wordy/skill.yaml",
    4,
    /^description: expected at most 500 characters, received \d+$/,
    /shorten the description/,
  ],
  [
    "frontmatter-too-long",
    "skills/greedy/skill.yaml",
    4,
    /^the rendered frontmatter of `greedy` is \d+ characters, over 1024$/,
    /shorten `description`/,
  ],
  [
    "name-mismatch",
    "agents/frontend.yaml",
    2,
    /^agent name `front-end` differs from its file `frontend.yaml`$/,
    /rename the file to `front-end.yaml`/,
  ],
  [
    "trigger-test-failed",
    "skills/router/skill.yaml",
    16,
    /^`router` stays for "refund the customer", the test expects `billing`$/,
    /fix the handoff triggers or priorities, or the test/,
  ],
  [
    "skill-set-aside",
    "skills/release/skill.yaml",
    2,
    /^shipped skill `release` needs agent `writer`, which this team does not have: it is set aside \(not rendered\)/,
    /add that agent under `\.claude\/lanes\/agents\/`/,
  ],
  [
    "unknown-handoff-target",
    "skills/lonely/skill.yaml",
    10,
    /^`lonely` hands off to `auth-securty`, which does not exist$/,
    /create the skill `auth-securty`/,
  ],
  [
    "unknown-skill",
    "skills/friendly/skill.yaml",
    8,
    /^`friendly` refers to skill `best-friend`, which does not exist$/,
    /create `best-friend`/,
  ],
  [
    "unknown-agent",
    "agents/caller.yaml",
    11,
    /^`caller` refers to agent `ghost`, which does not exist$/,
    /create agent `ghost`/,
  ],
  [
    "unknown-owner",
    "agents/modest.yaml",
    12,
    /^`fixtures\/modest\/generated\/\*\*` is owned by `nobody`, which is not an agent$/,
    /name an existing agent/,
  ],
  [
    "handoff-cycle",
    "skills/ping/skill.yaml",
    10,
    /^handoffs can loop: `pong` → `ping` → `pong`, and no `exclude_from` breaks it$/,
    /add `pong` to `exclude_from` of the `ping` → `pong` handoff/,
  ],
  [
    "trigger-collision",
    "skills/router/skill.yaml",
    13,
    /^trigger `social login` hands off to `social` here, but `login` hands off to `auth` in the same skill$/,
    /specializes: \[auth\]` in `social`/,
  ],
  ["vague-trigger", "skills/eager/skill.yaml", 9, /^trigger alternative `help` is a common word/, /replace `help`/],
  [
    "unknown-template-slot",
    "skills/templater/skill.yaml",
    12,
    /^context template slot `\{goal\}` is not one lanes knows$/,
    /\{user_goal\}/,
  ],
  [
    "owned-path-overlap",
    "agents/web.yaml",
    9,
    /^`web` owns `src\/\*\*` and `widgets` owns `src\/components\/\*\*`: the paths both match are shared, and either may write them$/,
    /if only one of them should, add `\{ path: "src\/components\/\*\*", owner: widgets \}` to `does_not_own` of `web`/,
  ],
  [
    "missing-reference",
    "skills/forgetful/skill.yaml",
    9,
    /^reference `guide.md` is not in `references\/`$/,
    /add `skills\/forgetful\/references\/guide.md`/,
  ],
  [
    "skill-substitution",
    "skills/shell/skill.yaml",
    9,
    /^`\$1` in a skill is replaced by Claude Code when the skill loads$/,
    /write it differently/,
  ],
  [
    "missing-schema-comment",
    "skills/bare/skill.yaml",
    1,
    /^no `yaml-language-server` schema comment/,
    /yaml-language-server: \$schema=/,
  ],
];

describe("lint fixtures", () => {
  it("there is one fixture per finding id, and one finding id per fixture", () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(Object.keys(FINDING_IDS).sort());
    expect(cases.map(([id]) => id).sort()).toEqual(Object.keys(FINDING_IDS).sort());
  });

  it.each(cases)("%s: %s:%s", (id, file, line, message, fix) => {
    const findings = lintFixture(id);
    expect(findings, formatFindings(findings)).toHaveLength(1);
    const [finding] = findings;
    expect(finding).toMatchObject({
      id,
      file,
      line,
      severity:
        id === "missing-schema-comment" || id === "unknown-template-slot" || id === "skill-set-aside"
          ? "warning"
          : id === "owned-path-overlap"
            ? "info"
            : "error",
    });
    expect(finding?.message).toMatch(message);
    expect(finding?.fix).toMatch(fix);
  });
});

describe("lint resolutions", () => {
  it("a declared owner resolves an owned-path overlap", () => {
    const set = loadDefinitionSet(join(FIXTURES, "owned-path-overlap"));
    const [web, widgets] = set.agents;
    const declared = {
      ...web!,
      value: { ...web!.value, does_not_own: [{ path: "src/components/**", owner: "widgets" }] },
    };
    expect(lint({ ...set, agents: [declared, widgets!] })).toEqual([]);
  });

  it("exclude_from on either side breaks a two-skill cycle", () => {
    const set = loadDefinitionSet(join(FIXTURES, "handoff-cycle"));
    const [ping, pong] = set.skills;
    const broken = {
      ...pong!,
      value: { ...pong!.value, handoffs: pong!.value.handoffs.map((h) => ({ ...h, exclude_from: ["ping"] })) },
    };
    expect(lint({ ...set, skills: [ping!, broken] })).toEqual([]);
  });

  it("finds a three-skill cycle and names the transition to break", () => {
    const skill = (id: string, trigger: string, to: string, exclude_from: string[] = []): LocatedSkill => ({
      value: SkillDefinition.parse({
        id,
        name: id,
        description: "Use for a three-skill cycle in the lint tests.",
        identity: "You are a fixture skill used by the lint tests.",
        owns: [id],
        handoffs: [{ trigger, to, why: "the next one", context_template: "{user_goal}", exclude_from }],
      }),
      file: `skills/${id}/skill.yaml`,
      line: () => undefined,
      text: "# yaml-language-server: $schema=x\n",
      dir: id,
      references: [],
    });
    const rock = skill("rock", "paper wrap", "paper");
    const paper = skill("paper", "scissors cut", "scissors");
    const findings = lint({ agents: [], issues: [], skills: [rock, paper, skill("scissors", "rock smash", "rock")] });
    expect(findings.map((f) => [f.id, f.file, f.message, f.fix])).toEqual([
      [
        "handoff-cycle",
        "skills/paper/skill.yaml",
        "handoffs can loop: `scissors` → `rock` → `paper` → `scissors`, and no `exclude_from` breaks it",
        "add `rock` to `exclude_from` of the `paper` → `scissors` handoff (skip it when `paper` was reached from `rock`)",
      ],
    ]);
    expect(
      lint({
        agents: [],
        issues: [],
        skills: [rock, skill("paper", "scissors cut", "scissors", ["rock"]), skill("scissors", "rock smash", "rock")],
      }),
    ).toEqual([]);
  });

  it("declaring the more specific skill resolves a trigger collision", () => {
    const set = loadDefinitionSet(join(FIXTURES, "trigger-collision"));
    const skills = set.skills.map((s) =>
      s.value.id === "social" ? { ...s, value: { ...s.value, specializes: ["auth"] } } : s,
    );
    expect(lint({ ...set, skills })).toEqual([]);
  });
});

describe("typed handoffs in a definition", () => {
  const base = {
    id: "steps",
    name: "Steps",
    description: "Use for a fixture of the typed handoff tests; it does nothing else.",
    identity: "You are a fixture skill used by the typed handoff tests.",
    owns: ["fixture topics"],
  };
  const handoff = (extra: Record<string, unknown>) => ({
    ...base,
    handoffs: [{ trigger: "quality bar", to: "judge", why: "w", context_template: "c", ...extra }],
  });
  it.each<[string, Record<string, unknown>, string | undefined]>([
    [
      "a conditional handoff with its fallback",
      { type: "conditional", proceed_if: "all passed", fallback_to: "advisor" },
      undefined,
    ],
    ["a checkpoint handoff", { require_approval: true }, undefined],
    ["conditional without a condition", { type: "conditional" }, "a conditional handoff needs `proceed_if`"],
    [
      "a fallback on a sequential handoff",
      { fallback_to: "advisor" },
      "`proceed_if` and `fallback_to` belong to `type: conditional`",
    ],
    [
      "the target as its own fallback",
      { type: "conditional", proceed_if: "x", fallback_to: "judge" },
      "the fallback is the target itself: name another skill",
    ],
  ])("%s", (_name, extra, problem) => {
    const parsed = SkillDefinition.safeParse(handoff(extra));
    expect(parsed.success ? undefined : parsed.error.issues[0]!.message).toBe(problem);
  });
});

describe("a conditional handoff's fallback must exist", () => {
  it("is reported as unknown-handoff-target", () => {
    const dir = mkdtempSync(join(tmpdir(), "lanes-lint-"));
    try {
      const skill = (id: string, extra = "") =>
        `# yaml-language-server: $schema=x\nid: ${id}\nname: Fixture ${id}\ndescription: Use for a fixture of the lint tests; it does nothing else.\nidentity: You are a fixture skill used by the lint tests.\nowns:\n  - fixture topics of ${id}\n${extra}`;
      for (const [id, extra] of [
        [
          "steps",
          'handoffs:\n  - trigger: quality bar\n    to: judge\n    why: w\n    context_template: "c"\n    type: conditional\n    proceed_if: every gate passed\n    fallback_to: advisr\n',
        ],
        ["judge", ""],
      ] as const) {
        mkdirSync(join(dir, "skills", id), { recursive: true });
        writeFileSync(join(dir, "skills", id, "skill.yaml"), skill(id, extra));
      }
      const found = lint(loadDefinitionSet(dir, dir)).filter((f) => f.severity === "error");
      expect(found.map((f) => [f.id, f.message])).toEqual([
        ["unknown-handoff-target", "`steps` falls back to `advisr`, which does not exist"],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

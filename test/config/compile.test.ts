import { describe, expect, it } from "vitest";
import { compilePolicy, type PolicyLayerInput } from "../../src/config/compile.ts";
import { AgentDefinition } from "../../src/definitions/agent.ts";
import type { PolicyFile } from "../../src/config/schema.ts";
import type { RuleSpec } from "../../src/policy/rules/index.ts";

const builtin: RuleSpec[] = [
  { id: "core.a", effect: "deny", why: "w", instead: "i", command: { program: "a" } },
  { id: "core.b", effect: "ask", why: "w", instead: "i", command: { program: "b" } },
];
const layer = (l: PolicyLayerInput["layer"], file: Partial<PolicyFile> | undefined): PolicyLayerInput => ({
  layer: l,
  path: `/${l}/lanes.yaml`,
  file: file === undefined ? undefined : { version: 1, ...file },
});
const compile = (layers: PolicyLayerInput[], agents: { path: string; definition: AgentDefinition }[] = []) =>
  compilePolicy({ lanesVersion: "test", layers, agents, sources: [], listings: [], builtin });

const agent = (over: Partial<AgentDefinition> & { name: string }): AgentDefinition =>
  AgentDefinition.parse({
    description: "an agent for testing the compiler output",
    role: "specialist",
    identity: "You are a test agent for the compiler.",
    responsibilities: ["test"],
    owns: [],
    ...over,
  });

describe("compilePolicy", () => {
  it("orders rules highest layer first and tags their layer and source", () => {
    const result = compile([
      layer("local", { rules: [{ id: "l.x", effect: "ask", why: "w", instead: "i", command: { program: "x" } }] }),
      layer("user", { rules: [{ id: "u.y", effect: "deny", why: "w", instead: "i", tools: ["WebFetch"] }] }),
    ]);
    expect(result.ok && result.value.rules.map((r) => [r.id, r.layer, r.source])).toEqual([
      ["u.y", "user", "/user/lanes.yaml"],
      ["l.x", "local", "/local/lanes.yaml"],
      ["core.a", "builtin", "lanes built-in"],
      ["core.b", "builtin", "lanes built-in"],
      ["fs.write-outside-project", "builtin", "lanes built-in"],
    ]);
  });

  it("lets a layer switch off lower rules and records who did", () => {
    const result = compile([layer("project", { disable: ["core.a"] })]);
    expect(result.ok && result.value.rules.map((r) => r.id)).not.toContain("core.a");
    expect(result.ok && result.value.disabled).toEqual([{ id: "core.a", by: "/project/lanes.yaml" }]);
  });

  it("refuses to let a lower layer switch off a higher one", () => {
    const result = compile([
      layer("user", { rules: [{ id: "u.z", effect: "deny", why: "w", instead: "i", command: { program: "z" } }] }),
      layer("local", { disable: ["u.z"] }),
    ]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues).toEqual([
      {
        file: "/local/lanes.yaml",
        message:
          "`disable` cannot switch off `u.z` from /user/lanes.yaml: a layer only switches off rules of lower layers",
      },
    ]);
  });

  it("refuses unknown ids in disable and duplicate rule ids", () => {
    const result = compile([
      layer("project", {
        disable: ["nope"],
        rules: [{ id: "core.a", effect: "allow", why: "w", instead: "i", command: { program: "a" } }],
      }),
    ]);
    expect(!result.ok && result.issues.map((i) => i.message)).toEqual([
      "rule id `core.a` is already used in /project/lanes.yaml: give this rule its own id, or switch the other off with `disable: [core.a]`",
      "`disable` names unknown rule `nope`: run `lanes rules` for the ids",
    ]);
  });

  it("takes each option from the highest layer that sets it", () => {
    const result = compile([
      layer("project", { options: { max_agent_depth: 5, outside_project_writes: "deny" } }),
      layer("user", { options: { max_agent_depth: 2 } }),
    ]);
    expect(result.ok && result.value.options).toMatchObject({
      maxAgentDepth: 2,
      outsideProjectWrites: "deny",
      defaultLane: "unowned-only",
    });
  });

  it("drops the outside-project rule when the option is off", () => {
    const result = compile([layer("project", { options: { outside_project_writes: "off" } })]);
    expect(result.ok && result.value.rules.map((r) => r.id)).not.toContain("fs.write-outside-project");
  });

  it("compiles agent lanes with role defaults and enforced MUST NOT rules", () => {
    const result = compile(
      [],
      [
        { path: "/a/orchestrator.yaml", definition: agent({ name: "orchestrator", role: "orchestrator" }) },
        {
          path: "/a/backend.yaml",
          definition: agent({
            name: "backend",
            owns: ["src/server/**"],
            does_not_own: [{ path: "src/server/db/**", owner: "orchestrator" }],
            must_not: [
              { id: "no-publish", text: "publish packages", command: { program: "npm", args: ["publish"] } },
              { text: "prose only" },
            ],
          }),
        },
      ],
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [orchestrator, backend] = result.value.agents;
    expect(orchestrator).toMatchObject({ maySpawn: ["*"], mayInvokeSkills: ["*"] });
    expect(backend).toMatchObject({
      maySpawn: [],
      mayInvokeSkills: [],
      owns: [{ globs: ["src/server/**"], anchor: "project" }],
    });
    expect(backend?.mustNot.map((r) => [r.id, r.layer, r.match.kind])).toEqual([
      ["agent.backend.no-publish", "must-not", "command"],
    ]);
  });

  it("refuses owners and spawn targets that have no definition", () => {
    const result = compile(
      [],
      [
        {
          path: "/a/b.yaml",
          definition: agent({ name: "b", may_spawn: ["ghost"], does_not_own: [{ path: "x/**", owner: "phantom" }] }),
        },
      ],
    );
    expect(!result.ok && result.issues.map((i) => i.message)).toEqual([
      "`does_not_own` names owner `phantom`, which has no definition: add it or fix the name",
      "`may_spawn` names `ghost`, which has no definition",
    ]);
  });
});

describe("case-insensitive paths by default where the file system is", () => {
  const compileWith = (layers: PolicyLayerInput[], caseInsensitiveDefault: boolean | undefined) => {
    const result = compilePolicy({
      lanesVersion: "test",
      layers,
      agents: [],
      sources: [],
      listings: [],
      builtin: [
        { id: "p.env", effect: "deny", why: "w", instead: "i", paths: { access: "zero-access", patterns: [".env"] } },
      ],
      ...(caseInsensitiveDefault !== undefined && { caseInsensitiveDefault }),
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return result.value;
  };
  it.each<[string, PolicyLayerInput[], boolean | undefined, boolean]>([
    ["no default, no option", [], undefined, false],
    ["the platform's default (macOS)", [], true, true],
    [
      "a layer's option wins over the default",
      [layer("project", { options: { case_insensitive_paths: false } })],
      true,
      false,
    ],
    ["and the other way", [layer("project", { options: { case_insensitive_paths: true } })], false, true],
  ])("%s", (_name, layers, fallback, expected) => {
    const policy = compileWith(layers, fallback);
    expect(policy.options.caseInsensitivePaths).toBe(expected);
    // the path rules are compiled to match as the option says
    const env = policy.rules.find((r) => r.id === "p.env")!;
    expect(env.match.kind === "path" && env.match.patterns.every((g) => g.flags.includes("i"))).toBe(expected);
  });
});

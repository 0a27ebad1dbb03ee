/**
 * The decision corpus (test/cases/*.yaml): every case's decision and deciding rule ids, with the
 * built-in policy. Shared with `npm run bench`.
 */
import { describe, expect, it } from "vitest";
import { caseDisk, corpusFiles, type CorpusCase } from "../helpers/corpus.ts";
import { expectDecision, judge, testPolicy } from "../helpers/guard.ts";

/** Wrappers that run their operand unchanged: a wrapped command gets the same decision. */
const WRAPPERS = ["sudo", "env LC_ALL=C", "timeout 60", "nice -n 10"] as const;

/** A case and its wrapped variants, each named by command and expected decision. */
function expand(c: CorpusCase): [string, CorpusCase][] {
  const commands =
    c.command === undefined ? [] : [c.command, ...(c.wrap === true ? WRAPPERS.map((w) => `${w} ${c.command}`) : [])];
  const as = c.agent === undefined ? "" : ` (as ${c.agent})`;
  const name = (subject: string) =>
    `${subject}${as} -> ${c.decision}${c.rules !== undefined && c.rules.length > 0 ? ` [${c.rules.join(", ")}]` : ""}`;
  if (commands.length === 0) return [[name(`${c.tool} ${JSON.stringify(c.input)}`), c]];
  return commands.map((command) => [name(command), { ...c, command }]);
}

const corpus = corpusFiles<CorpusCase>();
// The largest analysis budget: a wall-clock bound would turn some cases into `ask` on a loaded
// machine (the analysis is bounded by a node count now, so it no longer applies); the corpus tests
// decisions, not time.
const policy = testPolicy([
  { layer: "project", path: "/corpus/lanes.yaml", file: { version: 1, options: { analysis_budget_ms: 2000 } } },
]);

describe.each(corpus)("corpus $file", ({ cases }) => {
  const all = cases.flatMap(expand);
  const run = (_name: string, c: CorpusCase) => {
    const disk = caseDisk(c);
    expectDecision(
      judge(policy, c.command, {
        ...(disk !== undefined && { disk }),
        ...(c.tool !== undefined && { tool: c.tool }),
        ...(c.input !== undefined && { input: c.input }),
        ...(c.cwd !== undefined && { cwd: c.cwd }),
        ...(c.agent !== undefined && { agent: c.agent }),
      }),
      c.decision,
      c.rules ?? [],
    );
  };
  const live = all.filter(([, c]) => c.todo === undefined);
  if (live.length > 0) it.each(live)("%s", run);
  // a known gap runs too, and must still fail: once the analysis sees it, remove its `todo` field
  for (const [name, c] of all.filter(([, c]) => c.todo !== undefined))
    it.fails(`${name} (todo: ${c.todo}; passing now? remove the todo field)`, () => run(name, c));
});

describe("the corpus", () => {
  it("holds at least 300 dangerous and 300 everyday cases", () => {
    const all = corpus.flatMap((f) => f.cases);
    expect(all.filter((c) => c.decision !== "none").length).toBeGreaterThanOrEqual(300);
    expect(all.filter((c) => c.decision === "none").length).toBeGreaterThanOrEqual(300);
  });
  it("holds at least 2,500 written cases, each deny/ask naming its rules", () => {
    const all = corpus.flatMap((f) => f.cases);
    expect(all.length).toBeGreaterThanOrEqual(2500);
    expect(all.filter((c) => c.decision !== "none" && (c.rules ?? []).length === 0).map((c) => c.command)).toEqual([]);
  });
  it("names only rules that exist", () => {
    const ids = new Set(policy.rules.map((r) => r.id));
    const unknown = corpus.flatMap((f) =>
      f.cases.flatMap((c) => (c.rules ?? []).filter((r) => !ids.has(r)).map((r) => `${f.file}: ${r}`)),
    );
    expect(unknown).toEqual([]);
  });
});

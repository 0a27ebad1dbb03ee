/**
 * Every built-in rule matches at least one case of the decision corpus (test/cases/*.yaml). A rule
 * whose pattern can never match (a typo in a glob, an option spelled the way no parser reports it)
 * is dead weight that looks like protection; this fails the suite instead.
 */
import { describe, expect, it } from "vitest";
import { caseDisk, corpusFiles, WHOLE_CORPUS_TIMEOUT, type CorpusCase } from "../helpers/corpus.ts";
import { judge, testPolicy } from "../helpers/guard.ts";

const cases = corpusFiles<CorpusCase>().flatMap((f) => f.cases);

describe("rule coverage", () => {
  it("every built-in rule matches some corpus case", { timeout: WHOLE_CORPUS_TIMEOUT }, () => {
    const policy = testPolicy();
    const matched = new Set<string>();
    for (const c of cases) {
      const disk = caseDisk(c);
      const e = judge(policy, c.command, {
        ...(disk !== undefined && { disk }),
        ...(c.tool !== undefined && { tool: c.tool }),
        ...(c.input !== undefined && { input: c.input }),
        ...(c.cwd !== undefined && { cwd: c.cwd }),
        ...(c.agent !== undefined && { agent: c.agent }),
      });
      for (const m of e.matches) matched.add(m.ruleId);
    }
    expect(policy.rules.filter((r) => !matched.has(r.id)).map((r) => r.id)).toEqual([]);
  });
});

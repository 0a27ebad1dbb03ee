/**
 * `candidateRules` only skips misses: over every command of the decision corpus, the rules it keeps
 * produce exactly the matches that running every rule produces.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCompiledPolicy } from "../../src/config/policy-file.ts";
import { serializeCompiledPolicy, type CompiledRule } from "../../src/policy/compiled.ts";
import { candidateRules, matchRule } from "../../src/policy/match.ts";
import { buildRuleIndex, indexedRules } from "../../src/policy/rule-index.ts";
import { corpusCommands } from "../helpers/corpus.ts";
import { HOME, judge, PROJECT, testPolicy } from "../helpers/guard.ts";

const commands = corpusCommands();

describe("candidate rules", () => {
  const policy = testPolicy();
  const ctx = { cwd: PROJECT, projectDir: PROJECT, home: HOME, tempDirs: ["/tmp", "/var/tmp"], caseInsensitive: false };
  const roots = { projectDir: PROJECT, home: HOME, caseInsensitive: false };

  it("covers the corpus", () => {
    expect(commands.length).toBeGreaterThan(2000);
  });

  it("keep every rule that matches, for every corpus command", () => {
    let skipped = 0;
    for (const command of commands) {
      const facts = judge(policy, command).facts;
      const all = policy.rules.flatMap((r) => matchRule(r, facts, ctx, roots));
      const kept = candidateRules(policy, facts);
      skipped += policy.rules.length - kept.length;
      expect(
        kept.flatMap((r) => matchRule(r, facts, ctx, roots)),
        command,
      ).toEqual(all);
    }
    // and it does skip: most rules name programs a command does not run
    expect(skipped / (commands.length * policy.rules.length)).toBeGreaterThan(0.5);
  });

  it("keep the same rules when read from the compiled file, whose index picks them without parsing the others", () => {
    const dir = mkdtempSync(join(tmpdir(), "lanes-candidates-"));
    try {
      writeFileSync(join(dir, "policy.json"), serializeCompiledPolicy(policy));
      const read = readCompiledPolicy(join(dir, "policy.json"));
      if (!read.ok) throw new Error(read.message);
      expect(read.policy.ruleIndex).toBe(buildRuleIndex(policy.rules));
      for (const command of commands) {
        const facts = judge(policy, command).facts;
        expect(
          candidateRules(read.policy, facts).map((r) => r.id),
          command,
        ).toEqual(candidateRules(policy, facts).map((r) => r.id));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("index rules whose names or words hold its delimiters under `k:always`, and words only when literal", () => {
    const rule = (id: string, program: string[], args?: string[]) =>
      ({ ...policy.rules[0]!, id, match: { kind: "command", program, ...(args && { args }) } }) as CompiledRule;
    const rules = [
      rule("a", ["git"], ["reset|Restore", "--hard"]),
      rule("b", ["odd,name"]),
      rule("c", ["mkfs.*"]),
      rule("d", ["git"], ["db:*"]),
      rule("e", ["git"], ["**", "a,b"]),
    ];
    const index = buildRuleIndex(rules);
    const pick = (programs: string[], words: string[]) =>
      indexedRules(index, {
        programs: new Set(programs),
        words: new Set(words),
        files: false,
        code: false,
        pipes: false,
      });
    expect(pick(["git"], ["status"])).toEqual([1, 3, 4]);
    expect(pick(["git"], ["restore"])).toEqual([0, 1, 3, 4]);
    expect(pick(["mkfs.ext4"], [])).toEqual([1, 2]);
    expect(pick([], [])).toEqual([1]);
  });
});

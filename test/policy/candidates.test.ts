/**
 * `candidateRules` only skips misses: over every command of the decision corpus, the rules it keeps
 * produce exactly the matches that running every rule produces.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { candidateRules, matchRule } from "../../src/policy/match.ts";
import { HOME, judge, PROJECT, testPolicy } from "../helpers/guard.ts";

const dir = join(import.meta.dirname, "..", "cases");
const commands = readdirSync(dir)
  .filter((f) => f.endsWith(".yaml"))
  .flatMap((f) => (parse(readFileSync(join(dir, f), "utf8")) as { cases: { command?: string }[] }).cases)
  .flatMap((c) => (typeof c.command === "string" ? [c.command] : []));

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
      const kept = candidateRules(policy.rules, facts);
      skipped += policy.rules.length - kept.length;
      expect(
        kept.flatMap((r) => matchRule(r, facts, ctx, roots)),
        command,
      ).toEqual(all);
    }
    // and it does skip: most rules name programs a command does not run
    expect(skipped / (commands.length * policy.rules.length)).toBeGreaterThan(0.5);
  });
});

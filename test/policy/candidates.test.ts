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
import { corpusCommands, WHOLE_CORPUS_TIMEOUT } from "../helpers/corpus.ts";
import { HOME, judge, PROJECT, testPolicy } from "../helpers/guard.ts";

const commands = corpusCommands();

describe("candidate rules", () => {
  const policy = testPolicy();
  const ctx = { cwd: PROJECT, projectDir: PROJECT, home: HOME, tempDirs: ["/tmp", "/var/tmp"], caseInsensitive: false };
  const roots = { projectDir: PROJECT, home: HOME, caseInsensitive: false };

  it("covers the corpus", () => {
    expect(commands.length).toBeGreaterThan(2000);
  });

  it("keep every rule that matches, for every corpus command", { timeout: WHOLE_CORPUS_TIMEOUT }, () => {
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

  it("keep every rule that matches a tool's file, whatever its path or case", () => {
    const names = [
      "README.md",
      ".env",
      ".env.local",
      "config/.ENV",
      "id_rsa",
      "keys/ID_ED25519.pub",
      ".ssh/config",
      ".git/config",
      ".git/index.lock",
      "db/app.sqlite3",
      "infra/prod.tfstate",
      ".claude/lanes/state/overrides.json",
      ".bash_history",
      "src/**/*.pem",
      "*",
      "**",
      ".config/autostart/x.desktop",
      "Library/Keychains/login.keychain-db",
    ];
    const places = [PROJECT, HOME, "/etc", "/tmp", "/"];
    const policies = [
      policy,
      testPolicy([
        { layer: "project", path: "/p/lanes.yaml", file: { version: 1, options: { case_insensitive_paths: true } } },
      ]),
    ];
    let calls = 0;
    for (const p of policies)
      for (const place of places)
        for (const name of names)
          for (const [tool, input] of [
            ["Read", { file_path: `${place}/${name}` }],
            ["Write", { file_path: `${place}/${name}`, content: "x" }],
            ["Edit", { file_path: `${place}/${name}`, old_string: "a", new_string: "b" }],
            ["Glob", { pattern: name, path: place }],
            ["Grep", { pattern: "x", path: `${place}/${name}` }],
          ] as const) {
            const facts = judge(p, undefined, { tool, input }).facts;
            const c = { ...ctx, caseInsensitive: p.options.caseInsensitivePaths };
            const r = { ...roots, caseInsensitive: p.options.caseInsensitivePaths };
            const all = p.rules.flatMap((rule) => matchRule(rule, facts, c, r));
            expect(
              candidateRules(p, facts).flatMap((rule) => matchRule(rule, facts, c, r)),
              `${tool} ${JSON.stringify(input)}`,
            ).toEqual(all);
            calls += all.length > 0 ? 1 : 0;
          }
    // the calls do meet path rules: the check is not vacuous
    expect(calls).toBeGreaterThan(100);
  });

  it("leave out the path rules whose literal pieces a call's paths do not hold", () => {
    const read = (file: string) =>
      candidateRules(policy, judge(policy, undefined, { tool: "Read", input: { file_path: file } }).facts).map(
        (r) => r.id,
      );
    expect(read(`${PROJECT}/README.md`)).not.toContain("secrets.private-keys");
    expect(read(`${HOME}/.ssh/id_rsa`)).toContain("secrets.private-keys");
    // delete and file-effect rules: only those naming a class of the call's files
    expect(read(`${PROJECT}/README.md`)).not.toContain("fs.delete-root");
    const rmRoot = candidateRules(policy, judge(policy, "rm -rf /").facts).map((r) => r.id);
    expect(rmRoot).toContain("fs.delete-root");
    expect(rmRoot).not.toContain("fs.delete-other-home");
    // a glob can name any file: every path rule stays
    expect(candidateRules(policy, judge(policy, "cat ~/.ssh/*").facts).map((r) => r.id)).toContain(
      "secrets.private-keys",
    );
  });

  it(
    "keep the same rules when read from the compiled file, whose index picks them without parsing the others",
    { timeout: WHOLE_CORPUS_TIMEOUT },
    () => {
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
    },
  );

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
        paths: [],
        everyPath: false,
        classes: new Set(),
        code: false,
        pipes: false,
        sends: false,
        agents: false,
        deferred: false,
      });
    expect(pick(["git"], ["status"])).toEqual([1, 3, 4]);
    expect(pick(["git"], ["restore"])).toEqual([0, 1, 3, 4]);
    expect(pick(["mkfs.ext4"], [])).toEqual([1, 2]);
    expect(pick([], [])).toEqual([1]);
  });
});

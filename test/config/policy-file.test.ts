/**
 * The compiled policy file (compiled.ts `serializeCompiledPolicy`, policy-file.ts
 * `readCompiledPolicy`): one JSON document for any reader, laid out in lines so that a hook parses
 * only the rules a call can meet.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildPolicy } from "../../src/config/load.ts";
import { compiledOptions, readCompiledPolicy } from "../../src/config/policy-file.ts";
import { COMPILED_FORMAT, serializeCompiledPolicy, type CompiledLayout } from "../../src/policy/compiled.ts";
import { buildRuleIndex } from "../../src/policy/rule-index.ts";
import { candidateRules } from "../../src/policy/match.ts";
import { judge, testPolicy } from "../helpers/guard.ts";

const dir = mkdtempSync(join(tmpdir(), "lanes-policy-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fileWith = (text: string): string => {
  const file = join(dir, `policy-${n++}.json`);
  writeFileSync(file, text);
  return file;
};
const policy = testPolicy();
const text = serializeCompiledPolicy(policy);

describe("compiled policy file", () => {
  it("gives its options from the first line alone, and nothing for a file laid out otherwise", () => {
    expect(compiledOptions(fileWith(text))).toEqual(policy.options);
    expect(compiledOptions(fileWith(JSON.stringify(policy)))).toBeUndefined();
    expect(compiledOptions(join(dir, "absent.json"))).toBeUndefined();
  });

  it("is one JSON document: the policy, its rule index, and where each part lies", () => {
    const { layout, ...rest } = JSON.parse(text) as { layout: CompiledLayout };
    expect(rest).toEqual({ ...policy, ruleIndex: buildRuleIndex(policy.rules) });
    const bytes = Buffer.from(text, "utf8");
    const base = bytes.indexOf(10) + 1;
    const at = (from: number, to: number): unknown => JSON.parse(bytes.toString("utf8", base + from, base + to));
    expect(at(...layout.agents)).toEqual(policy.agents);
    expect(at(...layout.ruleIndex)).toBe(buildRuleIndex(policy.rules));
    expect(layout.rules).toHaveLength(2 * policy.rules.length);
    policy.rules.forEach((rule, i) => expect(at(layout.rules[2 * i]!, layout.rules[2 * i + 1]!)).toEqual(rule));
    expect(layout.size).toBe(bytes.length - base);
  });

  it("counts its offsets in bytes: text beyond ASCII in a rule moves the rules after it", () => {
    const first = policy.rules[0]!;
    const wide = {
      ...policy,
      rules: [{ ...first, why: `${first.why} (équipe, チーム)` }, ...policy.rules.slice(1)],
    };
    const read = readCompiledPolicy(fileWith(serializeCompiledPolicy(wide)));
    if (!read.ok) throw new Error(read.message);
    expect(read.policy.rules[0]!.why).toContain("(équipe, チーム)");
    expect(JSON.stringify(read.policy.rules)).toBe(JSON.stringify(wide.rules));
  });

  it("reads later rules from the file it read first: the same file after its descriptor is closed, never a replacement", () => {
    expect(Buffer.byteLength(text)).toBeGreaterThan(1 << 16);
    const last = policy.rules.length - 1;
    const file = fileWith(text);
    const kept = readCompiledPolicy(file);
    if (!kept.ok) throw new Error(kept.message);
    // replaced by a recompile (a rename) while the descriptor is open: the rules are still the first file's
    const replacement = serializeCompiledPolicy({
      ...policy,
      rules: policy.rules.map((r) => ({ ...r, why: `${r.why}, again` })),
    });
    writeFileSync(`${file}.new`, replacement);
    renameSync(`${file}.new`, file);
    expect(kept.policy.rules[last]).toEqual(policy.rules[last]);
    const other = readCompiledPolicy(file);
    if (!other.ok) throw new Error(other.message);
    // more policies read than descriptors kept open: these two are closed, and open the file again when read
    for (let i = 0; i < 5; i++) expect(readCompiledPolicy(fileWith(text)).ok).toBe(true);
    expect(other.policy.rules[last]!.why).toBe(`${policy.rules[last]!.why}, again`);
    expect(() => kept.policy.rules[last - 1]).toThrow(/was replaced while it was read; run the call again/);
  });

  it("reads the agent lanes only when asked, and names the line when they are damaged", () => {
    const lines = text.split("\n");
    lines[1] = `"agents":${"x".repeat(lines[1]!.length - '"agents":'.length - 1)},`;
    const read = readCompiledPolicy(fileWith(lines.join("\n")));
    if (!read.ok) throw new Error(read.message);
    expect(read.policy.rules).toHaveLength(policy.rules.length);
    expect(() => read.policy.agents).toThrow(/has unreadable agent lanes on line 2; run `lanes build`/);
  });

  it("reads back to the same policy, rule for rule", () => {
    const read = readCompiledPolicy(fileWith(text));
    if (!read.ok) throw new Error(read.message);
    expect(read.policy.rules).toHaveLength(policy.rules.length);
    expect(JSON.stringify(read.policy.rules)).toBe(JSON.stringify(policy.rules));
    expect(read.policy.rules.map((r) => r.id)).toEqual(policy.rules.map((r) => r.id));
    expect(read.policy.agents).toEqual(policy.agents);
  });

  it("parses only the rules a call can meet: a damaged rule elsewhere is not read", () => {
    const lines = text.split("\n");
    const at = policy.rules.findIndex((r) => r.match.kind === "command" && r.match.program.includes("terraform"));
    expect(at).toBeGreaterThanOrEqual(0);
    lines[at + 4] = `{"id":${lines[at + 4]!.slice("{".length)}`.slice(0, lines[at + 4]!.length); // same length, no longer JSON
    const read = readCompiledPolicy(fileWith(lines.join("\n")));
    if (!read.ok) throw new Error(read.message);
    const quiet = judge(policy, "git status").facts;
    expect(candidateRules(read.policy, quiet).map((r) => r.id)).toEqual(candidateRules(policy, quiet).map((r) => r.id));
    const meets = judge(policy, "terraform destroy -auto-approve").facts;
    expect(() => candidateRules(read.policy, meets)).toThrow(
      new RegExp(`has an unreadable rule on line ${at + 5}; run \`lanes build\``),
    );
  });

  it("is read whole when laid out otherwise (reformatted by hand), without trusting its index", () => {
    const pretty = JSON.stringify({ ...policy, ruleIndex: "\nk:always\t0\n" }, null, 2);
    const read = readCompiledPolicy(fileWith(pretty));
    if (!read.ok) throw new Error(read.message);
    expect(read.policy.ruleIndex).toBeUndefined();
    expect(read.policy.rules).toEqual(policy.rules);
  });

  it("of another format is stale, and a truncated one is invalid", () => {
    const older = readCompiledPolicy(fileWith(`${JSON.stringify({ ...policy, format: COMPILED_FORMAT - 1 })}\n`));
    expect(older).toMatchObject({ ok: false, kind: "stale" });
    const truncated = readCompiledPolicy(fileWith(text.slice(0, Math.floor(text.length / 2))));
    expect(truncated).toMatchObject({ ok: false, kind: "invalid" });
    const noEnd = readCompiledPolicy(fileWith(text.replace(/\]\}\n$/, "")));
    expect(noEnd).toMatchObject({ ok: false, kind: "invalid" });
    // offsets that no longer fit (a rule edited by hand to another length): read whole, still JSON
    const edited = text.replace(`"id":"${policy.rules[0]!.id}"`, `"id":"${policy.rules[0]!.id}-x"`);
    const whole = readCompiledPolicy(fileWith(edited));
    if (!whole.ok) throw new Error(whole.message);
    expect(whole.policy.rules[0]!.id).toBe(`${policy.rules[0]!.id}-x`);
    expect(whole.policy.ruleIndex).toBeUndefined();
  });

  it("with no rules is still one JSON document and reads back", () => {
    const empty = serializeCompiledPolicy({ ...policy, rules: [] });
    expect(JSON.parse(empty).rules).toEqual([]);
    const read = readCompiledPolicy(fileWith(empty));
    if (!read.ok) throw new Error(read.message);
    expect(read.policy.rules).toHaveLength(0);
  });

  it("is what lanes writes: the installed default policy has this layout", () => {
    const shipped = readFileSync(join(import.meta.dirname, "..", "..", "dist", "policy.default.json"), "utf8");
    // the small fields, the lanes, the index, `"rules":[`, a line per rule, `]}` and the final newline
    expect(shipped.split("\n")).toHaveLength(policy.rules.length + 6);
  });

  it("goes stale when a definition file is added to a listed directory, and not when the listing is back", () => {
    const project = join(dir, "project");
    const home = join(dir, "home");
    mkdirSync(join(project, ".claude", "agents"), { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(project, ".claude", "agents", "reviewer.md"),
      "---\nname: reviewer\ndescription: reviews\n---\nReview.\n",
    );
    const built = buildPolicy({ projectDir: project, home, lanesVersion: "test" });
    if (!built.ok) throw new Error(built.issues[0]?.message);
    const compiled = join(project, ".claude", "lanes", "state", "policy.json");
    expect(readCompiledPolicy(compiled).ok).toBe(true);
    const added = join(project, ".claude", "agents", "writer.md");
    writeFileSync(added, "---\nname: writer\ndescription: writes\n---\nWrite.\n");
    expect(readCompiledPolicy(compiled)).toMatchObject({
      ok: false,
      kind: "stale",
      message: expect.stringContaining("added or removed"),
    });
    unlinkSync(added);
    // the directory's mtime moved on, the listing is what was compiled
    expect(readCompiledPolicy(compiled).ok).toBe(true);
    // a listed directory that did not exist (the user's agents) appears with a definition
    mkdirSync(join(home, ".claude", "agents"), { recursive: true });
    expect(readCompiledPolicy(compiled).ok).toBe(true);
    writeFileSync(join(home, ".claude", "agents", "helper.md"), "---\nname: helper\ndescription: helps\n---\nHelp.\n");
    expect(readCompiledPolicy(compiled)).toMatchObject({ ok: false, kind: "stale" });
  });

  it("stamps a source or listing touched without a change, so later calls trust their stat again; a change is still seen", () => {
    const project = join(dir, "stamped");
    const home = join(dir, "stamped-home");
    const agents = join(project, ".claude", "agents");
    mkdirSync(agents, { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(join(agents, "reviewer.md"), "---\nname: reviewer\ndescription: reviews\n---\nReview.\n");
    const definition = join(project, ".claude", "lanes.yaml");
    writeFileSync(definition, "version: 1\nrules: []\n");
    const built = buildPolicy({ projectDir: project, home, lanesVersion: "test" });
    if (!built.ok) throw new Error(built.issues[0]?.message);
    const compiled = join(project, ".claude", "lanes", "state", "policy.json");
    const head = (): {
      sources: { path: string; mtimeMs?: number }[];
      listings: { dir: string; mtimeMs?: number }[];
    } => {
      const line = readFileSync(compiled, "utf8").split("\n", 1)[0]!;
      return JSON.parse(`${line.slice(0, -1)}}`) as ReturnType<typeof head>;
    };
    const rest = (): string => readFileSync(compiled, "utf8").slice(readFileSync(compiled, "utf8").indexOf("\n"));
    const before = rest();
    const stampOf = (): number | undefined => head().sources.find((s) => s.path === definition)?.mtimeMs;
    // a checkout rewrote the file with the same bytes: a new mtime, to the millisecond's fraction
    utimesSync(definition, 1_700_000_000.25, 1_700_000_000.25);
    utimesSync(agents, 1_700_000_000.5, 1_700_000_000.5);
    expect(readCompiledPolicy(compiled).ok).toBe(true);
    expect(stampOf()).toBe(statSync(definition).mtimeMs);
    expect(head().listings.find((l) => l.dir === agents)?.mtimeMs).toBe(statSync(agents).mtimeMs);
    // only the first line changed: the layout's offsets still hold, and the file reads back whole
    expect(rest()).toBe(before);
    const again = readCompiledPolicy(compiled);
    if (!again.ok) throw new Error(again.message);
    expect(JSON.stringify(again.policy.rules)).toBe(JSON.stringify(built.policy.rules));
    // a whole-second mtime may hide a change made within its second: never stamped
    const fine = stampOf();
    utimesSync(definition, 1_700_000_100, 1_700_000_100);
    expect(readCompiledPolicy(compiled).ok).toBe(true);
    expect(stampOf()).toBe(fine);
    // a real change after the stamp: stale
    writeFileSync(definition, "version: 1\nrules: [] # none\n");
    expect(readCompiledPolicy(compiled)).toMatchObject({ ok: false, kind: "stale", file: definition });
  });

  it("never stamps a file laid out otherwise, nor one that is replaced meanwhile", () => {
    const project = join(dir, "unstamped");
    mkdirSync(join(project, ".claude"), { recursive: true });
    const definition = join(project, ".claude", "lanes.yaml");
    writeFileSync(definition, "version: 1\nrules: []\n");
    const built = buildPolicy({ projectDir: project, home: join(dir, "unstamped-home"), lanesVersion: "test" });
    if (!built.ok) throw new Error(built.issues[0]?.message);
    const compiled = join(project, ".claude", "lanes", "state", "policy.json");
    // formatted by hand: read whole, and left as it is
    const pretty = `${JSON.stringify(JSON.parse(readFileSync(compiled, "utf8")), null, 2)}\n`;
    writeFileSync(compiled, pretty);
    utimesSync(definition, 1_700_000_000.25, 1_700_000_000.25);
    expect(readCompiledPolicy(compiled).ok).toBe(true);
    expect(readFileSync(compiled, "utf8")).toBe(pretty);
    // held by a recompile (its lock taken): not stamped now, stamped by a later call
    writeFileSync(compiled, serializeCompiledPolicy(built.policy));
    const stamp = (): string => readFileSync(compiled, "utf8").split("\n", 1)[0]!;
    const unstamped = stamp();
    writeFileSync(
      `${compiled}.lock`,
      JSON.stringify({ pid: process.pid, host: hostname(), created: new Date().toISOString(), token: "held" }),
    );
    expect(readCompiledPolicy(compiled).ok).toBe(true);
    expect(stamp()).toBe(unstamped);
    unlinkSync(`${compiled}.lock`);
    expect(readCompiledPolicy(compiled).ok).toBe(true);
    expect(stamp()).not.toBe(unstamped);
  });
});

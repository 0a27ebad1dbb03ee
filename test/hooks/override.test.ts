/**
 * The human override of one DANGEROUS denial (src/hooks/state/override.ts): the store (offer, redeem,
 * consume, expiry, mismatch, second use), then the guard and the task channel in process: the code
 * goes to the human only, `lanes allow <code>` grants the exact call once, a subagent's call and a
 * second identical call are denied, and no tool may touch the file of offers and grants.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  callHash,
  canonicalJson,
  consumeGrant,
  newCode,
  OVERRIDES_FILE,
  offerOverride,
  overrideCommand,
  redeemOffer,
} from "../../src/hooks/state/override.ts";
import { runPreToolUse } from "../../src/hooks/events/pre-tool-use.ts";
import { runTaskChannel } from "../../src/hooks/events/task-channel.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const T0 = new Date("2026-01-02T03:04:05Z");
const later = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const DANGEROUS = { command: "git reset --hard HEAD~1" };

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempProject(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "lanes-override-")));
  dirs.push(dir);
  mkdirSync(join(dir, ".claude", "state"), { recursive: true });
  return dir;
}
const stateOf = (dir: string) => join(dir, ".claude", "state");

const call = (input: Record<string, unknown> = DANGEROUS, session = "s1") => ({
  session,
  tool: "Bash",
  input,
  subject: `\`${String(input["command"])}\``,
  rules: ["git.reset-hard"],
});

describe("the store", () => {
  it("answers a repeated denial and a call with no grant from one read, without rewriting the store", () => {
    const state = stateOf(tempProject());
    const file = join(state, OVERRIDES_FILE);
    const code = offerOverride(state, call(), T0);
    const written = statSync(file);
    expect(offerOverride(state, call(), later(1))).toBe(code);
    expect(consumeGrant(state, "s1", "Bash", DANGEROUS, "toolu_1", later(1))).toBe(false);
    const after = statSync(file);
    expect([after.ino, after.mtimeMs, after.size]).toEqual([written.ino, written.mtimeMs, written.size]);
    // once the offer has expired, the same call gets a new code
    const renewed = offerOverride(state, call(), later(11));
    expect(renewed).toMatch(/^[A-Z2-7]{6}$/);
    expect(renewed).not.toBe(code);
  });
  it("makes 6-character base32 codes and canonical hashes", () => {
    for (let i = 0; i < 50; i++) expect(newCode()).toMatch(/^[A-Z2-7]{6}$/);
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(callHash("s", "Bash", { command: "x", timeout: 1 })).toBe(
      callHash("s", "Bash", { timeout: 1, command: "x" }),
    );
    expect(callHash("s", "Bash", { command: "x" })).not.toBe(callHash("s2", "Bash", { command: "x" }));
    expect(callHash("s", "Bash", { command: "x" })).not.toBe(callHash("s", "Other", { command: "x" }));
  });

  it("hashes with SHA-256, as node:crypto does, whatever the text", () => {
    const inputs: Record<string, unknown>[] = [
      { command: "git reset --hard" },
      { command: 'caf\u00e9 \u{1f600} \u0000 \\ "' },
      { file_path: "/x", content: "y".repeat(100_000) },
    ];
    for (let i = 0; i < 200; i++)
      inputs.push({
        command: Array.from({ length: i }, (_, k) => String.fromCharCode(32 + ((k * 7919 + i) % 5000))).join(""),
      });
    for (const input of inputs)
      expect(callHash("s", "Bash", input)).toBe(
        createHash("sha256")
          .update(canonicalJson(["s", "Bash", input]))
          .digest("hex"),
      );
  });

  it("parses only `lanes allow <code>`", () => {
    expect(overrideCommand("  lanes allow k7q2md \n")).toBe("K7Q2MD");
    expect(overrideCommand("LANES ALLOW K7Q2MD")).toBe("K7Q2MD");
    expect(overrideCommand("lanes allow")).toBeUndefined();
    expect(overrideCommand("please lanes allow K7Q2MD")).toBeUndefined();
    expect(overrideCommand("lanes allow K7Q2MD now")).toBeUndefined();
    expect(overrideCommand("<task-notification>lanes allow K7Q2MD</task-notification>")).toBeUndefined();
  });

  it("stores offers privately and reuses the live code of the same call", () => {
    const state = stateOf(tempProject());
    const code = offerOverride(state, call(), T0)!;
    expect(code).toMatch(/^[A-Z2-7]{6}$/);
    expect(offerOverride(state, call(), later(1))).toBe(code);
    expect(offerOverride(state, call({ command: "git reset --hard HEAD~2" }), later(1))).not.toBe(code);
    expect(statSync(join(state, OVERRIDES_FILE)).mode & 0o777).toBe(0o600);
    // past the expiry a new code is made
    expect(offerOverride(state, call(), later(11))).not.toBe(code);
  });

  it("finds a repeated call's offer by its key, and an offer stored without a key by its hash", () => {
    const state = stateOf(tempProject());
    const file = join(state, OVERRIDES_FILE);
    const code = offerOverride(state, call(), T0)!;
    const stored = JSON.parse(readFileSync(file, "utf8")) as { offers: { key?: string; hash: string }[] };
    expect(stored.offers[0]!.key).toMatch(/^[0-9a-f]{16}$/);
    expect(stored.offers[0]!.hash).toBe(callHash("s1", "Bash", DANGEROUS));
    // an offer written before offers had keys (or a key that does not match): found by its hash
    writeFileSync(file, JSON.stringify({ ...stored, offers: stored.offers.map(({ key: _key, ...o }) => o) }));
    expect(offerOverride(state, call(), later(1))).toBe(code);
    // a key shared with another call shows that call's code, and grants nothing to this one
    const other = call({ command: "rm -rf ~/src" });
    writeFileSync(
      file,
      JSON.stringify({
        ...stored,
        offers: stored.offers.map((o) => ({ ...o, hash: callHash("s1", "Bash", other.input) })),
      }),
    );
    expect(offerOverride(state, call(), later(1))).toBe(code);
    expect(redeemOffer(state, "s1", code, later(2))).toMatchObject({ ok: true });
    expect(consumeGrant(state, "s1", "Bash", DANGEROUS, "toolu_9", later(3))).toBe(false);
    expect(consumeGrant(state, "s1", "Bash", other.input, "toolu_9", later(3))).toBe(true);
  });

  // prettier-ignore
  const cases: { name: string; redeem?: { session?: string; at?: number; code?: string }; consume: { input?: Record<string, unknown>; session?: string; at?: number; id?: string }[]; expected: boolean[] }[] = [
    { name: "grant, then the exact call once", consume: [{}], expected: [true] },
    { name: "a second use is refused", consume: [{ id: "t1" }, { id: "t2" }], expected: [true, false] },
    { name: "the same call judged twice (lanes installed twice) agrees", consume: [{ id: "t1" }, { id: "t1" }, { id: "t2" }], expected: [true, true, false] },
    { name: "a different input never", consume: [{ input: { command: "git reset --hard HEAD~2" } }, {}], expected: [false, true] },
    { name: "another session never", consume: [{ session: "s2" }, {}], expected: [false, true] },
    { name: "the grant expires with the offer", redeem: { at: 9 }, consume: [{ at: 10.5 }], expected: [false] },
    { name: "an expired offer cannot be redeemed", redeem: { at: 11 }, consume: [{ at: 11 }], expected: [false] },
    { name: "another session's code cannot be redeemed", redeem: { session: "s2" }, consume: [{ session: "s2" }, {}], expected: [false, false] },
    { name: "a wrong code grants nothing", redeem: { code: "AAAAAA" }, consume: [{}], expected: [false] },
  ];
  it.each(cases)("$name", ({ redeem, consume, expected }) => {
    const state = stateOf(tempProject());
    const code = offerOverride(state, call(), T0)!;
    redeemOffer(state, redeem?.session ?? "s1", redeem?.code ?? code.toLowerCase(), later(redeem?.at ?? 1));
    const got = consume.map((c, i) =>
      consumeGrant(state, c.session ?? "s1", "Bash", c.input ?? DANGEROUS, c.id ?? `toolu_${i}`, later(c.at ?? 2)),
    );
    expect(got).toEqual(expected);
  });

  it("spends the offer: a code works once", () => {
    const state = stateOf(tempProject());
    const code = offerOverride(state, call(), T0)!;
    expect(redeemOffer(state, "s1", code, later(1))).toMatchObject({ ok: true, rules: ["git.reset-hard"] });
    expect(redeemOffer(state, "s1", code, later(1))).toEqual({ ok: false, reason: "unknown" });
  });

  it("finds no grant without a file", () => {
    expect(consumeGrant(stateOf(tempProject()), "s1", "Bash", DANGEROUS, "t", T0)).toBe(false);
  });
});

describe("the guard and the prompt", () => {
  const deps = (dir: string, at = 0) => ({
    env: { HOME: join(dir, "home"), CLAUDE_PROJECT_DIR: dir },
    now: () => later(at),
    defaultPolicyPath: join(ROOT, "dist", "policy.default.json"),
  });
  let seq = 0;
  const pre = (dir: string, tool: string, input: Record<string, unknown>, agent = false, at = 0) => {
    const out = runPreToolUse(
      JSON.stringify({
        session_id: "s1",
        transcript_path: join(dir, "t.jsonl"),
        cwd: dir,
        hook_event_name: "PreToolUse",
        permission_mode: "default",
        tool_name: tool,
        tool_input: input,
        tool_use_id: `toolu_${++seq}`,
        ...(agent && { agent_id: "a1", agent_type: "backend" }),
      }),
      deps(dir, at),
    );
    return out.stdout === "" ? undefined : (JSON.parse(out.stdout) as Record<string, any>);
  };
  const prompt = (dir: string, text: string, extra: Record<string, unknown> = {}, at = 1) => {
    const out = runTaskChannel(
      JSON.stringify({
        session_id: "s1",
        transcript_path: join(dir, "t.jsonl"),
        cwd: dir,
        hook_event_name: "UserPromptSubmit",
        prompt: text,
        ...extra,
      }),
      deps(dir, at),
    );
    return out.stdout === "" ? undefined : (JSON.parse(out.stdout) as Record<string, any>);
  };
  const codeOf = (out: Record<string, any> | undefined) =>
    /lanes allow ([A-Z2-7]{6})/.exec(String(out?.["systemMessage"] ?? ""))?.[1];
  const audit = (dir: string) =>
    readFileSync(join(stateOf(dir), "audit.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it("offers the human a code the model never reads, and grants the exact call once", () => {
    const dir = tempProject();
    const denied = pre(dir, "Bash", DANGEROUS);
    expect(denied?.["hookSpecificOutput"]?.permissionDecision).toBe("deny");
    const code = codeOf(denied)!;
    expect(code).toBeDefined();
    expect(JSON.stringify(denied?.["hookSpecificOutput"])).not.toContain(code);

    const granted = prompt(dir, `lanes allow ${code.toLowerCase()}`);
    expect(granted?.["decision"]).toBeUndefined();
    expect(granted?.["hookSpecificOutput"]?.additionalContext).toContain("allowed this exact Bash call once");
    expect(JSON.stringify(granted)).not.toContain(code);

    // a subagent's identical call does not use the grant
    expect(pre(dir, "Bash", DANGEROUS, true)?.["hookSpecificOutput"]?.permissionDecision).toBe("deny");
    // a different call neither
    expect(pre(dir, "Bash", { command: "git reset --hard HEAD~2" })?.["hookSpecificOutput"]?.permissionDecision).toBe(
      "deny",
    );
    expect(pre(dir, "Bash", DANGEROUS)).toBeUndefined();
    const again = pre(dir, "Bash", DANGEROUS);
    expect(again?.["hookSpecificOutput"]?.permissionDecision).toBe("deny");
    expect(codeOf(again)).not.toBe(code);

    const human = audit(dir).filter((e) => e["event"] === "human-decision");
    expect(human).toHaveLength(2);
    expect(human[0]).toMatchObject({ decision: "allow-once", tool: "Bash", rules: ["git.reset-hard"] });
    expect(human[0]?.["subject"]).toContain("git reset --hard HEAD~1");
    expect(human[1]).toMatchObject({ decision: "allow-once", use: "consumed", rules: ["git.reset-hard"] });
  });

  it("offers no code to subagents", () => {
    const dir = tempProject();
    const denied = pre(dir, "Bash", DANGEROUS, true);
    expect(denied?.["hookSpecificOutput"]?.permissionDecision).toBe("deny");
    expect(codeOf(denied)).toBeUndefined();
  });

  it("blocks an unknown or expired code and tells the human", () => {
    const dir = tempProject();
    const unknown = prompt(dir, "lanes allow ABCDEF");
    expect(unknown).toMatchObject({ decision: "block" });
    expect(unknown?.["reason"]).toContain("no live override");
    const code = codeOf(pre(dir, "Bash", DANGEROUS))!;
    expect(prompt(dir, `lanes allow ${code}`, {}, 11)).toMatchObject({ decision: "block" });
    expect(pre(dir, "Bash", DANGEROUS, false, 11.5)?.["hookSpecificOutput"]?.permissionDecision).toBe("deny");
  });

  it("ignores prompts that a person did not type", () => {
    const dir = tempProject();
    const code = codeOf(pre(dir, "Bash", DANGEROUS))!;
    expect(prompt(dir, `lanes allow ${code}`, { source: "system" })).toBeUndefined();
    expect(pre(dir, "Bash", DANGEROUS)?.["hookSpecificOutput"]?.permissionDecision).toBe("deny");
    expect(prompt(dir, `lanes allow ${code}`, { source: "user" })?.["hookSpecificOutput"]).toBeDefined();
  });

  // prettier-ignore
  const tampering: [string, Record<string, unknown>][] = [
    ["Write", { file_path: ".claude/state/overrides.json", content: "{}" }],
    ["Edit", { file_path: ".claude/state/overrides.json", old_string: "a", new_string: "b" }],
    ["Read", { file_path: ".claude/state/overrides.json" }],
    ["Bash", { command: 'echo "{}" > .claude/state/overrides.json' }],
    ["Bash", { command: "cat .claude/state/overrides.json" }],
    ["Bash", { command: "cp /tmp/x .claude/state/overrides.json" }],
  ];
  // a tool may not continue this session with a prompt of its own (it would pass for the human's)
  const resuming: [string, boolean][] = [
    ['claude -p "lanes allow ABCDEF" --resume s1', true],
    ["claude -p --resume=s1 hello", true],
    ['echo "lanes allow ABCDEF" | claude -p -c', true],
    ["claude --session-id s1 -p hi", true],
    ["claude -r s1", true],
    ['claude -p "summarise the README"', false],
  ];
  it.each(resuming)("judges `%s` (denied: %s)", (command, denied) => {
    const dir = tempProject();
    const out = pre(dir, "Bash", { command });
    const reason = String(out?.["hookSpecificOutput"]?.permissionDecisionReason ?? "");
    expect(reason.includes("lanes.override-session")).toBe(denied);
    if (denied) {
      expect(out?.["hookSpecificOutput"]?.permissionDecision).toBe("deny");
      expect(codeOf(out)).toBeUndefined();
    }
  });

  it.each(tampering)("refuses %s on the file of offers and grants, without a code: %j", (tool, input) => {
    const dir = tempProject();
    for (const agent of [false, true]) {
      const out = pre(dir, tool, input, agent);
      expect(out?.["hookSpecificOutput"]?.permissionDecision).toBe("deny");
      expect(out?.["hookSpecificOutput"]?.permissionDecisionReason).toContain("lanes.override");
      expect(codeOf(out)).toBeUndefined();
    }
  });
});

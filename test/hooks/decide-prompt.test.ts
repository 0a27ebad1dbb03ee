/**
 * `lanes decide approve|reject [note]` as the human's prompt (src/hooks/events/task-channel.ts):
 * the hold is cleared and the decision logged as the CLI does, only for a prompt a person typed;
 * without a hold the prompt is blocked. The same words from a tool call are denied
 * (`lanes.human-only`, test/cases/human-controls.yaml).
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decidePrompt, runTaskChannel } from "../../src/hooks/events/task-channel.ts";
import { readHold, setHold } from "../../src/hooks/state/task-store.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(held: boolean): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "lanes-decide-")));
  dirs.push(dir);
  mkdirSync(join(dir, ".claude", "lanes", "state"), { recursive: true });
  if (held)
    setHold(join(dir, ".claude", "lanes", "state"), {
      since: "2026-01-02T03:04:05.000Z",
      agent: "backend",
      agent_id: "a1",
      reason: "backend ran `rm -rf build` (DANGEROUS)",
    });
  return dir;
}

const prompt = (dir: string, text: string, extra: Record<string, unknown> = {}) => {
  const out = runTaskChannel(
    JSON.stringify({
      session_id: "s1",
      transcript_path: join(dir, "t.jsonl"),
      cwd: dir,
      hook_event_name: "UserPromptSubmit",
      prompt_id: "p1",
      prompt: text,
      ...extra,
    }),
    {
      env: { HOME: join(dir, "home"), CLAUDE_PROJECT_DIR: dir },
      now: () => new Date("2026-01-02T03:10:00Z"),
      defaultPolicyPath: join(ROOT, "dist", "policy.default.json"),
    },
  );
  return out.stdout === "" ? undefined : (JSON.parse(out.stdout) as Record<string, any>);
};

describe("lanes decide as a prompt", () => {
  // prettier-ignore
  const parsing: [string, ReturnType<typeof decidePrompt>][] = [
    ["lanes decide approve", { decision: "approve", note: undefined }],
    ["  LANES Decide reject  redo it with tests ", { decision: "reject", note: "redo it with tests" }],
    ["lanes decide", undefined],
    ["lanes decide maybe", undefined],
    ["please lanes decide approve", undefined],
  ];
  it.each(parsing)("parses %j", (text, expected) => expect(decidePrompt(text)).toEqual(expected));

  // prettier-ignore
  const rows: { name: string; held: boolean; text: string; extra?: Record<string, unknown>; cleared: boolean; blocked: boolean; decision?: string }[] = [
    { name: "approve clears the hold", held: true, text: "lanes decide approve", cleared: true, blocked: false, decision: "none" },
    { name: "reject with a note clears the hold", held: true, text: "lanes decide reject wrong dir", cleared: true, blocked: false, decision: "deny" },
    { name: "a task notification is not the human", held: true, text: "lanes decide approve", extra: { source: "system" }, cleared: false, blocked: false },
    { name: "a subagent's prompt is not the human", held: true, text: "lanes decide approve", extra: { agent_id: "a2", agent_type: "qa" }, cleared: false, blocked: false },
    { name: "no hold: blocked, nothing changes", held: false, text: "lanes decide approve", cleared: false, blocked: true },
  ];
  it.each(rows)("$name", ({ held, text, extra, cleared, blocked, decision }) => {
    const dir = project(held);
    const out = prompt(dir, text, extra);
    expect(readHold(join(dir, ".claude", "lanes", "state")) === undefined).toBe(cleared || !held);
    expect(out?.["decision"] === "block").toBe(blocked);
    if (decision !== undefined) {
      const audit = readFileSync(join(dir, ".claude", "lanes", "state", "audit.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(audit.at(-1)).toMatchObject({ event: "human-decision", decision, agent: "backend", session: "s1" });
      expect(out?.["hookSpecificOutput"]?.additionalContext).toContain("the human");
    }
  });
});

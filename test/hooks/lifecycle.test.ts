/**
 * The events hook in-process: PostToolUseFailure is recorded in the audit log, unknown events are
 * refused on stderr.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runEvent } from "../../src/hooks/events/lifecycle.ts";

const dir = mkdtempSync(join(tmpdir(), "lanes-events-"));
mkdirSync(join(dir, ".claude"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const deps = {
  env: { HOME: join(dir, "home"), CLAUDE_PROJECT_DIR: dir },
  now: () => new Date("2026-01-02T03:04:05Z"),
  defaultPolicyPath: "/nonexistent",
};
const input = (event: string, extra: Record<string, unknown>) =>
  JSON.stringify({ session_id: "s1", cwd: dir, hook_event_name: event, ...extra });
const auditLines = () =>
  readFileSync(join(dir, ".claude", "state", "audit.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("events hook", () => {
  it("records a failed tool call and prints nothing", () => {
    const out = runEvent(
      input("PostToolUseFailure", {
        tool_name: "Bash",
        tool_input: { command: "npm test" },
        tool_use_id: "t1",
        error: "Exit code 1",
        agent_id: "a1",
        agent_type: "lanes:backend",
      }),
      deps,
    );
    expect(out).toEqual({ stdout: "", stderr: [] });
    expect(auditLines().at(-1)).toEqual({
      ts: "2026-01-02T03:04:05.000Z",
      session: "s1",
      event: "tool-failed",
      agent_id: "a1",
      agent: "backend",
      tool: "Bash",
      subject: "Exit code 1",
    });
  });

  it("refuses an event it does not handle", () => {
    expect(runEvent(input("Notification", { message: "hi" }), deps)).toEqual({
      stdout: "",
      stderr: ["lanes events: `Notification` is not handled by this hook"],
    });
  });
});

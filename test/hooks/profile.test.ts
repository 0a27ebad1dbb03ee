/** The profile switch (`LANES_PROFILE`, src/io/profile.ts): phases to a file, the answer unchanged. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookInput, installedProject, runHook, type Project } from "../helpers/hooks.ts";

let p: Project;
beforeAll(() => {
  p = installedProject({ "README.md": "# demo\n" });
});
afterAll(() => p.cleanup());

// prettier-ignore
const CASES: [string, string, string, Record<string, unknown>, string[]][] = [
  ["a denied Bash call", "pre-tool-use.cjs", "PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" } }, ["load policy", "load shell", "parse", "decide", "state I/O"]],
  ["a Read", "pre-tool-use.cjs", "PreToolUse", { tool_name: "Read", tool_input: { file_path: "README.md" } }, ["load policy", "decide"]],
  ["a Write after the fact", "post-tool-use.cjs", "PostToolUse", { tool_name: "Write", tool_input: { file_path: "a.ts", content: "x" }, tool_response: {} }, ["handler"]],
  ["SessionStart", "session-start.cjs", "SessionStart", { source: "startup" }, ["load policy"]],
  ["SubagentStart", "events.cjs", "SubagentStart", { agent_id: "a0000000000000c01", agent_type: "backend" }, ["load policy"]],
  ["UserPromptSubmit", "tasks.cjs", "UserPromptSubmit", { prompt: "hello" }, ["handler"]],
];

describe("LANES_PROFILE", () => {
  it.each(CASES)(
    "%s: the same answer, and one line of phases in the file, none on stdout",
    (name, entry, event, fields, phases) => {
      const file = join(p.dir, "..", `profile-${name.replace(/\W+/g, "-")}.jsonl`);
      const plain = runHook(p, entry, hookInput(p, event, fields));
      const profiled = runHook(p, entry, hookInput(p, event, fields), { LANES_PROFILE: file });
      // a denial's one-use override code is new on each call
      const same = (out: string) => out.replace(/lanes allow [A-Z2-7]+/g, "lanes allow <code>");
      expect(same(profiled.stdout)).toBe(same(plain.stdout));
      expect(profiled.status).toBe(plain.status);
      const lines = readFileSync(file, "utf8").trim().split("\n");
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0]!) as {
        event: string;
        bundle: string;
        totalMs: number;
        phases: Record<string, number>;
      };
      expect(line.event).toBe(event);
      expect(line.bundle).toBe(entry.replace(".cjs", ".impl.cjs"));
      expect(Object.keys(line.phases)).toEqual(
        expect.arrayContaining(["start", "load", "read input", "handler", "respond", ...phases]),
      );
      const sum = Object.values(line.phases).reduce((a, b) => a + b, 0);
      expect(Math.abs(sum - line.totalMs)).toBeLessThan(1);
    },
  );

  it("writes nothing when unset or empty", () => {
    const file = join(p.dir, "..", "profile-off.jsonl");
    runHook(
      p,
      "pre-tool-use.cjs",
      hookInput(p, "PreToolUse", { tool_name: "Read", tool_input: { file_path: "README.md" } }),
      { LANES_PROFILE: "" },
    );
    expect(existsSync(file)).toBe(false);
  });
});

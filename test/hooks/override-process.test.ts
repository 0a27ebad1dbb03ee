/**
 * The human override through the built hook processes of an installed project: PreToolUse denies
 * with a code for the human only, UserPromptSubmit (`tasks.cjs`) redeems it, the exact call runs
 * once; every output is one JSON object valid against the SDK's output type.
 */
import { statSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { hookInput, installedProject, runHook, sdkSchemas, type Project } from "../helpers/hooks.ts";

const { SyncHookJSONOutput } = sdkSchemas(["SyncHookJSONOutput"] as const);
let p: Project;
beforeAll(() => {
  p = installedProject({ "README.md": "# demo\n" });
});
afterAll(() => p.cleanup());

const CALL = { command: "git reset --hard HEAD~1", description: "drop the last commit" };
const valid = (stdout: string) => {
  const parsed = SyncHookJSONOutput.safeParse(JSON.parse(stdout));
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
};
const guard = () => {
  const run = runHook(p, "pre-tool-use.cjs", hookInput(p, "PreToolUse", { tool_name: "Bash", tool_input: CALL }));
  expect(run.status).toBe(0);
  if (run.stdout !== "") valid(run.stdout);
  return run;
};
const type = (prompt: string) => {
  const run = runHook(p, "tasks.cjs", hookInput(p, "UserPromptSubmit", { prompt }));
  expect(run.status).toBe(0);
  valid(run.stdout);
  return run;
};

it("denies with a code for the human, grants the exact call once on `lanes allow <code>`", () => {
  const denied = guard();
  const out = denied.json?.["hookSpecificOutput"] as Record<string, string>;
  expect(out["permissionDecision"]).toBe("deny");
  const code = /lanes allow ([A-Z2-7]{6})/.exec(String(denied.json?.["systemMessage"]))?.[1];
  expect(code).toBeDefined();
  expect(out["permissionDecisionReason"]).not.toContain(code!);
  expect(out["additionalContext"] ?? "").not.toContain(code!);
  expect(statSync(p.path(".claude/state/overrides.json")).mode & 0o777).toBe(0o600);

  expect(type("lanes allow ZZZZZZ").json).toMatchObject({ decision: "block" });
  const granted = type(`  lanes allow ${code!.toLowerCase()} `);
  expect(granted.json?.["decision"]).toBeUndefined();
  expect(JSON.stringify(granted.json)).toContain("allowed this exact Bash call once");

  // the granted call runs with no objection, after a snapshot of the work it may discard (issue 25)
  const ran = guard();
  expect(ran.status).toBe(0);
  expect(ran.json?.["hookSpecificOutput"]).not.toHaveProperty("permissionDecision");
  expect(JSON.stringify(ran.json)).toContain("`lanes undo`");
  const again = guard().json?.["hookSpecificOutput"] as Record<string, string>;
  expect(again["permissionDecision"]).toBe("deny");
  const log = p.read(".claude/state/audit.jsonl");
  expect(log.match(/"event":"human-decision"/g)).toHaveLength(2);
});

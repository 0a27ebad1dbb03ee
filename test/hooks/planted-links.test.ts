/**
 * The built hooks never write their state through a link (issue 22): every state file a session
 * leaves in `.claude/lanes/state/` (audit log, compiled policy, agent tree, denial logs, claims, code
 * caches, the override store) is replaced by a symbolic link to the PreToolUse bundle, and the
 * hooks keep answering as before while the bundle stays intact on disk.
 */
import { lstatSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookInput, installedProject, runHook, type Project } from "../helpers/hooks.ts";

let p: Project;
beforeAll(() => {
  p = installedProject({ "README.md": "# demo\n", "src/server/app.ts": "export {};\n" });
});
afterAll(() => p.cleanup());

const BUNDLE = ".claude/lanes/dist/pre-tool-use.cjs";
const pre = (tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  runHook(p, "pre-tool-use.cjs", hookInput(p, "PreToolUse", { tool_name: tool, tool_input: input, ...extra }));
const decision = (run: ReturnType<typeof pre>): string =>
  ((run.json?.["hookSpecificOutput"] as Record<string, unknown> | undefined)?.["permissionDecision"] ??
    "none") as string;

/** Every regular file under `dir`, relative to the project. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile()) out.push(relative(p.dir, full));
  }
  return out;
}

/** The calls of a session: a quiet one, denials (an offer, counters), a subagent's write, a Read. */
function session(): string[] {
  return [
    decision(pre("Bash", { command: "git status" })),
    decision(pre("Bash", { command: "rm -rf /" })),
    decision(pre("Bash", { command: "git reset --hard" })),
    decision(
      pre("Write", { file_path: p.path("src/server/app.ts"), content: "x" }, { agent_type: "backend", agent_id: "a1" }),
    ),
    decision(pre("Read", { file_path: p.path("README.md") })),
  ];
}

describe("state files that are links to a hook bundle", () => {
  it("are never written through: the bundle stays intact and the answers stay the same", () => {
    const expected = session();
    expect(expected).toEqual(["none", "deny", "deny", "none", "none"]);
    const bundle = readFileSync(p.path(BUNDLE), "utf8");
    const state = filesUnder(p.path(".claude/lanes/state")).filter((f) => !f.endsWith(".gitignore"));
    expect(state.length).toBeGreaterThan(3);
    for (const file of state) {
      rmSync(p.path(file));
      symlinkSync(p.path(BUNDLE), p.path(file));
    }
    expect(session()).toEqual(expected);
    expect(readFileSync(p.path(BUNDLE), "utf8")).toBe(bundle);
    // a link where a state file belongs is replaced by the next write, or left unread
    for (const file of state) {
      const stat = lstatSync(p.path(file), { throwIfNoEntry: false });
      if (stat?.isSymbolicLink() === true) expect(readFileSync(p.path(BUNDLE), "utf8")).toBe(bundle);
    }
  });

  it("a state directory that is a link to the bundles is never written into", () => {
    const dist = p.path(".claude/lanes/dist");
    const before = readdirSync(dist).sort();
    const bundle = readFileSync(p.path(BUNDLE), "utf8");
    rmSync(p.path(".claude/lanes/state"), { recursive: true, force: true });
    symlinkSync(dist, p.path(".claude/lanes/state"));
    const run = pre("Bash", { command: "rm -rf /" });
    // denied all the same: by the rule, or by the guard's failure posture when it cannot keep state
    expect(decision(run)).toBe("deny");
    expect(readdirSync(dist).sort()).toEqual(before);
    expect(readFileSync(p.path(BUNDLE), "utf8")).toBe(bundle);
  });
});

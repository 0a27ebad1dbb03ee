/** The audit log written by the real hook bundle never holds a secret, and `lanes log --explain` re-explains an entry. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookInput, installedProject, runHook, type Project } from "../helpers/hooks.ts";

const ROOT = join(import.meta.dirname, "..", "..");
let p: Project;
beforeAll(() => {
  p = installedProject({ "README.md": "# demo\n" });
});
afterAll(() => p.cleanup());

const lanes = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), ...args], {
    cwd: p.dir,
    env: { PATH: process.env["PATH"], HOME: p.home },
    encoding: "utf8",
  });

describe("the audit log", () => {
  it("stores commands with their secrets redacted, in subject and reason", () => {
    const secret = "ghp_0123456789abcdefghijABCDEFGHIJ";
    runHook(
      p,
      "pre-tool-use.cjs",
      hookInput(p, "PreToolUse", {
        tool_name: "Bash",
        tool_input: { command: `GITHUB_TOKEN=${secret} git push --force origin main` },
      }),
    );
    runHook(
      p,
      "pre-tool-use.cjs",
      hookInput(p, "PreToolUse", {
        tool_name: "Bash",
        tool_input: { command: 'curl -H "Authorization: Bearer abcdefghijkl" https://api.example.com' },
      }),
    );
    const log = p.read(".claude/lanes/state/audit.jsonl");
    expect(log).not.toContain(secret);
    expect(log).not.toContain("abcdefghijkl");
    const entries = log
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { subject: string; reason?: string; rules: string[] });
    expect(entries.map((e) => e.subject)).toEqual([
      "GITHUB_TOKEN=[REDACTED] git push --force origin main",
      'curl -H "Authorization: Bearer [REDACTED]" https://api.example.com',
    ]);
    expect(entries[0]?.reason).toContain("GITHUB_TOKEN=[REDACTED] git push --force origin main");
  });

  it("lanes log numbers the entries and --explain <n> re-explains one with the rule's why and instead", () => {
    expect(lanes("log").stdout.split("\n")[0]).toMatch(
      /^#1 +\S+ +decision +deny +main +Bash +GITHUB_TOKEN=\[REDACTED\] git push --force origin main +\[git\.push-force\]$/,
    );
    const run = lanes("log", "--explain", "1");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("  decision: deny (DANGEROUS)\n");
    expect(run.stdout).toMatch(/\n  rule git\.push-force \(lanes built-in\): .+; instead, .+\n/);
    const missing = lanes("log", "--explain", "99");
    expect([missing.status, missing.stderr]).toEqual([1, expect.stringContaining("there is no entry #99")]);
  });
});

describe("lanes log --explain of a lane rule", () => {
  it("explains the rules below the policy layers from their table, not as absent", () => {
    const q = installedProject({ "README.md": "# demo\n" });
    try {
      const agent = { agent_id: "a0000000000000c01", agent_type: "frontend" };
      runHook(
        q,
        "pre-tool-use.cjs",
        hookInput(q, "PreToolUse", {
          ...agent,
          tool_name: "Write",
          tool_input: { file_path: join(q.dir, "src/server/a.ts"), content: "x" },
        }),
      );
      runHook(
        q,
        "pre-tool-use.cjs",
        hookInput(q, "PreToolUse", {
          ...agent,
          tool_name: "Bash",
          tool_input: {
            command: "node .claude/lanes/dist/cli.mjs memory write --task t --agent qa --summary s --body b",
          },
        }),
      );
      const cli = (...args: string[]) =>
        spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), ...args], {
          cwd: q.dir,
          env: { PATH: process.env["PATH"], HOME: q.home },
          encoding: "utf8",
        }).stdout;
      const decisions = cli("log", "--event", "decision", "--json")
        .trim()
        .split("\n")
        .map((l) => String((JSON.parse(l) as { n: number }).n));
      expect(decisions).toHaveLength(2);
      const explain = (n: string) =>
        spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), "log", "--explain", n], {
          cwd: q.dir,
          env: { PATH: process.env["PATH"], HOME: q.home },
          encoding: "utf8",
        }).stdout;
      expect(explain(decisions[0]!)).toContain(
        "  rule lane.write-outside-owned (role layer, built in): a write outside the agent's `owns` (or carved out by `does_not_own`); names every owner;",
      );
      expect(explain(decisions[1]!)).toContain(
        "  rule lane.memory-not-own (role layer, built in): writing a memory file that is not the caller's own",
      );
    } finally {
      q.cleanup();
    }
  });
});

describe("lanes statusline", () => {
  // the CLI's command, and the statusline's own entry an install copies (the same command alone, quick to start)
  const programs: [string, (project: Project) => string[]][] = [
    ["cli.mjs statusline", () => [join(ROOT, "dist", "cli.mjs"), "statusline"]],
    ["the installed statusline.cjs", (project) => [join(project.dir, ".claude", "lanes", "dist", "statusline.cjs")]],
  ];
  it.each(programs)(
    "%s shows the guard, the running subagent and the last denial of the session given on stdin",
    (_, argv) => {
      const session = (hookInput(p, "PreToolUse", {}) as { session_id: string }).session_id;
      runHook(p, "events.cjs", hookInput(p, "SubagentStart", { agent_id: "a0000000000000b01", agent_type: "backend" }));
      const run = spawnSync(process.execPath, argv(p), {
        cwd: p.dir,
        env: { PATH: process.env["PATH"], HOME: p.home },
        input: JSON.stringify({ session_id: session, cwd: p.dir }),
        encoding: "utf8",
      });
      expect(run.stdout).toMatch(
        /^lanes: guard on · agents: backend · last deny: Bash GITHUB_TOKEN=\[REDACTED\] git push --fo\.\.\. \[git\.push-force\] \d+s ago\n$/,
      );
      const other = spawnSync(process.execPath, [...argv(p), "--session", "another"], {
        cwd: p.dir,
        env: { PATH: process.env["PATH"], HOME: p.home },
        encoding: "utf8",
      });
      expect(other.stdout).toBe("lanes: guard on\n");
      const usage = spawnSync(process.execPath, [...argv(p), "--sesion", "x"], { cwd: p.dir, encoding: "utf8" });
      expect([usage.status, usage.stdout, usage.stderr]).toEqual([
        64,
        "",
        "lanes statusline: unknown option '--sesion': see `lanes statusline --help`\n",
      ]);
    },
  );
});

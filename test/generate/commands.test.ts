/**
 * `lanes build`, `lanes lint` and `lanes handoff` through their command objects, with captured
 * output, in temporary projects.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildCommand } from "../../src/cli/commands/build.ts";
import { handoffCommand } from "../../src/cli/commands/handoff.ts";
import { lintCommand } from "../../src/cli/commands/lint.ts";
import { logCommand } from "../../src/cli/commands/log.ts";
import { CliError, type Command } from "../../src/cli/types.ts";
import { completeProgress, initProgress, readProgress } from "../../src/runtime/progress.ts";

const ROOT = join(import.meta.dirname, "../..");
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "lanes-commands-"));
  temps.push(dir);
  return dir;
}

/** Runs a command like `runCli` does: a CliError becomes its code and one line on stderr. */
async function run(command: Command, args: string[], cwd: string, env: Record<string, string> = {}) {
  let out = "";
  let err = "";
  const ctx = {
    cwd,
    env: { HOME: cwd, ...env },
    out: (t: string) => void (out += t),
    err: (t: string) => void (err += t),
    stdin: async () => "",
  };
  try {
    const code = (await command.run(args, ctx)) ?? 0;
    return { code, out, err };
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return { code: error.code, out, err: `${err}${error.message}\n` };
  }
}

describe("lanes build and lanes lint", () => {
  it("build --check reports no drift for this repository", async () => {
    const result = await run(buildCommand, ["--check"], ROOT);
    expect(result).toMatchObject({ code: 0, err: "" });
    expect(result.out).toMatch(
      /^lanes build: \d+ files up to date in `\.`\nlanes build: policy compiles \(\d+ rules, 7 agent lanes\)\n$/,
    );
  });

  it("lint finds nothing in this repository but the shared paths, reported as information", async () => {
    const result = await run(lintCommand, [], ROOT);
    expect(result).toMatchObject({ code: 0, err: "" });
    expect(result.out).toMatch(/lanes lint: 0 errors, 0 warnings, \d+ info\n$/);
    expect(result.out).toContain(
      "info owned-path-overlap: `backend` owns `docs/api/openapi.yaml` and `docs` owns `docs/api/openapi.yaml`: the paths both match are shared, and either may write them",
    );
  });

  it("build writes a project, then --check passes, then fails on a hand edit", async () => {
    const dir = temp();
    cpSync(join(ROOT, "definitions"), join(dir, ".claude/lanes"), { recursive: true });
    const built = await run(buildCommand, [], dir);
    expect(built.code).toBe(0);
    expect(built.out).toContain("created: .claude/agents/orchestrator.md\n");
    expect((await run(buildCommand, ["--check"], dir)).code).toBe(0);
    writeFileSync(join(dir, ".claude/skills/api-design/SKILL.md"), "changed\n");
    const checked = await run(buildCommand, ["--check"], dir);
    expect(checked.code).toBe(1);
    expect(checked.out).toContain("differs: .claude/skills/api-design/SKILL.md (would be updated)\n");
  });

  it("lint prints each finding with its location and fix, and exits 1", async () => {
    const result = await run(lintCommand, ["--definitions", "test/fixtures/definitions/lint/unknown-agent"], ROOT);
    expect(result.code).toBe(1);
    expect(result.out).toBe(
      "agents/caller.yaml:11: error unknown-agent: `caller` refers to agent `ghost`, which does not exist\n  fix: create agent `ghost` or fix the name\nlanes lint: 1 error, 0 warnings\n",
    );
  });

  it("lint --json prints the findings as data", async () => {
    const result = await run(
      lintCommand,
      ["--json", "--definitions", join(ROOT, "test/fixtures/definitions/lint/vague-trigger")],
      ROOT,
    );
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out)).toEqual([
      expect.objectContaining({ id: "vague-trigger", severity: "error", file: "skills/eager/skill.yaml", line: 9 }),
    ]);
  });

  it("reports a root without definitions and an unknown target as usage problems", async () => {
    const dir = temp();
    expect(await run(lintCommand, [], dir)).toMatchObject({
      code: 1,
      err: expect.stringContaining("no definitions in"),
    });
    expect(await run(buildCommand, ["--target", "cloud"], dir)).toMatchObject({
      code: 64,
      err: "unknown target `cloud`: use `plugin` or `project`\n",
    });
  });
});

describe("lanes handoff", () => {
  /** A project where the skills of the pack are installed. */
  function installed(): string {
    const dir = temp();
    for (const id of ["ui-components", "auth-security"]) {
      mkdirSync(join(dir, ".claude/skills", id), { recursive: true });
      writeFileSync(join(dir, ".claude/skills", id, "SKILL.md"), `---\nname: ${id}\ndescription: x\n---\n`);
    }
    return dir;
  }
  const args = [
    "--from",
    "lanes:ui-components",
    "--to",
    "auth-security",
    "--goal",
    "Users sign in with Google.",
    "--built",
    "A dashboard.",
    "--decision",
    "Supabase",
    "--decision",
    "HttpOnly cookies",
    "--next",
    "Add Google OAuth.",
  ];

  it("prints the structured context and records it", async () => {
    const dir = installed();
    const result = await run(handoffCommand, args, dir);
    expect(result).toMatchObject({ code: 0, err: "" });
    expect(result.out).toBe(
      "## Handoff context\n\n**Previous skill:** ui-components\n**New skill:** auth-security\n\n### What was being built\nA dashboard.\n\n### User's goal\nUsers sign in with Google.\n\n### Relevant decisions\n- Supabase\n- HttpOnly cookies\n\n### Continue from here\nAdd Google OAuth.\n",
    );
    const records = readdirSync(join(dir, ".claude/state/handoffs"));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatch(/^\d{8}T\d{6}Z-ui-components-to-auth-security\.json$/);
    expect(JSON.parse(readFileSync(join(dir, ".claude/state/handoffs", records[0]!), "utf8"))).toMatchObject({
      version: 1,
      from: "ui-components",
      to: "auth-security",
      truncated: false,
      context: result.out,
    });
  });

  it("records a conditional handoff with its condition and fallback, printed before the context", async () => {
    const dir = installed();
    const result = await run(
      handoffCommand,
      [...args, "--type", "conditional", "--proceed-if", "the UI tests pass", "--fallback-to", "ui-components"],
      dir,
    );
    expect(result.out).toMatch(
      /^\*\*Handoff:\*\* conditional, `ui-components` → `auth-security`\n\*\*Proceed only if:\*\* the UI tests pass\. Otherwise hand off to `ui-components` instead\.\n\n## Handoff context\n/,
    );
    const [record] = readdirSync(join(dir, ".claude/state/handoffs"));
    expect(JSON.parse(readFileSync(join(dir, ".claude/state/handoffs", record!), "utf8"))).toMatchObject({
      from: "ui-components",
      to: "auth-security",
      handoff_type: "conditional",
      conditions: { proceed_if: "the UI tests pass", fallback_to: "ui-components" },
    });
  });

  it("records a parallel handoff to every target, and an approval handoff as pending", async () => {
    const dir = installed();
    mkdirSync(join(dir, ".claude/skills/api-design"), { recursive: true });
    writeFileSync(join(dir, ".claude/skills/api-design/SKILL.md"), "---\nname: api-design\ndescription: x\n---\n");
    const parallel = await run(
      handoffCommand,
      [
        "--from",
        "ui-components",
        "--to",
        "auth-security",
        "--to",
        "api-design",
        "--type",
        "parallel",
        "--goal",
        "g",
        "--json",
      ],
      dir,
    );
    expect(JSON.parse(parallel.out).terms).toEqual({ type: "parallel", to: ["auth-security", "api-design"] });
    const approval = await run(
      handoffCommand,
      ["--from", "ui-components", "--to", "auth-security", "--type", "approval", "--goal", "g", "--json"],
      dir,
    );
    expect(JSON.parse(approval.out).terms).toEqual({
      type: "approval",
      to: ["auth-security"],
      approval: { required: true, status: "pending" },
    });
    const usage = await run(
      handoffCommand,
      ["--from", "ui-components", "--to", "auth-security", "--type", "fallback", "--goal", "g"],
      dir,
    );
    expect(usage).toMatchObject({
      code: 64,
      err: "a fallback handoff needs `--reason <why the planned skill could not continue>`\n",
    });
  });

  it("adds the handoff to next_step.context of an unfinished workflow", async () => {
    const dir = installed();
    const init = initProgress(dir, {
      request: "dashboard with login",
      primaryExpert: "frontend",
      next: { expert: "backend", action: "add the session endpoint", context: { notes: "keep" } },
    });
    expect(init.ok).toBe(true);
    const result = await run(handoffCommand, [...args, "--json"], dir);
    expect(JSON.parse(result.out)).toMatchObject({
      available: true,
      progress: true,
      truncated: false,
      recorded: expect.stringMatching(/^\.claude\/state\/handoffs\//),
    });
    const progress = readProgress(dir);
    expect(progress.ok && progress.value?.next_step).toMatchObject({
      expert: "backend",
      context: { notes: "keep", handoff: { from: "ui-components", to: "auth-security" } },
    });
  });

  it("leaves a finished workflow alone", async () => {
    const dir = installed();
    expect(initProgress(dir, { request: "done already", primaryExpert: "frontend" }).ok).toBe(true);
    expect(completeProgress(dir, { force: true }).ok).toBe(true);
    const before = readFileSync(join(dir, ".claude/state/progress.json"), "utf8");
    const result = await run(handoffCommand, [...args, "--json"], dir);
    expect(JSON.parse(result.out)).toMatchObject({ available: true, progress: false });
    expect(readFileSync(join(dir, ".claude/state/progress.json"), "utf8")).toBe(before);
  });

  it("bounds the context with --max and marks the cut", async () => {
    const dir = installed();
    const result = await run(
      handoffCommand,
      [...args, "--context", "word ".repeat(400), "--max", "400", "--no-record"],
      dir,
    );
    expect(result.code).toBe(0);
    expect(result.out.length).toBeLessThanOrEqual(400);
    expect(result.out).toContain("[context truncated to fit the handoff limit]");
    expect(existsSync(join(dir, ".claude/state"))).toBe(false);
  });

  it("says the current skill continues when the target does not exist, and exits 0", async () => {
    const dir = installed();
    const result = await run(
      handoffCommand,
      ["--from", "ui-components", "--to", "payments", "--goal", "charge cards"],
      dir,
    );
    expect(result).toEqual({
      code: 0,
      out: "the `payments` skill is not available: stay in `ui-components` and continue with general knowledge; the user can pick another skill from the `/` menu\n",
      err: "",
    });
    // nothing is recorded for the next skill, but the failed handoff is logged for the success rate
    expect(existsSync(join(dir, ".claude/state/handoffs"))).toBe(false);
    expect(readFileSync(join(dir, ".claude/lanes/state/audit.jsonl"), "utf8")).toContain(
      '"event":"handoff","subject":"ui-components -> payments (sequential)","from":"ui-components","to":["payments"],"handoff_type":"sequential","available":false',
    );
  });

  it("logs every handoff and counts how many reached their target", async () => {
    const dir = installed();
    await run(handoffCommand, [...args], dir);
    await run(handoffCommand, ["--from", "ui-components", "--to", "payments", "--goal", "x"], dir);
    const log = await run(logCommand, ["--event", "handoff"], dir);
    expect(log.out).toMatch(/handoff +main +ui-components -> auth-security \(sequential\)/);
    expect(log.out).toContain("handoffs: 2, 1 reached their target (50%), 1 to a skill that was not available\n");
    const unknown = await run(logCommand, ["--event", "handofff"], dir);
    expect(unknown.code).toBe(64);
    expect(unknown.err).toContain("`--event` is one of decision, boundary-violation,");
  });

  it("refuses an unknown --from and an unavailable fallback, and lists every parallel target", async () => {
    const dir = installed();
    const from = await run(handoffCommand, ["--from", "payments", "--to", "auth-security", "--goal", "x"], dir);
    expect(from).toMatchObject({
      code: 64,
      err: expect.stringContaining("`--from payments` is not a skill of this project"),
    });
    const fallback = await run(
      handoffCommand,
      [
        ...["--from", "ui-components", "--to", "auth-security", "--type", "conditional"],
        ...["--proceed-if", "all gates passed", "--fallback-to", "payments", "--goal", "x"],
      ],
      dir,
    );
    expect(fallback).toMatchObject({
      code: 1,
      err: expect.stringContaining("the fallback `payments` is not an available skill"),
    });
    const parallel = await run(
      handoffCommand,
      [
        ...["--from", "ui-components", "--to", "auth-security", "--to", "api-design"],
        ...["--type", "parallel", "--goal", "g", "--json", "--no-record"],
      ],
      dir,
    );
    expect(JSON.parse(parallel.out)).toMatchObject({ to: "auth-security", targets: ["auth-security", "api-design"] });
  });

  it("finds skills of the plugin it runs from", async () => {
    const dir = temp();
    const result = await run(
      handoffCommand,
      ["--from", "ui-components", "--to", "lanes:api-design", "--goal", "an endpoint", "--no-record"],
      dir,
    );
    expect(result.out).toContain("**New skill:** api-design");
  });

  it.each([
    [["--to", "auth-security", "--goal", "x"], "`--from` is required"],
    [
      ["--from", "UI", "--to", "auth-security", "--goal", "x"],
      "`--from UI` is not a skill name: names are kebab-case, e.g. `api-design`",
    ],
    [
      ["--from", "a", "--to", "b"],
      "nothing to hand off: pass at least `--context`, `--goal`, `--built`, `--state`, `--decision` or `--next`",
    ],
    [
      ["--from", "a", "--to", "b", "--goal", "x", "--max", "20"],
      "`--max 20` must be a whole number of characters, at least 300",
    ],
    [["--from", "a", "--to", "b", "--colour", "x"], "unknown option '--colour'"],
  ])("%j is a usage error (exit 64)", async (argv, message) => {
    const result = await run(handoffCommand, argv, temp());
    expect(result.code).toBe(64);
    expect(result.err).toContain(message);
  });
});

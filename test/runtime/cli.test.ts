/** `lanes progress|memory|checkpoint|phase` through the real CLI (`runCli`) with a captured context. */
import { parseRecovery } from "../../src/runtime/progress.ts";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ProgressFile } from "../../src/runtime/progress-schema.ts";
import { cli } from "./cli-helper.ts";
import { readJson, tempProject } from "./helpers.ts";

let cleanup: () => void = () => {};
afterEach(() => cleanup());
function project(): string {
  const p = tempProject();
  cleanup = p.cleanup;
  return p.dir;
}

describe("lanes progress", () => {
  it("round-trips a workflow: init, step with a handoff, show, resume, error, complete", async () => {
    const dir = project();
    writeFileSync(join(dir, "CLAUDE.md"), "# Guard Service\n");
    const init = await cli(
      [
        "progress",
        "init",
        "Add a test for the hex pattern",
        "--primary",
        "n8n-expert",
        "--supporting",
        "vitest-expert",
        "--steps",
        "2",
      ],
      dir,
    );
    expect(init).toMatchObject({ code: 0, err: "" });
    expect(init.out).toMatch(
      /^started workflow wf-\d{8}T\d{6}Z-[a-z0-9]{6} for Guard Service: 2 steps planned, n8n-expert leads\n$/,
    );

    const step = await cli(
      [
        "progress",
        "step",
        "--expert",
        "n8n-expert",
        "--action",
        "analyze_workflow",
        "--summary",
        "pattern at line 245",
        "--created",
        "rules.json",
        "--next-expert",
        "vitest-expert",
        "--next-action",
        "create_test",
        "--next-notes",
        "category CODE_INJECTION",
        "--next-file",
        "rules.json",
        "--next-write-path",
        "test/**",
        "--next-tool",
        "Write",
      ],
      dir,
    );
    expect(step).toEqual({
      code: 0,
      out: "recorded step 1: `n8n-expert` did `analyze_workflow`; next: step 2, `vitest-expert` does `create_test`\n",
      err: "",
    });

    const json = await cli(["progress", "show", "--json"], dir);
    const doc = ProgressFile.parse(JSON.parse(json.out));
    expect(doc.next_step).toEqual({
      step: 2,
      expert: "vitest-expert",
      action: "create_test",
      context: { notes: "category CODE_INJECTION", relevant_files: ["rules.json"] },
      constraints: { write_paths: ["test/**"], tools: ["Write"] },
    });
    expect(doc.task.project_context).toMatchObject({ name: "Guard Service", detected_from: ["CLAUDE.md"] });

    const show = await cli(["progress", "show"], dir);
    expect(show.out).toContain("🎯 Task: Add a test for the hex pattern");
    expect(show.out).toContain(
      "🤖 Step 1/2: n8n-expert\n   ├─ ▶️  Action: analyze_workflow\n   ├─ 📝 pattern at line 245\n   └─ ✅ Completed (",
    );
    expect(show.out).toContain("⏭️  Step 2/2: vitest-expert (next)");

    const resume = await cli(["progress", "resume"], dir);
    expect(resume.out).toContain(
      'next step 2: vitest-expert does create_test\n  notes: category CODE_INJECTION\n  relevant_files: ["rules.json"]\n  constraints: writes only `test/**`; tools only `Write`',
    );
    expect(resume.out).toContain("history:\n  1. n8n-expert analyze_workflow: pattern at line 245 [rules.json]");

    expect((await cli(["progress", "error", "flaky", "network", "--severity", "warning"], dir)).out).toBe(
      `logged error 1 in workflow ${doc.workflow_id}: the status stays in_progress; run \`lanes progress fail\` if it cannot go on\n`,
    );
    const open = await cli(["progress", "complete"], dir);
    expect([open.code, open.err]).toEqual([
      1,
      `lanes progress: workflow \`${doc.workflow_id}\` has 1 step(s) still open (1 of 2 recorded; next: step 2, vitest-expert: create_test): record them with \`lanes progress step\`, or pass \`--force\` to complete it anyway\n`,
    ]);
    const complete = await cli(
      ["progress", "complete", "--force", "--summary", "hex pattern covered", "--suggestion", "add the octal variant"],
      dir,
    );
    expect(complete.out).toContain("✨ Task Completed in ");
    expect(complete.out).toContain(
      "📋 Summary:\n   hex pattern covered\n\n📁 Artifacts:\n   • rules.json (created)\n\n💡 Next Steps:\n   1. add the octal variant\n═",
    );
  });

  it("refuses to replace an unfinished workflow, with the way out on the next line", async () => {
    const dir = project();
    await cli(["progress", "init", "first", "--primary", "a"], dir);
    const again = await cli(["progress", "init", "second", "--primary", "a"], dir);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(
      /^lanes progress: workflow `wf-[^`]+` is initialized at step 1 of 1: init would discard it\nrun `lanes progress resume` to continue it, .* or `lanes progress init --force` to start over\n$/,
    );
    expect((await cli(["progress", "init", "second", "--primary", "a", "--force"], dir)).code).toBe(0);
  });

  it("reports a corrupt file with exit 65, keeps it and a backup", async () => {
    const dir = project();
    await cli(["progress", "init", "first", "--primary", "a"], dir);
    const file = join(dir, ".claude", "state", "progress.json");
    const doc = readJson(file) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...doc, status: "paused" }));
    const show = await cli(["progress", "show"], dir);
    expect(show.code).toBe(65);
    expect(show.err).toMatch(
      /^lanes progress: `\.claude\/state\/progress\.json` is not usable: status: expected one of .*: the file was left as is and copied to `progress\.json\.corrupt-\d{8}T\d{6}Z`\nrun `lanes progress init --force` to start over, or fix the file by hand\n$/,
    );
    expect(readdirSync(join(dir, ".claude", "state")).filter((n) => n.includes("corrupt"))).toHaveLength(1);
  });

  it.each([
    [["progress", "init", "x"], 64, "lanes progress: `--primary` is required"],
    [
      ["progress", "init", "--primary", "a"],
      64,
      'lanes progress: the request (`lanes progress init "<request>" --primary <expert>`) is required',
    ],
    [
      ["progress", "init", "x", "--primary", "a", "--strategy", "swarm"],
      64,
      "lanes progress: `--strategy` is sequential, parallel, single, received `swarm`",
    ],
    [
      ["progress", "init", "x", "--primary", "a", "--steps", "0"],
      64,
      "lanes progress: `--steps 0` must be a whole number, at least 1",
    ],
    [
      ["progress", "step", "--expert", "a", "--action", "b", "--result", "[1]"],
      64,
      "lanes progress: `--result` must be a JSON object, received `[1]`",
    ],
    [
      ["progress", "step", "--expert", "a", "--action", "b", "--final", "--next-action", "c"],
      64,
      "lanes progress: `--final` and `--next-*` contradict each other: a final step has no next step",
    ],
    [
      ["progress", "step", "--expert", "a", "--action", "b"],
      1,
      "lanes progress: there is no workflow: `.claude/state/progress.json` does not exist",
    ],
    [["progress", "step", "--expert", "a", "--action", "b", "--bogus"], 64, "lanes progress: unknown option '--bogus'"],
    [
      ["progress", "dance"],
      64,
      "lanes progress: unknown subcommand `dance`: `lanes progress` has `init`, `show`, `step`, `error`, `complete`, `fail`, `resume`, `artifacts`, `enter`, `leave`",
    ],
    [["progress", "resume"], 1, "lanes progress: there is no workflow: `.claude/state/progress.json` does not exist"],
  ])("%j exits %i: %s", async (argv, code, first) => {
    const run = await cli(argv, project());
    expect(run.code).toBe(code);
    // a usage error is one line, then a pointer to the command's --help
    expect(run.err.replace(/: see `lanes [a-z]+ --help`\n$/, "\n").split("\n")[0]).toBe(first);
  });

  it("prints its usage when given no subcommand", async () => {
    const run = await cli(["progress"], project());
    expect(run.code).toBe(64);
    expect(run.out).toMatch(/^usage: lanes progress <subcommand> \[options\]\n/);
  });

  it("finds the project from a subdirectory, or takes --project", async () => {
    const dir = project();
    mkdirSync(join(dir, "src", "deep"), { recursive: true });
    await cli(["progress", "init", "from below", "--primary", "a"], join(dir, "src", "deep"));
    expect(readdirSync(join(dir, ".claude", "state"))).toEqual([".gitignore", "progress.json"]);
    const other = await cli(["progress", "show", "--json", "--project", dir], "/");
    expect(JSON.parse(other.out).task.original_request).toBe("from below");
    expect((await cli(["progress", "show"], join(dir, "src"))).out).toContain("🎯 Task: from below");
  });

  it("shows that there is no workflow without failing", async () => {
    const dir = project();
    expect(await cli(["progress", "show"], dir)).toEqual({
      code: 0,
      out: 'no workflow: run `lanes progress init "<request>" --primary <expert>` to start one\n',
      err: "",
    });
    expect((await cli(["progress", "show", "--json"], dir)).out).toBe("null\n");
  });

  it("enter and leave without a workflow say so and exit 0 (the skills run them unconditionally)", async () => {
    const dir = project();
    expect(await cli(["progress", "enter", "gated-steps"], dir)).toEqual({
      code: 0,
      out: "no workflow: `gated-steps` is not recorded in a task context (nothing to skip; `lanes progress init` starts a workflow that tracks nesting)\n",
      err: "",
    });
    expect((await cli(["progress", "leave", "gated-steps"], dir)).code).toBe(0);
    expect(existsSync(join(dir, ".claude", "state", "progress.json"))).toBe(false);
  });

  it("enters and leaves nested skills", async () => {
    const dir = project();
    await cli(["progress", "init", "r", "--primary", "a", "--max-depth", "1"], dir);
    expect((await cli(["progress", "enter", "orchestrator"], dir)).out).toBe(
      "entered `orchestrator`: depth 1 of 1 (orchestrator)\n",
    );
    expect((await cli(["progress", "enter", "parallel"], dir)).err.split("\n")[0]).toBe(
      "lanes progress: cannot enter `parallel`: the maximum nesting depth 1 is reached: current path orchestrator",
    );
    expect(
      (await cli(["progress", "leave", "orchestrator", "--status", "success", "--output", '{"ok":true}'], dir)).out,
    ).toBe("left `orchestrator`: depth 0 of 1\n");
  });
});

describe("lanes memory", () => {
  it("writes from stdin, reads, lists and verifies", async () => {
    const dir = project();
    const write = await cli(
      [
        "memory",
        "write",
        "--task",
        "t1",
        "--agent",
        "planner",
        "--summary",
        "planned it",
        "--artifact",
        "plan.md",
        "--body-file",
        "-",
      ],
      dir,
      "## Plan\n\nthree steps\n",
    );
    expect(write).toEqual({ code: 0, out: "wrote .claude/memory/t1--planner-memory.md (complete)\n", err: "" });
    expect((await cli(["memory", "read", "--task", "t1", "--agent", "planner"], dir)).out).toMatch(
      /^---\ntask_id: t1\nagent: planner\nstatus: complete\ncreated: .+\nsummary: planned it\nartifacts:\n  - plan.md\n---\n\n## Plan\n\nthree steps\n$/,
    );
    expect((await cli(["memory", "list"], dir)).out).toBe("t1--planner-memory.md  complete  planned it\n");
    expect(await cli(["memory", "verify", "--task", "t1", "--agent", "planner"], dir)).toEqual({
      code: 0,
      out: "ok: .claude/memory/t1--planner-memory.md is complete: planned it\n",
      err: "",
    });
  });

  it("fails verification with the precise reason", async () => {
    const dir = project();
    await cli(
      [
        "memory",
        "write",
        "--task",
        "t1",
        "--agent",
        "planner",
        "--summary",
        "half",
        "--status",
        "partial",
        "--body",
        "so far",
      ],
      dir,
    );
    const verify = await cli(["memory", "verify", "--task", "t1", "--agent", "planner"], dir);
    expect(verify.code).toBe(1);
    expect(verify.err).toBe(
      "lanes memory: `.claude/memory/t1--planner-memory.md` has status `partial`: `planner` did not finish: half\nrun the phase's agent again until it writes status `complete`\n",
    );
    const json = await cli(["memory", "verify", "--task", "t1", "--agent", "nobody", "--json"], dir);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toEqual({
      ok: false,
      reason: "`.claude/memory/t1--nobody-memory.md` does not exist: `nobody` has not written its memory file",
    });
  });

  it.each([
    [
      ["memory", "write", "--task", "t", "--agent", "a", "--summary", "s"],
      "lanes memory: the findings are required: pass `--body <markdown>`, `--body-file <file>` or `--body-file -` for stdin",
    ],
    [
      ["memory", "write", "--task", "t", "--agent", "a", "--summary", "s", "--body", "x", "--status", "done"],
      "lanes memory: `--status` is complete, partial, failed, received `done`",
    ],
    [["memory", "verify", "--agent", "a"], "lanes memory: `--task` is required"],
    [
      ["memory", "write", "--task", "t", "--agent", "a", "--summary", "--json", "--body", "x"],
      "lanes memory: option '--summary' argument is ambiguous",
    ],
  ])("%j is a usage error", async (argv, first) => {
    const run = await cli(argv, project());
    expect(run.code).toBe(64);
    expect(run.err).toMatch(/^[^\n]*: see `lanes [a-z]+ --help`\n$/);
    expect(run.err.replace(/: see `lanes [a-z]+ --help`\n$/, "\n").split("\n")[0]).toBe(first);
  });
});

describe("lanes checkpoint", () => {
  it("saves, lists and resumes", async () => {
    const dir = project();
    await cli(["progress", "init", "r", "--primary", "a"], dir);
    const save = await cli(
      ["checkpoint", "save", "--id", "cp1", "--skill", "sequential", "--state", '{"gate":2}'],
      dir,
    );
    expect(save.out).toMatch(
      /^saved checkpoint cp1 of task wf-[^ ]+ \(skill sequential\): resume it with `lanes checkpoint resume cp1`\n$/,
    );
    expect((await cli(["checkpoint", "list"], dir)).out).toMatch(/^cp1 {2}\S+ {2}sequential {2}manual\n$/);
    const resume = await cli(["checkpoint", "resume", "cp1"], dir);
    expect(resume.out).toContain('state snapshot:\n{\n  "gate": 2\n}\n');
    expect(JSON.parse((await cli(["checkpoint", "resume", "cp1", "--json"], dir)).out).checkpoint_id).toBe("cp1");
  });

  it("validates the progress file before snapshotting it", async () => {
    const dir = project();
    await cli(["progress", "init", "r", "--primary", "a"], dir);
    writeFileSync(
      join(dir, ".claude", "state", "progress.json"),
      JSON.stringify({
        version: "2.0",
        workflow_id: "wf",
        status: "in_progress",
        artifacts: { files_created: [], files_modified: [] },
      }),
    );
    const save = await cli(["checkpoint", "save"], dir);
    expect(save.code).toBe(65);
    expect(readdirSync(join(dir, ".claude", "state"))).not.toContain("checkpoints");
  });
});

describe("lanes phase", () => {
  const skill = `name: review
phases:
  - { id: "0", name: CLARIFICATION, title: Clarification, type: LINEAR, agent: clarifier, content: "Ask what is unclear.", next: "1", description: clarify }
  - { id: "1", name: REVIEW, title: Review, type: LINEAR, agent: reviewer, content: "Review the change.", next: null, description: review }
`;

  it("starts, blocks, advances and completes a composite skill", async () => {
    const dir = project();
    mkdirSync(join(dir, ".claude", "lanes", "skills", "review"), { recursive: true });
    writeFileSync(join(dir, ".claude", "lanes", "skills", "review", "skill.yaml"), skill);
    const start = await cli(["phase", "start", "review", "--task", "t1"], dir);
    expect(start.code).toBe(0);
    // run from this checkout into a project without `.claude/agents/clarifier.md`: the plugin's name and CLI path
    // phase 0 runs in the main session, where the human can answer
    expect(start.out).toMatch(
      /^# review: phase 0 of 2: Clarification \(LINEAR, main session\)\n\nAsk what is unclear\.\n\n---\nDIRECTIVE: Do this phase yourself, in this conversation/,
    );
    const run = /--run (run-\S+)/.exec(start.out)?.[1] ?? "";
    expect(run).toMatch(/^run-\d{8}T\d{6}Z-[a-z0-9]{6}$/);
    const blocked = await cli(["phase", "advance", "review", "--task", "t1"], dir);
    expect(blocked.code).toBe(1);
    expect(blocked.err.split("\n")[0]).toBe(
      "lanes phase: phase `0` (`CLARIFICATION`) cannot advance: `.claude/memory/t1--clarifier-memory.md` does not exist: `clarifier` has not written its memory file",
    );
    await cli(
      [
        "memory",
        "write",
        "--task",
        "t1",
        "--agent",
        "clarifier",
        "--phase",
        "0",
        "--run",
        run,
        "--summary",
        "clear",
        "--body",
        "nothing unclear",
      ],
      dir,
    );
    const next = await cli(["phase", "advance", "review", "--task", "t1", "--json"], dir);
    expect(JSON.parse(next.out).state.current_phase).toBe("1");
    // run from this checkout into a project without `.claude/agents/reviewer.md`: the plugin's name and CLI path
    expect(JSON.parse(next.out).text).toContain("DIRECTIVE: Use the Agent tool with subagent_type `lanes:reviewer`");
    // a value that starts with `-` is a value, not an option
    await cli(
      [
        "memory",
        "write",
        "--task",
        "t1",
        "--agent",
        "reviewer",
        "--phase",
        "1",
        "--run",
        run,
        "--summary",
        "-5% latency, approved",
        "--body",
        "looks right",
      ],
      dir,
    );
    await cli(["phase", "advance", "review", "--task", "t1"], dir);
    const complete = await cli(["phase", "complete", "review", "--task", "t1"], dir);
    expect(complete.out).toMatch(
      /^# review complete for task `t1`\n\n- phase 0 Clarification: clarifier: clear\n- phase 1 Review: reviewer: -5% latency, approved\n\nREVIEW_COMPLETE\n\nLEARNINGS: .* invoke `\/(lanes:)?develop-learnings` with task `t1` of `review` as its scope/,
    );
    // the completion is logged, with what the learnings hook did
    expect(readFileSync(join(dir, ".claude", "lanes", "state", "audit.jsonl"), "utf8")).toMatch(
      /"event":"skill-completed","subject":"review for task t1","skill":"review","run_task":"t1","run":"run-[^"]+","learnings":"offered"/,
    );
  });

  it("generates a task id when none is given, and names it in the directive", async () => {
    const dir = project();
    mkdirSync(join(dir, "definitions", "skills", "review"), { recursive: true });
    writeFileSync(join(dir, "definitions", "skills", "review", "skill.yaml"), skill);
    const start = await cli(["phase", "start", "review"], dir);
    expect(start.out).toMatch(
      /run `node "[^"]+\/dist\/cli\.mjs" phase advance review --task task-\d{8}T\d{6}Z-[a-z0-9]{6}`/,
    );
  });

  it.each([
    [["phase", "start"], 64, "lanes phase: pass one skill: `lanes phase start <skill> --task <id>`"],
    [
      ["phase", "advance", "nope", "--task", "t"],
      1,
      `lanes phase: skill \`nope\` has no definition: looked for \`.claude/lanes/skills/nope/skill.yaml\` and \`definitions/skills/nope/skill.yaml\` and \`${join(import.meta.dirname, "..", "..", "definitions", "skills", "nope", "skill.yaml")}\``,
    ],
    [
      ["phase", "advance", "Bad_Name", "--task", "t"],
      64,
      "lanes phase: `Bad_Name` is not a skill name: names are kebab-case: lowercase letters, digits and single hyphens, e.g. `design-reviewer`",
    ],
  ])("%j exits %i", async (argv, code, first) => {
    const run = await cli(argv, project());
    expect(run.code).toBe(code);
    // a usage error is one line, then a pointer to the command's --help
    expect(run.err.replace(/: see `lanes [a-z]+ --help`\n$/, "\n").split("\n")[0]).toBe(first);
  });
});

describe("error records with recovery options and context", () => {
  it.each<[string, unknown]>([
    [
      "retry!:rerun the migration",
      { action: "retry", description: "rerun the migration", auto_execute: true, requires_user_input: false },
    ],
    [
      "fallback:use the advisor skill",
      { action: "fallback", description: "use the advisor skill", auto_execute: false, requires_user_input: false },
    ],
    [
      "skip?:skip the optional schema phase",
      { action: "skip", description: "skip the optional schema phase", auto_execute: false, requires_user_input: true },
    ],
    [
      "escalate:ask which schema wins",
      { action: "escalate", description: "ask which schema wins", auto_execute: false, requires_user_input: true },
    ],
    [
      "rollback:undo",
      "`--recovery rollback:undo`: the action is retry, skip, fallback or escalate, e.g. `retry!:rerun the migration`",
    ],
    ["retry", "`--recovery retry` has no description: write `retry:<what to do>`"],
  ])("--recovery %s", (word, expected) => {
    const r = parseRecovery(word);
    expect(r.ok ? r.value : r.issues[0]!.message).toEqual(expected);
  });

  it("records the skill, context and recovery options of an error", async () => {
    const dir = project();
    await cli(["progress", "init", "migrate", "--primary", "database"], dir);
    const run = await cli(
      [
        "progress",
        "error",
        "migration failed",
        "--skill",
        "schema-migrations",
        "--type",
        "execution",
        "--severity",
        "recoverable",
        "--context",
        '{"file":"db/001.sql","command":"npm run migrate"}',
        "--recovery",
        "retry!:rerun after fixing the column type",
        "--recovery",
        "escalate:ask the human which default to use",
        "--json",
      ],
      dir,
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).errors[0]).toMatchObject({
      message: "migration failed",
      skill: "schema-migrations",
      context: { file: "db/001.sql", command: "npm run migrate" },
      recovery_options: [
        {
          action: "retry",
          description: "rerun after fixing the column type",
          auto_execute: true,
          requires_user_input: false,
        },
        {
          action: "escalate",
          description: "ask the human which default to use",
          auto_execute: false,
          requires_user_input: true,
        },
      ],
    });
    expect((await cli(["progress", "error", "x", "--context", "[1]"], dir)).code).toBe(64);
  });
});

describe("a running composite skill in progress show and phase list", () => {
  it("shows the run next to the workflow", async () => {
    const dir = project();
    mkdirSync(join(dir, ".claude", "lanes", "skills", "review"), { recursive: true });
    writeFileSync(
      join(dir, ".claude", "lanes", "skills", "review", "skill.yaml"),
      'name: review\nphases:\n  - { id: "0", name: CLARIFICATION, title: Clarification, type: LINEAR, agent: clarifier, content: "Ask.", next: null, description: clarify }\n',
    );
    await cli(["progress", "init", "review the change", "--primary", "reviewer"], dir);
    await cli(["phase", "start", "review", "--task", "t1"], dir);
    expect((await cli(["progress", "show"], dir)).out).toContain(
      "\ncomposite skills running:\n- review for task t1: at phase 0\n",
    );
    expect((await cli(["phase", "list"], dir)).out).toMatch(
      /^review {2}task t1 {2}at phase 0 {2}\(0 done; last: phase 0 started \S+\)\n$/,
    );
  });
});

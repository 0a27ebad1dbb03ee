/** Composite skills: the pure state machine over every phase type, then the I/O order and the CLI's skill loading. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { PhaseList } from "../../src/definitions/phases.ts";
import { writeMemory } from "../../src/runtime/memory.ts";
import {
  advanceState,
  checkPhases,
  completeState,
  completionMarker,
  renderDirective,
  renderTransition,
  resolveArguments,
  startState,
  type PhaseState,
  type Transition,
  type VerifyAgent,
} from "../../src/runtime/phase-state.ts";
import {
  advancePhase,
  completePhases,
  listRuns,
  loadSkillPhases,
  phaseStatus,
  renderRuns,
  startPhases,
} from "../../src/runtime/phases.ts";
import type { Result } from "../../src/io/result.ts";
import { readJson, steppingClock, tempProject } from "./helpers.ts";
import { loadDefinitionSet } from "../../src/definitions/load.ts";
import { writerProblem } from "../../src/policy/memory-lane.ts";
import { testPolicy } from "../helpers/guard.ts";

const phase = (id: string, name: string, rest: Record<string, unknown>) => ({
  id,
  name,
  title: name.charAt(0) + name.slice(1).toLowerCase(),
  content: `Instructions for ${name}.`,
  description: `does ${name}`,
  ...rest,
});
/** One phase of every type: 0 LINEAR, 1 OPTIONAL, 2 ITERATIVE (2 runs), 3 PARALLEL, 4 AUTO, 5 REMEDIATION (back to 3, once). */
const PHASES = checkPhases("demo", [
  phase("0", "CLARIFICATION", { type: "LINEAR", agent: "clarifier", next: "1" }),
  phase("1", "RESEARCH", {
    type: "OPTIONAL",
    agent: "researcher",
    trigger: "the task needs outside knowledge",
    next: "2",
  }),
  phase("2", "DRAFT", { type: "ITERATIVE", agent: "drafter", max_iterations: 2, next: "3" }),
  phase("3", "BUILD", { type: "PARALLEL", branches: ["builder-a", "builder-b"], next: "4" }),
  phase("4", "AGGREGATE", { type: "AUTO", next: "5" }),
  phase("5", "VALIDATION", {
    type: "REMEDIATION",
    agent: "validator",
    remediation_target: "3",
    max_remediation: 1,
    next: null,
  }),
]);
if (!PHASES.ok) throw new Error(JSON.stringify(PHASES.issues));
const phases: PhaseList = PHASES.value;
const NOW = "2025-01-02T03:04:05.000Z";

const verifyWith =
  (done: readonly string[]): VerifyAgent =>
  (agent) =>
    done.includes(agent)
      ? {
          ok: true,
          value: {
            display: `.claude/memory/t1-${agent}-memory.md`,
            summary: `${agent} did it`,
            artifacts: [`${agent}.md`],
          },
        }
      : {
          ok: false,
          issues: [{ code: "verify-failed", message: `\`${agent}\` has not written its memory file`, help: "run it" }],
        };
const ALL = ["clarifier", "researcher", "drafter", "builder-a", "builder-b", "validator"];

const moved = (r: Result<Transition>): Transition => {
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.value;
};
const refused = (r: Result<unknown>) => (r.ok ? undefined : r.issues[0]);

/** Drives the machine from the start through `steps` (each: options), verifying every agent. */
function drive(steps: { skip?: boolean; retry?: boolean }[]): PhaseState {
  let state = startState("demo", "t1", NOW);
  for (const options of steps) state = moved(advanceState(state, phases, options, verifyWith(ALL), NOW)).state;
  return state;
}

describe("the phase state machine", () => {
  it("starts at phase 0", () => {
    expect(startState("demo", "t1", NOW)).toMatchObject({
      status: "in_progress",
      current_phase: "0",
      completed_phases: [],
      history: [{ phase: "0", event: "started", at: NOW }],
    });
  });

  it("blocks advance until the phase's agent has a complete memory file", () => {
    const state = startState("demo", "t1", NOW);
    expect(refused(advanceState(state, phases, {}, verifyWith([]), NOW))).toEqual({
      code: "verify-failed",
      message: "phase `0` (`CLARIFICATION`) cannot advance: `clarifier` has not written its memory file",
      help: "run it; then run `lanes phase advance demo --task t1` again (a subagent still running in the background must finish first)",
    });
    const t = moved(advanceState(state, phases, {}, verifyWith(["clarifier"]), NOW));
    expect(t.state).toMatchObject({ current_phase: "1", completed_phases: ["0"] });
    expect(t.state.phase_outputs["0"]).toEqual({
      status: "completed",
      agents: ["clarifier"],
      memory_files: [".claude/memory/t1-clarifier-memory.md"],
      summaries: { clarifier: "clarifier did it" },
      artifacts: ["clarifier.md"],
      completed_at: NOW,
    });
    expect(t.entered.map((p) => p.id)).toEqual(["1"]);
    expect(state.current_phase).toBe("0"); // pure: the input state is untouched
  });

  it.each([
    [
      "skip a LINEAR phase",
      [],
      { skip: true },
      "phase `0` (`CLARIFICATION`) is LINEAR: only OPTIONAL phases can be skipped",
    ],
    [
      "retry a LINEAR phase",
      [],
      { retry: true },
      "`--retry` applies to ITERATIVE and REMEDIATION phases: phase `0` (`CLARIFICATION`) is LINEAR",
    ],
    ["skip and retry at once", [{}], { skip: true, retry: true }, "`--skip` and `--retry` cannot be used together"],
    [
      "retry an OPTIONAL phase",
      [{}],
      { retry: true },
      "`--retry` applies to ITERATIVE and REMEDIATION phases: phase `1` (`RESEARCH`) is OPTIONAL",
    ],
    [
      "skip an ITERATIVE phase",
      [{}, { skip: true }],
      { skip: true },
      "phase `2` (`DRAFT`) is ITERATIVE: only OPTIONAL phases can be skipped",
    ],
    [
      "retry an ITERATIVE phase past its bound",
      [{}, { skip: true }, { retry: true }],
      { retry: true },
      "phase `2` (`DRAFT`) already ran 2 times, its bound of 2",
    ],
    [
      "retry a PARALLEL phase",
      [{}, {}, {}],
      { retry: true },
      "`--retry` applies to ITERATIVE and REMEDIATION phases: phase `3` (`BUILD`) is PARALLEL",
    ],
    [
      "remediate past the bound",
      [{}, {}, {}, {}, { retry: true }, {}],
      { retry: true },
      "phase `5` (`VALIDATION`) already remediated 1 time, its bound of 1",
    ],
    ["advance after the last phase", [{}, {}, {}, {}, {}], {}, "all phases of skill `demo` for task `t1` are done"],
  ])("refuses to %s", (_, before, options, message) => {
    expect(refused(advanceState(drive(before), phases, options, verifyWith(ALL), NOW))?.message).toBe(message);
  });

  it("skips an OPTIONAL phase whose trigger does not hold", () => {
    const state = drive([{}, { skip: true }]);
    expect(state).toMatchObject({ current_phase: "2", completed_phases: ["0"], skipped_phases: ["1"] });
    expect(state.phase_outputs["1"]!.status).toBe("skipped");
  });

  it("runs an ITERATIVE phase again on retry, moving its memory file aside", () => {
    const t = moved(advanceState(drive([{}, { skip: true }]), phases, { retry: true }, verifyWith(ALL), NOW));
    expect(t.state).toMatchObject({ current_phase: "2", iterations: { "2": 1 } });
    expect(t.archive).toEqual([{ agent: "drafter", suffix: "iteration-1" }]);
    expect(t.entered.map((p) => p.id)).toEqual(["2"]);
  });

  it("waits for every PARALLEL branch, then completes the AUTO phase by itself", () => {
    const atBuild = drive([{}, {}, {}]);
    expect(refused(advanceState(atBuild, phases, {}, verifyWith(["builder-a"]), NOW))?.message).toBe(
      "phase `3` (`BUILD`) cannot advance: 1 of 2 branches are not done: `builder-b` has not written its memory file",
    );
    expect(refused(advanceState(atBuild, phases, {}, verifyWith([]), NOW))?.message).toBe(
      "phase `3` (`BUILD`) cannot advance: 2 of 2 branches are not done: `builder-a` has not written its memory file; `builder-b` has not written its memory file",
    );
    const t = moved(advanceState(atBuild, phases, {}, verifyWith(ALL), NOW));
    expect(t.entered.map((p) => p.id)).toEqual(["4", "5"]);
    expect(t.state).toMatchObject({ current_phase: "5", completed_phases: ["0", "1", "2", "3", "4"] });
    expect(t.state.phase_outputs["3"]!.agents).toEqual(["builder-a", "builder-b"]);
    expect(t.state.phase_outputs["4"]!.status).toBe("auto");
  });

  it("goes back to the remediation target on retry, forgetting the phases in between", () => {
    const t = moved(advanceState(drive([{}, {}, {}, {}]), phases, { retry: true }, verifyWith(ALL), NOW));
    expect(t.state).toMatchObject({ current_phase: "3", completed_phases: ["0", "1", "2"], remediations: { "5": 1 } });
    expect(Object.keys(t.state.phase_outputs).sort()).toEqual(["0", "1", "2"]);
    expect(t.archive).toEqual([
      { agent: "builder-a", suffix: "remediation-1" },
      { agent: "builder-b", suffix: "remediation-1" },
      { agent: "validator", suffix: "remediation-1" },
    ]);
  });

  it("completes only when every phase is done, aggregating the outputs", () => {
    expect(refused(completeState(drive([{}]), phases, NOW))?.message).toBe(
      "skill `demo` for task `t1` cannot complete: phase `1` (`RESEARCH`) is still running",
    );
    const done = drive([{}, { skip: true }, {}, {}, {}]);
    expect(done).toMatchObject({ status: "awaiting_completion", current_phase: null });
    const completed = completeState(done, phases, NOW);
    expect(completed.ok && completed.value.state).toMatchObject({ status: "completed", completed_at: NOW });
    expect(completed.ok && completed.value.summary).toBe(
      [
        "- phase 0 Clarification: clarifier: clarifier did it",
        "- phase 1 Research: skipped",
        "- phase 2 Draft: drafter: drafter did it",
        "- phase 3 Build: builder-a: builder-a did it; builder-b: builder-b did it",
        "- phase 4 Aggregate: done by lanes",
        "- phase 5 Validation: validator: validator did it",
        "",
        "artifacts: clarifier.md, drafter.md, builder-a.md, builder-b.md, validator.md",
      ].join("\n"),
    );
    if (completed.ok)
      expect(refused(completeState(completed.value.state, phases, NOW))?.message).toBe(
        "skill `demo` for task `t1` is already completed",
      );
  });

  it("refuses phase lists that break the invariants", () => {
    const bad = checkPhases("demo", [
      phase("0", "CLARIFICATION", { type: "OPTIONAL", agent: "a", trigger: "x", next: null }),
    ]);
    expect(refused(bad)?.message).toBe(
      "the phases of skill `demo` are invalid: phase 0 must be LINEAR: clarification is never optional",
    );
  });

  it.each([
    [
      "0",
      [
        "Do this phase yourself, in this conversation: do not start a subagent",
        "lanes memory write --task t1 --agent clarifier --phase 0",
        "then run `lanes phase advance demo --task t1`",
      ],
    ],
    [
      "1",
      [
        "run it only when the task needs outside knowledge",
        "`lanes phase advance demo --task t1 --skip`",
        "Use the Agent tool with subagent_type `researcher`",
        "if it runs in the background, for its completion notice",
      ],
    ],
    ["2", ["This is run 1 of at most 2", "`lanes phase advance demo --task t1 --retry`"]],
    [
      "3",
      [
        "once for each of `builder-a`, `builder-b`",
        "all in the same message",
        "Wait until every one has finished (for agents started in the background, their completion notices)",
      ],
    ],
    ["5", ["go back to phase 3 (1 remediation left)"]],
  ])("the directive of phase %s says what to do", (id, phrases) => {
    const directive = renderDirective(
      "demo",
      "t1",
      phases.find((p) => p.id === id)!,
      startState("demo", "t1", NOW),
    );
    for (const p of phrases) expect(directive).toContain(p);
  });

  it("names the completion marker after the skill", () => {
    expect(completionMarker("develop-skill")).toBe("DEVELOP_SKILL_COMPLETE");
  });
});

describe("running a composite skill on disk", () => {
  let cleanup: () => void = () => {};
  afterEach(() => cleanup());
  function setup() {
    const p = tempProject();
    cleanup = p.cleanup;
    return {
      dir: p.dir,
      state: join(p.dir, ".claude", "state", "phases", "demo--t1.json"),
      deps: { now: steppingClock() },
    };
  }
  /** The agent writes its memory file for the current phase of the current run, as the directive says. */
  const done = (dir: string, agent: string, status: "complete" | "partial" = "complete") => {
    const s = readJson(join(dir, ".claude", "state", "phases", "demo--t1.json")) as PhaseState;
    return writeMemory(dir, {
      taskId: "t1",
      agent,
      status,
      phase: s.current_phase!,
      run: s.run_id!,
      summary: `${agent} finished`,
      body: "findings",
    });
  };

  it("saves the state before returning the directive (invariant 6)", () => {
    const { dir, state, deps } = setup();
    const started = startPhases(dir, "demo", phases, "t1", {}, deps);
    expect(started.ok && started.value.text).toContain("DIRECTIVE: Do this phase yourself, in this conversation");
    expect(readJson(state)).toMatchObject({ skill: "demo", task_id: "t1", current_phase: "0", status: "in_progress" });
    // when the state cannot be saved, no directive is returned at all
    const blocked = tempProject();
    try {
      mkdirSync(join(blocked.dir, ".claude", "state"), { recursive: true });
      writeFileSync(join(blocked.dir, ".claude", "state", "phases"), "not a directory");
      const result = startPhases(blocked.dir, "demo", phases, "t1", {}, deps);
      expect(result.ok).toBe(false);
      expect(result.ok ? "" : result.issues[0]!.code).toBe("io");
    } finally {
      blocked.cleanup();
    }
  });

  it("runs every phase type through to <SKILL>_COMPLETE", () => {
    const { dir, state, deps } = setup();
    startPhases(dir, "demo", phases, "t1", {}, deps);
    const blocked = advancePhase(dir, "demo", phases, "t1", {}, deps);
    expect(blocked.ok ? "" : blocked.issues[0]!.message).toBe(
      "phase `0` (`CLARIFICATION`) cannot advance: `.claude/memory/t1--clarifier-memory.md` does not exist: `clarifier` has not written its memory file",
    );
    expect(readJson(state)).toMatchObject({ current_phase: "0", completed_phases: [] });
    done(dir, "clarifier");
    expect(advancePhase(dir, "demo", phases, "t1", {}, deps).ok).toBe(true);
    expect(advancePhase(dir, "demo", phases, "t1", { skip: true }, deps).ok).toBe(true);
    done(dir, "drafter", "partial");
    const partial = advancePhase(dir, "demo", phases, "t1", {}, deps);
    expect(partial.ok ? "" : partial.issues[0]!.message).toContain("has status `partial`");
    const retried = advancePhase(dir, "demo", phases, "t1", { retry: true }, deps);
    expect(retried.ok && retried.value.text).toContain(
      "This is run 2 of at most 2, the last: if the result does not pass, do not retry",
    );
    // the last run offers no `--retry`: it would be refused
    expect(retried.ok && retried.value.text).not.toContain("--retry");
    done(dir, "drafter", "partial");
    const lastRun = advancePhase(dir, "demo", phases, "t1", {}, deps);
    expect(lastRun.ok ? "" : lastRun.issues[0]!.help).toContain("its retries are used up");
    expect(lastRun.ok ? "" : lastRun.issues[0]!.help).not.toContain("--retry");
    expect(advancePhase(dir, "demo", phases, "t1", { retry: true }, deps).ok).toBe(false);
    expect(readdirSync(join(dir, ".claude", "memory"))).toContain("t1--drafter-memory.md.iteration-1");
    done(dir, "drafter");
    expect(advancePhase(dir, "demo", phases, "t1", {}, deps).ok).toBe(true);
    done(dir, "builder-a");
    done(dir, "builder-b");
    const built = advancePhase(dir, "demo", phases, "t1", {}, deps);
    expect(built.ok && built.value.text).toContain(
      "lanes completed this AUTO phase: it recorded the outputs of phases 0, 2, 3 (4 memory files); `lanes phase status demo --task t1 --json` shows them.",
    );
    // the AUTO phase records what the phases before it produced, as its description says
    expect((readJson(state) as PhaseState).phase_outputs["4"]).toMatchObject({
      status: "auto",
      inputs: ["0", "2", "3"],
      agents: ["clarifier", "drafter", "builder-a", "builder-b"],
      summaries: { "0:clarifier": "clarifier finished", "3:builder-a": "builder-a finished" },
    });
    done(dir, "validator");
    const last = advancePhase(dir, "demo", phases, "t1", {}, deps);
    expect(last.ok && last.value.text).toBe(
      "All phases of `demo` are done for task `t1`: run `lanes phase complete demo --task t1`.\n",
    );
    const complete = completePhases(dir, "demo", phases, "t1", deps);
    expect(complete.ok && complete.value.text).toMatch(
      /^# demo complete for task `t1`\n\n- phase 0 Clarification: clarifier: clarifier finished\n[\s\S]*\n\nDEMO_COMPLETE\n$/,
    );
    expect(readJson(state)).toMatchObject({ status: "completed" });
  });

  it("refuses a second start, and --force starts over with old memory files moved aside", () => {
    const { dir, deps } = setup();
    startPhases(dir, "demo", phases, "t1", {}, deps);
    done(dir, "clarifier");
    const again = startPhases(dir, "demo", phases, "t1", {}, deps);
    expect(again.ok ? undefined : again.issues[0]).toMatchObject({
      code: "refused",
      message: "skill `demo` already has a run for task `t1` (at phase 0)",
      help: "run `lanes phase status demo --task t1` to see its directive, or add `--force` to start over",
    });
    expect(startPhases(dir, "demo", phases, "t1", { force: true }, deps).ok).toBe(true);
    expect(existsSync(join(dir, ".claude", "memory", "t1--clarifier-memory.md"))).toBe(false);
    expect(advancePhase(dir, "demo", phases, "t1", {}, deps).ok).toBe(false);
  });

  it("prints the current directive again on status", () => {
    const { dir, deps } = setup();
    startPhases(dir, "demo", phases, "t1", {}, deps);
    const status = phaseStatus(dir, "demo", phases, "t1", deps);
    expect(status.ok && status.value.text).toContain("DIRECTIVE: Do this phase yourself, in this conversation");
    const none = phaseStatus(dir, "demo", phases, "t9", deps);
    expect(none.ok ? undefined : none.issues[0]!.message).toBe("skill `demo` has no run for task `t9`");
  });

  it("keeps runs whose old file names collided apart, and refuses a state file that belongs to another run", () => {
    const { dir, deps } = setup();
    expect(startPhases(dir, "demo-x", phases, "t1", {}, deps).ok).toBe(true); // demo-x--t1.json
    expect(startPhases(dir, "demo", phases, "x-t1", {}, deps).ok).toBe(true); // demo--x-t1.json (both were demo-x-t1.json)
    expect(
      readdirSync(join(dir, ".claude", "state", "phases"))
        .filter((n) => n.endsWith(".json"))
        .sort(),
    ).toEqual(["demo--x-t1.json", "demo-x--t1.json"]);
    // a file edited by hand to name another run is still refused
    const file = join(dir, ".claude", "state", "phases", "demo--x-t1.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('"skill": "demo"', '"skill": "demo-x"'));
    const clash = advancePhase(dir, "demo", phases, "x-t1", {}, deps);
    expect(clash.ok ? undefined : clash.issues[0]!.message).toBe(
      "`.claude/state/phases/demo--x-t1.json` belongs to skill `demo-x` for task `x-t1`, not `demo` for `x-t1`",
    );
  });

  it("refuses a corrupt state file, keeping it", () => {
    const { dir, state, deps } = setup();
    startPhases(dir, "demo", phases, "t1", {}, deps);
    writeFileSync(state, JSON.stringify({ version: 1, skill: "demo" }));
    const result = advancePhase(dir, "demo", phases, "t1", {}, deps);
    expect(result.ok ? undefined : result.issues[0]).toMatchObject({
      code: "corrupt",
      help: "run `lanes phase start demo --task t1 --force` to start over, or fix the file by hand",
    });
    expect(readFileSync(state, "utf8")).toBe(JSON.stringify({ version: 1, skill: "demo" }));
  });
});

describe("loadSkillPhases", () => {
  let cleanup: () => void = () => {};
  afterEach(() => cleanup());
  const yaml = `name: demo
phases:
  - id: "0"
    name: CLARIFICATION
    title: Clarification
    type: LINEAR
    agent: clarifier
    content: Ask.
    next: null
    description: clarify
`;
  function project(files: Record<string, string>): string {
    const p = tempProject();
    cleanup = p.cleanup;
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(p.dir, rel, ".."), { recursive: true });
      writeFileSync(join(p.dir, rel), text);
    }
    return p.dir;
  }

  it.each([
    ["the installed definition", { ".claude/lanes/skills/demo/skill.yaml": yaml }],
    ["this repository's definitions", { "definitions/skills/demo/skill.yaml": yaml }],
  ])("reads %s", (_, files) => {
    const result = loadSkillPhases(project(files), "demo");
    expect(result.ok && result.value.map((p) => p.name)).toEqual(["CLARIFICATION"]);
  });

  it.each([
    [
      "no definition",
      {},
      "skill `demo` has no definition: looked for `.claude/lanes/skills/demo/skill.yaml` and `definitions/skills/demo/skill.yaml`",
    ],
    [
      "no phases",
      { "definitions/skills/demo/skill.yaml": "name: demo\n" },
      "skill `demo` has no `phases` in `definitions/skills/demo/skill.yaml`: it is not a composite skill",
    ],
    [
      "invalid phases",
      { "definitions/skills/demo/skill.yaml": yaml.replace("type: LINEAR", "type: AUTO") },
      "the phases of skill `demo` are invalid: 0.agent: an AUTO phase has no agent",
    ],
  ])("refuses %s", (_, files, message) => {
    const result = loadSkillPhases(project(files), "demo");
    expect(result.ok ? undefined : result.issues[0]!.message).toBe(message);
  });

  it("refuses a skill name that could escape the definitions directory", () => {
    const result = loadSkillPhases(project({}), "../demo");
    expect(result.ok ? undefined : result.issues[0]!.code).toBe("invalid-input");
  });
});

describe("the phase gate on disk: only this phase's file of this run, by its agent, written after the phase started", () => {
  let cleanup: () => void = () => {};
  afterEach(() => cleanup());
  const repo = join(import.meta.dirname, "..", "..");
  const loaded = loadSkillPhases(repo, "deliver-feature");
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  const feature = loaded.value;
  const stateOf = (dir: string) =>
    readJson(join(dir, ".claude", "state", "phases", "deliver-feature--f1.json")) as PhaseState;
  const write = (dir: string, agent: string, fm: { phase?: string; run?: string }, now?: () => Date) =>
    writeMemory(
      dir,
      { taskId: "f1", agent, ...fm, summary: `${agent} done`, body: "findings" },
      now === undefined ? {} : { now },
    );
  function started() {
    const p = tempProject();
    cleanup = p.cleanup;
    const deps = { now: () => new Date("2025-01-02T03:04:05.000Z") };
    const s = startPhases(p.dir, "deliver-feature", feature, "f1", {}, deps);
    if (!s.ok) throw new Error(JSON.stringify(s.issues));
    return { dir: p.dir, run: stateOf(p.dir).run_id!, deps };
  }
  const message = (r: Result<unknown>) => (r.ok ? "advanced" : r.issues[0]!.message);

  it("one memory write for phase 0 advances once, not twice (the reported bug)", () => {
    const { dir, run, deps } = started();
    write(dir, "orchestrator", { phase: "0", run });
    expect(message(advancePhase(dir, "deliver-feature", feature, "f1", {}, deps))).toBe("advanced");
    expect(stateOf(dir).current_phase).toBe("1");
    expect(message(advancePhase(dir, "deliver-feature", feature, "f1", {}, deps))).toBe(
      "phase `1` (`DESIGN`) cannot advance: `.claude/memory/f1--orchestrator-memory.md` was written for phase `0`, not phase `1`: it is not this phase's output",
    );
    expect(stateOf(dir).current_phase).toBe("1");
  });

  it.each<[string, (dir: string, run: string) => void, string]>([
    [
      "a hand-written file naming no run",
      (dir) => write(dir, "orchestrator", { phase: "0" }),
      "names no run, not the current run",
    ],
    [
      "a file of an earlier run",
      (dir) => write(dir, "orchestrator", { phase: "0", run: "run-20240101T000000Z-aaaaaa" }),
      "belongs to run `run-20240101T000000Z-aaaaaa`, not the current run",
    ],
    [
      "a file written before the phase started",
      (dir, run) => write(dir, "orchestrator", { phase: "0", run }, () => new Date("2025-01-02T03:04:04.000Z")),
      "before phase `0` started (2025-01-02T03:04:05.000Z): it is stale",
    ],
    [
      "a file for another phase",
      (dir, run) => write(dir, "orchestrator", { phase: "3", run }),
      "was written for phase `3`, not phase `0`",
    ],
    [
      "another agent's file",
      (dir, run) => write(dir, "qa", { phase: "0", run }),
      "`.claude/memory/f1--orchestrator-memory.md` does not exist",
    ],
  ])("refuses %s", (_name, forge, reason) => {
    const { dir, run, deps } = started();
    forge(dir, run);
    const result = advancePhase(dir, "deliver-feature", feature, "f1", {}, deps);
    expect(message(result)).toContain(reason);
    expect(result.ok ? undefined : result.issues[0]!.code).toBe("verify-failed");
    expect(stateOf(dir).current_phase).toBe("0");
  });

  it("a failed gate of a REMEDIATION phase points to --retry", () => {
    const { dir, run, deps } = started();
    write(dir, "orchestrator", { phase: "0", run });
    advancePhase(dir, "deliver-feature", feature, "f1", {}, deps);
    write(dir, "orchestrator", { phase: "1", run });
    advancePhase(dir, "deliver-feature", feature, "f1", {}, deps);
    advancePhase(dir, "deliver-feature", feature, "f1", { skip: true }, deps);
    write(dir, "backend", { phase: "3", run });
    write(dir, "frontend", { phase: "3", run });
    expect(message(advancePhase(dir, "deliver-feature", feature, "f1", {}, deps))).toBe("advanced");
    const failed = advancePhase(dir, "deliver-feature", feature, "f1", {}, deps);
    expect(failed.ok ? undefined : failed.issues[0]!.help).toContain(
      "or send the work back to phase 3 with `lanes phase advance deliver-feature --task f1 --retry`",
    );
  });
});

describe("the phase gate and who writes a read-only agent's memory file", () => {
  let cleanup: () => void = () => {};
  afterEach(() => cleanup());
  const repo = join(import.meta.dirname, "..", "..");
  const loaded = loadSkillPhases(repo, "develop-skill");
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  const skill = loaded.value;
  const team = loadDefinitionSet(join(repo, "definitions"), repo);
  const policy = testPolicy(
    [],
    team.agents.map((a) => ({ path: a.file, definition: a.value })),
  );
  const writerCheck = (agent: string, by: string | undefined) => writerProblem(policy, agent, by);
  const stateOf = (dir: string) =>
    readJson(join(dir, ".claude", "state", "phases", "develop-skill--s1.json")) as PhaseState;
  /** Started, phase 0 done: at phase 1 (OPTIONAL, `design-reviewer`, which has no tool to write files). */
  function atResearch(withCheck: boolean) {
    const p = tempProject();
    cleanup = p.cleanup;
    const deps = { now: steppingClock(), ...(withCheck ? { writerCheck } : {}) };
    startPhases(p.dir, "develop-skill", skill, "s1", {}, deps);
    const run = stateOf(p.dir).run_id!;
    writeMemory(p.dir, { taskId: "s1", agent: "orchestrator", phase: "0", run, summary: "agreed", body: "x" }, deps);
    const moved = advancePhase(p.dir, "develop-skill", skill, "s1", {}, deps);
    if (!moved.ok) throw new Error(JSON.stringify(moved.issues));
    return { dir: p.dir, run, deps };
  }
  const reviewerFile = (dir: string, run: string, writtenBy: string | undefined, deps: { now: () => Date }) =>
    writeMemory(
      dir,
      {
        taskId: "s1",
        agent: "design-reviewer",
        phase: "1",
        run,
        ...(writtenBy === undefined ? {} : { writtenBy }),
        summary: "research done",
        body: "the reviewer's report",
      },
      deps,
    );
  const message = (r: Result<unknown>) => (r.ok ? "advanced" : r.issues[0]!.message);

  it.each<[string, string | undefined, boolean, string]>([
    ["written by the main session from the report", "main", true, "advanced"],
    ["written by the orchestrator that started it", "orchestrator", true, "advanced"],
    [
      "claiming the reviewer wrote it (it has no tool to)",
      undefined,
      true,
      "`design-reviewer` has no tool to write a memory file, yet the file says `design-reviewer` wrote it",
    ],
    [
      "written by an agent that may not start it",
      "backend",
      true,
      "it was written by `backend`, which did not start `design-reviewer`",
    ],
    ["written for it, without the policy to check", "main", false, "without the compiled policy lanes cannot tell"],
  ])("%s", (_name, writtenBy, withCheck, expected) => {
    const { dir, run, deps } = atResearch(withCheck);
    reviewerFile(dir, run, writtenBy, deps);
    expect(message(advancePhase(dir, "develop-skill", skill, "s1", {}, deps))).toContain(expected);
    if (expected === "advanced")
      expect(stateOf(dir).phase_outputs["1"]).toMatchObject({
        agents: ["design-reviewer"],
        written_by: { "design-reviewer": writtenBy },
      });
  });

  it("a specialist's file written by someone else never passes (the forged gate)", () => {
    const { dir, run, deps } = atResearch(true);
    reviewerFile(dir, run, "main", deps);
    advancePhase(dir, "develop-skill", skill, "s1", {}, deps);
    expect(stateOf(dir).current_phase).toBe("2");
    // phase 5 is qa's: a file written for qa by the main session is refused
    const p5 = writerProblem(policy, "qa", "main");
    expect(p5).toBe(
      "it was written by `main`, but `qa` writes its own memory file: only an agent without a tool to write one may have it written for it",
    );
  });

  it("the directive tells the main session to write the reviewer's file from its report", () => {
    const { dir, deps } = atResearch(true);
    const status = phaseStatus(dir, "develop-skill", skill, "s1", {
      ...deps,
      render: { cli: "lanes", agentRef: (n) => n, writesOwnMemory: (n) => n !== "design-reviewer" },
    });
    expect(status.ok && status.value.text).toContain(
      "`design-reviewer` has no tool to write files: it ends with its report, and you write its memory file from that report (its findings as the body, the writer recorded) with `lanes memory write --task s1 --agent design-reviewer --written-by main --phase 1",
    );
    expect(status.ok && status.value.text).not.toContain("It must finish by writing its memory file");
  });
});

describe("phase fields: main session, configuration, script, arguments, completion hook", () => {
  it.each<[string, Record<string, unknown>[], string | undefined]>([
    [
      "phase 0 as a subagent",
      [phase("0", "CLARIFICATION", { type: "LINEAR", agent: "a", runs_in: "subagent", next: null })],
      "phase 0 (clarification) runs in the main session, where the human can answer",
    ],
    [
      "a PARALLEL phase in the main session",
      [
        phase("0", "CLARIFICATION", { type: "LINEAR", agent: "a", next: "1" }),
        phase("1", "BUILD", { type: "PARALLEL", branches: ["b", "c"], runs_in: "main", next: null }),
      ],
      "a PARALLEL phase cannot run in the main session",
    ],
    [
      "an AUTO phase in the main session",
      [
        phase("0", "CLARIFICATION", { type: "LINEAR", agent: "a", next: "1" }),
        phase("1", "AGG", { type: "AUTO", runs_in: "main", next: null }),
      ],
      "an AUTO phase cannot run in the main session",
    ],
    [
      "a script that is not a file name",
      [phase("0", "CLARIFICATION", { type: "LINEAR", agent: "a", script: "../x.sh", next: null })],
      "a phase script is a file name in the skill's `resources/` folder, e.g. `check-links.mjs`",
    ],
    [
      "configuration and a script",
      [
        phase("0", "CLARIFICATION", {
          type: "LINEAR",
          agent: "a",
          configuration: { coverage: 80 },
          script: "check.mjs",
          next: null,
        }),
      ],
      undefined,
    ],
  ])("%s", (_name, list, problem) => {
    const checked = checkPhases("demo", list);
    expect(
      checked.ok
        ? undefined
        : checked.issues[0]!.message.replace(/^the phases of skill `demo` are invalid: (\S+: )?/, ""),
    ).toBe(problem);
  });

  it("prints the configuration and names the phase script", () => {
    const checked = checkPhases("demo", [
      phase("0", "CLARIFICATION", { type: "LINEAR", agent: "a", next: "1" }),
      phase("1", "CHECK", {
        type: "LINEAR",
        agent: "b",
        configuration: { coverage: 80 },
        script: "check.mjs",
        next: null,
      }),
    ]);
    if (!checked.ok) throw new Error("invalid");
    const state = { ...startState("demo", "t1", NOW, "run-1"), current_phase: "1" };
    const text = renderTransition("demo", "t1", checked.value, [checked.value[1]!], state);
    expect(text).toContain('Configuration: {"coverage":80}');
    expect(text).toContain("First run the phase script `check.mjs` from the skill's `resources/` folder");
    expect(text).toContain("--phase 1 --run run-1");
  });

  const specs = [
    { name: "depth", default: "standard", choices: ["quick", "standard", "comprehensive"] },
    { name: "audience" },
  ];
  it.each<[string[], Record<string, string> | string]>([
    [[], { depth: "standard" }],
    [["depth=quick"], { depth: "quick" }],
    [["audience=ops", "depth=comprehensive"], { depth: "comprehensive", audience: "ops" }],
    [["depth=deep"], "`depth` is one of quick, standard, comprehensive, received `deep`"],
    [["colour=red"], "skill `demo` has no argument `colour`: it takes `depth`, `audience`"],
    [["depth"], "`--arg depth` has no value: write `--arg depth=<value>`"],
  ])("arguments %j", (given, expected) => {
    const r = resolveArguments("demo", specs, given);
    expect(r.ok ? r.value : r.issues[0]!.message).toEqual(expected);
  });

  it("stores the arguments in the run and shows them to every phase", () => {
    const p = tempProject();
    try {
      const started = startPhases(
        p.dir,
        "demo",
        phases,
        "t1",
        { args: ["depth=quick"], argumentSpecs: specs },
        { now: steppingClock() },
      );
      expect(started.ok && started.value.state.arguments).toEqual({ depth: "quick" });
      expect(started.ok && started.value.text).toMatch(/^Arguments of this run: depth=quick\n/);
      const refused = startPhases(p.dir, "demo", phases, "t2", { args: ["depth=deep"], argumentSpecs: specs });
      expect(refused.ok).toBe(false);
      expect(existsSync(join(p.dir, ".claude", "state", "phases", "demo--t2.json"))).toBe(false);
    } finally {
      p.cleanup();
    }
  });

  it("runs the completion hook: memory files moved aside, the next directive printed", () => {
    const p = tempProject();
    try {
      const two = checkPhases("demo", [phase("0", "CLARIFICATION", { type: "LINEAR", agent: "a", next: null })]);
      if (!two.ok) throw new Error("invalid");
      const deps = { now: steppingClock() };
      startPhases(p.dir, "demo", two.value, "t1", {}, deps);
      const s = readJson(join(p.dir, ".claude", "state", "phases", "demo--t1.json")) as PhaseState;
      writeMemory(p.dir, { taskId: "t1", agent: "a", phase: "0", run: s.run_id!, summary: "done", body: "x" });
      advancePhase(p.dir, "demo", two.value, "t1", {}, deps);
      const done = completePhases(p.dir, "demo", two.value, "t1", deps, {
        archive_memory: true,
        directive: "tell the human where it is",
      });
      expect(done.ok && done.value.text).toMatch(
        /DEMO_COMPLETE\n\nThe memory files of this run were moved aside \(`\*\.completed-\d{8}T\d{6}Z`\)\.\n\nNEXT: tell the human where it is\n$/,
      );
      expect(readdirSync(join(p.dir, ".claude", "memory")).filter((n) => n.startsWith("t1--a-memory.md"))).toEqual([
        expect.stringMatching(/^t1--a-memory\.md\.completed-/),
      ]);
    } finally {
      p.cleanup();
    }
  });

  it.each<[string, string, { capture_learnings?: boolean }, boolean]>([
    ["offers to capture learnings after a run", "demo", {}, true],
    ["not for a skill that opts out", "demo", { capture_learnings: false }, false],
    ["never for the learnings skill itself (SKILLS_BYPASSING_LEARNINGS)", "develop-learnings", {}, false],
  ])("the learnings hook %s", (_name, skill, onComplete, offered) => {
    const p = tempProject();
    try {
      const one = checkPhases(skill, [phase("0", "CLARIFICATION", { type: "LINEAR", agent: "a", next: null })]);
      if (!one.ok) throw new Error("invalid");
      const deps = { now: steppingClock() };
      startPhases(p.dir, skill, one.value, "t1", {}, deps);
      const s = readJson(join(p.dir, ".claude", "state", "phases", `${skill}--t1.json`)) as PhaseState;
      writeMemory(p.dir, { taskId: "t1", agent: "a", phase: "0", run: s.run_id!, summary: "done", body: "x" });
      advancePhase(p.dir, skill, one.value, "t1", {}, deps);
      const done = completePhases(p.dir, skill, one.value, "t1", deps, onComplete, {
        skill: "/develop-learnings",
        cli: "lanes",
      });
      const line = `LEARNINGS: this run's memory files and phase outputs are the evidence of what it taught. Ask the human whether to capture the learnings now; if yes, invoke \`/develop-learnings\` with task \`t1\` of \`${skill}\` as its scope`;
      if (offered) expect(done.ok && done.value.text).toContain(line);
      else expect(done.ok && done.value.text).not.toContain("LEARNINGS:");
    } finally {
      p.cleanup();
    }
  });

  it("lists runs with where they stand", () => {
    const p = tempProject();
    try {
      expect(renderRuns(listRuns(p.dir).ok ? [] : [])).toBe("no composite skill runs\n");
      startPhases(p.dir, "demo", phases, "t1", {}, { now: steppingClock() });
      mkdirSync(join(p.dir, ".claude", "state", "phases"), { recursive: true });
      writeFileSync(join(p.dir, ".claude", "state", "phases", "broken--x.json"), "{");
      const runs = listRuns(p.dir);
      if (!runs.ok) throw new Error("list failed");
      const text = renderRuns(runs.value);
      expect(text).toMatch(/^broken--x\.json {2}unreadable: /m);
      expect(text).toMatch(
        /^demo {2}task t1 {2}at phase 0 {2}\(0 done; last: phase 0 started 2025-01-02T03:04:05\.000Z\)$/m,
      );
    } finally {
      p.cleanup();
    }
  });
});

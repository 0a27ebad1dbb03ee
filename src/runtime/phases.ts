/**
 * Running composite skills: `lanes phase start|advance|complete|status`. The state machine is
 * pure (phase-state.ts); this module adds the I/O in the order the phase invariants require:
 * every transition is computed and saved under the state file's lock *before* the directive is
 * returned to be printed (invariant 6: crash recovery depends on persisted state), and `advance`
 * verifies the phase's memory files first (blocking).
 *
 * Phase definitions come from a skill definition's `phases` (src/definitions/phases.ts); the
 * functions take them as a parameter, and {@link loadSkillPhases} reads them for the CLI.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import YAML from "yaml";
import { z } from "zod";
import { offersLearnings, SkillArgument, SkillCompletion } from "../definitions/skill.ts";

export { offersLearnings, SKILLS_BYPASSING_LEARNINGS } from "../definitions/skill.ts";
import { KebabName } from "../schema/atoms.ts";
import type { PhaseList } from "../definitions/phases.ts";
import { projectPaths } from "../host/layout.ts";
import { ensureIgnoredDir } from "../io/atomic.ts";
import { compactTimestamp, newId } from "../host/ids.ts";
import { withLockSync, type LockOptions } from "../io/lock.ts";
import { archiveMemory, verifyMemory } from "./memory.ts";
import {
  advanceState,
  checkPhases,
  completeState,
  completionMarker,
  phaseAgents,
  PhaseState,
  renderTransition,
  type PhaseRender,
  startState,
  type AdvanceOptions,
  type Transition,
  type VerifyAgent,
  resolveArguments,
  type ArgumentSpec,
} from "./phase-state.ts";
import { displayOf, phaseStatePath } from "./progress-hot.ts";
import { listStateFiles, readStateFile, writeStateFile, type StateFileOptions } from "./state-file.ts";
import { describeError, fail, nowOf, ok, propagate, randomOf, type Result, type RuntimeDeps } from "../io/result.ts";
import { firstProblem, validatorOf } from "./zod-problem.ts";
import { isoTime } from "../io/time.ts";

/** Dependencies of the phase functions. */
export interface PhaseDeps extends RuntimeDeps {
  /** Lock options (tests shorten timeouts). */
  readonly lock?: LockOptions;
  /** How directives name the CLI and agents for this install (default: `lanes`, bare names). */
  readonly render?: PhaseRender;
  /**
   * The gate's check of who wrote a memory file (`written_by`, absent: the agent itself), from the
   * policy (`writerProblem` of src/policy/memory-lane.ts): a problem, or undefined when it passes.
   * Without it, a file written for an agent by someone else never passes.
   */
  readonly writerCheck?: (agent: string, writtenBy: string | undefined) => string | undefined;
}

/** The gate's writer check without a policy: only the agent itself writes its file. */
const ownWriterOnly = (agent: string, writtenBy: string | undefined): string | undefined =>
  writtenBy === undefined || writtenBy === agent
    ? undefined
    : `it was written by \`${writtenBy}\` for \`${agent}\`, and without the compiled policy lanes cannot tell whether \`${agent}\` may have its memory file written for it`;

/** What a phase command returns: the saved state and the text to print (phase content, then the directive). */
export interface PhaseStep {
  /** The state as saved. */
  readonly state: PhaseState;
  /** What to print. */
  readonly text: string;
}

const validate = validatorOf(PhaseState);

interface Target {
  readonly file: string;
  readonly options: StateFileOptions;
  readonly phases: PhaseList;
}

/** Validates the skill name and its phases, and locates the state file. */
function target(projectDir: string, skill: string, phases: unknown, taskId: string, deps: PhaseDeps): Result<Target> {
  const name = KebabName.safeParse(skill);
  if (!name.success) return fail("invalid-input", `\`${skill}\` is not a skill name: ${firstProblem(name.error)}`);
  if (taskId.trim() === "") return fail("invalid-input", "the task id is empty", { help: "pass `--task <id>`" });
  const list = checkPhases(skill, phases);
  if (!list.ok) return propagate(list);
  const file = phaseStatePath(projectDir, skill, taskId);
  const start = `\`lanes phase start ${skill} --task ${taskId} --force\``;
  return ok({
    file,
    phases: list.value,
    options: {
      display: displayOf(projectDir, file),
      repair: `run ${start} to start over, or fix the file by hand`,
      now: deps.now,
      random: deps.random,
    },
  });
}

/** Reads the run's state; refuses a file that belongs to another run (names can collide after sanitising). */
function readRun(t: Target, skill: string, taskId: string): Result<PhaseState | undefined> {
  const read = readStateFile(t.file, validate, t.options);
  if (!read.ok || read.value === undefined) return read;
  if (read.value.skill !== skill || read.value.task_id !== taskId) {
    return fail(
      "refused",
      `\`${t.options.display}\` belongs to skill \`${read.value.skill}\` for task \`${read.value.task_id}\`, not \`${skill}\` for \`${taskId}\``,
      {
        help: "use a task id made of letters, digits, `.`, `_` and `-` so the file names differ",
      },
    );
  }
  return read;
}

function noRun(skill: string, taskId: string): Result<never> {
  return fail("missing", `skill \`${skill}\` has no run for task \`${taskId}\``, {
    help: `start it with \`lanes phase start ${skill} --task ${taskId}\``,
  });
}

/** Runs `fn` under the state file's lock and flattens the result. */
function locked<T>(t: Target, deps: PhaseDeps, fn: () => Result<T>): Result<T> {
  const result = withLockSync(t.file, fn, deps.lock);
  return result.ok ? result.value : propagate(result);
}

/** Moves the listed memory files aside; stops at the first failure. */
function archiveAll(projectDir: string, taskId: string, archive: Transition["archive"]): Result<void> {
  for (const a of archive) {
    const moved = archiveMemory(projectDir, taskId, a.agent, a.suffix);
    if (!moved.ok) return propagate(moved);
  }
  return ok(undefined);
}

/**
 * Entry: starts a run at phase 0, saves the state, then returns phase 0's content and the
 * directive. Refuses when a run for this skill and task exists (or its file is corrupt) unless
 * `force`; memory files left by earlier runs of the skill's agents for this task are moved aside
 * so they cannot pass a gate.
 */
export function startPhases(
  projectDir: string,
  skill: string,
  phases: unknown,
  taskId: string,
  options: {
    readonly force?: boolean;
    readonly args?: readonly string[];
    readonly argumentSpecs?: readonly ArgumentSpec[];
  } = {},
  deps: PhaseDeps = {},
): Result<PhaseStep> {
  const t = target(projectDir, skill, phases, taskId, deps);
  if (!t.ok) return propagate(t);
  const args = resolveArguments(skill, options.argumentSpecs ?? [], options.args ?? []);
  if (!args.ok) return propagate(args);
  return locked(t.value, deps, () => {
    const existing = readRun(t.value, skill, taskId);
    if (!existing.ok && !(options.force === true && existing.issues[0]?.code === "corrupt")) return propagate(existing);
    if (existing.ok && existing.value !== undefined && options.force !== true) {
      const s = existing.value;
      const at = s.current_phase === null ? s.status : `at phase ${s.current_phase}`;
      return fail("refused", `skill \`${skill}\` already has a run for task \`${taskId}\` (${at})`, {
        help: `run \`lanes phase status ${skill} --task ${taskId}\` to see its directive, or add \`--force\` to start over`,
      });
    }
    const now = nowOf(deps);
    const agents = [...new Set(t.value.phases.flatMap(phaseAgents))];
    const archived = archiveAll(
      projectDir,
      taskId,
      agents.map((agent) => ({ agent, suffix: `before-${compactTimestamp(now)}` })),
    );
    if (!archived.ok) return propagate(archived);
    const state = startState(skill, taskId, isoTime(now), newId("run", now, randomOf(deps)), args.value);
    ensureIgnoredDir(projectPaths(projectDir).state, "lanes runtime state");
    const saved = writeStateFile(t.value.file, state, t.value.options.display);
    if (!saved.ok) return propagate(saved);
    const first = t.value.phases.find((p) => p.id === "0")!;
    return ok({ state, text: renderTransition(skill, taskId, t.value.phases, [first], state, deps.render) });
  });
}

/**
 * Advance: verifies the current phase's memory files (blocking: refused with the reason), or
 * skips / retries it, moves along `next` (completing AUTO phases), saves the state, then returns
 * the next phase's content and directive.
 */
export function advancePhase(
  projectDir: string,
  skill: string,
  phases: unknown,
  taskId: string,
  options: AdvanceOptions = {},
  deps: PhaseDeps = {},
): Result<PhaseStep> {
  const t = target(projectDir, skill, phases, taskId, deps);
  if (!t.ok) return propagate(t);
  return locked(t.value, deps, () => {
    const read = readRun(t.value, skill, taskId);
    if (!read.ok) return propagate(read);
    if (read.value === undefined) return noRun(skill, taskId);
    const run = read.value.run_id;
    const verify: VerifyAgent = (agent, phase, since) => {
      const m = verifyMemory(
        projectDir,
        taskId,
        agent,
        { phase: phase.id, since, ...(run === undefined ? {} : { run }) },
        deps,
      );
      if (!m.ok) return propagate<never>(m);
      const problem = (deps.writerCheck ?? ownWriterOnly)(agent, m.value.frontmatter.written_by);
      if (problem !== undefined)
        return fail("verify-failed", `\`${m.value.display}\` does not pass: ${problem}`, {
          help: "write it again as the phase directive shows",
        });
      return ok({
        display: m.value.display,
        summary: m.value.frontmatter.summary,
        artifacts: m.value.frontmatter.artifacts,
        ...(m.value.frontmatter.written_by === undefined ? {} : { writtenBy: m.value.frontmatter.written_by }),
      });
    };
    const moved = advanceState(read.value, t.value.phases, options, verify, isoTime(nowOf(deps)));
    if (!moved.ok) return propagate(moved);
    const archived = archiveAll(projectDir, taskId, moved.value.archive);
    if (!archived.ok) return propagate(archived);
    const saved = writeStateFile(t.value.file, moved.value.state, t.value.options.display);
    if (!saved.ok) return propagate(saved);
    return ok({
      state: moved.value.state,
      text: renderTransition(skill, taskId, t.value.phases, moved.value.entered, moved.value.state, deps.render),
    });
  });
}

/**
 * Completion: checks that every phase was completed or skipped, aggregates the phase outputs,
 * saves the completed state, then returns the summary ending with `<SKILL>_COMPLETE`.
 */
export function completePhases(
  projectDir: string,
  skill: string,
  phases: unknown,
  taskId: string,
  deps: PhaseDeps = {},
  onComplete: {
    readonly archive_memory?: boolean;
    readonly directive?: string | undefined;
    readonly capture_learnings?: boolean;
  } = {},
  learnings: { readonly skill: string; readonly cli: string } | undefined = undefined,
): Result<PhaseStep> {
  const t = target(projectDir, skill, phases, taskId, deps);
  if (!t.ok) return propagate(t);
  return locked(t.value, deps, () => {
    const read = readRun(t.value, skill, taskId);
    if (!read.ok) return propagate(read);
    if (read.value === undefined) return noRun(skill, taskId);
    const now = nowOf(deps);
    const done = completeState(read.value, t.value.phases, isoTime(now));
    if (!done.ok) return propagate(done);
    const saved = writeStateFile(t.value.file, done.value.state, t.value.options.display);
    if (!saved.ok) return propagate(saved);
    // the skill's completion hook: memory files it consumed are moved aside
    const notes: string[] = [];
    if (onComplete.archive_memory === true) {
      const agents = [...new Set(t.value.phases.flatMap(phaseAgents))];
      const archived = archiveAll(
        projectDir,
        taskId,
        agents.map((agent) => ({ agent, suffix: `completed-${compactTimestamp(now)}` })),
      );
      notes.push(
        archived.ok
          ? `The memory files of this run were moved aside (\`*.completed-${compactTimestamp(now)}\`).`
          : `The memory files could not be moved aside: ${archived.issues[0]!.message}`,
      );
    }
    if (onComplete.directive !== undefined) notes.push(`NEXT: ${onComplete.directive.trim()}`);
    if (learnings !== undefined && offersLearnings(skill, onComplete))
      notes.push(
        `LEARNINGS: this run's memory files and phase outputs are the evidence of what it taught. Ask the human whether to capture the learnings now; if yes, invoke \`${learnings.skill}\` with task \`${taskId}\` of \`${skill}\` as its scope (\`${learnings.cli} phase status ${skill} --task ${taskId} --json\` holds the outputs). If not, say they can run it later.`,
      );
    const text = `# ${skill} complete for task \`${taskId}\`\n\n${done.value.summary}\n\n${completionMarker(skill)}\n${notes.length === 0 ? "" : `\n${notes.join("\n\n")}\n`}`;
    return ok({ state: done.value.state, text });
  });
}

/** Where a run stands, with the current phase's content and directive again (for a session that lost them). */
export function phaseStatus(
  projectDir: string,
  skill: string,
  phases: unknown,
  taskId: string,
  deps: PhaseDeps = {},
): Result<PhaseStep> {
  const t = target(projectDir, skill, phases, taskId, deps);
  if (!t.ok) return propagate(t);
  const read = readRun(t.value, skill, taskId);
  if (!read.ok) return propagate(read);
  if (read.value === undefined) return noRun(skill, taskId);
  const state = read.value;
  if (state.status === "completed") {
    return ok({
      state,
      text: `skill \`${skill}\` for task \`${taskId}\` is completed (${state.completed_at ?? state.updated_at})\n`,
    });
  }
  const current = t.value.phases.find((p) => p.id === state.current_phase);
  return ok({
    state,
    text: renderTransition(skill, taskId, t.value.phases, current === undefined ? [] : [current], state, deps.render),
  });
}

/**
 * Reads the `phases` of skill `skill` for the CLI: `.claude/lanes/skills/<skill>/skill.yaml`, else
 * `definitions/skills/<skill>/skill.yaml` (this repository's layout). Only `phases` is validated;
 * the rest of the skill file belongs to the generator.
 */
export function loadSkillPhases(projectDir: string, skill: string, packSkillsDir?: string): Result<PhaseList> {
  const loaded = loadComposite(projectDir, skill, packSkillsDir);
  return loaded.ok ? ok(loaded.value.phases) : loaded;
}

/** A composite skill as the CLI runs it: its phases, extra arguments and completion hook. */
export interface Composite {
  readonly phases: PhaseList;
  readonly arguments: readonly z.infer<typeof SkillArgument>[];
  readonly onComplete: z.infer<typeof SkillCompletion> | undefined;
}

/** {@link loadSkillPhases} with the skill's `arguments` and `on_complete`. */
export function loadComposite(projectDir: string, skill: string, packSkillsDir?: string): Result<Composite> {
  const name = KebabName.safeParse(skill);
  if (!name.success) return fail("invalid-input", `\`${skill}\` is not a skill name: ${firstProblem(name.error)}`);
  // the project's own definitions first, then the pack's (a plugin install has no copy in the project)
  const candidates = [
    join(projectPaths(projectDir).skillDefinitions, skill, "skill.yaml"),
    join(projectDir, "definitions", "skills", skill, "skill.yaml"),
    ...(packSkillsDir === undefined ? [] : [join(packSkillsDir, skill, "skill.yaml")]),
  ];
  for (const file of candidates) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      return fail("io", `cannot read \`${displayOf(projectDir, file)}\`: ${describeError(error)}`, { file });
    }
    let doc: unknown;
    try {
      doc = YAML.parse(text, { prettyErrors: true, strict: true, uniqueKeys: true });
    } catch (error) {
      return fail(
        "invalid-input",
        `\`${displayOf(projectDir, file)}\` is not valid YAML: ${describeError(error).replace(/^[A-Z]/, (c) => c.toLowerCase())}`,
        { file },
      );
    }
    const phases = typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>).phases : undefined;
    if (phases === undefined) {
      return fail(
        "invalid-input",
        `skill \`${skill}\` has no \`phases\` in \`${displayOf(projectDir, file)}\`: it is not a composite skill`,
        { file },
      );
    }
    const checked = checkPhases(skill, phases);
    if (!checked.ok) return { ok: false, issues: checked.issues.map((i) => ({ ...i, file })) };
    const record = doc as Record<string, unknown>;
    const args = z.array(SkillArgument).default([]).safeParse(record.arguments);
    if (!args.success)
      return fail("invalid-input", `the arguments of skill \`${skill}\` are invalid: ${firstProblem(args.error)}`, {
        file,
      });
    const completion = SkillCompletion.optional().safeParse(record.on_complete);
    if (!completion.success)
      return fail(
        "invalid-input",
        `the \`on_complete\` of skill \`${skill}\` is invalid: ${firstProblem(completion.error)}`,
        { file },
      );
    return ok({ phases: checked.value, arguments: args.data, onComplete: completion.data });
  }
  return fail(
    "missing",
    `skill \`${skill}\` has no definition: looked for ${candidates.map((c) => `\`${displayOf(projectDir, c)}\``).join(" and ")}`,
    {
      help: "check the skill name, or add its definition",
    },
  );
}

/** One run in {@link listRuns}: its state, or the file with its problem. */
export type RunListing =
  | { readonly file: string; readonly ok: true; readonly state: PhaseState }
  | { readonly file: string; readonly ok: false; readonly problem: string };

/** Every composite-skill run of the project (`lanes phase list`), oldest first; unreadable files with their problem. */
export function listRuns(projectDir: string): Result<RunListing[]> {
  const dir = projectPaths(projectDir).phases;
  const listed = listStateFiles(dir, displayOf(projectDir, dir));
  if (!listed.ok) return propagate(listed);
  const names = listed.value;
  const out: RunListing[] = names.map((file) => {
    const read = readStateFile(join(dir, file), validate, { display: file, repair: "", backup: false });
    if (!read.ok) return { file, ok: false, problem: read.issues[0]!.message };
    return read.value === undefined
      ? { file, ok: false, problem: "removed while listing" }
      : { file, ok: true, state: read.value };
  });
  const time = (r: RunListing): string => (r.ok ? r.state.started_at : "");
  return ok(out.sort((a, b) => time(a).localeCompare(time(b)) || a.file.localeCompare(b.file)));
}

/** One line per run: skill, task, where it stands, the last event (pure). */
export function renderRuns(runs: readonly RunListing[]): string {
  if (runs.length === 0) return "no composite skill runs\n";
  return `${runs
    .map((r) => {
      if (!r.ok) return `${r.file}  unreadable: ${r.problem}`;
      const s = r.state;
      const where =
        s.status === "completed"
          ? "completed"
          : s.current_phase === null
            ? "all phases done, run `phase complete`"
            : `at phase ${s.current_phase}`;
      const last = s.history.at(-1);
      const done = `${s.completed_phases.length} done${s.skipped_phases.length > 0 ? `, ${s.skipped_phases.length} skipped` : ""}`;
      return `${s.skill}  task ${s.task_id}  ${where}  (${done}; last: phase ${last?.phase ?? "?"} ${last?.event ?? "?"} ${last?.at ?? ""})`;
    })
    .join("\n")}\n`;
}

/**
 * Memory files: `.claude/memory/{task_id}-{agent}-memory.md`, what an agent leaves behind when it
 * finishes its part of a task (composite skills invariant 7: memory files track agent outputs).
 * Markdown with YAML frontmatter, parsed only through src/markdown/frontmatter.ts (locked-down
 * gray-matter) and validated with zod. `verify` is the phase gate: `lanes phase advance` refuses
 * to move on until the phase's agent has a complete memory file.
 */
import { existsSync, readdirSync, renameSync, statSync } from "node:fs";
import { readState } from "../io/read.ts";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { projectPaths } from "../host/layout.ts";
import { parseFrontmatter, renderFrontmatter } from "../markdown/frontmatter.ts";
import { atomicWriteFile, ensureIgnoredDir, sweepStaleTemps } from "../io/atomic.ts";
import { fileKey, safeId } from "../host/ids.ts";
import { memoryFileName, parseMemoryFileName } from "../host/memory-name.ts";
import { pidIsAlive } from "../io/lock.ts";
import { keepBackup } from "./state-file.ts";

export { memoryFileName, parseMemoryFileName } from "../host/memory-name.ts";
import { displayOf } from "./progress-hot.ts";
import { describeError, fail, nowOf, ok, type Result, type RuntimeDeps } from "../io/result.ts";
import { firstProblem } from "./zod-problem.ts";
import { isoTime } from "../io/time.ts";

/** How the agent's work ended. */
export const MemoryStatus = z
  .enum(["complete", "partial", "failed"])
  .describe("complete: done, the phase may advance; partial: unfinished; failed: gave up");
export type MemoryStatus = z.infer<typeof MemoryStatus>;

/** An id written by hand may come out of YAML as a number (`task_id: 42`); it is the same id. */
const IdText = z.union([z.string().min(1), z.number()]).transform(String);

/** The frontmatter of a memory file. */
export const MemoryFrontmatter = z.looseObject({
  task_id: IdText.describe("The task this memory belongs to."),
  agent: z.string().min(1).describe("The agent whose output it is (whose phase gate it passes)."),
  written_by: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Who wrote it when not the agent itself: `main` (the main session) or the agent that started it, from the agent's report. Only agents without a tool to write files have their memory file written for them; absent: the agent wrote it.",
    ),
  phase: IdText.optional().describe("The composite-skill phase it was written for, e.g. `1` or `0_5`."),
  run: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The composite-skill run it was written for (`run_id` of the phase state); the gate refuses a file of another run.",
    ),
  status: MemoryStatus,
  created: z.string().min(1).describe("When it was written, ISO 8601."),
  summary: z.string().min(1).describe("One or two sentences: what the agent found or did."),
  artifacts: z.array(z.string()).default([]).describe("Files the agent created or modified."),
});
export type MemoryFrontmatter = z.infer<typeof MemoryFrontmatter>;

/** A memory file read from disk. */
export interface MemoryFile {
  /** Absolute path. */
  readonly path: string;
  /** Path relative to the project, for messages. */
  readonly display: string;
  /** The validated frontmatter. */
  readonly frontmatter: MemoryFrontmatter;
  /** The markdown after the frontmatter. */
  readonly body: string;
}

/** Where the memory file of `agent` for `taskId` lives (see {@link memoryFileName}). */
export function memoryPath(projectDir: string, taskId: string, agent: string): string {
  return join(projectPaths(projectDir).memory, memoryFileName(taskId, agent));
}

/** Longest file-name key of a task id or agent name (file names stay far below 255 bytes). */
const MAX_KEY = 160;

function checkIds(taskId: string, agent: string): Result<void> {
  if (taskId.trim() === "" || agent.trim() === "")
    return fail("invalid-input", "the task id and the agent name must not be empty");
  for (const [what, id] of [
    ["task id", taskId],
    ["agent name", agent],
  ] as const) {
    if (fileKey(id).length > MAX_KEY)
      return fail("invalid-input", `the ${what} \`${id.slice(0, 40)}…\` is too long for a file name`, {
        help: "use a shorter id",
      });
  }
  return ok(undefined);
}

/** Input of {@link writeMemory}. */
export interface MemoryInput {
  /** The task id. */
  readonly taskId: string;
  /** The agent whose output it is. */
  readonly agent: string;
  /** Who writes it, when not the agent itself (`main`, or the agent that started it). */
  readonly writtenBy?: string;
  /** The phase, for composite skills. */
  readonly phase?: string;
  /** The composite-skill run (`run_id`), as the phase directive passes it. */
  readonly run?: string;
  /** Default `complete`. */
  readonly status?: MemoryStatus;
  /** One or two sentences. */
  readonly summary: string;
  /** Files created or modified. */
  readonly artifacts?: readonly string[];
  /** The findings, markdown. */
  readonly body: string;
}

/** Writes (or replaces) a memory file atomically; refuses an empty summary or body. */
export function writeMemory(projectDir: string, input: MemoryInput, deps: RuntimeDeps = {}): Result<MemoryFile> {
  const ids = checkIds(input.taskId, input.agent);
  if (!ids.ok) return ids;
  const path = memoryPath(projectDir, input.taskId, input.agent);
  const display = displayOf(projectDir, path);
  if (input.body.trim() === "") {
    return fail(
      "invalid-input",
      `the memory body for \`${input.agent}\` is empty: the next phase reads the findings from it`,
      {
        help: "pass the findings with `--body`, `--body-file FILE` or `--body-file -` (stdin)",
      },
    );
  }
  const data = {
    task_id: input.taskId,
    agent: input.agent,
    ...(input.writtenBy === undefined || input.writtenBy === input.agent ? {} : { written_by: input.writtenBy }),
    ...(input.phase === undefined ? {} : { phase: input.phase }),
    ...(input.run === undefined ? {} : { run: input.run }),
    status: input.status ?? "complete",
    created: isoTime(nowOf(deps)),
    summary: input.summary,
    artifacts: [...(input.artifacts ?? [])],
  };
  const parsed = MemoryFrontmatter.safeParse(data);
  if (!parsed.success) return fail("invalid-input", `cannot write \`${display}\`: ${firstProblem(parsed.error)}`);
  try {
    ensureIgnoredDir(projectPaths(projectDir).memory, "lanes memory files");
    // temporaries of writers killed mid-write (real file times, so the real clock)
    sweepStaleTemps(path, { now: Date.now(), isAlive: pidIsAlive });
    atomicWriteFile(path, renderFrontmatter(data, input.body.endsWith("\n") ? input.body : `${input.body}\n`));
  } catch (error) {
    return fail("io", `cannot write \`${display}\`: ${describeError(error)}`, { file: path });
  }
  return ok({ path, display, frontmatter: parsed.data, body: input.body });
}

/**
 * What the phase gate expects of a memory file: its task and agent, and for a composite-skill
 * phase also the phase id, the run, and that it was written after the phase started.
 */
export interface MemoryExpectation {
  readonly taskId: string;
  readonly agent: string;
  /** The phase it must have been written for. */
  readonly phase?: string;
  /** The run (`run_id` of the phase state) it must have been written for. */
  readonly run?: string;
  /** ISO time the phase (this run of it) started: the file must be written at or after it. */
  readonly since?: string;
}

/**
 * Checks the text of a memory file (pure). With `expect`, also that it belongs to that task and
 * agent (and phase, run and time), is `complete` and has a body: the phase gate. Each failure
 * says precisely what is wrong.
 */
export function inspectMemory(
  text: string,
  display: string,
  expect?: MemoryExpectation,
): Result<{ frontmatter: MemoryFrontmatter; body: string }> {
  const parsed = parseFrontmatter(text);
  if (!parsed.ok)
    return fail("verify-failed", `\`${display}\` has unreadable frontmatter: ${parsed.message.replace(/:$/, "")}`, {
      help: "rewrite it with `lanes memory write`",
    });
  if (!parsed.value.present) {
    return fail(
      "verify-failed",
      `\`${display}\` has no frontmatter: a memory file starts with a \`---\` block of task_id, agent, status, created and summary`,
      {
        help: "rewrite it with `lanes memory write`",
      },
    );
  }
  const fm = MemoryFrontmatter.safeParse(parsed.value.data);
  if (!fm.success)
    return fail("verify-failed", `\`${display}\` frontmatter: ${firstProblem(fm.error)}`, {
      help: "fix the frontmatter or rewrite it with `lanes memory write`",
    });
  const value = { frontmatter: fm.data, body: parsed.value.body };
  if (expect === undefined) return ok(value);
  const rewrite = `have \`${expect.agent}\` write it again with \`lanes memory write\` as the phase directive shows`;
  if (fm.data.task_id !== expect.taskId)
    return fail("verify-failed", `\`${display}\` is for task \`${fm.data.task_id}\`, not \`${expect.taskId}\``, {
      help: rewrite,
    });
  if (fm.data.agent !== expect.agent)
    return fail("verify-failed", `\`${display}\` was written by \`${fm.data.agent}\`, not \`${expect.agent}\``, {
      help: rewrite,
    });
  if (expect.phase !== undefined && fm.data.phase !== expect.phase) {
    const was = fm.data.phase === undefined ? "names no phase" : `was written for phase \`${fm.data.phase}\``;
    return fail(
      "verify-failed",
      `\`${display}\` ${was}, not phase \`${expect.phase}\`: it is not this phase's output`,
      { help: rewrite },
    );
  }
  if (expect.run !== undefined && fm.data.run !== expect.run) {
    const was = fm.data.run === undefined ? "names no run" : `belongs to run \`${fm.data.run}\``;
    return fail(
      "verify-failed",
      `\`${display}\` ${was}, not the current run \`${expect.run}\`: it is left from another run or written by hand`,
      { help: rewrite },
    );
  }
  if (expect.since !== undefined) {
    const created = Date.parse(fm.data.created);
    if (!Number.isFinite(created) || created < Date.parse(expect.since)) {
      return fail(
        "verify-failed",
        `\`${display}\` was created ${fm.data.created}, before phase \`${expect.phase ?? "?"}\` started (${expect.since}): it is stale`,
        { help: rewrite },
      );
    }
  }
  if (fm.data.status !== "complete") {
    return fail(
      "verify-failed",
      `\`${display}\` has status \`${fm.data.status}\`: \`${expect.agent}\` did not finish: ${fm.data.summary}`,
      {
        help: "run the phase's agent again until it writes status `complete`",
      },
    );
  }
  if (parsed.value.body.trim() === "") {
    return fail(
      "verify-failed",
      `\`${display}\` has an empty body: the agent must write its findings below the frontmatter`,
      {
        help: "run the phase's agent again, or add the findings with `lanes memory write`",
      },
    );
  }
  return ok(value);
}

/** A memory file that does not parse is kept as `<file>.corrupt-<timestamp>` before it is reported (never overwritten silently). */
function withBackup<T>(path: string, text: string, result: Result<T>, deps: RuntimeDeps): Result<T> {
  if (result.ok || !/unreadable frontmatter|no frontmatter|frontmatter:/.test(result.issues[0]!.message)) return result;
  const kept = keepBackup(path, text, nowOf(deps));
  if (kept === undefined) return result;
  const issue = result.issues[0]!;
  return {
    ok: false,
    issues: [
      { ...issue, message: `${issue.message}; a copy was kept as \`${basename(kept)}\`` },
      ...result.issues.slice(1),
    ],
  };
}

function readText(path: string, display: string, taskId: string, agent: string): Result<string> {
  try {
    return ok(readState(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      // earlier lanes named the file `{task}-{agent}-memory.md` (ambiguous): say so instead of only "missing"
      const legacy = join(dirname(path), `${safeId(taskId)}-${safeId(agent)}-memory.md`);
      const old = existsSync(legacy)
        ? `; \`${basename(legacy)}\` has the old, ambiguous naming \`{task}-{agent}-memory.md\` and is not read: write it again`
        : "";
      return fail("missing", `\`${display}\` does not exist: \`${agent}\` has not written its memory file${old}`, {
        help: "run the agent and have it finish with `lanes memory write`",
        file: path,
      });
    }
    return fail("io", `cannot read \`${display}\`: ${describeError(error)}`, { file: path });
  }
}

/** Reads and validates a memory file (without the gate checks). */
export function readMemory(
  projectDir: string,
  taskId: string,
  agent: string,
  deps: RuntimeDeps = {},
): Result<MemoryFile> {
  const ids = checkIds(taskId, agent);
  if (!ids.ok) return ids;
  const path = memoryPath(projectDir, taskId, agent);
  const display = displayOf(projectDir, path);
  const text = readText(path, display, taskId, agent);
  if (!text.ok) return text;
  const inspected = withBackup(path, text.value, inspectMemory(text.value, display), deps);
  return inspected.ok ? ok({ path, display, ...inspected.value }) : inspected;
}

/**
 * The phase gate: the memory file exists, its frontmatter is valid, it belongs to `taskId` and
 * `agent` (and to the phase, run and time of `expect`), its status is `complete` and its body is
 * not empty. A missing file is `verify-failed` too (with the same precise reason). A file whose
 * frontmatter does not parse is kept as a `.corrupt-<timestamp>` copy.
 */
export function verifyMemory(
  projectDir: string,
  taskId: string,
  agent: string,
  expect: Omit<MemoryExpectation, "taskId" | "agent"> = {},
  deps: RuntimeDeps = {},
): Result<MemoryFile> {
  const ids = checkIds(taskId, agent);
  if (!ids.ok) return ids;
  const path = memoryPath(projectDir, taskId, agent);
  const display = displayOf(projectDir, path);
  const text = readText(path, display, taskId, agent);
  if (!text.ok)
    return {
      ok: false,
      issues: text.issues.map((i) => (i.code === "missing" ? { ...i, code: "verify-failed" as const } : i)),
    };
  const inspected = withBackup(
    path,
    text.value,
    inspectMemory(text.value, display, { ...expect, taskId, agent }),
    deps,
  );
  return inspected.ok ? ok({ path, display, ...inspected.value }) : inspected;
}

/** One memory file in a listing: valid, or with its problem. */
export type MemoryListing =
  | { readonly file: string; readonly ok: true; readonly frontmatter: MemoryFrontmatter }
  | { readonly file: string; readonly ok: false; readonly problem: string };

/** Lists memory files (optionally of one task), sorted by name. A missing memory directory is an empty list. */
export function listMemory(projectDir: string, filter: { readonly taskId?: string } = {}): Result<MemoryListing[]> {
  const dir = projectPaths(projectDir).memory;
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith("-memory.md"))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return ok([]);
    return fail("io", `cannot list \`${displayOf(projectDir, dir)}\`: ${describeError(error)}`);
  }
  const out: MemoryListing[] = [];
  for (const name of names) {
    let text: string;
    try {
      text = readState(join(dir, name));
    } catch (error) {
      out.push({ file: name, ok: false, problem: describeError(error) });
      continue;
    }
    const inspected = inspectMemory(text, name);
    if (!inspected.ok) {
      if (filter.taskId === undefined || parseMemoryFileName(name)?.taskId === filter.taskId)
        out.push({ file: name, ok: false, problem: inspected.issues[0]!.message });
      continue;
    }
    if (filter.taskId !== undefined && inspected.value.frontmatter.task_id !== filter.taskId) continue;
    out.push({ file: name, ok: true, frontmatter: inspected.value.frontmatter });
  }
  return ok(out);
}

/**
 * Moves a memory file aside (`…-memory.md.<suffix>`, e.g. `.iteration-1`) so a phase that runs
 * again must produce a fresh one. Returns the new path, or undefined when there was no file.
 */
export function archiveMemory(
  projectDir: string,
  taskId: string,
  agent: string,
  suffix: string,
): Result<string | undefined> {
  const path = memoryPath(projectDir, taskId, agent);
  const target = `${path}.${safeId(suffix)}`;
  try {
    renameSync(path, target);
    return ok(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return ok(undefined);
    return fail("io", `cannot move \`${displayOf(projectDir, path)}\` aside: ${describeError(error)}`, { file: path });
  }
}

/**
 * Task constraints on the hot path, from two sources:
 *
 * - the progress file (`next_step.expert` and `next_step.constraints`), for every agent of the
 *   type it names, checked structurally. A missing file means no such constraints; a file that
 *   cannot be read or used is a problem, and the guard fails closed for subagents' mutating calls
 *   (constraints it cannot read might narrow them), see {@link taskConstraintsChecked};
 * - the constraint block of the Agent call that started one subagent instance (task-block.ts),
 *   read from the subagent's own transcript, whose first user message is exactly that prompt
 *   (Claude Code 2.1.330, reference C.4), and cached per `agent_id` in the agent tree.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { dirname, join } from "node:path";
import { compilePathGlob } from "../../globs/compile.ts";
import type { CompiledGlob } from "../../globs/types.ts";
import { baseAgentName, type TaskConstraints } from "../../policy/lanes.ts";
import { FIXTURE_GLOBS, parseTaskBlock, type TaskBlock } from "../../policy/task-block.ts";
import type { RawProgress } from "../../runtime/progress-hot.ts";
import type { Result } from "../../io/result.ts";
import type { AgentTreeFile } from "../state/agent-tree.ts";

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : undefined;

/** The task constraints, or the problem that keeps them from being read. */
export interface CheckedTaskConstraints {
  readonly task?: TaskConstraints;
  /** Why the progress file's constraints cannot be read (one clause naming the file). */
  readonly problem?: string;
}

/** The task constraints of a progress file as read by readProgressRaw, or why they cannot be used. */
export function taskConstraintsChecked(
  read: Result<RawProgress | undefined>,
  caseInsensitive: boolean,
): CheckedTaskConstraints {
  if (!read.ok) return { problem: read.issues.map((i) => i.message).join("; ") };
  const c = (read.value as { next_step?: { constraints?: Record<string, unknown> } | null } | undefined)?.next_step
    ?.constraints;
  if (c !== null && c !== undefined && typeof c === "object") {
    const bad = (["write_paths", "tools"] as const).find((k) => c[k] !== undefined && strings(c[k]) === undefined);
    if (bad !== undefined)
      return { problem: `the progress file has \`next_step.constraints.${bad}\` that is not a list of strings` };
  }
  const task = taskConstraintsOf(read.value, caseInsensitive);
  return task === undefined ? {} : { task };
}

/** The task constraints of the current step of `raw` (from progressForHooks). */
export function taskConstraintsOf(raw: RawProgress | undefined, caseInsensitive: boolean): TaskConstraints | undefined {
  if (raw === undefined) return undefined;
  const progress = raw as {
    status?: unknown;
    next_step?: { step?: unknown; expert?: unknown; constraints?: Record<string, unknown> } | null;
  };
  if (progress.status === "completed" || progress.status === "failed") return undefined;
  const next = progress.next_step;
  if (next === null || next === undefined || typeof next.expert !== "string") return undefined;
  const c = next.constraints;
  if (c === null || c === undefined || typeof c !== "object") return undefined;
  const writePaths = strings(c["write_paths"]);
  const tools = strings(c["tools"]);
  const readOnly = c["read_only"] === true;
  if (writePaths === undefined && tools === undefined && !readOnly) return undefined;
  return {
    agent: next.expert.slice(next.expert.lastIndexOf(":") + 1),
    step: typeof next.step === "number" ? next.step : undefined,
    writePaths: writePaths?.map((g) => compilePathGlob(g, { caseInsensitive })),
    tools,
    readOnly,
  };
}

/** Fixture and snapshot globs, compiled once per process. */
let fixtureGlobs: { ci: boolean; globs: CompiledGlob[] } | undefined;

/** A parsed constraint block as the task constraints of one subagent instance. */
export function compileTaskBlock(
  block: TaskBlock,
  agentType: string,
  agentId: string,
  caseInsensitive: boolean,
): TaskConstraints {
  const compile = (g: string) => compilePathGlob(g, { caseInsensitive });
  if (block.fixtures && (fixtureGlobs === undefined || fixtureGlobs.ci !== caseInsensitive))
    fixtureGlobs = { ci: caseInsensitive, globs: FIXTURE_GLOBS.map(compile) };
  return {
    agent: baseAgentName(agentType),
    agentId,
    step: undefined,
    source: `task of ${baseAgentName(agentType)} agent ${agentId}`,
    writePaths: block.onlyPaths.length > 0 ? block.onlyPaths.map(compile) : undefined,
    ...(block.forbiddenPaths.length > 0 && { forbiddenPaths: block.forbiddenPaths.map(compile) }),
    ...(block.fixtures && { fixturePaths: fixtureGlobs!.globs }),
    ...(block.commands.length > 0 && { commands: block.commands }),
    tools: undefined,
    readOnly: block.readOnly,
  };
}

/** `<dirname of transcript_path>/<session_id>/subagents/agent-<agent_id>.jsonl` (reference C.4); undefined for ids that are not plain. */
export function subagentTranscriptPath(transcriptPath: string, session: string, agentId: string): string | undefined {
  const plain = (id: string) => id.length > 0 && id.length < 128 && [...id].every((c) => /[A-Za-z0-9_-]/.test(c));
  if (!plain(session) || !plain(agentId)) return undefined;
  return join(dirname(transcriptPath), session, "subagents", `agent-${agentId}.jsonl`);
}

/** The text of a transcript message's content: a string, or its text blocks joined. */
function contentText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content
    .filter(
      (b): b is { type: "text"; text: string } =>
        typeof b === "object" && b !== null && b.type === "text" && typeof b.text === "string",
    )
    .map((b) => b.text);
  return texts.length === 0 ? undefined : texts.join("\n");
}

/**
 * The Agent call's prompt, from the first user message of the subagent's transcript; undefined
 * when the file or that line is not there (yet). Reads the first 256 KiB, or the whole file when
 * its first line is longer.
 */
export function readSpawnPrompt(file: string): string | undefined {
  let text: string;
  try {
    const fd = openSync(file, "r");
    try {
      const buffer = Buffer.alloc(256 * 1024);
      const n = readSync(fd, buffer, 0, buffer.length, 0);
      text = buffer.subarray(0, n).toString("utf8");
      // a first line longer than the chunk (a very long prompt): read the whole file
      if (n === buffer.length && !text.includes("\n")) text = readFileSync(file, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  for (const line of text.split("\n").slice(0, 20)) {
    let entry: { type?: unknown; message?: { role?: unknown; content?: unknown } };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue; // a line cut at the read limit, or not JSON
    }
    if (entry.type === "user") return contentText(entry.message?.content);
  }
  return undefined;
}

/** How many times, and how long each, a hook waits for a constrained subagent's transcript to appear. */
const TRANSCRIPT_WAITS = 40;
const TRANSCRIPT_WAIT_MS = 25;

/** Blocks this thread for `ms` milliseconds (no busy loop). */
function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** What the guard knows about one subagent instance's own task. */
export interface InstanceTask {
  /** The constraints to apply, if any. */
  readonly task: TaskConstraints | undefined;
  /** A block read now from the transcript, to cache in the agent tree (`null`: no block). */
  readonly read?: TaskBlock | null;
}

/**
 * The task constraints of the calling subagent instance: the block cached in the agent tree, else
 * the one in its transcript. When neither can be read and agents of its type were started with a
 * constraint block in this session, its constraints exist but are unknown: `unreadable` (the
 * guard fails closed for writes and commands). Otherwise it has none.
 */
export function instanceTask(options: {
  readonly tree: AgentTreeFile;
  readonly session: string;
  readonly agentId: string;
  readonly agentType: string;
  readonly transcriptPath: string | undefined;
  readonly caseInsensitive: boolean;
  /** Wait a bounded while for a transcript not written yet (a call that its absence would deny). */
  readonly waitForTranscript: boolean;
}): InstanceTask {
  const { tree, session, agentId, agentType, caseInsensitive } = options;
  const s = tree.sessions[session];
  const cached = s?.agents[agentId]?.task;
  if (cached === null) return { task: undefined };
  if (cached !== undefined) return { task: compileTaskBlock(cached, agentType, agentId, caseInsensitive) };
  const file =
    options.transcriptPath === undefined ? undefined : subagentTranscriptPath(options.transcriptPath, session, agentId);
  let prompt = file === undefined ? undefined : readSpawnPrompt(file);
  const constrained = (s?.constrainedTypes ?? []).includes(baseAgentName(agentType));
  // Claude Code writes a subagent's transcript in the background: a first tool call that follows its
  // spawn closely (a fast model) can come before the first line does. Wait for it, a bounded number of
  // times, only when a missing block would deny this call.
  for (
    let attempt = 0;
    prompt === undefined &&
    file !== undefined &&
    constrained &&
    options.waitForTranscript &&
    attempt < TRANSCRIPT_WAITS;
    attempt++
  ) {
    sleepMs(TRANSCRIPT_WAIT_MS);
    prompt = readSpawnPrompt(file);
  }
  if (prompt !== undefined) {
    const block = parseTaskBlock(prompt) ?? null;
    return {
      task: block === null ? undefined : compileTaskBlock(block, agentType, agentId, caseInsensitive),
      read: block,
    };
  }
  if (!constrained) return { task: undefined };
  return {
    task: {
      agent: baseAgentName(agentType),
      agentId,
      step: undefined,
      source: `task of ${baseAgentName(agentType)} agent ${agentId}`,
      writePaths: undefined,
      tools: undefined,
      readOnly: false,
      unreadable:
        file === undefined ? "the hook input has no transcript path" : `its transcript \`${file}\` is not there yet`,
    },
  };
}

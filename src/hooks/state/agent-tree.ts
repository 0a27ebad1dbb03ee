/**
 * The live agent tree of each session, `.claude/state/agents.json`, kept from hook events and safe
 * under concurrent subagents (every change is a locked read-modify-write with an atomic write).
 *
 * Claude Code tells a subagent's hooks its own `agent_id` and `agent_type` but not its parent.
 * lanes links them, exactly where the client says so (2.1.330, reference C.4):
 *
 * | source (first that is available wins)                          | link            |
 * |------------------------------------------------------------------|-----------------|
 * | PostToolUse of the Agent call: `tool_response.agentId`, the caller's `agent_id`, `prompt` | `tool-response` |
 * | the subagent's transcript begins with the Agent call's `prompt`: the spawn intent with the same prompt hash | `transcript` |
 * | neither yet: the oldest spawn intent of the same type (event order; wrong for parallel spawns of one type until corrected) | `order` |
 *
 * A PreToolUse `Agent` call that is let through records a spawn intent (caller, type, prompt
 * hash); SubagentStart links by transcript, else by order; the PostToolUse of the Agent call
 * corrects the parent. The tree gives each call its path from the main session (nesting depth,
 * cycles) and caches each instance's task constraint block (`task`; `null` once read and absent).
 */
import { readState } from "../../io/read.ts";
import type { TaskBlock } from "../../policy/task-block.ts";
import { updateBookkeeping } from "./bookkeeping.ts";
import { isoTime } from "../../io/time.ts";

/** One running (or finished) subagent. */
export interface AgentNode {
  readonly type: string;
  /** `agent_id` of the parent subagent; `null` when the main session started it. */
  readonly parent: string | null;
  /** ISO time of SubagentStart. */
  readonly started: string;
  /** ISO time of SubagentStop, when it has stopped. */
  readonly stopped?: string;
  /** How the parent was found (see the table above). */
  readonly link?: "tool-response" | "transcript" | "order";
  /** The task constraint block of its Agent call: `null` when read and absent, missing when not read yet. */
  readonly task?: TaskBlock | null;
  /** The Agent call's `description`, for `lanes agents`. */
  readonly description?: string;
}

/** A spawn the guard let through, waiting for its SubagentStart. */
export interface SpawnIntent {
  readonly parent: string | null;
  readonly type: string;
  /** ISO time of the Agent call. */
  readonly at: string;
  /** FNV-1a hash of the Agent call's prompt, to recognise its transcript. */
  readonly prompt?: string;
  /** The task block of the prompt (`null`: none). */
  readonly task?: TaskBlock | null;
  readonly description?: string;
}

export interface SessionTree {
  readonly agents: Readonly<Record<string, AgentNode>>;
  readonly intents: readonly SpawnIntent[];
  /** Agent types (base names) started in this session with a constraint block: their instances fail closed while their block cannot be read. */
  readonly constrainedTypes?: readonly string[];
  /** ISO time of the last change, for pruning old sessions. */
  readonly updated: string;
}

/** The whole file. */
export interface AgentTreeFile {
  readonly version: 1;
  readonly sessions: Readonly<Record<string, SessionTree>>;
}

const EMPTY: AgentTreeFile = { version: 1, sessions: {} };
const INTENT_TTL_MS = 15 * 60 * 1000;
const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

function read(path: string): AgentTreeFile {
  try {
    const data = JSON.parse(readState(path)) as AgentTreeFile;
    return data !== null && typeof data === "object" && data.version === 1 && typeof data.sessions === "object"
      ? data
      : EMPTY;
  } catch {
    return EMPTY;
  }
}

/** The chain of agent types from the main session down to `agentId` (empty for the main session). */
export function agentPath(tree: AgentTreeFile, session: string, agentId: string | undefined): string[] {
  const nodes = tree.sessions[session]?.agents ?? {};
  const path: string[] = [];
  const seen = new Set<string>();
  for (let id = agentId; id !== undefined && id !== null && !seen.has(id);) {
    seen.add(id);
    const node: AgentNode | undefined = nodes[id];
    if (node === undefined) break;
    path.unshift(node.type);
    id = node.parent ?? undefined;
  }
  return path;
}

/** Reads the tree without locking (a consistent snapshot: writes are atomic renames). */
export function readAgentTree(path: string): AgentTreeFile {
  return read(path);
}

function update(
  path: string,
  stateDir: string,
  change: (tree: AgentTreeFile, now: Date) => AgentTreeFile,
  now: Date,
): string | undefined {
  return updateBookkeeping(path, stateDir, read, (tree) => prune(change(tree, now), now));
}

function prune(tree: AgentTreeFile, now: Date): AgentTreeFile {
  const sessions: Record<string, SessionTree> = {};
  for (const [id, s] of Object.entries(tree.sessions)) {
    if (now.getTime() - Date.parse(s.updated) > SESSION_TTL_MS) continue;
    sessions[id] = { ...s, intents: s.intents.filter((i) => now.getTime() - Date.parse(i.at) < INTENT_TTL_MS) };
  }
  return { version: 1, sessions };
}

const sessionOf = (tree: AgentTreeFile, session: string): SessionTree =>
  tree.sessions[session] ?? { agents: {}, intents: [], updated: isoTime(new Date(0)) };

/** What the Agent call said about the agent it starts. */
export interface SpawnDetails {
  readonly prompt?: string;
  readonly task?: TaskBlock | null;
  readonly description?: string;
}

const base = (type: string): string => type.slice(type.lastIndexOf(":") + 1);

function withConstrained(
  s: SessionTree,
  type: string,
  task: TaskBlock | null | undefined,
): readonly string[] | undefined {
  if (task === null || task === undefined) return s.constrainedTypes;
  return [...new Set([...(s.constrainedTypes ?? []), base(type)])].sort();
}

/** Records that `parent` (or the main session) is starting an agent of `type`. */
export function recordSpawnIntent(
  path: string,
  stateDir: string,
  session: string,
  parent: string | undefined,
  type: string,
  now: Date,
  details: SpawnDetails = {},
): string | undefined {
  return update(
    path,
    stateDir,
    (tree) => {
      const s = sessionOf(tree, session);
      const intents = [...s.intents, { parent: parent ?? null, type, at: isoTime(now), ...details }];
      const constrainedTypes = withConstrained(s, type, details.task);
      return {
        ...tree,
        sessions: {
          ...tree.sessions,
          [session]: {
            ...s,
            intents,
            ...(constrainedTypes !== undefined && { constrainedTypes }),
            updated: isoTime(now),
          },
        },
      };
    },
    now,
  );
}

/** Strips a plugin namespace for matching intents (`lanes:backend` was requested as `lanes:backend` or `backend`). */
const sameType = (a: string, b: string): boolean =>
  a === b || a.slice(a.lastIndexOf(":") + 1) === b.slice(b.lastIndexOf(":") + 1);

/**
 * Adds a started subagent. With `prompt` (the hash of its transcript's first message) it takes the
 * spawn intent with that prompt: exact; otherwise the oldest intent of its type. An agent already
 * linked by its Agent call's PostToolUse keeps that link.
 */
export function recordSubagentStart(
  path: string,
  stateDir: string,
  session: string,
  agentId: string,
  type: string,
  now: Date,
  prompt?: string,
): string | undefined {
  return update(
    path,
    stateDir,
    (tree) => {
      const s = sessionOf(tree, session);
      const existing = s.agents[agentId];
      if (existing?.link === "tool-response") return tree;
      const exact =
        prompt === undefined ? -1 : s.intents.findIndex((i) => i.prompt === prompt && sameType(i.type, type));
      const index = exact !== -1 ? exact : s.intents.findIndex((i) => sameType(i.type, type));
      const intent = index === -1 ? undefined : s.intents[index]!;
      // the task block is the agent's own when the link is exact, or when every pending spawn of its
      // type carries the same block (a single spawn, or parallel spawns of one task): no guess either way
      const pending = s.intents.filter((i) => sameType(i.type, type));
      const oneBlock = pending.length > 0 && new Set(pending.map((i) => JSON.stringify(i.task ?? null))).size === 1;
      // a link by event order among spawns with different blocks may take another agent's intent:
      // leave them all pending, so no later start inherits a block by elimination (transcripts decide)
      const consume = index !== -1 && (exact !== -1 || oneBlock);
      const intents = consume ? [...s.intents.slice(0, index), ...s.intents.slice(index + 1)] : s.intents;
      const node: AgentNode = {
        type,
        parent: intent?.parent ?? null,
        started: isoTime(now),
        link: exact !== -1 ? "transcript" : "order",
        ...((exact !== -1 || oneBlock) && intent?.task !== undefined && { task: intent.task }),
        ...(intent?.description !== undefined && { description: intent.description }),
      };
      const agents = { ...s.agents, [agentId]: node };
      return {
        ...tree,
        sessions: { ...tree.sessions, [session]: { ...s, agents, intents, updated: isoTime(now) } },
      };
    },
    now,
  );
}

/**
 * The PostToolUse of an Agent call: `tool_response.agentId` names the agent it started, the hook
 * input's `agent_id` its parent (absent: the main session), `prompt` its task. Exact: it replaces
 * a link made by event order and consumes the matching intent.
 */
export function recordSpawnResult(
  path: string,
  stateDir: string,
  session: string,
  spawn: {
    readonly agentId: string;
    readonly parent: string | undefined;
    readonly type: string;
    readonly prompt: string | undefined;
    readonly task: TaskBlock | null;
    readonly description?: string | undefined;
  },
  now: Date,
): string | undefined {
  return update(
    path,
    stateDir,
    (tree) => {
      const s = sessionOf(tree, session);
      const index = s.intents.findIndex(
        (i) => spawn.prompt !== undefined && i.prompt === spawn.prompt && sameType(i.type, spawn.type),
      );
      const intents = index === -1 ? s.intents : [...s.intents.slice(0, index), ...s.intents.slice(index + 1)];
      const old = s.agents[spawn.agentId];
      const node: AgentNode = {
        type: old?.type ?? spawn.type,
        parent: spawn.parent ?? null,
        started: old?.started ?? isoTime(now),
        ...(old?.stopped !== undefined && { stopped: old.stopped }),
        link: "tool-response",
        task: spawn.task,
        ...(spawn.description !== undefined && { description: spawn.description }),
      };
      const constrainedTypes = withConstrained(s, spawn.type, spawn.task);
      return {
        ...tree,
        sessions: {
          ...tree.sessions,
          [session]: {
            ...s,
            agents: { ...s.agents, [spawn.agentId]: node },
            intents,
            ...(constrainedTypes !== undefined && { constrainedTypes }),
            updated: isoTime(now),
          },
        },
      };
    },
    now,
  );
}

/** Changes one agent's node under the lock; nothing when the agent is unknown or `change` returns undefined. */
function updateNode(
  path: string,
  stateDir: string,
  session: string,
  agentId: string,
  now: Date,
  change: (node: AgentNode) => AgentNode | undefined,
): string | undefined {
  return update(
    path,
    stateDir,
    (tree) => {
      const s = sessionOf(tree, session);
      const node = s.agents[agentId];
      const next = node === undefined ? undefined : change(node);
      if (next === undefined) return tree;
      const agents = { ...s.agents, [agentId]: next };
      return { ...tree, sessions: { ...tree.sessions, [session]: { ...s, agents, updated: isoTime(now) } } };
    },
    now,
  );
}

/** Caches the task block read from a subagent's transcript (a block already known is kept). */
export function recordAgentTask(
  path: string,
  stateDir: string,
  session: string,
  agentId: string,
  task: TaskBlock | null,
  now: Date,
): string | undefined {
  return updateNode(path, stateDir, session, agentId, now, (node) =>
    node.task !== undefined ? undefined : { ...node, task },
  );
}

/** Marks a subagent stopped (kept, so late tool calls still resolve their path). */
export function recordSubagentStop(
  path: string,
  stateDir: string,
  session: string,
  agentId: string,
  now: Date,
): string | undefined {
  return updateNode(path, stateDir, session, agentId, now, (node) => ({ ...node, stopped: isoTime(now) }));
}

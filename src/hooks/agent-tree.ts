/**
 * The live agent tree of each session, `.claude/state/agents.json`, kept from hook events and safe
 * under concurrent subagents (every change is a locked read-modify-write with an atomic write).
 *
 * Claude Code tells a subagent's hooks its own `agent_id` and `agent_type` but not its parent.
 * lanes links them itself: when a PreToolUse `Agent` call is let through, it records a spawn
 * intent (caller, requested type); the next SubagentStart of that type in the session consumes the
 * oldest matching intent and takes its caller as parent. The tree gives each call its path from
 * the main session, which bounds nesting depth and refuses cycles.
 */
import { readFileSync } from "node:fs";
import { updateBookkeeping } from "./bookkeeping.ts";

/** One running (or finished) subagent. */
export interface AgentNode {
  readonly type: string;
  /** `agent_id` of the parent subagent; `null` when the main session started it. */
  readonly parent: string | null;
  /** ISO time of SubagentStart. */
  readonly started: string;
  /** ISO time of SubagentStop, when it has stopped. */
  readonly stopped?: string;
}

/** A spawn the guard let through, waiting for its SubagentStart. */
export interface SpawnIntent {
  readonly parent: string | null;
  readonly type: string;
  /** ISO time of the Agent call. */
  readonly at: string;
}

export interface SessionTree {
  readonly agents: Readonly<Record<string, AgentNode>>;
  readonly intents: readonly SpawnIntent[];
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
    const data = JSON.parse(readFileSync(path, "utf8")) as AgentTreeFile;
    return data !== null && typeof data === "object" && data.version === 1 && typeof data.sessions === "object" ? data : EMPTY;
  } catch {
    return EMPTY;
  }
}

/** The chain of agent types from the main session down to `agentId` (empty for the main session). */
export function agentPath(tree: AgentTreeFile, session: string, agentId: string | undefined): string[] {
  const nodes = tree.sessions[session]?.agents ?? {};
  const path: string[] = [];
  const seen = new Set<string>();
  for (let id = agentId; id !== undefined && id !== null && !seen.has(id); ) {
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

function update(path: string, stateDir: string, change: (tree: AgentTreeFile, now: Date) => AgentTreeFile, now: Date): string | undefined {
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

const sessionOf = (tree: AgentTreeFile, session: string): SessionTree => tree.sessions[session] ?? { agents: {}, intents: [], updated: new Date(0).toISOString() };

/** Records that `parent` (or the main session) is starting an agent of `type`. */
export function recordSpawnIntent(path: string, stateDir: string, session: string, parent: string | undefined, type: string, now: Date): string | undefined {
  return update(
    path,
    stateDir,
    (tree) => {
      const s = sessionOf(tree, session);
      const intents = [...s.intents, { parent: parent ?? null, type, at: now.toISOString() }];
      return { ...tree, sessions: { ...tree.sessions, [session]: { ...s, intents, updated: now.toISOString() } } };
    },
    now,
  );
}

/** Strips a plugin namespace for matching intents (`lanes:backend` was requested as `lanes:backend` or `backend`). */
const sameType = (a: string, b: string): boolean => a === b || a.slice(a.lastIndexOf(":") + 1) === b.slice(b.lastIndexOf(":") + 1);

/** Adds a started subagent, linked to the oldest matching spawn intent. */
export function recordSubagentStart(path: string, stateDir: string, session: string, agentId: string, type: string, now: Date): string | undefined {
  return update(
    path,
    stateDir,
    (tree) => {
      const s = sessionOf(tree, session);
      const index = s.intents.findIndex((i) => sameType(i.type, type));
      const parent = index === -1 ? null : s.intents[index]!.parent;
      const intents = index === -1 ? s.intents : [...s.intents.slice(0, index), ...s.intents.slice(index + 1)];
      const agents = { ...s.agents, [agentId]: { type, parent, started: now.toISOString() } };
      return { ...tree, sessions: { ...tree.sessions, [session]: { agents, intents, updated: now.toISOString() } } };
    },
    now,
  );
}

/** Marks a subagent stopped (kept, so late tool calls still resolve their path). */
export function recordSubagentStop(path: string, stateDir: string, session: string, agentId: string, now: Date): string | undefined {
  return update(
    path,
    stateDir,
    (tree) => {
      const s = sessionOf(tree, session);
      const node = s.agents[agentId];
      if (node === undefined) return tree;
      const agents = { ...s.agents, [agentId]: { ...node, stopped: now.toISOString() } };
      return { ...tree, sessions: { ...tree.sessions, [session]: { ...s, agents, updated: now.toISOString() } } };
    },
    now,
  );
}

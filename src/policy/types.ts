/**
 * Types of the pure decision core. `evaluate(request, policy)` returns a {@link Decision} or
 * `undefined` ("no opinion": the hook prints nothing and Claude Code's own permissions decide).
 */

/** What a rule asks for when it matches. `allow` is an exception, never a grant (see combine.ts). */
export type Effect = "deny" | "ask" | "allow";

/** The risk classes: SAFE → no opinion, REVIEW_REQUIRED → ask, DANGEROUS → deny. */
export type RiskClass = "SAFE" | "REVIEW_REQUIRED" | "DANGEROUS";

/** The risk class of a decision's effect (`undefined` = no opinion), for the audit log and `lanes check`. */
export const riskOf = (effect: Effect | undefined): RiskClass =>
  effect === "deny" ? "DANGEROUS" : effect === "ask" ? "REVIEW_REQUIRED" : "SAFE";

/**
 * Precedence layers, highest first. One rule of precedence for the whole of lanes:
 * Claude Code settings deny/ask rules > lanes policy (user > project > local > built-in defaults)
 * > agent MUST NOT rules > role restrictions (owned paths, tools) > task constraints.
 */
export const LAYERS = ["settings", "user", "project", "local", "builtin", "must-not", "role", "task"] as const;
export type Layer = (typeof LAYERS)[number];

/** The lanes policy layers, the only ones whose `allow` rules mean anything. */
export const POLICY_LAYERS: readonly Layer[] = ["user", "project", "local", "builtin"];

/** One rule that matched the request. */
export interface Match {
  /** Stable rule id, e.g. `git.reset-hard`, `settings.deny`, `lane.write-outside-owned`. */
  readonly ruleId: string;
  readonly layer: Layer;
  readonly effect: Effect;
  /** Why this is risky, one lowercase clause, e.g. "discards every uncommitted change". */
  readonly why: string;
  /** The safer alternative, one lowercase clause, e.g. "use `git stash` to keep a copy". */
  readonly instead: string;
  /** The part of the request that matched (a command, a path), for the message and the audit log. */
  readonly subject: string;
  /** Where the rule came from (a file path, or `lanes built-in`). */
  readonly source: string;
  /**
   * What the match is about, as a path of keys: `call` (the whole tool call), `cmd:2` (the third
   * simple command of a Bash call), `cmd:2:path:/abs` or `call:path:/abs` (one path). An allow
   * exception cancels only matches whose scope equals its own or lies inside it.
   */
  readonly scope: string;
}

/** How each match fared in the precedence function. */
export interface TraceEntry {
  readonly ruleId: string;
  readonly layer: Layer;
  readonly effect: Effect;
  readonly subject: string;
  /** `decides`: part of the final answer; `outranked`: a stricter or higher match decided; `cancelled`: an allow exception of a higher policy layer removed it; `exception`: an allow that cancelled something. */
  readonly outcome: "decides" | "outranked" | "cancelled" | "exception" | "inert";
  /** For `cancelled`, the id of the allow rule that cancelled it. */
  readonly by?: string;
}

/** A final answer. There is no `allow` answer: lanes objects or has no opinion. */
export interface Decision {
  readonly effect: "deny" | "ask";
  /** Ids of the rules that made the decision, highest layer first. */
  readonly ruleIds: readonly string[];
  /** The highest layer among the deciding matches. */
  readonly layer: Layer;
  /** The deciding matches, highest layer first. */
  readonly matches: readonly Match[];
  /** Every match with its outcome, in precedence order. */
  readonly trace: readonly TraceEntry[];
  /** The safer alternative to offer when it is not the first deciding rule's (see evaluate.ts). */
  readonly alternative?: string;
}

/** The agent a tool call runs in, from the hook input. */
export interface AgentIdentity {
  /** `agent_id`, present only inside a subagent. */
  readonly id: string | undefined;
  /** `agent_type`, e.g. `backend` or `lanes:backend`. */
  readonly type: string;
}

/** A tool call to judge, built by the hook adapter from the hook input. */
export interface GuardRequest {
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** The session's working directory (hook input `cwd`). */
  readonly cwd: string;
  /** The project root (`CLAUDE_PROJECT_DIR`, else the nearest ancestor holding `.claude/`). */
  readonly projectDir: string;
  readonly home: string;
  /** Present when the call comes from a subagent (or a `--agent` main thread). */
  readonly agent: AgentIdentity | undefined;
}

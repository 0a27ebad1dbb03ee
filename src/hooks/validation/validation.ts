/**
 * Validation on the way out: when a subagent stops or completes a task, what
 * it did during that run is checked, from evidence only:
 *
 * - **boundaries** (VALID / VIOLATION): every file created, changed or deleted — the touches the
 *   PostToolUse hook recorded for the run's `agent_id`, and the work-tree changes between the
 *   snapshots at SubagentStart and at the check — against the agent's lane (`owns` minus
 *   `does_not_own`, plus the shared `.claude/memory/`), naming the owner of each path outside it;
 * - **risk** (SAFE / REVIEW_REQUIRED / DANGEROUS): every shell command the guard judged for the
 *   run, by the guard's decision: no objection → SAFE, ask → REVIEW_REQUIRED, denied by a global
 *   rule → DANGEROUS (the attempt itself; it did not run), denied by a lane, task, spawn-tree,
 *   MUST NOT or subagents rule → REVIEW_REQUIRED (a blocked boundary attempt).
 *
 * Attribution when agents run in parallel: a change the guard recorded belongs to the agent that
 * made it. A work-tree change nobody recorded (a script, a generator, a build step) is attributed
 * to the run being checked when no other agent (nor the main session) ran a shell command during
 * the run; otherwise the candidates are named and the path is `unattributed`: it is reported as
 * REVIEW_REQUIRED instead of a VIOLATION, because lanes cannot tell which program wrote it.
 *
 * Pure: the hook adapter (task-channel.ts) gathers the evidence.
 */
import type { CompiledAgent, CompiledPolicy } from "../../policy/compiled.ts";
import { matchPath, type GlobRoots } from "../../globs/match.ts";
import { isWithin } from "../../host/paths.ts";

export type Boundary = "VALID" | "VIOLATION";
export type Risk = "SAFE" | "REVIEW_REQUIRED" | "DANGEROUS";

/** One file the run changed, with where the evidence came from. */
export interface ChangeEvidence {
  /** Absolute, normalised. */
  readonly path: string;
  readonly change: "created" | "modified" | "deleted";
  /** `touch`: recorded by the guard for this run; `worktree`: seen only in the work-tree snapshots. */
  readonly source: "touch" | "worktree";
  /** For `worktree` changes: other agents (or `main`) that ran shell commands during the run. */
  readonly alsoRunning?: readonly string[];
}

/** One call the guard judged during the run (an audit `decision` entry). */
export interface CommandEvidence {
  readonly tool: string;
  readonly subject: string;
  readonly decision: "deny" | "ask" | "none";
  readonly rules: readonly string[];
}

export interface FileVerdict {
  /** Project-relative path. */
  readonly path: string;
  readonly change: ChangeEvidence["change"];
  readonly source: ChangeEvidence["source"];
  readonly verdict: "in-lane" | "violation" | "unattributed";
  /** For violations: the agent that owns the path, when one does. */
  readonly owner?: string;
  readonly candidates?: readonly string[];
}

export interface CommandVerdict {
  readonly subject: string;
  readonly risk: Risk;
  readonly blocked: boolean;
  readonly rules: readonly string[];
}

export interface ValidationResult {
  readonly agent: string;
  readonly boundary: Boundary;
  readonly risk: Risk;
  readonly files: readonly FileVerdict[];
  readonly commands: readonly CommandVerdict[];
  /** Evidence that could not be gathered (no git repository, snapshot truncated, ...). */
  readonly notes: readonly string[];
}

export interface ValidationInput {
  readonly agentName: string;
  readonly policy: CompiledPolicy;
  readonly roots: GlobRoots;
  readonly changes: readonly ChangeEvidence[];
  readonly commands: readonly CommandEvidence[];
  readonly notes?: readonly string[];
}

/** Files under here are every agent's to write (the memory-file protocol). */
const SHARED_WRITABLE = [".claude/memory"];
/**
 * Rule namespaces of boundary checks (lanes, tasks, the spawn tree, an agent's MUST NOT rules
 * `agent.<name>.<id>`, the rules for every subagent): a denial by one of them is a blocked boundary
 * attempt, not a dangerous command.
 */
const BOUNDARY_RULES = ["lane.", "task.", "tasks.", "agents.", "agent.", "subagents."];

const RISK_ORDER: readonly Risk[] = ["SAFE", "REVIEW_REQUIRED", "DANGEROUS"];
const maxRisk = (a: Risk, b: Risk): Risk => (RISK_ORDER.indexOf(a) >= RISK_ORDER.indexOf(b) ? a : b);

/** The risk class of one judged call. */
export function commandRisk(c: CommandEvidence): Risk {
  if (c.decision === "none") return "SAFE";
  if (c.decision === "ask") return "REVIEW_REQUIRED";
  return c.rules.length > 0 && c.rules.every((r) => BOUNDARY_RULES.some((p) => r.startsWith(p)))
    ? "REVIEW_REQUIRED"
    : "DANGEROUS";
}

/** The agent that owns `abs`, other than `agent`: its own `does_not_own` first, else another agent's `owns`. */
export function ownerOfPath(
  abs: string,
  agent: CompiledAgent | undefined,
  policy: CompiledPolicy,
  roots: GlobRoots,
): string | undefined {
  const declared = agent?.notOwned.find((n) => matchPath(n.glob, abs, roots));
  if (declared !== undefined) return declared.owner;
  return policy.agents.find((a) => a.name !== agent?.name && a.owns.some((g) => matchPath(g, abs, roots)))?.name;
}

/** True when `agent` may write `abs`. An agent without a definition has no lane to check. */
export function inLane(abs: string, agent: CompiledAgent | undefined, roots: GlobRoots): boolean {
  if (agent === undefined) return true;
  if (!isWithin(abs, roots.projectDir, roots.caseInsensitive)) return true; // outside the project: the global rules' business
  if (SHARED_WRITABLE.some((d) => isWithin(abs, `${roots.projectDir}/${d}`, roots.caseInsensitive))) return true;
  return agent.owns.some((g) => matchPath(g, abs, roots)) && !agent.notOwned.some((n) => matchPath(n.glob, abs, roots));
}

const relative = (abs: string, projectDir: string): string =>
  abs.startsWith(`${projectDir}/`) ? abs.slice(projectDir.length + 1) : abs;

/** Validates one run. */
export function validateRun(input: ValidationInput): ValidationResult {
  const agent = input.policy.agents.find((a) => a.name === input.agentName);
  const byPath = new Map<string, ChangeEvidence>();
  // a recorded touch wins over the snapshot for the same path
  for (const c of input.changes) {
    const seen = byPath.get(c.path);
    if (seen === undefined || (seen.source === "worktree" && c.source === "touch")) byPath.set(c.path, c);
  }
  const files: FileVerdict[] = [...byPath.values()]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((c) => {
      const base = { path: relative(c.path, input.roots.projectDir), change: c.change, source: c.source };
      if (inLane(c.path, agent, input.roots)) return { ...base, verdict: "in-lane" as const };
      const owner = ownerOfPath(c.path, agent, input.policy, input.roots);
      const candidates = c.source === "worktree" ? (c.alsoRunning ?? []) : [];
      if (candidates.length > 0)
        return {
          ...base,
          verdict: "unattributed" as const,
          ...(owner !== undefined && { owner }),
          candidates: [input.agentName, ...candidates],
        };
      return { ...base, verdict: "violation" as const, ...(owner !== undefined && { owner }) };
    });
  const commands: CommandVerdict[] = input.commands.map((c) => ({
    subject: c.subject,
    risk: commandRisk(c),
    blocked: c.decision === "deny",
    rules: c.rules,
  }));
  let risk: Risk = commands.reduce<Risk>((r, c) => maxRisk(r, c.risk), "SAFE");
  if (files.some((f) => f.verdict === "unattributed")) risk = maxRisk(risk, "REVIEW_REQUIRED");
  return {
    agent: input.agentName,
    boundary: files.some((f) => f.verdict === "violation") ? "VIOLATION" : "VALID",
    risk,
    files,
    commands,
    notes: input.notes ?? [],
  };
}

const shown = (paths: readonly string[], max = 8): string =>
  paths.length <= max ? paths.join(", ") : `${paths.slice(0, max).join(", ")} and ${paths.length - max} more`;

/** Paths outside the lane, grouped by owner, for messages: `` `a`, `b` (owned by `backend`) ``. */
export function violationText(result: ValidationResult): string {
  const groups = new Map<string, string[]>();
  for (const f of result.files)
    if (f.verdict === "violation")
      (groups.get(f.owner ?? "") ?? groups.set(f.owner ?? "", []).get(f.owner ?? "")!).push(`\`${f.path}\``);
  return [...groups.entries()]
    .map(([owner, paths]) => `${shown(paths)} (${owner === "" ? "owned by no agent" : `owned by \`${owner}\``})`)
    .join("; ");
}

/** One line for the orchestrator, the audit log and the task: the outcome, the files, the commands. */
export function renderValidation(result: ValidationResult): string {
  const changed = result.files.map((f) => `${f.path} (${f.change})`);
  const files = changed.length === 0 ? "no files changed" : `files: ${shown(changed)}`;
  const ran = result.commands.filter((c) => !c.blocked).length;
  const blocked = result.commands.filter((c) => c.blocked).map((c) => `\`${c.subject.slice(0, 80)}\``);
  const review = result.commands
    .filter((c) => c.risk === "REVIEW_REQUIRED" && !c.blocked)
    .map((c) => `\`${c.subject.slice(0, 80)}\``);
  const parts = [
    `lanes validation of ${result.agent}: ${result.boundary}, ${result.risk}; ${files}; ${ran} command${ran === 1 ? "" : "s"} ran`,
  ];
  if (review.length > 0) parts.push(`review required for ${shown(review, 4)}`);
  if (blocked.length > 0) parts.push(`blocked attempts: ${shown(blocked, 4)}`);
  if (result.boundary === "VIOLATION") parts.push(`outside the lane: ${violationText(result)}`);
  const unattributed = result.files.filter((f) => f.verdict === "unattributed");
  if (unattributed.length > 0)
    parts.push(
      `changed outside the lane while other agents ran commands (${shown(unattributed[0]!.candidates ?? [])}): ${shown(unattributed.map((f) => `\`${f.path}\``))}; a human should check who wrote them`,
    );
  if (result.notes.length > 0) parts.push(`note: ${result.notes.join("; ")}`);
  return parts.join("; ");
}

/** The owners the violating paths belong to (the agents the work must be reassigned to). */
export function reassignTo(result: ValidationResult): string[] {
  return [
    ...new Set(result.files.filter((f) => f.verdict === "violation" && f.owner !== undefined).map((f) => f.owner!)),
  ].sort();
}

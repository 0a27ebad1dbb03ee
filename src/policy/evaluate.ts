/**
 * The decision core: `evaluate(request, context)` → a decision or no opinion. Pure: everything it
 * needs (compiled policy, settings rules, agent position, task constraints) is passed in.
 *
 * Pipeline, in order:
 * 1. normalise: the tool call becomes facts (commands, file accesses with resolved and classified
 *    paths, code executions, spawns) — for Bash through the shell analysis;
 * 2. Claude Code settings rules (`permissions.deny`/`ask` of every settings layer) → `settings` layer;
 * 3. lanes policy rules (user, project, local, built-in layers) → their layers;
 * 4. agent lanes: MUST NOT rules, role restrictions, task constraints; spawn-tree checks;
 * 5. combine: the one precedence function (combine.ts).
 */
import { compilePathGlob } from "../globs/compile.ts";
import type { DiskView } from "../host/disk-view.ts";
import { combine } from "./combine.ts";
import type { CompiledPolicy } from "./compiled.ts";
import { extractFacts, impliedDelete, impliedWrite, type Facts } from "./facts.ts";
import { treeMoves } from "./git-moves.ts";
import { isWithin, normalizePath } from "../host/paths.ts";
import type { GlobRoots } from "../globs/match.ts";
import { laneMatchesFor, type AgentPosition, type TaskConstraints } from "./lanes.ts";
import { candidateRules, matchRule } from "./match.ts";
import { memoryLaneMatches } from "./memory-lane.ts";
import { stateLaneMatches } from "./state-lane.ts";
import { guardFiles, type PathContext } from "./paths.ts";
import { taskToolMatches } from "./tasks.ts";
import { matchSettingsRules, type PathCompiler, type SettingsRule } from "./settings.ts";
import type { Decision, GuardRequest, Match } from "./types.ts";

export interface EvaluateContext {
  readonly policy: CompiledPolicy;
  readonly settingsRules: readonly SettingsRule[];
  /** Compiles the path patterns of settings rules (they change at run time, so not ahead). */
  readonly compileSettingsGlob: PathCompiler;
  /** Directories that are never "outside the project" (e.g. /tmp, $TMPDIR). */
  readonly tempDirs: readonly string[];
  readonly position: AgentPosition;
  /** Agent types Claude Code can start. */
  readonly knownAgentTypes: ReadonlySet<string>;
  /** Task constraints in force (progress file, per-instance task blocks); lanes.ts picks the caller's. */
  readonly tasks: readonly TaskConstraints[];
  /** Expands globs against the file system (see FactOptions); absent in pure evaluations. */
  readonly expandGlob?: (absPattern: string, dot: boolean) => readonly string[] | undefined;
  /** The disk at hook time, read-only and bounded (`src/host/disk-view.ts`); absent in pure evaluations. */
  readonly disk?: DiskView;
  /** The agent a task is assigned to (task-channel rules); absent = no task known. */
  readonly taskOwner?: (taskId: string) => string | undefined;
  /** Why work waits for a human decision (task-channel hold), if it does. */
  readonly pendingDecision?: string;
  /**
   * The work tree's files with uncommitted changes (absolute paths), read only when a subagent's
   * command moves them out of the tree (policy/git-moves.ts); absent in pure evaluations.
   */
  readonly dirtyFiles?: () => readonly string[];
  /**
   * The guard's files (absolute paths, of `candidates`) that checking out `target` removes from
   * the work tree: tracked at HEAD, absent in `target`. Asked only for a branch switch
   * (policy/git-moves.ts); absent in pure evaluations.
   */
  readonly guardRemovals?: (target: string, candidates: readonly string[]) => readonly string[];
  /** The user's Claude Code directory when `CLAUDE_CONFIG_DIR` moves it. */
  readonly claudeConfigDir?: string;
  /** The directories whose hooks git runs for the project (src/host/git-layout.ts). */
  readonly gitHooksDirs?: readonly string[];
}

/** What the machine contributes to a decision; the hook and `lanes check` read it (src/hooks/guard/sources.ts), tests give it. */
export interface EvaluationSources {
  readonly settingsRules: readonly SettingsRule[];
  readonly tempDirs: readonly string[];
  /** Agent types from the first subagent down to the caller (see AgentPosition); empty for the main session. */
  readonly agentPath: readonly string[];
  /** Task constraints in force (progress file, per-instance task blocks). */
  readonly tasks: readonly TaskConstraints[];
  readonly expandGlob?: EvaluateContext["expandGlob"];
  /** The hook and `lanes check` pass `realDisk()` (src/host/disk.ts), tests a fake one. */
  readonly disk?: DiskView;
  readonly taskOwner?: EvaluateContext["taskOwner"];
  readonly pendingDecision?: string | undefined;
  readonly dirtyFiles?: EvaluateContext["dirtyFiles"];
  readonly guardRemovals?: EvaluateContext["guardRemovals"];
  readonly claudeConfigDir?: string | undefined;
  readonly gitHooksDirs?: readonly string[];
}

/** The evaluator's context, assembled in one place for the hook, `lanes check` and the tests. */
export function evaluationContext(policy: CompiledPolicy, sources: EvaluationSources): EvaluateContext {
  return {
    policy,
    settingsRules: sources.settingsRules,
    compileSettingsGlob: (glob) => compilePathGlob(glob, { caseInsensitive: policy.options.caseInsensitivePaths }),
    tempDirs: sources.tempDirs,
    position: { path: sources.agentPath },
    knownAgentTypes: new Set(policy.knownAgentTypes),
    tasks: sources.tasks,
    ...(sources.expandGlob !== undefined && { expandGlob: sources.expandGlob }),
    ...(sources.disk !== undefined && { disk: sources.disk }),
    ...(sources.taskOwner !== undefined && { taskOwner: sources.taskOwner }),
    ...(sources.pendingDecision !== undefined && { pendingDecision: sources.pendingDecision }),
    ...(sources.dirtyFiles !== undefined && { dirtyFiles: sources.dirtyFiles }),
    ...(sources.guardRemovals !== undefined && { guardRemovals: sources.guardRemovals }),
    ...(sources.claudeConfigDir !== undefined && { claudeConfigDir: sources.claudeConfigDir }),
    ...(sources.gitHooksDirs !== undefined && { gitHooksDirs: sources.gitHooksDirs }),
  };
}

export interface Evaluation {
  /** `undefined` = no opinion. */
  readonly decision: Decision | undefined;
  readonly facts: Facts;
  /** Every match, before precedence. */
  readonly matches: readonly Match[];
}

/** Layers of an agent's own rules. */
const AGENT_LAYERS: ReadonlySet<string> = new Set(["must-not", "role", "task"]);

/**
 * The safer alternative a denial offers must not be denied itself for this agent: the candidates
 * are the agent's own deciding rules' alternatives, then the first deciding rule's; a candidate
 * whose commands (in backticks) this agent would be denied is skipped. `undefined` keeps the
 * renderer's default; with no candidate left, a generic one.
 */
function safeAlternative(decision: Decision, request: GuardRequest, context: EvaluateContext): string | undefined {
  if (request.agent === undefined) return undefined;
  const candidates = [
    ...new Set([
      ...decision.matches.filter((m) => AGENT_LAYERS.has(m.layer)).map((m) => m.instead),
      decision.matches[0]!.instead,
    ]),
  ];
  for (const candidate of candidates) {
    const snippets = [...candidate.matchAll(/`([^`]+)`/g)]
      .map((m) => m[1]!)
      .filter((t) => !t.startsWith("-") && t.includes(" "));
    const denied = snippets.some(
      (text) => judgeCall({ ...request, tool: "Bash", input: { command: text } }, context).decision?.effect === "deny",
    );
    if (!denied) return candidate;
  }
  return "stop and report to whoever started you what you need; do not work around the rule";
}

/** Judges one tool call. */
export function evaluate(request: GuardRequest, context: EvaluateContext): Evaluation {
  const evaluation = judgeCall(request, context);
  if (evaluation.decision?.effect !== "deny") return evaluation;
  const alternative = safeAlternative(evaluation.decision, request, context);
  return alternative === undefined ? evaluation : { ...evaluation, decision: { ...evaluation.decision, alternative } };
}

/**
 * A subagent's git command that moves uncommitted changes out of the tree (`git stash`, `git
 * checkout <branch>`) writes each dirty file it moves: those writes are added to the facts, and the
 * lane rules judge them like any other (another lane's work in progress is another lane's file).
 */
function withTreeMoves(facts: Facts, context: EvaluateContext, ctx: PathContext): Facts {
  if (context.dirtyFiles === undefined) return facts;
  const moves = treeMoves(facts);
  if (moves.length === 0) return facts;
  const dirty = context.dirtyFiles();
  const writes = moves.flatMap((move) => {
    const specs = move.pathspecs?.map((p) => normalizePath(p, { cwd: ctx.cwd, home: ctx.home }));
    return dirty
      .filter((f) => specs === undefined || specs.some((s) => isWithin(f, s, ctx.caseInsensitive)))
      .map((f) => impliedWrite(f, move.command, ctx));
  });
  return writes.length === 0 ? facts : { ...facts, files: [...facts.files, ...writes] };
}

/**
 * A branch switch (`git switch <branch>`, `git checkout <commit>`) to a tree without the guard's
 * files (a branch made before lanes was installed) deletes them from the work tree: those deletes
 * are added to the facts, and the guard-zone rules judge them as any shell delete.
 */
function withGuardRemovals(facts: Facts, context: EvaluateContext, ctx: PathContext): Facts {
  if (context.guardRemovals === undefined) return facts;
  const switches = treeMoves(facts).filter((m) => m.target !== undefined);
  if (switches.length === 0) return facts;
  const candidates = guardFiles(ctx).filter((f) => isWithin(f, ctx.projectDir, ctx.caseInsensitive));
  const removals = switches.flatMap((move) =>
    (context.guardRemovals?.(move.target as string, candidates) ?? []).map((f) => impliedDelete(f, move.command, ctx)),
  );
  return removals.length === 0 ? facts : { ...facts, files: [...facts.files, ...removals] };
}

function judgeCall(request: GuardRequest, context: EvaluateContext): Evaluation {
  const policy: CompiledPolicy = context.policy;
  const pathContext: PathContext = {
    cwd: request.cwd,
    projectDir: request.projectDir,
    home: request.home,
    tempDirs: context.tempDirs,
    caseInsensitive: policy.options.caseInsensitivePaths,
    ...(context.claudeConfigDir !== undefined && { claudeConfigDir: context.claudeConfigDir }),
    ...(context.gitHooksDirs !== undefined && { gitHooksDirs: context.gitHooksDirs }),
  };
  const roots: GlobRoots = {
    projectDir: request.projectDir,
    home: request.home,
    caseInsensitive: policy.options.caseInsensitivePaths,
  };

  const extracted = extractFacts(request, {
    pathContext,
    analysisBudgetMs: policy.options.analysisBudgetMs,
    ...(context.expandGlob !== undefined && { expandGlob: context.expandGlob }),
    ...(context.disk !== undefined && { disk: context.disk }),
  });
  const moved = request.agent === undefined ? extracted : withTreeMoves(extracted, context, pathContext);
  const facts = withGuardRemovals(moved, context, pathContext);
  const matches: Match[] = [
    ...matchSettingsRules(context.settingsRules, facts, {
      cwd: request.cwd,
      roots,
      compile: context.compileSettingsGlob,
    }),
    ...candidateRules(policy, facts).flatMap((rule) =>
      matchRule(rule, facts, pathContext, roots, rule.layer, request.agent !== undefined),
    ),
    ...laneMatchesFor(
      {
        policy,
        agentType: request.agent?.type,
        agentId: request.agent?.id,
        position: context.position,
        knownAgentTypes: context.knownAgentTypes,
        tasks: context.tasks,
      },
      facts,
      pathContext,
      roots,
    ),
    ...taskToolMatches({
      policy,
      agentType: request.agent?.type,
      tool: request.tool,
      toolInput: request.input,
      taskOwner: context.taskOwner ?? (() => undefined),
      ...(context.pendingDecision !== undefined && { pendingDecision: context.pendingDecision }),
    }),
    ...memoryLaneMatches(policy, request.agent?.type, facts, pathContext),
    ...stateLaneMatches(policy, request.agent?.type, facts, pathContext),
  ];
  return { decision: combine(matches), facts, matches };
}

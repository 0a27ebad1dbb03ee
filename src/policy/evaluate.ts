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
import { combine } from "./combine.ts";
import type { CompiledPolicy } from "./compiled.ts";
import { extractFacts, type Facts } from "./facts.ts";
import type { GlobRoots } from "../globs/match.ts";
import { laneMatchesFor, type AgentPosition, type TaskConstraints } from "./lanes.ts";
import { matchRule } from "./match.ts";
import type { PathContext } from "./paths.ts";
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
  readonly task: TaskConstraints | undefined;
  /** Expands globs against the file system (see FactOptions); absent in pure evaluations. */
  readonly expandGlob?: (absPattern: string, dot: boolean) => readonly string[] | undefined;
}

export interface Evaluation {
  /** `undefined` = no opinion. */
  readonly decision: Decision | undefined;
  readonly facts: Facts;
  /** Every match, before precedence. */
  readonly matches: readonly Match[];
}

/** Judges one tool call. */
export function evaluate(request: GuardRequest, context: EvaluateContext): Evaluation {
  const policy: CompiledPolicy = context.policy;
  const pathContext: PathContext = {
    cwd: request.cwd,
    projectDir: request.projectDir,
    home: request.home,
    tempDirs: context.tempDirs,
    caseInsensitive: policy.options.caseInsensitivePaths,
  };
  const roots: GlobRoots = { projectDir: request.projectDir, home: request.home, caseInsensitive: policy.options.caseInsensitivePaths };

  const facts = extractFacts(request, {
    pathContext,
    analysisBudgetMs: policy.options.analysisBudgetMs,
    ...(context.expandGlob !== undefined && { expandGlob: context.expandGlob }),
  });
  const matches: Match[] = [
    ...matchSettingsRules(context.settingsRules, facts, { cwd: request.cwd, roots, compile: context.compileSettingsGlob }),
    ...policy.rules.flatMap((rule) => matchRule(rule, facts, pathContext, roots, rule.layer, request.agent !== undefined)),
    ...laneMatchesFor(
      { policy, agentType: request.agent?.type, position: context.position, knownAgentTypes: context.knownAgentTypes, task: context.task },
      facts,
      pathContext,
      roots,
    ),
  ];
  return { decision: combine(matches), facts, matches };
}

/**
 * Test helpers for decisions: a policy compiled from the built-in rules (plus optional layers and
 * agents), an evaluator bound to the corpus context, and `expectDenied`/`expectAsk`/`expectNoOpinion`.
 */
import { expect } from "vitest";
import { compilePolicy, type AgentInput, type PolicyLayerInput } from "../../src/config/compile.ts";
import { compilePathGlob } from "../../src/globs/compile.ts";
import type { DiskView } from "../../src/host/disk-view.ts";
import type { CompiledPolicy } from "../../src/policy/compiled.ts";
import { evaluate, evaluationContext, type Evaluation } from "../../src/policy/evaluate.ts";
import { BUILTIN_AGENT_TYPES, type TaskConstraints } from "../../src/policy/lanes.ts";
import type { SettingsRule } from "../../src/policy/settings.ts";

/** The context of the corpus (see test/cases/README.md). */
export const PROJECT = "/work/app";
export const HOME = "/home/dev";

export function testPolicy(layers: PolicyLayerInput[] = [], agents: AgentInput[] = []): CompiledPolicy {
  const result = compilePolicy({ lanesVersion: "test", layers, agents, sources: [], listings: [] });
  if (!result.ok) throw new Error(result.issues.map((i) => `${i.file}: ${i.message}`).join("\n"));
  return { ...result.value, knownAgentTypes: [...BUILTIN_AGENT_TYPES, ...agents.map((a) => a.definition.name)] };
}

export interface JudgeOptions {
  readonly tool?: string;
  readonly input?: Record<string, unknown>;
  readonly cwd?: string;
  readonly agent?: string;
  /** Agent types above the caller (for Agent calls). */
  readonly path?: readonly string[];
  readonly settings?: readonly SettingsRule[];
  readonly task?: TaskConstraints;
  /** More task constraints (per-instance blocks). */
  readonly tasks?: readonly TaskConstraints[];
  /** The caller's agent_id (default a0000000000000001). */
  readonly agentId?: string;
  /** A fake file system for glob expansion: directory → entries. */
  readonly files?: Readonly<Record<string, readonly string[]>>;
  /** The disk the analysis sees (a corpus case's `files:` and `links:`, `caseDisk`); default none. */
  readonly disk?: DiskView;
  /** The work tree's files with uncommitted changes (absolute), for tree-moving git commands. */
  readonly dirty?: readonly string[] | (() => readonly string[]);
  /** The guard's files a checkout of a target removes (policy/evaluate.ts, `guardRemovals`). */
  readonly removals?: (target: string, candidates: readonly string[]) => readonly string[];
}

export function judge(policy: CompiledPolicy, command: string | undefined, options: JudgeOptions = {}): Evaluation {
  const tool = options.tool ?? "Bash";
  const input = options.input ?? { command };
  return evaluate(
    {
      tool,
      input,
      cwd: options.cwd ?? PROJECT,
      projectDir: PROJECT,
      home: HOME,
      agent:
        options.agent === undefined ? undefined : { id: options.agentId ?? "a0000000000000001", type: options.agent },
    },
    evaluationContext(policy, {
      settingsRules: options.settings ?? [],
      tempDirs: ["/tmp", "/var/tmp"],
      agentPath: options.agent === undefined ? [...(options.path ?? [])] : [...(options.path ?? []), options.agent],
      tasks: [...(options.task === undefined ? [] : [options.task]), ...(options.tasks ?? [])],
      ...(options.disk !== undefined && { disk: options.disk }),
      ...(options.dirty !== undefined && {
        dirtyFiles: typeof options.dirty === "function" ? options.dirty : () => options.dirty as readonly string[],
      }),
      ...(options.removals !== undefined && { guardRemovals: options.removals }),
      ...(options.files !== undefined && {
        expandGlob: (pattern: string, dot: boolean) => {
          const dir = pattern.slice(0, pattern.lastIndexOf("/"));
          const name = pattern.slice(pattern.lastIndexOf("/") + 1);
          const glob = compilePathGlob(name, { caseInsensitive: false, dot });
          return (options.files![dir] ?? [])
            .filter((e) => new RegExp(glob.source, glob.flags).test(e))
            .map((e) => `${dir}/${e}`);
        },
      }),
    }),
  );
}

const describeDecision = (e: Evaluation): string =>
  e.decision === undefined
    ? "no opinion"
    : `${e.decision.effect} [${e.decision.ruleIds.join(", ")}] — ${e.decision.matches[0]?.subject}; trace: ${JSON.stringify(e.decision.trace)}`;

export function expectDecision(e: Evaluation, effect: "deny" | "ask" | "none", rules: readonly string[] = []): void {
  const got =
    e.decision === undefined
      ? { effect: "none", rules: [] as string[] }
      : { effect: e.decision.effect, rules: [...e.decision.ruleIds].sort() };
  expect(got, describeDecision(e)).toEqual({ effect, rules: [...rules].sort() });
}

export const expectDenied = (e: Evaluation, ...rules: string[]) => expectDecision(e, "deny", rules);
export const expectAsk = (e: Evaluation, ...rules: string[]) => expectDecision(e, "ask", rules);
export const expectNoOpinion = (e: Evaluation) => expectDecision(e, "none");

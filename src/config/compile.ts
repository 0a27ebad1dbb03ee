/**
 * The compiler: validated policy layers + built-in rules + agent definitions → the compiled
 * policy JSON that the hooks read. Pure (the loader in load.ts does the I/O).
 *
 * Steps, in order:
 * 1. options: for each key the highest layer that sets it wins (user > project > local), then defaults;
 * 2. rules: built-in rules and each layer's rules, with duplicate ids refused;
 * 3. `disable:` lists remove rules of strictly lower layers (a layer cannot switch off a higher one);
 * 4. globs are compiled to regular expressions once, here;
 * 5. agent definitions become lanes (owned paths, tools, MUST NOT rules, spawn and skill permissions).
 */
import { assertNever } from "../host/assert-never.ts";
import type { AgentDefinition } from "../definitions/agent.ts";
import {
  COMPILED_FORMAT,
  DEFAULT_OPTIONS,
  type CompiledAgent,
  type CompiledMatch,
  type CompiledOptions,
  type CompiledPolicy,
  type CompiledRule,
  type CompiledSubagents,
  type DefaultLane,
  type PolicySource,
} from "../policy/compiled.ts";
import { LANE_RULES } from "../policy/lanes.ts";
import { BUILTIN_RULES, OUTSIDE_PROJECT_RULE, type RuleSpec } from "../policy/rules/index.ts";
import { LAYERS, type Layer } from "../policy/types.ts";
import { compileNameGlob, compilePathGlob, compilePathGlobs, type GlobOptions } from "../globs/compile.ts";
import type { CommandMatch } from "../schema/atoms.ts";
import type { PolicyFile, PolicyRule, SubagentMustNot } from "./schema.ts";

/** One lanes policy layer as loaded. */
export interface PolicyLayerInput {
  readonly layer: "user" | "project" | "local";
  readonly path: string;
  /** `undefined` when the file does not exist. */
  readonly file: PolicyFile | undefined;
}

export interface AgentInput {
  readonly path: string;
  readonly definition: AgentDefinition;
}

export interface CompileInput {
  readonly lanesVersion: string;
  readonly layers: readonly PolicyLayerInput[];
  readonly agents: readonly AgentInput[];
  /** Files (with hashes) and directory listings the result depends on; passed through. */
  readonly sources: readonly PolicySource[];
  readonly listings: CompiledPolicy["listings"];
  /** Built-in rules; tests may pass their own. */
  readonly builtin?: readonly RuleSpec[];
  /** `case_insensitive_paths` when no layer sets it (the loader passes the platform's; default false). */
  readonly caseInsensitiveDefault?: boolean;
}

/** A problem that stops compilation, with the file it is about. */
export interface CompileIssue {
  readonly file: string;
  readonly message: string;
}

export type CompileResult = { ok: true; value: CompiledPolicy } | { ok: false; issues: CompileIssue[] };

export const BUILTIN_SOURCE = "lanes built-in";

const list = (v: string | readonly string[]): string[] => (typeof v === "string" ? [v] : [...v]);

function compileCommand(m: CommandMatch, glob: GlobOptions): CompiledMatch {
  return {
    kind: "command",
    program: list(m.program),
    ...(m.args !== undefined && { args: m.args }),
    ...(m.flags_any !== undefined && { flagsAny: m.flags_any }),
    ...(m.flags_all !== undefined && { flagsAll: m.flags_all.map(list) }),
    ...(m.flags_none !== undefined && { flagsNone: m.flags_none }),
    ...(m.words_none !== undefined && { wordsNone: m.words_none }),
    ...(m.option_values !== undefined && { optionValues: m.option_values }),
    ...(m.env !== undefined && { env: m.env }),
    ...(m.double_dash !== undefined && { doubleDash: m.double_dash }),
    ...(m.operands !== undefined && { operands: compilePathGlobs(m.operands, glob) }),
    ...(m.targets !== undefined && { targets: m.targets }),
  };
}

/** Compiles the match of a built-in or `lanes.yaml` rule. */
export function compileMatch(rule: RuleSpec | PolicyRule, glob: GlobOptions): CompiledMatch {
  if ("command" in rule) return compileCommand(rule.command, glob);
  if ("paths" in rule) {
    return {
      kind: "path",
      access: rule.paths.access,
      patterns: compilePathGlobs(rule.paths.patterns, glob),
      except: compilePathGlobs(rule.paths.except ?? [], glob),
    };
  }
  if ("tools" in rule) return { kind: "tools", tools: rule.tools.map(compileNameGlob) };
  if ("delete" in rule)
    return {
      kind: "delete",
      targets: rule.delete.targets,
      ...(rule.delete.dynamic === true && { dynamic: true }),
      ...(rule.delete.filtered === true && { filtered: true }),
    };
  if ("fileEffect" in rule) return { kind: "file-effect", ...rule.fileEffect };
  if ("remoteCode" in rule) return { kind: "remote-code", fetchers: rule.remoteCode.fetchers };
  if ("forkBomb" in rule) return { kind: "fork-bomb" };
  if ("pipe" in rule)
    return {
      kind: "pipe",
      from: rule.pipe.from,
      to: rule.pipe.to,
      ...(rule.pipe.fromArgs !== undefined && { fromArgs: rule.pipe.fromArgs }),
      ...(rule.pipe.fromCodeExcept !== undefined && { fromCodeExcept: rule.pipe.fromCodeExcept }),
    };
  if ("sql" in rule) return { kind: "sql", ...rule.sql };
  if ("send" in rule) return { kind: "send", ...rule.send };
  if ("unrepresentable" in rule) return { kind: "unrepresentable" };
  if ("agentRun" in rule) return { kind: "agent-run", runs: rule.agentRun.runs };
  if ("guardWrite" in rule) return { kind: "guard-write", format: rule.guardWrite.format };
  if ("deferred" in rule) return { kind: "deferred-code", kinds: rule.deferred.kinds };
  return assertNever(rule, "rule kind");
}

function mergeOptions(layers: readonly PolicyLayerInput[], caseInsensitiveDefault?: boolean): CompiledOptions {
  // layers arrive highest first; the first layer that sets a key wins
  const pick = <K extends keyof NonNullable<PolicyFile["options"]>>(key: K) =>
    layers.map((l) => l.file?.options?.[key]).find((v) => v !== undefined);
  return {
    caseInsensitivePaths:
      pick("case_insensitive_paths") ?? caseInsensitiveDefault ?? DEFAULT_OPTIONS.caseInsensitivePaths,
    outsideProjectWrites: pick("outside_project_writes") ?? DEFAULT_OPTIONS.outsideProjectWrites,
    defaultLane:
      layers
        .map((l) => l.file?.subagents?.default_lane ?? l.file?.options?.default_lane)
        .find((v) => v !== undefined) ?? DEFAULT_OPTIONS.defaultLane,
    maxAgentDepth: pick("max_agent_depth") ?? DEFAULT_OPTIONS.maxAgentDepth,
    analysisBudgetMs: pick("analysis_budget_ms") ?? DEFAULT_OPTIONS.analysisBudgetMs,
    auditMaxBytes: pick("audit_max_bytes") ?? DEFAULT_OPTIONS.auditMaxBytes,
    escalateAfter: pick("escalate_after") ?? DEFAULT_OPTIONS.escalateAfter,
    sandbox: pick("sandbox") ?? DEFAULT_OPTIONS.sandbox,
    // host lists add up over the layers: each one trusts more hosts
    uploadHosts: [...new Set(layers.flatMap((l) => l.file?.options?.upload_hosts ?? []))],
    tokenHosts: mergeHosts(layers.map((l) => l.file?.options?.token_hosts ?? {})),
  };
}

/** Host tables by variable name, merged: every table's hosts for a name, in order, once each. */
function mergeHosts(tables: readonly Readonly<Record<string, readonly string[]>>[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const table of tables)
    for (const [name, hosts] of Object.entries(table)) out[name] = [...new Set([...(out[name] ?? []), ...hosts])];
  return out;
}

/**
 * A built-in send rule with the policy's hosts: uploads to `upload_hosts` are trusted, and the
 * token table gains `token_hosts` (names lowercased, as the matcher compares them).
 */
function withPolicyHosts(match: CompiledMatch, options: CompiledOptions): CompiledMatch {
  if (match.kind !== "send") return match;
  if (match.uploads === true && options.uploadHosts.length > 0)
    return { ...match, trusted: [...(match.trusted ?? []), ...options.uploadHosts.map((h) => h.toLowerCase())] };
  if (match.tokens !== undefined && Object.keys(options.tokenHosts).length > 0) {
    const extra = Object.fromEntries(
      Object.entries(options.tokenHosts).map(([name, hosts]) => [
        name.toLowerCase(),
        hosts.map((h) => h.toLowerCase()),
      ]),
    );
    return { ...match, tokens: mergeHosts([match.tokens, extra]) };
  }
  return match;
}

const rank = (layer: Layer): number => LAYERS.indexOf(layer);

/** One MUST NOT rule (of an agent or of every subagent) as compiled rules: one per kind of match. */
function compileMustNot(
  rule: {
    paths?: readonly string[] | undefined;
    command?: CommandMatch | undefined;
    tools?: readonly string[] | undefined;
  },
  base: Omit<CompiledRule, "match">,
  glob: GlobOptions,
): CompiledRule[] {
  const rules: CompiledRule[] = [];
  if (rule.paths !== undefined)
    rules.push({
      ...base,
      match: { kind: "path", access: "read-only", patterns: compilePathGlobs([...rule.paths], glob), except: [] },
    });
  if (rule.command !== undefined) rules.push({ ...base, match: compileCommand(rule.command, glob) });
  if (rule.tools !== undefined)
    rules.push({ ...base, match: { kind: "tools", tools: rule.tools.map(compileNameGlob) } });
  return rules;
}

/** `subagents:` of every layer: lanes and tools.allowed from the highest layer that sets them, forbidden tools and MUST NOT rules from all. */
function compileSubagents(
  layers: readonly PolicyLayerInput[],
  glob: GlobOptions,
  issues: CompileIssue[],
): CompiledSubagents {
  const lanes: Record<string, DefaultLane> = {};
  const forbidden = new Set<string>();
  const mustNot: CompiledRule[] = [];
  let allowed: readonly string[] | undefined;
  for (const layer of layers) {
    const sub = layer.file?.subagents;
    if (sub === undefined) continue;
    for (const [type, lane] of Object.entries(sub.lanes ?? {})) lanes[type] ??= lane;
    allowed ??= sub.tools?.allowed;
    for (const t of sub.tools?.forbidden ?? []) forbidden.add(t);
    for (const rule of sub.must_not ?? ([] as SubagentMustNot[])) {
      const id = `subagents.${rule.id}`;
      if (mustNot.some((r) => r.id === id)) {
        issues.push({
          file: layer.path,
          message: `\`subagents.must_not\` id \`${rule.id}\` is used twice: give each rule its own id`,
        });
        continue;
      }
      const base = {
        id,
        layer: "must-not" as const,
        effect: rule.effect ?? "deny",
        why: `no subagent may ${rule.text.replace(/\.$/, "")}`,
        instead: "hand this part of the task back to whoever started you, with what you needed",
        source: layer.path,
      };
      mustNot.push(...compileMustNot(rule, base, glob));
    }
  }
  return { lanes, toolsAllowed: allowed, toolsForbidden: [...forbidden].sort(), mustNot };
}

function compileAgent(input: AgentInput, glob: GlobOptions): CompiledAgent {
  const d = input.definition;
  const orchestrator = d.role === "orchestrator";
  const mustNot: CompiledRule[] = d.must_not.flatMap((rule): CompiledRule[] => {
    if (rule.id === undefined) return [];
    const base = {
      id: `agent.${d.name}.${rule.id}`,
      layer: "must-not" as const,
      effect: rule.effect ?? "deny",
      why: `${d.name} must not ${rule.text.replace(/\.$/, "")}`,
      instead: "hand this part of the task back to the orchestrator so the agent that owns it can do it",
      source: input.path,
    };
    return compileMustNot(rule, base, glob);
  });
  const skills = d.may_invoke_skills ?? orchestrator;
  return {
    name: d.name,
    role: d.role,
    source: input.path,
    owns: compilePathGlobs(d.owns, glob),
    notOwned: d.does_not_own.map((n) => ({ glob: compilePathGlob(n.path, glob), owner: n.owner })),
    toolsAllowed: d.tools.allowed,
    toolsForbidden: d.tools.forbidden ?? [],
    mustNot,
    maySpawn: d.may_spawn ?? (orchestrator ? ["*"] : []),
    mayInvokeSkills: skills === true ? ["*"] : skills === false ? [] : skills,
  };
}

/** Compiles the policy, or returns every problem found. */
export function compilePolicy(input: CompileInput): CompileResult {
  const issues: CompileIssue[] = [];
  const layers = [...input.layers].sort((a, b) => rank(a.layer) - rank(b.layer));
  const options = mergeOptions(layers, input.caseInsensitiveDefault);
  const glob: GlobOptions = { caseInsensitive: options.caseInsensitivePaths };

  type Entry = { rule: CompiledRule; rank: number };
  const entries: Entry[] = [];
  const seen = new Map<string, string>();
  const add = (spec: RuleSpec | PolicyRule, layer: Layer, source: string) => {
    const previous = seen.get(spec.id);
    if (previous !== undefined) {
      issues.push({
        file: source,
        message: `rule id \`${spec.id}\` is already used in ${previous}: give this rule its own id, or switch the other off with \`disable: [${spec.id}]\``,
      });
      return;
    }
    seen.set(spec.id, source);
    entries.push({
      rule: {
        id: spec.id,
        layer,
        effect: spec.effect,
        ...("subagentEffect" in spec && spec.subagentEffect !== undefined && { subagentEffect: spec.subagentEffect }),
        ...("only" in spec && spec.only !== undefined && { only: spec.only }),
        why: spec.why,
        instead: spec.instead,
        source,
        match: layer === "builtin" ? withPolicyHosts(compileMatch(spec, glob), options) : compileMatch(spec, glob),
      },
      rank: rank(layer),
    });
  };

  for (const layer of layers) for (const rule of layer.file?.rules ?? []) add(rule, layer.layer, layer.path);
  for (const rule of input.builtin ?? BUILTIN_RULES) add(rule, "builtin", BUILTIN_SOURCE);
  if (options.outsideProjectWrites !== "off")
    add({ ...OUTSIDE_PROJECT_RULE, effect: options.outsideProjectWrites }, "builtin", BUILTIN_SOURCE);

  const subagents = compileSubagents(layers, glob, issues);
  const agentRuleIds = new Set([
    ...input.agents.flatMap((a) =>
      a.definition.must_not.flatMap((r) => (r.id === undefined ? [] : [`agent.${a.definition.name}.${r.id}`])),
    ),
    ...subagents.mustNot.map((r) => r.id),
  ]);
  const disabled: { id: string; by: string }[] = [];
  for (const layer of layers) {
    for (const id of layer.file?.disable ?? []) {
      const target = entries.find((e) => e.rule.id === id);
      // lane, task, spawn-tree and MUST NOT rules sit below every policy layer: any layer switches them off
      if (target === undefined && (id in LANE_RULES || agentRuleIds.has(id))) {
        if (!disabled.some((d) => d.id === id)) disabled.push({ id, by: layer.path });
      } else if (target === undefined) {
        issues.push({
          file: layer.path,
          message: `\`disable\` names unknown rule \`${id}\`: run \`lanes rules\` for the ids`,
        });
      } else if (target.rank <= rank(layer.layer)) {
        issues.push({
          file: layer.path,
          message: `\`disable\` cannot switch off \`${id}\` from ${target.rule.source}: a layer only switches off rules of lower layers`,
        });
      } else {
        disabled.push({ id, by: layer.path });
      }
    }
  }

  const names = new Set(input.agents.map((a) => a.definition.name));
  const agents: CompiledAgent[] = [];
  for (const agent of input.agents) {
    for (const n of agent.definition.does_not_own) {
      if (!names.has(n.owner))
        issues.push({
          file: agent.path,
          message: `\`does_not_own\` names owner \`${n.owner}\`, which has no definition: add it or fix the name`,
        });
    }
    for (const target of agent.definition.may_spawn ?? []) {
      if (!names.has(target))
        issues.push({ file: agent.path, message: `\`may_spawn\` names \`${target}\`, which has no definition` });
    }
    agents.push(compileAgent(agent, glob));
  }
  const duplicates = input.agents.filter(
    (a, i) => input.agents.findIndex((b) => b.definition.name === a.definition.name) !== i,
  );
  for (const d of duplicates) issues.push({ file: d.path, message: `agent \`${d.definition.name}\` is defined twice` });

  if (issues.length > 0) return { ok: false, issues };
  const disabledIds = new Set(disabled.map((d) => d.id));
  return {
    ok: true,
    value: {
      format: COMPILED_FORMAT,
      lanes: input.lanesVersion,
      sources: input.sources,
      listings: input.listings,
      options,
      rules: entries
        .filter((e) => !disabledIds.has(e.rule.id))
        .sort((a, b) => a.rank - b.rank)
        .map((e) => e.rule),
      disabled,
      agents: agents.map((a) => ({ ...a, mustNot: a.mustNot.filter((r) => !disabledIds.has(r.id)) })),
      subagents: { ...subagents, mustNot: subagents.mustNot.filter((r) => !disabledIds.has(r.id)) },
      knownAgentTypes: [],
    },
  };
}

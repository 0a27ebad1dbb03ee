/**
 * Loading the policy from disk and compiling it: the user, project and local `lanes.yaml` layers,
 * the agent definitions, and the agent types Claude Code knows. Used by `lanes build`,
 * `lanes init`, `lanes check` and the SessionStart hook — never by the per-call hooks.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AgentDefinition } from "../definitions/agent.ts";
import { formatLoadIssue, parseDefinition } from "../definitions/load.ts";
import { projectPaths, userPaths } from "../host/layout.ts";
import { readOptionalText } from "../host/sandbox-mask.ts";
import { parseFrontmatter } from "../markdown/frontmatter.ts";
import { serializeCompiledPolicy, type CompiledPolicy, type PolicySource } from "../policy/compiled.ts";
import { BUILTIN_AGENT_TYPES } from "../policy/lanes.ts";
import { atomicWriteFile, ensurePrivateDir } from "../io/atomic.ts";
import { listDefinitions, listingOf, sourceFingerprint } from "./policy-file.ts";
import { compilePolicy, type AgentInput, type CompileIssue, type PolicyLayerInput } from "./compile.ts";
import { PolicyFile } from "./schema.ts";

export interface LoadOptions {
  readonly projectDir: string;
  readonly home: string;
  readonly lanesVersion: string;
  /**
   * Agent definitions used when the project has none of its own (`.claude/lanes/agents/`):
   * the pack's `definitions/agents` for plugin installs.
   */
  readonly fallbackAgentsDir?: string;
  /** Skip the user layer (tests, and `--no-user`). */
  readonly skipUser?: boolean;
  /**
   * `case_insensitive_paths` when no layer sets it: by default, whether this platform's file
   * systems are case-insensitive as installed (macOS, Windows).
   */
  readonly caseInsensitiveDefault?: boolean;
}

/** Platforms whose default file systems match names case-insensitively (APFS and HFS+, NTFS). */
const CASE_INSENSITIVE_PLATFORMS: readonly string[] = ["darwin", "win32"];

export type LoadResult = { ok: true; policy: CompiledPolicy } | { ok: false; issues: CompileIssue[] };

function readLayer(layer: PolicyLayerInput["layer"], path: string, issues: CompileIssue[]): PolicyLayerInput {
  // sandbox-aware: inside Claude Code's Bash sandbox a missing layer is an unreadable `/dev/null`
  const text = readOptionalText(path);
  if (text === undefined) return { layer, path, file: undefined };
  const parsed = parseDefinition(PolicyFile, text, path);
  if (!parsed.ok) {
    for (const issue of parsed.issues)
      issues.push({ file: path, message: `${formatLoadIssue(issue)}${issue.fix === "" ? "" : `: ${issue.fix}`}` });
    return { layer, path, file: undefined };
  }
  return { layer, path, file: parsed.value.value };
}

function readAgents(dir: string, issues: CompileIssue[]): AgentInput[] {
  const agents: AgentInput[] = [];
  for (const entry of listDefinitions(dir)) {
    if (!entry.endsWith(".yaml") && !entry.endsWith(".yml")) continue;
    const path = join(dir, entry);
    const parsed = parseDefinition(AgentDefinition, readFileSync(path, "utf8"), path);
    if (parsed.ok) agents.push({ path, definition: parsed.value.value });
    else
      for (const issue of parsed.issues)
        issues.push({ file: path, message: `${formatLoadIssue(issue)}: ${issue.fix}` });
  }
  return agents;
}

/** Names of the agents in a Claude Code agents directory (`name:` of each markdown file). */
function agentNames(dir: string): string[] {
  const names: string[] = [];
  for (const entry of listDefinitions(dir)) {
    if (!entry.endsWith(".md")) continue;
    const parsed = parseFrontmatter(readFileSync(join(dir, entry), "utf8"));
    const name = parsed.ok ? (parsed.value.data as { name?: unknown } | null)?.name : undefined;
    if (typeof name === "string" && name !== "") names.push(name);
  }
  return names;
}

/** The directory agent definitions come from: the project's own, else the fallback. */
export function agentDefinitionsDir(
  options: Pick<LoadOptions, "projectDir" | "fallbackAgentsDir">,
): string | undefined {
  const own = projectPaths(options.projectDir).agentDefinitions;
  if (existsSync(own) && readdirSync(own).length > 0) return own;
  return options.fallbackAgentsDir;
}

/** Loads every source and compiles the policy. */
export function loadPolicy(options: LoadOptions): LoadResult {
  const project = projectPaths(options.projectDir);
  const user = userPaths(options.home);
  const issues: CompileIssue[] = [];
  const layers = [
    ...(options.skipUser === true ? [] : [readLayer("user", user.policy, issues)]),
    readLayer("project", project.policy, issues),
    readLayer("local", project.policyLocal, issues),
  ];
  const agentsDir = agentDefinitionsDir(options);
  const agents = agentsDir === undefined ? [] : readAgents(agentsDir, issues);
  if (issues.length > 0) return { ok: false, issues };

  const watched = [
    ...(options.skipUser === true ? [] : [user.policy]),
    project.policy,
    project.policyLocal,
    ...agents.map((a) => a.path),
  ];
  const sources: PolicySource[] = watched.map((path) => ({ path, ...sourceFingerprint(path) }));
  const listingDirs = [
    ...(agentsDir === undefined ? [] : [agentsDir]),
    project.agents,
    join(options.home, ".claude", "agents"),
  ];
  const listings = [...new Set(listingDirs)].map((dir) => listingOf(dir));
  const known = [
    ...new Set([
      ...BUILTIN_AGENT_TYPES,
      ...agents.map((a) => a.definition.name),
      ...agentNames(project.agents),
      ...agentNames(join(options.home, ".claude", "agents")),
    ]),
  ].sort();

  const compiled = compilePolicy({
    lanesVersion: options.lanesVersion,
    layers,
    agents,
    sources,
    listings,
    caseInsensitiveDefault: options.caseInsensitiveDefault ?? CASE_INSENSITIVE_PLATFORMS.includes(process.platform),
  });
  if (!compiled.ok) return compiled;
  return { ok: true, policy: { ...compiled.value, knownAgentTypes: known } };
}

/** Loads, compiles and writes `.claude/state/policy.json`. */
export function buildPolicy(options: LoadOptions): LoadResult {
  const result = loadPolicy(options);
  if (!result.ok) return result;
  const paths = projectPaths(options.projectDir);
  ensurePrivateDir(paths.state);
  atomicWriteFile(paths.compiledPolicy, serializeCompiledPolicy(result.policy));
  return result;
}

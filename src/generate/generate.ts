/**
 * The whole generation, as `lanes build` and the installer run it: load the definitions, lint them,
 * render every agent and skill (and, for the plugin, the JSON Schemas), then write what changed, or
 * with `check` only report it.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadDefinitionSet, type DefinitionSet } from "../definitions/load.ts";
import { renderAgent } from "./agent.ts";
import { writesOwnMemory } from "../policy/memory-lane.ts";
import type { RenderContext, RenderTarget } from "./context.ts";
import type { Finding } from "./lint.ts";
import { lintTeam } from "./team.ts";
import { renderJsonSchemas } from "./schemas.ts";
import { renderSkill, type SkillRenderContext, type SkillSummary } from "./skill.ts";
import { applyWrites, planWrites, type FileChange, type OutputFile } from "./write.ts";

/** Options of {@link generate}. */
export interface GenerateOptions {
  /** The repository (plugin) or project root. */
  readonly root: string;
  readonly target: RenderTarget;
  /** Where the definitions are; default `<root>/definitions` (plugin) or `<root>/.claude/lanes` (project). */
  readonly definitionsDir?: string;
  /** Where `agents/` and `skills/` go; default `<root>` (plugin) or `<root>/.claude` (project). */
  readonly outDir?: string;
  /** Also render `schemas/*.schema.json` into `outDir`; default true for the plugin. */
  readonly schemas?: boolean;
  /** Report what would change without writing. */
  readonly check?: boolean;
}

/** What {@link generate} did or would do. */
export interface GenerateResult {
  /** Lint findings (load problems included). With an error among them nothing is rendered. */
  readonly findings: readonly Finding[];
  /** Planned changes, relative to `outDir`; empty when a finding is an error. */
  readonly changes: readonly FileChange[];
  /** Whether the changes were written (false with `check` or errors). */
  readonly written: boolean;
  readonly outDir: string;
  readonly definitionsDir: string;
}

/** Default folders of a target. */
export function defaultDirs(root: string, target: RenderTarget): { definitionsDir: string; outDir: string } {
  return target === "plugin"
    ? { definitionsDir: join(root, "definitions"), outDir: root }
    : { definitionsDir: join(root, ".claude", "lanes"), outDir: join(root, ".claude") };
}

/** The target whose definitions exist under `root`: `definitions/` → plugin, `.claude/lanes/` → project. */
export function detectTarget(root: string): RenderTarget | undefined {
  if (existsSync(join(root, "definitions"))) return "plugin";
  if (existsSync(join(root, ".claude", "lanes"))) return "project";
  return undefined;
}

/** Where the definitions are, from a command's `--root` and `--target`; `usage` marks a bad option value. */
export type LocatedRoot =
  { ok: true; root: string; target: RenderTarget } | { ok: false; message: string; usage: boolean };

/** Resolves `root` against `cwd` and the target (given, or detected from the folders present). */
export function locateRoot(
  cwd: string,
  options: { root?: string | undefined; target?: string | undefined },
): LocatedRoot {
  const root = resolve(cwd, options.root ?? ".");
  if (options.target === "plugin" || options.target === "project") return { ok: true, root, target: options.target };
  if (options.target !== undefined)
    return { ok: false, message: `unknown target \`${options.target}\`: use \`plugin\` or \`project\``, usage: true };
  const target = detectTarget(root);
  if (target === undefined)
    return {
      ok: false,
      message: `no definitions in \`${root}\`: expected \`definitions/\` (the plugin) or \`.claude/lanes/\` (a project)`,
      usage: false,
    };
  return { ok: true, root, target };
}

/** What a skill's render knows about the rest of the set: the other skills, and which agents write their own memory files. Pure. */
export function skillContext(set: DefinitionSet, ctx: RenderContext): SkillRenderContext {
  return {
    ...ctx,
    skills: new Map<string, SkillSummary>(
      set.skills.map((s) => [s.value.id, { name: s.value.name, model_invocable: s.value.model_invocable }]),
    ),
    agentsWritingMemory: new Map(set.agents.map((a) => [a.value.name, writesOwnMemory(a.value.tools)])),
  };
}

/**
 * The pack's skills as `lanes init` installed them into a project: those with a copy in
 * `<definitions>/base/skills/` (the version installed last, for the three-way upgrade). The plugin's
 * own definitions have none: there every skill is the team's, and a missing agent is an error.
 */
export function shippedSkills(definitionsDir: string): ReadonlySet<string> {
  const base = join(definitionsDir, "base", "skills");
  try {
    return new Set(readdirSync(base).filter((id) => existsSync(join(base, id, "skill.yaml"))));
  } catch {
    return new Set();
  }
}

/** Renders every file of a loaded set. Pure. */
export function renderAll(set: DefinitionSet, ctx: RenderContext, options: { schemas: boolean }): OutputFile[] {
  const skillCtx = skillContext(set, ctx);
  const files: OutputFile[] = [
    ...set.agents.map((a) => ({ path: `agents/${a.value.name}.md`, content: renderAgent(a.value, ctx) })),
    ...set.skills.flatMap((s) => [
      { path: `skills/${s.value.id}/SKILL.md`, content: renderSkill(s.value, skillCtx) },
      ...s.references.map((r) => ({ path: `skills/${s.value.id}/references/${r.file}`, content: r.content })),
      ...(s.resources ?? []).map((r) => ({ path: `skills/${s.value.id}/resources/${r.file}`, content: r.content })),
    ]),
    ...(options.schemas ? renderJsonSchemas() : []),
  ];
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/** Loads, lints, renders and (unless `check`) writes. File names in findings are relative to `root`. */
export function generate(options: GenerateOptions): GenerateResult {
  const dirs = defaultDirs(options.root, options.target);
  const definitionsDir = options.definitionsDir ?? dirs.definitionsDir;
  const outDir = options.outDir ?? dirs.outDir;
  const { set, findings } = lintTeam(loadDefinitionSet(definitionsDir, options.root), shippedSkills(definitionsDir));
  if (findings.some((f) => f.severity === "error"))
    return { findings, changes: [], written: false, outDir, definitionsDir };
  const files = renderAll(set, { target: options.target }, { schemas: options.schemas ?? options.target === "plugin" });
  const changes = planWrites(outDir, files);
  const write = options.check !== true;
  if (write) applyWrites(outDir, changes);
  return { findings, changes, written: write, outDir, definitionsDir };
}

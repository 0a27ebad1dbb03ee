/**
 * The generator's public surface: renderers, lint, handoff matching and context, the writer and
 * `generate`. Re-exports only.
 */
export { renderAgent, agentFrontmatter } from "./agent.ts";
export { renderSkill, renderSkillFrontmatter, skillFrontmatter, type SkillRenderContext, type SkillSummary } from "./skill.ts";
export { PLUGIN_NAME, agentRef, cliCommand, definitionPath, expandPlaceholders, isGenerated, skillFile, skillRef, type RenderContext, type RenderTarget } from "./context.ts";
export { findMatchingHandoff, matchTrigger, matchesAlternative, sortedHandoffs, triggerAlternatives, type FindHandoffOptions, type HandoffMatch } from "./handoff.ts";
export { DEFAULT_CONTEXT_LIMIT, TRUNCATION_MARKER, renderHandoffContext, summarizeContext, type HandoffContextInput, type Summary } from "./handoff-context.ts";
export { FINDING_IDS, FRONTMATTER_LIMIT, VAGUE_WORDS, formatFindings, lint, type Finding, type FindingId } from "./lint.ts";
export { globsOverlap } from "../globs/overlap.ts";
export { SCHEMA_FILES, renderJsonSchema, renderJsonSchemas, schemaComment, type SchemaFile } from "./schemas.ts";
export { applyWrites, planWrites, type FileChange, type OutputFile } from "./write.ts";
export { defaultDirs, detectTarget, generate, locateRoot, renderAll, type GenerateOptions, type GenerateResult, type LocatedRoot } from "./generate.ts";

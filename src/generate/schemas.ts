/**
 * JSON Schemas for editors, generated from the zod schemas (the single source of truth) and
 * committed under `schemas/`; a test fails when they drift. Definition files point at them with a
 * `# yaml-language-server: $schema=...` comment on their first line. Pure.
 */
import { z } from "zod";
import { PolicyFile } from "../config/schema.ts";
import { TestFile } from "../config/test-schema.ts";
import { AgentDefinition } from "../definitions/agent.ts";
import { SkillDefinition } from "../definitions/skill.ts";

/** The generated schema files, relative to the repository root, with their zod source. */
export const SCHEMA_FILES = {
  "schemas/agent.schema.json": AgentDefinition,
  "schemas/skill.schema.json": SkillDefinition,
  "schemas/lanes.schema.json": PolicyFile,
  "schemas/lanes-test.schema.json": TestFile,
} as const;

/** A schema file path of {@link SCHEMA_FILES}. */
export type SchemaFile = keyof typeof SCHEMA_FILES;

/**
 * Renders one JSON Schema. Draft 7 is what yaml-language-server understands best; `io: "input"`
 * describes what people write (fields with defaults are optional).
 */
export function renderJsonSchema(file: SchemaFile): string {
  const schema = z.toJSONSchema(SCHEMA_FILES[file], { io: "input", target: "draft-7", unrepresentable: "any" });
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** Every schema file with its content. */
export function renderJsonSchemas(): { path: SchemaFile; content: string }[] {
  return (Object.keys(SCHEMA_FILES) as SchemaFile[]).map((path) => ({ path, content: renderJsonSchema(path) }));
}

/** The first line of a definition file: the schema comment for yaml-language-server, relative to the file's folder. */
export function schemaComment(kind: "agent" | "skill", relativePathToSchemas: string): string {
  return `# yaml-language-server: $schema=${relativePathToSchemas.replace(/\/$/, "")}/${kind}.schema.json`;
}

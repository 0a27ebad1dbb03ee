import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderJsonSchema, SCHEMA_FILES, type SchemaFile } from "../../src/generate/schemas.ts";

const ROOT = join(import.meta.dirname, "../..");
const files = Object.keys(SCHEMA_FILES) as SchemaFile[];

/** Every property of every object in a JSON Schema, with its path. */
function properties(node: unknown, path = ""): [string, Record<string, unknown>][] {
  if (typeof node !== "object" || node === null) return [];
  if (Array.isArray(node)) return node.flatMap((n, i) => properties(n, `${path}[${i}]`));
  const record = node as Record<string, unknown>;
  const own = Object.entries((record["properties"] as Record<string, Record<string, unknown>> | undefined) ?? {}).map(
    ([key, value]): [string, Record<string, unknown>] => [`${path}.${key}`, value],
  );
  return [...own, ...Object.entries(record).flatMap(([key, value]) => properties(value, `${path}/${key}`))];
}

describe("JSON Schemas for editors", () => {
  it.each(files)("%s matches the zod schema it is generated from", async (file) => {
    // the committed file is the golden file: `lanes build` (or `vitest -u`) refreshes it
    await expect(renderJsonSchema(file)).toMatchFileSnapshot(join(ROOT, file));
  });

  it.each(["schemas/agent.schema.json", "schemas/skill.schema.json"] as const)(
    "%s describes every field of the definitions",
    (file) => {
      const schema: unknown = JSON.parse(readFileSync(join(ROOT, file), "utf8"));
      const missing = properties(schema)
        .filter(([path, value]) => !path.endsWith(".$schema") && typeof value["description"] !== "string")
        .map(([path]) => path);
      expect(missing).toEqual([]);
    },
  );

  it("describes what people write: fields with defaults are optional", () => {
    const schema = JSON.parse(renderJsonSchema("schemas/skill.schema.json")) as {
      required: string[];
      additionalProperties: boolean;
    };
    expect(schema.required).toEqual(["id", "name", "description", "identity", "owns"]);
    expect(schema.additionalProperties).toBe(false);
  });
});

/**
 * Loading agent and skill definitions: YAML through the `yaml` document API (so every value keeps
 * its line), then the zod schema. Problems come back as values with a file, a line, what was
 * expected and what was found, e.g.
 * `definitions/skills/api/skill.yaml:12: handoffs[0].priority: expected at most 9, received 12`.
 *
 * {@link parseDefinition} is pure; {@link loadDefinitionSet} is the only function here that reads
 * the file system.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from "yaml";
import { z } from "zod";
import { AgentDefinition } from "./agent.ts";
import { SkillDefinition } from "./skill.ts";

/** Ids of the problems the loader reports (lint adds its own). */
export type LoadIssueId =
  "invalid-yaml" | "invalid-definition" | "unknown-key" | "name-not-kebab" | "description-too-long";

/** One problem found while loading a definition. */
export interface LoadIssue {
  readonly id: LoadIssueId;
  /** The file, relative to the directory the set was loaded from (or as given). */
  readonly file: string;
  /** 1-based line, when known. */
  readonly line?: number;
  /** One line: `path: expected X, received Y`. */
  readonly message: string;
  /** What to do about it, one line. */
  readonly fix: string;
}

/** A path inside a definition, as zod reports it. */
export type ValuePath = readonly PropertyKey[];

/** A validated definition with where it came from. */
export interface Located<T> {
  readonly value: T;
  /** The file, relative to the directory the set was loaded from (or as given). */
  readonly file: string;
  /** The 1-based line of the value at `path` (or of its closest existing parent). */
  readonly line: (path: ValuePath) => number | undefined;
  /** The raw text, to check the `yaml-language-server` comment. */
  readonly text: string;
}

/** A skill with the files of its `references/` folder. */
export interface LocatedSkill extends Located<SkillDefinition> {
  /** Name of the skill's folder (should equal `id`). */
  readonly dir: string;
  /** Files in `references/`, sorted by name. */
  readonly references: readonly { readonly file: string; readonly content: string }[];
  /** Files in `resources/` (reference material, phase scripts), sorted by name. */
  readonly resources?: readonly { readonly file: string; readonly content: string }[];
}

/** A located agent; its file name (without `.yaml`) should equal `name`. */
export interface LocatedAgent extends Located<AgentDefinition> {
  /** File name without `.yaml`. */
  readonly stem: string;
}

/** Every definition of one directory, plus what could not be loaded. */
export interface DefinitionSet {
  readonly agents: readonly LocatedAgent[];
  readonly skills: readonly LocatedSkill[];
  readonly issues: readonly LoadIssue[];
}

/** A located definition, or every problem found. */
export type ParseResult<T> = { ok: true; value: Located<T> } | { ok: false; issues: LoadIssue[] };

const YAML_OPTIONS = { prettyErrors: true, strict: true, uniqueKeys: true } as const;

/** Parses and validates one definition. Pure; never throws. */
export function parseDefinition<S extends z.ZodType>(schema: S, text: string, file: string): ParseResult<z.infer<S>> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...YAML_OPTIONS, lineCounter });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      issues: doc.errors.map((error) => ({
        id: "invalid-yaml" as const,
        file,
        ...(error.linePos?.[0] !== undefined ? { line: error.linePos[0].line } : {}),
        message: `not valid YAML: ${lowerFirst(error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, ""))}`,
        fix: "fix the YAML syntax (indentation, quoting, duplicate keys)",
      })),
    };
  }
  const data: unknown = doc.toJS();
  const line = (path: ValuePath, key = false): number | undefined => {
    const offset = locate(doc, path, key);
    return offset === undefined ? undefined : lineCounter.linePos(offset).line;
  };
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return {
      ok: false,
      issues: [
        {
          id: "invalid-definition",
          file,
          line: 1,
          message: `expected a mapping of keys to values, received ${kindOf(data)}`,
          fix: "write the definition as `key: value` lines",
        },
      ],
    };
  }
  const result = schema.safeParse(data);
  if (result.success)
    return { ok: true, value: { value: result.data as z.infer<S>, file, line: (path) => line(path), text } };
  const issues = result.error.issues.flatMap((issue) => describeIssue(schema, issue, data, file, line));
  return { ok: false, issues };
}

/**
 * Loads `<dir>/agents/*.yaml` and `<dir>/skills/<id>/skill.yaml` (with `references/*.md`).
 * File names in results are relative to `displayRoot` (default: `dir`). A missing folder is empty.
 */
export function loadDefinitionSet(dir: string, displayRoot: string = dir): DefinitionSet {
  const agents: LocatedAgent[] = [];
  const skills: LocatedSkill[] = [];
  const issues: LoadIssue[] = [];
  const show = (path: string) => relative(displayRoot, path).split("\\").join("/");

  const agentsDir = join(dir, "agents");
  for (const entry of listDir(agentsDir)) {
    if (!entry.endsWith(".yaml")) continue;
    const path = join(agentsDir, entry);
    const parsed = parseDefinition(AgentDefinition, readFileSync(path, "utf8"), show(path));
    if (parsed.ok) agents.push({ ...parsed.value, stem: entry.slice(0, -".yaml".length) });
    else issues.push(...parsed.issues);
  }

  const skillsDir = join(dir, "skills");
  for (const entry of listDir(skillsDir)) {
    const skillDir = join(skillsDir, entry);
    if (!statSync(skillDir).isDirectory()) continue;
    const path = join(skillDir, "skill.yaml");
    if (!existsSync(path)) {
      issues.push({
        id: "invalid-definition",
        file: show(skillDir),
        message: "a skill folder without `skill.yaml`",
        fix: `add \`${show(path)}\` or remove the folder`,
      });
      continue;
    }
    const parsed = parseDefinition(SkillDefinition, readFileSync(path, "utf8"), show(path));
    if (!parsed.ok) {
      issues.push(...parsed.issues);
      continue;
    }
    const referencesDir = join(skillDir, "references");
    const references = listDir(referencesDir)
      .filter((file) => file.endsWith(".md"))
      .map((file) => ({ file, content: readFileSync(join(referencesDir, file), "utf8") }));
    const resourcesDir = join(skillDir, "resources");
    const resources = listDir(resourcesDir)
      .filter((file) => statSync(join(resourcesDir, file)).isFile())
      .map((file) => ({ file, content: readFileSync(join(resourcesDir, file), "utf8") }));
    skills.push({ ...parsed.value, dir: entry, references, resources });
  }
  return { agents, skills, issues };
}

/** Formats an issue as `file:line: message` (the first line a user sees). */
export function formatLoadIssue(issue: Pick<LoadIssue, "file" | "line" | "message">): string {
  return `${issue.file}${issue.line === undefined ? "" : `:${issue.line}`}: ${issue.message}`;
}

/** `handoffs[0].to` */
export function formatPath(path: ValuePath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function listDir(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort();
}

/** Offset of the node at `path`, or of the key when `key` is set, else of the closest parent. */
function locate(doc: Document, path: ValuePath, key: boolean): number | undefined {
  let node: unknown = doc.contents;
  let best: number | undefined = rangeStart(node);
  for (const [index, segment] of path.entries()) {
    const last = index === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === segment);
      if (pair === undefined) return best;
      if (key && last) return rangeStart(pair.key) ?? best;
      node = pair.value ?? pair.key;
    } else if (isSeq(node) && typeof segment === "number") {
      node = node.items[segment];
      if (node === undefined) return best;
    } else {
      return best;
    }
    best = rangeStart(node) ?? best;
  }
  return best;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range === undefined || range === null ? undefined : range[0];
}

function valueAt(data: unknown, path: ValuePath): unknown {
  let value = data;
  for (const segment of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return typeof value;
}

const TYPE_NAMES: Record<string, string> = { array: "a list", object: "a mapping", int: "an integer" };

function quoted(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return kindOf(value);
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/** Keys a strict object allows at `path` of `schema`, for "did you mean" hints. */
function allowedKeys(schema: z.ZodType, path: ValuePath): string[] {
  let current: z.ZodType | undefined = schema;
  const unwrap = (s: z.ZodType): z.ZodType => {
    let inner: z.ZodType = s;
    for (;;) {
      if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
      else if (inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
      else return inner;
    }
  };
  // the object shapes a value may take: a union (a rule is a command, paths, tools... rule) offers each option's
  const shapes = (s: z.ZodType): z.ZodObject[] => {
    const inner = unwrap(s);
    if (inner instanceof z.ZodObject) return [inner];
    if (inner instanceof z.ZodUnion) return (inner.options as z.ZodType[]).flatMap(shapes);
    if (inner instanceof z.ZodIntersection)
      return [...shapes(inner.def.left as z.ZodType), ...shapes(inner.def.right as z.ZodType)];
    return [];
  };
  for (const segment of path) {
    current = unwrap(current);
    if (typeof segment === "string")
      current = shapes(current)
        .map((o) => (o.shape as Record<string, z.ZodType>)[segment])
        .find((f) => f !== undefined);
    else if (current instanceof z.ZodArray) current = current.element as z.ZodType;
    else return [];
    if (current === undefined) return [];
  }
  return [...new Set(shapes(current).flatMap((o) => Object.keys(o.shape as Record<string, unknown>)))];
}

/** Keys found in some forms of the union at `path` but not in all: the ones that choose the form. */
function alternativeKeys(schema: z.ZodType, path: ValuePath): string[] {
  const all = allowedKeys(schema, path);
  const forms = formsAt(schema, path);
  return forms.length < 2 ? [] : all.filter((k) => !forms.every((keys) => keys.includes(k)));
}

/** The key sets of each object form the value at `path` may take. */
function formsAt(schema: z.ZodType, path: ValuePath): string[][] {
  let current: z.ZodType | undefined = schema;
  const unwrap = (s: z.ZodType): z.ZodType =>
    s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault
      ? unwrap(s.unwrap() as z.ZodType)
      : s;
  for (const segment of path) {
    if (current === undefined) return [];
    const inner: z.ZodType = unwrap(current);
    if (inner instanceof z.ZodArray && typeof segment === "number") current = inner.element as z.ZodType;
    else if (inner instanceof z.ZodObject && typeof segment === "string")
      current = (inner.shape as Record<string, z.ZodType>)[segment];
    else return [];
  }
  if (current === undefined) return [];
  const inner = unwrap(current);
  return inner instanceof z.ZodUnion
    ? (inner.options as z.ZodType[]).map((o) => allowedKeysOf(o))
    : [allowedKeysOf(inner)];
}

const allowedKeysOf = (s: z.ZodType): string[] => allowedKeys(s, []);

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = saved;
    }
  }
  return row[b.length]!;
}

/** A kebab-case spelling of `name`, for the fix of `name-not-kebab`. */
export function toKebab(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function describeIssue(
  schema: z.ZodType,
  issue: z.core.$ZodIssue,
  data: unknown,
  file: string,
  line: (path: ValuePath, key?: boolean) => number | undefined,
): LoadIssue[] {
  const path = issue.path;
  const where = formatPath(path);
  const prefix = where === "" ? "" : `${where}: `;
  const value = valueAt(data, path);
  const at = (p: ValuePath, key = false) => {
    const l = line(p, key);
    return l === undefined ? {} : { line: l };
  };
  switch (issue.code) {
    case "unrecognized_keys": {
      const allowed = allowedKeys(schema, path).filter((k) => k !== "$schema");
      const present = value !== null && typeof value === "object" ? Object.keys(value) : [];
      return issue.keys.map((key) => {
        // a key of another form of this item (a rule with both `command` and `paths`)
        if (allowed.includes(key)) {
          const others = present.filter(
            (k) => k !== key && !issue.keys.includes(k) && alternativeKeys(schema, path).includes(k),
          );
          return {
            id: "unknown-key" as const,
            file,
            ...at([...path, key], true),
            message: `${prefix}\`${key}\` cannot be used together with ${others.map((k) => `\`${k}\``).join(", ") || "the other keys here"}`,
            fix: `keep one of ${alternativeKeys(schema, path)
              .map((k) => `\`${k}\``)
              .join(", ")}; split the item in two if you mean both`,
          };
        }
        const near = allowed.map((k) => [k, distance(k, key)] as const).sort((a, b) => a[1] - b[1])[0];
        const hint =
          near !== undefined && near[1] <= Math.max(2, Math.floor(key.length / 3))
            ? `rename it to \`${near[0]}\``
            : "remove it";
        return {
          id: "unknown-key" as const,
          file,
          ...at([...path, key], true),
          message: `${prefix}unknown key \`${key}\``,
          fix: `${hint}; allowed keys here: ${allowed.join(", ")}`,
        };
      });
    }
    case "invalid_type": {
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      return [
        {
          id: "invalid-definition",
          file,
          ...at(path),
          message: `${prefix}expected ${expected}, received ${kindOf(value)}`,
          fix: value === undefined ? `add \`${String(path.at(-1) ?? "")}\`` : `write ${expected} here`,
        },
      ];
    }
    case "too_big":
    case "too_small": {
      const bound = issue.code === "too_big" ? "at most" : "at least";
      const limit = Number(issue.code === "too_big" ? issue.maximum : issue.minimum);
      const unit =
        issue.origin === "string"
          ? " characters"
          : issue.origin === "array"
            ? limit === 1
              ? " entry"
              : " entries"
            : "";
      const actual = typeof value === "string" || Array.isArray(value) ? value.length : value;
      const isDescription = issue.code === "too_big" && path.length === 1 && path[0] === "description";
      return [
        {
          id: isDescription ? "description-too-long" : "invalid-definition",
          file,
          ...at(path),
          message: `${prefix}expected ${bound} ${limit}${unit}, received ${String(actual)}`,
          fix: isDescription
            ? `shorten the description to ${limit} characters: say when to use it and move the rest to the body`
            : `write ${bound} ${limit}${unit} here`,
        },
      ];
    }
    case "invalid_format": {
      const kebab = issue.message.startsWith("names are kebab-case");
      return [
        {
          id: kebab ? "name-not-kebab" : "invalid-definition",
          file,
          ...at(path),
          message: `${prefix}${issue.message}, received ${quoted(value)}`,
          fix:
            kebab && typeof value === "string" && toKebab(value) !== ""
              ? `rename it to \`${toKebab(value)}\` (and its file or folder)`
              : "change the value to the expected format",
        },
      ];
    }
    case "invalid_value":
      return [
        {
          id: "invalid-definition",
          file,
          ...at(path),
          message: `${prefix}expected one of ${issue.values.map(String).join(", ")}, received ${quoted(value)}`,
          fix: "use one of the listed values",
        },
      ];
    case "invalid_union": {
      // a mapping that fits exactly one form of the union (its keys): that form's own problems, at their own lines
      if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        const fits = issue.errors.filter(
          (errors) => !errors.some((e) => e.code === "unrecognized_keys" && e.path.length === 0),
        );
        if (fits.length === 1 && fits[0]!.length > 0)
          return fits[0]!.flatMap((e) =>
            describeIssue(schema, { ...e, path: [...path, ...e.path] } as z.core.$ZodIssue, data, file, line),
          );
      }
      const expected = [
        ...new Set(
          issue.errors
            .map((errors) => errors[0])
            .filter((e) => e?.code === "invalid_type")
            .map((e) => TYPE_NAMES[(e as { expected: string }).expected] ?? (e as { expected: string }).expected),
        ),
      ];
      return [
        {
          id: "invalid-definition",
          file,
          ...at(path),
          message: `${prefix}expected ${expected.length > 0 ? expected.join(" or ") : "one of the allowed forms"}, received ${kindOf(value)}`,
          fix: "see the field's description in the JSON Schema",
        },
      ];
    }
    default:
      return [
        {
          id: "invalid-definition",
          file,
          ...at(path),
          message: `${prefix}${lowerFirst(issue.message)}`,
          fix: "see the field's description in the JSON Schema",
        },
      ];
  }
}

/**
 * Project context detection: what a progress file records about the project
 * so experts adapt to it. {@link projectContextFromFiles} is pure; {@link detectProjectContext}
 * reads the files. Manifests are read leniently: a file that does not parse contributes nothing.
 */
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import YAML from "yaml";
import type { ProjectContext } from "./progress-schema.ts";

/** The files detection looks at, relative to the project root, in order of precedence for the name. */
export const CONTEXT_FILES = [
  "CLAUDE.md",
  ".claude/CLAUDE.md",
  "package.json",
  "tsconfig.json",
  "pyproject.toml",
  "Cargo.toml",
  "go.mod",
  "docker-compose.yml",
  "docker-compose.yaml",
  "compose.yml",
  "compose.yaml",
] as const;

/** The contents of the context files that exist, by relative path. */
export type ContextFiles = Partial<Record<(typeof CONTEXT_FILES)[number], string>>;

/** The first `# heading` of a markdown file. */
function firstHeading(markdown: string): string | undefined {
  for (const line of markdown.split("\n")) {
    const match = /^#\s+(.+?)\s*#*\s*$/.exec(line);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

/** `key = "value"` inside `[section]` of a TOML file; enough for a manifest's name, no TOML parser needed. */
function tomlString(toml: string, sections: readonly string[], key: string): string | undefined {
  let section = "";
  for (const raw of toml.split("\n")) {
    const line = raw.trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header?.[1] !== undefined) {
      section = header[1].trim();
      continue;
    }
    if (!sections.includes(section)) continue;
    const match = new RegExp(`^${key}\\s*=\\s*["']([^"']+)["']`).exec(line);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

function parseJsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function composeServices(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  try {
    const doc: unknown = YAML.parse(text);
    const services = typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>).services : undefined;
    return typeof services === "object" && services !== null && !Array.isArray(services)
      ? Object.keys(services)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The project context from the files found under `root` (pure). */
export function projectContextFromFiles(root: string, files: ContextFiles): ProjectContext {
  const detected = CONTEXT_FILES.filter((f) => files[f] !== undefined);
  const pkg = parseJsonObject(files["package.json"]);
  const claude = files["CLAUDE.md"] ?? files[".claude/CLAUDE.md"];
  const pyproject = files["pyproject.toml"];
  const cargo = files["Cargo.toml"];
  const gomod = files["go.mod"];
  const names = [
    claude === undefined ? undefined : firstHeading(claude),
    typeof pkg?.name === "string" ? pkg.name : undefined,
    pyproject === undefined ? undefined : tomlString(pyproject, ["project", "tool.poetry"], "name"),
    cargo === undefined ? undefined : tomlString(cargo, ["package"], "name"),
    gomod === undefined ? undefined : /^module\s+(\S+)/m.exec(gomod)?.[1],
  ];
  const name = names.find((n) => n !== undefined && n.trim() !== "") ?? (basename(root) || root);

  const languages: string[] = [];
  if (pkg !== undefined) languages.push("javascript");
  if (files["tsconfig.json"] !== undefined) languages.push("typescript");
  if (pyproject !== undefined) languages.push("python");
  if (cargo !== undefined) languages.push("rust");
  if (gomod !== undefined) languages.push("go");
  const scripts = typeof pkg?.scripts === "object" && pkg.scripts !== null ? Object.keys(pkg.scripts) : undefined;
  const services = composeServices(
    files["docker-compose.yml"] ?? files["docker-compose.yaml"] ?? files["compose.yml"] ?? files["compose.yaml"],
  );

  return {
    name: name.trim(),
    root,
    detected_from: detected,
    ...(languages.length > 0 ? { languages } : {}),
    ...(scripts !== undefined && scripts.length > 0 ? { scripts } : {}),
    ...(services !== undefined && services.length > 0 ? { services } : {}),
  };
}

/** Reads the context files under `root` and detects its context. Unreadable files are skipped. */
export function detectProjectContext(root: string): ProjectContext {
  const files: ContextFiles = {};
  for (const name of CONTEXT_FILES) {
    try {
      files[name] = readFileSync(join(root, name), "utf8");
    } catch {
      // absent or unreadable: not part of the context
    }
  }
  return projectContextFromFiles(root, files);
}

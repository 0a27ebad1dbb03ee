/**
 * The parts of a package.json that run code: its `scripts` (with the line each is written on),
 * and what tells which package manager runs them. Also deno.json(c) `tasks` and composer.json
 * `scripts`, which are the same shape.
 */
import { cached } from "./cache.ts";

/** One script: its name, its shell code and the line of package.json it is written on. */
export interface PackageScript {
  readonly name: string;
  readonly code: string;
  readonly line: number;
}

/** What a package.json holds that runs code. */
export interface PackageJson {
  /** `undefined` when the file is not a JSON object (a package manager refuses it: nothing runs). */
  readonly scripts: ReadonlyMap<string, PackageScript> | undefined;
  /** The package's `name`. */
  readonly name: string | undefined;
  /** `packageManager` (`yarn@4.1.0`), when given. */
  readonly packageManager: string | undefined;
  /** The workspaces' globs (`workspaces`, or `workspaces.packages`). */
  readonly workspaces: readonly string[];
}

/** The line (1-based) of the first `"key"` followed by `:` at or after `from` in `text`. */
function lineOf(text: string, key: string, from: number): number {
  const quoted = JSON.stringify(key);
  let at = text.indexOf(quoted, from);
  while (at >= 0) {
    let i = at + quoted.length;
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
    if (text[i] === ":") break;
    at = text.indexOf(quoted, at + 1);
  }
  if (at < 0) return 1;
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Strips `//` and `/* *\/` comments outside strings (deno.jsonc). */
function withoutComments(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
      continue;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const skipped = text.slice(i, end < 0 ? text.length : end + 2);
      out += skipped.replace(/[^\n]/g, " ");
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    out += c;
  }
  return out;
}

/**
 * Reads the scripts of a package.json (`key` `scripts`), a deno.json (`tasks`, whose entries may
 * be `{ command }` objects) or a composer.json (`scripts`, whose entries may be lists of commands).
 */
export function readPackageJson(text: string, key = "scripts"): PackageJson {
  return cached(`package-json:${key}`, text, () => {
    let data: unknown;
    try {
      data = JSON.parse(key === "tasks" ? withoutComments(text) : text);
    } catch {
      return { scripts: undefined, name: undefined, packageManager: undefined, workspaces: [] };
    }
    if (!isObject(data)) return { scripts: undefined, name: undefined, packageManager: undefined, workspaces: [] };
    const scripts = new Map<string, PackageScript>();
    const table = data[key];
    const from = Math.max(0, text.indexOf(JSON.stringify(key)));
    if (isObject(table))
      for (const [name, value] of Object.entries(table)) {
        const code =
          typeof value === "string"
            ? value
            : Array.isArray(value) && value.every((v) => typeof v === "string")
              ? value.join("\n")
              : isObject(value) && typeof value["command"] === "string"
                ? value["command"]
                : undefined;
        if (code !== undefined) scripts.set(name, { name, code, line: lineOf(text, name, from) });
      }
    const spaces = data["workspaces"];
    const globs = Array.isArray(spaces) ? spaces : isObject(spaces) ? spaces["packages"] : undefined;
    return {
      scripts,
      name: typeof data["name"] === "string" ? data["name"] : undefined,
      packageManager: typeof data["packageManager"] === "string" ? data["packageManager"] : undefined,
      workspaces: Array.isArray(globs) ? globs.filter((g): g is string => typeof g === "string") : [],
    };
  });
}

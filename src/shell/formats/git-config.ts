/**
 * Git's configuration files (`.git/config`, `~/.gitconfig`): `[section]` and
 * `[section "subsection"]` headers, `key = value` lines (a bare `key` is true), quotes, escapes,
 * continuations and `#`/`;` comments, read into `section.key` (lower case; a subsection keeps its
 * case) → the last value. Includes are not followed.
 */
import { cached } from "./cache.ts";

/** Reads a git config file's text (cached by content). */
export function readGitConfig(text: string): ReadonlyMap<string, string> {
  return cached("git-config", text, () => {
    const out = new Map<string, string>();
    let section = "";
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      let line = (lines[i] as string).trim();
      if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
      if (line.startsWith("[")) {
        const end = line.indexOf("]");
        if (end < 0) continue;
        const header = line.slice(1, end).trim();
        const space = header.search(/[ \t]/);
        section =
          space < 0
            ? header.toLowerCase()
            : `${header.slice(0, space).toLowerCase()}.${header.slice(space).trim().replace(/^"|"$/g, "")}`;
        line = line.slice(end + 1).trim();
        if (line === "") continue;
      }
      const eq = line.indexOf("=");
      const key = (eq < 0 ? line : line.slice(0, eq)).trim().toLowerCase();
      if (key === "" || section === "") continue;
      let raw = eq < 0 ? "true" : line.slice(eq + 1);
      while (raw.endsWith("\\") && i + 1 < lines.length) raw = raw.slice(0, -1) + (lines[++i] as string);
      out.set(`${section}.${key}`, value(raw));
    }
    return out;
  });
}

/** A value with its quotes, escapes and trailing comment taken off. */
function value(raw: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === "\\") {
      const next = raw[++i];
      out += next === "n" ? "\n" : next === "t" ? "\t" : (next ?? "");
      continue;
    }
    if (c === '"') {
      quoted = !quoted;
      continue;
    }
    if (!quoted && (c === "#" || c === ";")) break;
    out += c;
  }
  return out.trim();
}

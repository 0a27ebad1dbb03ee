/**
 * What a write puts into a file that holds the guard's wiring or a program another program runs
 * later, judged by the file's format: Claude Code settings (the guard keys of
 * src/host/settings-guard.ts, compared before and after), git configuration (keys that name a
 * program, src/host/git-programs.ts) and git attributes (filter, diff and merge drivers). Pure.
 */
import { gitProgramKey, runsNothing } from "../host/git-programs.ts";
import { guardChanges, guardNamesIn } from "../host/settings-guard.ts";
import { assertNever } from "../host/assert-never.ts";
import type { GuardFormat } from "./compiled.ts";
import type { FileFact } from "./facts.ts";

const parse = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

const keys = (names: readonly string[]): string => names.map((n) => `\`${n}\``).join(", ");

/** Why a write of a settings file is a write to the guard, or `undefined` when it changes none of the guard's keys. */
function settingsChange(fact: FileFact): string | undefined {
  // a shell command that changes lanes' own settings files without saying how is lanes.config-shell's
  const shellOnly = fact.basis !== "tool" && fact.text === undefined;
  if (shellOnly && fact.classes.has("claude-config")) return undefined;
  if (fact.access === "delete") return "deleting a settings file drops its hooks";
  const text = fact.text;
  if (text === undefined)
    return fact.basis === "tool" ? undefined : "a shell command writes it with content lanes cannot read";
  if (text.after !== undefined) {
    const after = parse(text.after);
    // Claude Code ignores a settings file it cannot parse, and lanes' wiring with it
    if (!after.ok) return "the file would no longer parse, and Claude Code ignores a settings file it cannot read";
    const before = text.before === undefined ? undefined : parse(text.before);
    const changes = guardChanges(before?.ok === true ? before.value : undefined, after.value);
    if (changes.length === 0) return undefined;
    return `it changes ${keys(changes.map((c) => c.key))}: ${changes[0]!.why}`;
  }
  // an edit of a file lanes cannot read: the text it puts in or takes out names a guard key
  const named = [...new Set([...(text.added ?? []), ...(text.removed ?? [])].flatMap(guardNamesIn))];
  return named.length === 0 ? undefined : `the edit touches ${keys(named)}`;
}

/** The `section.subsection.name = value` entries of a git configuration text (`key` alone is `true`). */
export function gitConfigEntries(text: string): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  let section = "";
  for (const raw of text.split("\n")) {
    let line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (line.startsWith("[")) {
      const end = line.indexOf("]");
      const head = line.slice(1, end < 0 ? undefined : end).trim();
      const quote = head.indexOf('"');
      section =
        quote < 0
          ? head.toLowerCase()
          : `${head.slice(0, quote).trim().toLowerCase()}.${head.slice(quote + 1, head.lastIndexOf('"'))}`;
      line = end < 0 ? "" : line.slice(end + 1).trim();
      if (line === "") continue;
    }
    const eq = line.indexOf("=");
    const name = (eq < 0 ? line : line.slice(0, eq)).trim().toLowerCase();
    let value = eq < 0 ? "true" : line.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (name !== "" && section !== "") out.push({ key: `${section}.${name}`, value });
  }
  return out;
}

/** Why a write of a git configuration file parks a program, or `undefined`. */
function gitConfigChange(fact: FileFact): string | undefined {
  const texts = [fact.text?.after, ...(fact.text?.added ?? [])].filter((t) => t !== undefined);
  const before = new Set(
    fact.text?.before === undefined ? [] : gitConfigEntries(fact.text.before).map((e) => `${e.key}=${e.value}`),
  );
  const parked = texts
    .flatMap(gitConfigEntries)
    .filter((e) => {
      const entry = gitProgramKey(e.key);
      return entry !== undefined && !runsNothing(entry, e.value) && !before.has(`${e.key}=${e.value}`);
    })
    .map((e) => e.key);
  return parked.length === 0 ? undefined : `it sets ${keys([...new Set(parked)])}, which names a program git runs`;
}

/** Drivers git ships (`diff=cpp` only picks a hunk header, `merge=union` is built in, `filter=lfs` is git-lfs). */
const BUILTIN_DRIVERS = new Set([
  "ada",
  "bash",
  "bibtex",
  "cpp",
  "csharp",
  "css",
  "dts",
  "elixir",
  "fortran",
  "fountain",
  "golang",
  "html",
  "java",
  "kotlin",
  "markdown",
  "matlab",
  "objc",
  "pascal",
  "perl",
  "php",
  "python",
  "ruby",
  "rust",
  "scheme",
  "tex",
  "text",
  "binary",
  "union",
  "lfs",
]);

/** Why a write of a git attributes file points files at a driver git runs, or `undefined`. */
function gitAttributesChange(fact: FileFact): string | undefined {
  const text = fact.text;
  if (text === undefined)
    return fact.basis === "tool" ? undefined : "a shell command writes it with content lanes cannot read";
  const before = new Set((text.before ?? "").split("\n").map((l) => l.trim()));
  const lines = [text.after, ...(text.added ?? [])]
    .filter((t) => t !== undefined)
    .flatMap((t) => t.split("\n"))
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#") && !before.has(l));
  const drivers: string[] = [];
  for (const line of lines)
    for (const word of line.split(/\s+/).slice(1)) {
      const eq = word.indexOf("=");
      const attribute = eq < 0 ? word : word.slice(0, eq);
      if (eq < 0 || !["filter", "diff", "merge"].includes(attribute)) continue;
      const driver = word.slice(eq + 1);
      if (!BUILTIN_DRIVERS.has(driver)) drivers.push(`${attribute}=${driver}`);
    }
  return drivers.length === 0
    ? undefined
    : `it sets ${keys([...new Set(drivers)])}, a driver git runs a configured program for`;
}

/** Why a write of a file of `format` is a write to the guard or parks a program; `undefined` when it is neither. */
export function guardContent(format: GuardFormat, fact: FileFact): string | undefined {
  switch (format) {
    case "claude-settings":
      return settingsChange(fact);
    case "git-config":
      return gitConfigChange(fact);
    case "git-attributes":
      return gitAttributesChange(fact);
    default:
      return assertNever(format, "guard format");
  }
}

/**
 * Claude Code's own permission rules (`permissions.deny` and `permissions.ask` of the managed,
 * user, project and local settings files), enforced by lanes on what actually executes. Claude
 * Code compares `Bash(rm:*)` with the command line it was given; lanes compares it with every
 * simple command the shell analysis found (so `xargs rm`, `find -exec rm`, `sudo rm` and
 * `bash -c 'rm ...'` are covered), and applies `Read(...)`/`Edit(...)` path rules to every file
 * a command reads or writes (so `Read(./.env)` also stops `base64 .env` and `cp .env x`).
 *
 * Parsing a rule string is cheap string work; path rules are compiled to regular expressions on
 * first use (a settings file can change during a session, so they cannot be compiled ahead).
 */
import type { CompiledGlob } from "../globs/types.ts";
import { shownFile, type Facts, type FileFact } from "./facts.ts";
import { matchPath, type GlobRoots } from "../globs/match.ts";
import type { Match } from "./types.ts";
import { wildcard } from "../globs/wildcard.ts";
import { assertNever } from "../host/assert-never.ts";
import type { SettingsFile, SettingsScope } from "../host/env.ts";
import { readsFiles, sameTool, toolSpec, writesFiles } from "../host/tools.ts";

/** One `deny` or `ask` rule string from a settings file. */
export interface SettingsRule {
  readonly raw: string;
  readonly effect: "deny" | "ask";
  readonly tool: string;
  /** The text inside the parentheses, if any. */
  readonly content: string | undefined;
  readonly scope: SettingsScope;
  readonly file: string;
  /** Directory `/path` patterns are relative to (the directory holding `.claude/`). */
  readonly baseDir: string;
}

/** Splits `Tool(content)` into its parts; content ends at the last `)`. `undefined` when malformed. */
export function parseRuleString(raw: string): { tool: string; content: string | undefined } | undefined {
  const rule = raw.trim();
  const open = rule.indexOf("(");
  if (open === -1) return /^[A-Za-z][A-Za-z0-9_*-]*$/.test(rule) ? { tool: rule, content: undefined } : undefined;
  if (!rule.endsWith(")")) return undefined;
  const tool = rule.slice(0, open);
  const content = rule.slice(open + 1, -1);
  if (tool === "" || content === "") return undefined;
  return { tool, content };
}

/** Reads the `deny` and `ask` rules of the given files; unreadable or malformed files are reported, not fatal. */
export function readSettingsRules(
  files: readonly SettingsFile[],
  read: (path: string) => string | undefined,
): { rules: SettingsRule[]; problems: string[] } {
  const rules: SettingsRule[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const text = read(file.path);
    if (text === undefined) continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      problems.push(`${file.path}: not valid JSON, its permission rules are not enforced by lanes`);
      continue;
    }
    const permissions = (json as { permissions?: { deny?: unknown; ask?: unknown } } | null)?.permissions;
    for (const effect of ["deny", "ask"] as const) {
      const entries = permissions?.[effect];
      if (!Array.isArray(entries)) continue;
      for (const raw of entries) {
        if (typeof raw !== "string") continue;
        const parsed = parseRuleString(raw);
        if (parsed === undefined) {
          problems.push(`${file.path}: cannot read rule \`${raw}\``);
          continue;
        }
        rules.push({ raw, effect, ...parsed, scope: file.scope, file: file.path, baseDir: file.baseDir });
      }
    }
  }
  return { rules, problems };
}

/** Escapes glob characters in a literal directory name. */
const escapeGlob = (text: string): string => text.replace(/[*?[\]{}()!+@\\]/g, "\\$&");

/**
 * Converts a Claude Code `Read`/`Edit` path pattern into a lanes path glob: `//abs` absolute,
 * `~/x` home, `/x` relative to the settings file's project, `x` or `./x` relative to the cwd.
 */
export function settingsPathGlob(pattern: string, rule: Pick<SettingsRule, "baseDir">, cwd: string): string {
  if (pattern.startsWith("//") || pattern === "~" || pattern.startsWith("~/")) return pattern;
  if (pattern.startsWith("/")) return `/${escapeGlob(rule.baseDir)}${pattern}`.replace(/^\/\//, "//");
  const relative = pattern.startsWith("./") ? pattern.slice(2) : pattern;
  // a bare name keeps gitignore's "at any depth" meaning
  if (!relative.replace(/\/+$/, "").includes("/")) return relative;
  return `/${escapeGlob(cwd)}/${relative}`.replace(/^\/\//, "//");
}

/**
 * Matches a Bash rule's content against a command line: exact text, legacy `prefix:*` (word
 * boundary), or `*` wildcards (a single trailing ` *` is optional, so `ls *` matches `ls`).
 */
export function bashRuleMatches(content: string, line: string): boolean {
  if (content.endsWith(":*") && !content.slice(0, -2).includes("*")) {
    const prefix = content.slice(0, -2);
    return line === prefix || line.startsWith(`${prefix} `);
  }
  const stars = content.split("*").length - 1;
  if (stars === 1 && content.endsWith(" *") && line === content.slice(0, -2)) return true;
  return wildcard(content, line);
}

/** Compiles settings path patterns when a rule needs it (in the hot hooks, picomatch is loaded then: src/hooks/lazy/glob-proxy.ts). */
export type PathCompiler = (glob: string) => CompiledGlob;

function fileTouches(syntax: "read-paths" | "edit-paths", fact: FileFact): boolean {
  // a user's `Read(...)` rule keeps every program away from the file, even one that only uses it
  // a link to a file reads and writes it for whoever follows the link; (Claude Code's Read rules
  // govern listing a directory too: its LS and Glob tools)
  const link = fact.access === "link" || fact.access === "hardlink";
  if (syntax === "read-paths") return ["read", "exec", "use", "list", "share"].includes(fact.access) || link;
  return (
    fact.access === "write" || fact.access === "delete" || fact.access === "chmod" || fact.access === "chown" || link
  );
}

function toMatch(rule: SettingsRule, subject: string, scope: string): Match {
  const id = `settings.${rule.effect}`;
  return {
    ruleId: id,
    layer: "settings",
    effect: rule.effect,
    why: `the ${rule.scope} settings ${rule.effect === "deny" ? "deny" : "ask about"} \`${rule.raw}\``,
    instead:
      rule.effect === "deny"
        ? "do not try another way around this rule; ask the user if the task needs it"
        : "wait for the user's answer",
    subject,
    source: rule.file,
    scope,
  };
}

/** Every match of the settings rules against the facts of one tool call. */
export function matchSettingsRules(
  rules: readonly SettingsRule[],
  facts: Facts,
  context: { readonly cwd: string; readonly roots: GlobRoots; readonly compile: PathCompiler },
): Match[] {
  const matches: Match[] = [];
  for (const rule of rules) {
    if (rule.content === undefined) {
      if (sameTool(rule.tool, facts.tool) || wildcard(rule.tool, facts.tool)) {
        matches.push(toMatch(rule, `the \`${facts.tool}\` tool`, "call"));
      }
      continue;
    }
    const syntax = toolSpec(rule.tool)?.ruleSyntax;
    switch (syntax) {
      case "command":
        // commands a Write stores in a Makefile are not Bash calls: Claude Code's Bash rules judge calls
        if (toolSpec(facts.tool)?.command === undefined) break;
        for (const command of facts.commands) {
          const lines = [
            command.line,
            ...command.command.wrappers.map((_, i) => [...command.command.wrappers.slice(i), command.line].join(" ")),
          ];
          if (lines.some((line) => bashRuleMatches(rule.content!, line)))
            matches.push(toMatch(rule, `\`${command.command.text}\``, command.scope));
        }
        break;
      case "read-paths":
      case "edit-paths": {
        const glob = context.compile(settingsPathGlob(rule.content, rule, context.cwd));
        for (const fact of facts.files) {
          if (fact.path === undefined || !fileTouches(syntax, fact)) continue;
          const viaTool =
            fact.basis === "tool" && (syntax === "read-paths" ? readsFiles(facts.tool) : writesFiles(facts.tool));
          if ((viaTool || fact.basis !== "tool") && matchPath(glob, fact.path, context.roots))
            matches.push(toMatch(rule, shownFile(fact), fact.scope));
        }
        break;
      }
      case "agent-type":
        if (facts.spawn !== undefined && facts.spawn === rule.content)
          matches.push(toMatch(rule, `starting agent \`${facts.spawn}\``, "call"));
        break;
      case "skill":
        if (
          facts.skill !== undefined &&
          (facts.skill === rule.content ||
            (rule.content.endsWith(":*") && facts.skill.startsWith(rule.content.slice(0, -1))))
        ) {
          matches.push(toMatch(rule, `skill \`${facts.skill}\``, "call"));
        }
        break;
      case "domain":
        if (facts.fetchHost !== undefined && rule.content.startsWith("domain:")) {
          const domain = rule.content.slice(7).toLowerCase();
          const hit = domain.startsWith("*.") ? facts.fetchHost.endsWith(domain.slice(1)) : facts.fetchHost === domain;
          if (hit) matches.push(toMatch(rule, `\`${facts.fetchHost}\``, "call"));
        }
        break;
      case undefined:
        // a tool whose rule content lanes does not interpret: Claude Code itself enforces it
        break;
      default:
        assertNever(syntax, "rule syntax");
    }
  }
  return matches;
}

/**
 * The zod atoms shared by the policy file (src/config/schema.ts) and the definitions
 * (src/definitions/): ids, names, effects, path classes and the command and path matches. Used at
 * build time only; the hot path reads the plain vocabulary (./vocabulary.ts).
 */
import { z } from "zod";
import { PATH_CLASSES } from "./vocabulary.ts";

/** A stable rule id: lowercase words separated by `.` or `-`, e.g. `team.no-publish`. */
export const RuleId = z
  .string()
  .regex(/^[a-z0-9]+(?:[.-][a-z0-9]+)*$/, "a rule id is lowercase words joined by `.` or `-`, e.g. `team.no-publish`")
  .describe("Stable rule id; it appears in decisions and the audit log and must not change once used.");

export const Effect = z
  .enum(["deny", "ask", "allow"])
  .describe("deny blocks, ask asks the human, allow is an exception that cancels lower policy layers");

/**
 * Classes of paths that rules can name instead of globs. They are resolved against the project
 * root and the home directory after normalisation.
 */
export const PathClass = z
  .enum(PATH_CLASSES)
  .describe(
    "root: `/`; home: the home directory itself; project-root: the project directory itself; parent: an ancestor of the project; system: /etc, /usr, /bin, /var, ...; served: where the machine serves sites and data (/srv, /var/www); device: /dev/sd*, /dev/nvme*, ...; broad-glob: a glob that can match everything in root, home, the project or a parent (`*`, `.*`, `*/*`, `**`); outside-project: anywhere outside the project, temp and cache dirs; claude-config: Claude Code and lanes configuration files; home-data: a home directory's documents, desktop, config, keys and source trees; home-file: a shell startup, configuration or history file directly in the home directory (`~/.bashrc`, `~/.gitconfig`); other-home: another user's home directory",
  );
export type PathClass = z.infer<typeof PathClass>;

/** kebab-case, as Claude Code requires for agent and skill names. */
export const KebabName = z
  .string()
  .min(1)
  .max(64)
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    "names are kebab-case: lowercase letters, digits and single hyphens, e.g. `design-reviewer`",
  );

/** Claude Code tool names lanes knows; MCP tools (`mcp__server__tool`) are also accepted. */
export const ToolName = z
  .string()
  .regex(
    /^(?:[A-Z][A-Za-z]*|mcp__[A-Za-z0-9_-]+(?:__[A-Za-z0-9_*-]+)?)$/,
    "a Claude Code tool name such as `Read`, `Bash` or `mcp__github__create_issue`",
  );

const stringList = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/** Matches simple commands after unwrapping (sudo, env, xargs, bash -c, find -exec, ...). */
export const CommandMatch = z
  .strictObject({
    program: stringList.describe(
      "Program basename(s), e.g. `git` or [psql, mysql]; `/usr/bin/git` and `\\git` match `git`.",
    ),
    args: z
      .array(z.string().min(1))
      .optional()
      .describe(
        "Leading positional words after the program's global options, e.g. [push] or [stash, clear]; `*` matches any one word, `a|b` either word, `migrat*` any word starting with `migrat`; compared case-insensitively.",
      ),
    flags_any: z
      .array(z.string().min(1))
      .optional()
      .describe("At least one of these flags is present (clusters like -rf are split, --x=y counts as --x)."),
    flags_all: z
      .array(stringList)
      .optional()
      .describe(
        "Each entry must be present; an entry that is a list is satisfied by any of its spellings, e.g. [[-r, -R, --recursive], [-f, --force]].",
      ),
    flags_none: z
      .array(z.string().min(1))
      .optional()
      .describe("None of these flags is present, e.g. [--force-with-lease, --dry-run]."),
    option_values: z
      .record(z.string().min(1), z.array(z.string().min(1)).min(1))
      .optional()
      .describe(
        "Options whose value must match one of the given words (`*` matches any text), e.g. {--prune: [now, all]} or {of: [/dev/*]} for dd; the value may be given as `--opt=value` or as the next word (`--target prod`).",
      ),
    words_none: z
      .array(z.string().min(1))
      .optional()
      .describe(
        "None of the positional words matches one of these `args` patterns, e.g. [print] for `parted /dev/sda print`; [`*`] means the command has no positional word at all (`pkill -u root`).",
      ),
    double_dash: z
      .boolean()
      .optional()
      .describe(
        "When true, the command must contain `--` (end of options), as in `git checkout -- file`; when false, it must not (`git checkout file`).",
      ),
    env: z
      .record(z.string().min(1), z.array(z.string().min(1)).min(1))
      .optional()
      .describe(
        "Environment variables set for the command (`NODE_ENV=production cmd`, `env NODE_ENV=production cmd`) whose value must match one of the given words (`*` matches any text), e.g. {NODE_ENV: [production, prod]}.",
      ),
    operands: z
      .array(z.string().min(1))
      .optional()
      .describe(
        "At least one operand (after `args`) matches one of these path globs, resolved against the command's directory.",
      ),
    targets: z.array(PathClass).optional().describe("At least one operand falls in one of these path classes."),
  })
  .describe("Matches a simple command that would execute, wherever it appears in the command string.");
export type CommandMatch = z.infer<typeof CommandMatch>;

/** A path rule: applies to Read, Write, Edit, MultiEdit, NotebookEdit, Glob, Grep and Bash operands and redirections. */
export const PathMatch = z.strictObject({
  access: z
    .enum(["zero-access", "write-only", "read-only", "no-delete"])
    .describe(
      "zero-access: no read, write or delete; write-only: no read or delete (creating or writing it discloses nothing); read-only: no write or delete; no-delete: no delete",
    ),
  patterns: z
    .array(z.string().min(1))
    .min(1)
    .describe(
      "gitignore-style globs; relative ones are relative to the project root (`**/` is implied for a bare name like `.env`).",
    ),
  except: z.array(z.string().min(1)).optional().describe("Globs exempt from this rule, e.g. .env.example."),
});
export type PathMatch = z.infer<typeof PathMatch>;

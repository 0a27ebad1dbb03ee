/**
 * The Claude Code tools lanes knows, in one table: which input fields name the files a tool reads
 * or writes, which Claude Code permission-rule syntax its rules use, whether a stale policy blocks
 * it, how a call is named in messages, and whether PostToolUse records its changes. The evaluator
 * (facts, settings rules, lanes, messages), the hooks and the hook wiring all read this table, so a
 * new tool is one row here.
 *
 * Claude Code still accepts legacy names for renamed tools (its own alias table: `Task` → `Agent`,
 * `KillShell`/`KillBash` → `TaskStop`, ...); a row lists them as `aliases`, and every comparison of
 * tool names goes through {@link sameTool}.
 */

/** The permission-rule syntax of a tool's settings rules, `Tool(content)`. */
export type RuleSyntax =
  /** `Bash(npm run *)`: the content is compared with each simple command. */
  | "command"
  /** `Read(./.env)`: a path pattern for every file the call reads. */
  | "read-paths"
  /** `Edit(src/**)`: a path pattern for every file the call writes. */
  | "edit-paths"
  /** `Agent(Explore)`: the agent type a call starts. */
  | "agent-type"
  /** `Skill(name)` or `Skill(plugin:*)`: the skill a call invokes. */
  | "skill"
  /** `WebFetch(domain:example.com)`: the host a call reaches. */
  | "domain";

/**
 * Where a writing tool's input says what the file will hold: the whole new text (Write's
 * `content`), one replacement (Edit's `old_string` → `new_string`, every occurrence with
 * `replace_all`), or a list of replacements (MultiEdit's `edits`, each with those fields).
 */
export type WrittenTextSpec =
  | { readonly kind: "whole"; readonly field: string }
  | { readonly kind: "replace"; readonly old: string; readonly new: string; readonly all: string }
  | {
      readonly kind: "edits";
      readonly field: string;
      readonly old: string;
      readonly new: string;
      readonly all: string;
    };

/** One tool. */
export interface ToolSpec {
  readonly name: string;
  /** Legacy names Claude Code still reports or accepts in rules and matchers. */
  readonly aliases?: readonly string[];
  /** Input fields holding a file or directory the call reads. */
  readonly reads?: readonly string[];
  /** Input fields holding a file the call writes. */
  readonly writes?: readonly string[];
  /** The `reads` fields name a directory whose whole tree the call searches (Grep, Glob): a recursive read. */
  readonly readsTree?: boolean;
  /** What the written file will hold (for the files of `writes`). */
  readonly text?: WrittenTextSpec;
  /** Input field holding a glob of files the call reads, relative to the `path` field (Glob's `pattern`, Grep's `glob`). */
  readonly readsGlob?: string;
  /** Input field holding the shell command (Bash). */
  readonly command?: string;
  /** Input field holding the agent type a call starts; absent means `general-purpose`. */
  readonly spawns?: string;
  /** Input fields holding the skill a call invokes, first one set wins. */
  readonly skill?: readonly string[];
  /** Input field holding the URL a call fetches. */
  readonly fetches?: string;
  /** The syntax of this tool's settings rules, when lanes enforces rules with content for it. */
  readonly ruleSyntax?: RuleSyntax;
  /** The call changes files or runs code: a stale or invalid policy blocks it. */
  readonly mutating?: boolean;
  /** PostToolUse records the files the call created or modified. */
  readonly recordsChanges?: boolean;
  /**
   * How the call changes the file it writes, for code a file stores (a Makefile, a git hook): the
   * field holding the new text (Write), the fields of one replacement (Edit), or the field holding
   * a list of replacements (MultiEdit).
   */
  readonly stores?: StoreFields;
}

/** The input fields of a file tool's change (see {@link ToolSpec.stores}). */
export type StoreFields =
  { readonly content: string } | { readonly edit: EditFields } | { readonly edits: string; readonly each: EditFields };

/** The fields of one replacement: the text replaced, its replacement, and whether every occurrence is. */
export interface EditFields {
  readonly old: string;
  readonly new: string;
  readonly all: string;
}

const EDIT: EditFields = { old: "old_string", new: "new_string", all: "replace_all" };

// prettier-ignore
/** Every tool lanes has something to say about. Tools not listed are judged by name only (`tools:` rules, lanes tool lists). */
export const TOOLS: readonly ToolSpec[] = [
  { name: "Read", reads: ["file_path"], ruleSyntax: "read-paths" },
  { name: "NotebookRead", reads: ["notebook_path"] },
  { name: "Glob", reads: ["path"], readsTree: true, readsGlob: "pattern" },
  { name: "Grep", reads: ["path"], readsTree: true, readsGlob: "glob" },
  { name: "LS", reads: ["path"] },
  { name: "Write", writes: ["file_path"], text: { kind: "whole", field: "content" }, mutating: true, recordsChanges: true, stores: { content: "content" } },
  // an edit in place also reads: its result shows the lines around the change (a write-only secret stays unread)
  { name: "Edit", reads: ["file_path"], writes: ["file_path"], text: { kind: "replace", old: "old_string", new: "new_string", all: "replace_all" }, ruleSyntax: "edit-paths", mutating: true, recordsChanges: true, stores: { edit: EDIT } },
  { name: "MultiEdit", reads: ["file_path"], writes: ["file_path"], text: { kind: "edits", field: "edits", old: "old_string", new: "new_string", all: "replace_all" }, mutating: true, recordsChanges: true, stores: { edits: "edits", each: EDIT } },
  { name: "NotebookEdit", reads: ["notebook_path"], writes: ["notebook_path"], mutating: true, recordsChanges: true },
  { name: "Bash", command: "command", ruleSyntax: "command", mutating: true, recordsChanges: true },
  { name: "Agent", aliases: ["Task"], spawns: "subagent_type", ruleSyntax: "agent-type", mutating: true },
  { name: "Skill", skill: ["skill", "command"], ruleSyntax: "skill" },
  { name: "WebFetch", fetches: "url", ruleSyntax: "domain" },
  { name: "TaskStop", aliases: ["KillShell", "KillBash"] },
];

const BY_NAME = new Map<string, ToolSpec>();
for (const tool of TOOLS) for (const name of [tool.name, ...(tool.aliases ?? [])]) BY_NAME.set(name, tool);

/** The row of a tool, by its name or a legacy alias. */
export const toolSpec = (name: string): ToolSpec | undefined => BY_NAME.get(name);

/** The current name of a tool (`Task` → `Agent`); unknown names are returned as they are. */
export const canonicalTool = (name: string): string => BY_NAME.get(name)?.name ?? name;

/** True when two tool names denote the same tool (one may be a legacy alias). */
export const sameTool = (a: string, b: string): boolean => a === b || canonicalTool(a) === canonicalTool(b);

/** Every name of a tool: the current one and its legacy aliases; an unknown name alone. */
export const toolNames = (name: string): readonly string[] => {
  const spec = toolSpec(name);
  return spec === undefined ? [name] : [spec.name, ...(spec.aliases ?? [])];
};

/** True for tools that change files or run code (MCP tools included); a stale policy denies these. */
export const isMutatingTool = (name: string): boolean => toolSpec(name)?.mutating === true || name.startsWith("mcp__");

/** True for tools that start an agent. */
export const isSpawnTool = (name: string): boolean => toolSpec(name)?.spawns !== undefined;

/** True for tools whose calls read files through their input. */
export const readsFiles = (name: string): boolean => {
  const spec = toolSpec(name);
  return spec !== undefined && ((spec.reads?.length ?? 0) > 0 || spec.readsGlob !== undefined);
};

/** True for tools whose calls write a file named in their input. */
export const writesFiles = (name: string): boolean => (toolSpec(name)?.writes?.length ?? 0) > 0;

/** The PostToolUse matcher: every tool whose changes are recorded, and the spawn tools (their result links the agent tree). */
export const postToolUseMatcher = (): string =>
  TOOLS.flatMap((t) =>
    t.recordsChanges === true ? [t.name] : t.spawns !== undefined ? [t.name, ...(t.aliases ?? [])] : [],
  ).join("|");

/** Input fields whose value names the subject of a call (command, path, agent type, skill, URL), in order of preference. */
export const subjectFields = (name: string): readonly string[] => {
  const spec = toolSpec(name);
  if (spec === undefined) return [];
  return [
    ...(spec.command === undefined ? [] : [spec.command]),
    ...(spec.writes ?? []),
    ...(spec.reads ?? []),
    ...(spec.readsGlob === undefined ? [] : [spec.readsGlob]),
    ...(spec.spawns === undefined ? [] : [spec.spawns]),
    ...(spec.skill ?? []),
    ...(spec.fetches === undefined ? [] : [spec.fetches]),
  ];
};

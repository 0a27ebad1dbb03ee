/**
 * Step 1 of the evaluator: turn a tool call into facts that every rule kind matches over. A Bash
 * call goes through the shell analysis; file tools become file accesses; Agent and Skill calls
 * become spawn and skill facts. Paths are normalised and classified here, once.
 */
import { analyzeShell, argView, fileEffects } from "../shell/index.ts";
import type { ArgView, CodeExecution, ShellAnalysis, ShellCommand, ShellFunction, Unrepresentable } from "../shell/types.ts";
import type { PathClass } from "../schema/vocabulary.ts";
import { classifyPath, type PathContext } from "./paths.ts";
import { normalizePath } from "../host/paths.ts";
import type { GuardRequest } from "./types.ts";

/** How a fact touches a file. `exec` runs it; `operand` is a path handed to an unknown program. */
export type Access = "read" | "write" | "delete" | "chmod" | "chown" | "exec";

/** One simple command of a Bash call. */
export interface CommandFact {
  readonly index: number;
  readonly command: ShellCommand;
  /** Program basename, or undefined when dynamic. */
  readonly program: string | undefined;
  /** argv as strings (a dynamic word keeps its source text). */
  readonly argv: readonly string[];
  /** argv joined by single spaces: what Claude Code's `Bash(...)` rules are compared with. */
  readonly line: string;
  readonly view: ArgView;
  readonly scope: string;
}

/** One file access. */
export interface FileFact {
  readonly access: Access;
  /** Normalised absolute path; undefined when the path is only known at run time. */
  readonly path: string | undefined;
  /** The path as written. */
  readonly raw: string;
  readonly glob: boolean;
  readonly recursive: boolean;
  readonly force: boolean;
  readonly filtered: boolean;
  /** `tool` for file tools; for Bash, how the shell analysis derived it. */
  readonly basis: "tool" | "known" | "redirect" | "operand" | "interpreter";
  /** The command index for Bash facts. */
  readonly command: number | undefined;
  readonly classes: ReadonlySet<PathClass>;
  readonly scope: string;
}

export interface Facts {
  readonly tool: string;
  readonly commands: readonly CommandFact[];
  readonly files: readonly FileFact[];
  readonly code: readonly CodeExecution[];
  readonly functions: readonly ShellFunction[];
  readonly unrepresentable: readonly Unrepresentable[];
  readonly budgetExceeded: boolean;
  /** Heredoc, herestring and static piped text given to each command's stdin, by command index. */
  readonly stdinText: ReadonlyMap<number, readonly string[]>;
  /** The agent type an Agent call asks for. */
  readonly spawn: string | undefined;
  /** The skill a Skill call invokes. */
  readonly skill: string | undefined;
  /** The host a WebFetch call reaches. */
  readonly fetchHost: string | undefined;
  /** The shell analysis, for `lanes check` traces. */
  readonly shell: ShellAnalysis | undefined;
}

/** Tools that read the file or directory named in their input. */
const READ_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Read: ["file_path"],
  NotebookRead: ["notebook_path"],
  Glob: ["path"],
  Grep: ["path"],
  LS: ["path"],
};

/** Tools that write the file named in their input. */
const WRITE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Write: ["file_path"],
  Edit: ["file_path"],
  MultiEdit: ["file_path"],
  NotebookEdit: ["notebook_path"],
};

/** True for tools that change files or run code; a stale policy denies these. */
export function isMutatingTool(tool: string): boolean {
  return tool in WRITE_TOOLS || tool === "Bash" || tool === "Agent" || tool === "Task" || tool.startsWith("mcp__");
}

const str = (value: unknown): string | undefined => (typeof value === "string" && value.length > 0 ? value : undefined);

export interface FactOptions {
  readonly pathContext: PathContext;
  readonly analysisBudgetMs: number;
  /**
   * Expands a glob against the file system, as the shell would (`dot`: whether `*` matches a
   * leading dot). Returns the matching absolute paths, or `undefined` when it cannot tell
   * (`**`, globs in directory names, too many entries). Injected by the adapter; the core stays pure.
   */
  readonly expandGlob?: (absPattern: string, dot: boolean) => readonly string[] | undefined;
}

/** Adds a concrete fact for every file a glob fact expands to. */
function withExpansions(files: FileFact[], options: FactOptions): FileFact[] {
  const expand = options.expandGlob;
  if (expand === undefined) return files;
  const out = [...files];
  for (const fact of files) {
    if (!fact.glob || fact.path === undefined) continue;
    const paths = expand(fact.path, fact.basis === "tool") ?? [];
    for (const path of paths.slice(0, 200)) {
      out.push({ ...fact, path, raw: path, glob: false, classes: classifyPath(path, false, options.pathContext), scope: `${fact.scope.slice(0, fact.scope.indexOf(":path:"))}:path:${path}` });
    }
  }
  return out;
}

function fileFact(
  raw: string,
  access: Access,
  basis: FileFact["basis"],
  command: number | undefined,
  extra: { glob?: boolean; recursive?: boolean; force?: boolean; filtered?: boolean; dynamic?: boolean; cwd?: string | undefined },
  ctx: PathContext,
): FileFact {
  const glob = extra.glob ?? false;
  const cwd = extra.cwd ?? ctx.cwd;
  const path = extra.dynamic === true || (command !== undefined && extra.cwd === undefined && !raw.startsWith("/") && !raw.startsWith("~")) ? undefined : normalizePath(raw, { cwd, home: ctx.home });
  const classes = path === undefined ? new Set<PathClass>() : classifyPath(path, glob, { ...ctx, cwd });
  const where = command === undefined ? "call" : `cmd:${command}`;
  return {
    access,
    path,
    raw,
    glob,
    recursive: extra.recursive ?? false,
    force: extra.force ?? false,
    filtered: extra.filtered ?? false,
    basis,
    command,
    classes,
    scope: `${where}:path:${path ?? raw}`,
  };
}

/** Facts of a Bash command string. */
function bashFacts(source: string, options: FactOptions): Omit<Facts, "tool" | "spawn" | "skill" | "fetchHost"> {
  const ctx = options.pathContext;
  const shell = analyzeShell(source, { home: ctx.home, cwd: ctx.cwd, budgetMs: options.analysisBudgetMs });
  const commands: CommandFact[] = shell.commands.map((command) => {
    const argv = command.argv.map((w) => w.value ?? w.text);
    return { index: command.index, command, program: command.program, argv, line: argv.join(" "), view: argView(command), scope: `cmd:${command.index}` };
  });

  const files: FileFact[] = [];
  for (const effect of fileEffects(shell)) {
    const command = shell.commands[effect.command];
    const cwd = command?.cwd;
    files.push(
      fileFact(effect.path.value ?? effect.path.text, effect.basis === "operand" ? "read" : effect.access, effect.basis, effect.command, {
        glob: effect.path.glob,
        recursive: effect.recursive,
        force: effect.force,
        filtered: effect.filtered,
        dynamic: effect.path.value === undefined,
        cwd,
      }, ctx),
    );
  }
  for (const call of shell.calls) {
    if (call.access === "exec") continue;
    const cwd = shell.commands[call.command]?.cwd;
    const args = call.args.length === 0 ? [undefined] : call.args;
    for (const arg of args) {
      files.push(fileFact(arg ?? "<dynamic>", call.access, "interpreter", call.command, { recursive: call.recursive, dynamic: arg === undefined, cwd }, ctx));
    }
  }

  const stdinText = new Map<number, string[]>();
  for (const command of shell.commands) {
    for (const redirect of command.redirects) {
      if ((redirect.kind === "heredoc" || redirect.kind === "herestring") && redirect.target?.value !== undefined) {
        stdinText.set(command.index, [...(stdinText.get(command.index) ?? []), redirect.target.value]);
      }
    }
  }
  for (const exec of shell.code) {
    if (exec.source === "literal" && exec.code !== undefined) {
      stdinText.set(exec.command, [...(stdinText.get(exec.command) ?? []), exec.code]);
    }
  }

  return {
    commands,
    files: withExpansions(files, options),
    code: shell.code,
    functions: shell.functions,
    unrepresentable: shell.unrepresentable,
    budgetExceeded: shell.budgetExceeded,
    stdinText,
    shell,
  };
}

const EMPTY = {
  commands: [],
  files: [],
  code: [],
  functions: [],
  unrepresentable: [],
  budgetExceeded: false,
  stdinText: new Map<number, string[]>(),
  shell: undefined,
} as const;

/** Builds the facts of one tool call. */
export function extractFacts(request: GuardRequest, options: FactOptions): Facts {
  const ctx = options.pathContext;
  const input = request.input;
  const tool = request.tool;
  const base = { tool, spawn: undefined, skill: undefined, fetchHost: undefined };

  if (tool === "Bash") {
    const command = str(input["command"]);
    return { ...base, ...(command === undefined ? EMPTY : bashFacts(command, options)) };
  }

  const files: FileFact[] = [];
  for (const key of READ_TOOLS[tool] ?? []) {
    const raw = str(input[key]);
    if (raw !== undefined) files.push(fileFact(raw, "read", "tool", undefined, {}, ctx));
  }
  if (tool === "Glob" || tool === "Grep") {
    // The pattern (Glob) or file filter (Grep) names files too: `**/.env` reaches every .env.
    const pattern = str(input[tool === "Glob" ? "pattern" : "glob"]);
    if (pattern !== undefined) {
      const dir = str(input["path"]) ?? ctx.cwd;
      const raw = pattern.startsWith("/") ? pattern : `${dir.replace(/\/+$/, "")}/${pattern}`;
      files.push(fileFact(raw, "read", "tool", undefined, { glob: true }, ctx));
    }
  }
  for (const key of WRITE_TOOLS[tool] ?? []) {
    const raw = str(input[key]);
    if (raw === undefined) continue;
    files.push(fileFact(raw, "write", "tool", undefined, {}, ctx));
  }

  let spawn: string | undefined;
  if (tool === "Agent" || tool === "Task") spawn = str(input["subagent_type"]) ?? "general-purpose";
  const skill = tool === "Skill" ? str(input["skill"]) ?? str(input["command"]) : undefined;
  let fetchHost: string | undefined;
  if (tool === "WebFetch") {
    try {
      fetchHost = new URL(str(input["url"]) ?? "").hostname.toLowerCase();
    } catch {
      fetchHost = undefined;
    }
  }
  return { ...base, ...EMPTY, files: withExpansions(files, options), spawn, skill, fetchHost };
}

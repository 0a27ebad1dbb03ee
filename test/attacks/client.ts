/**
 * What the Claude Code client does around a tool call, as far as the attack suite needs it, after
 * the verified spec (/work/shared/reference/claude-code.md, Claude Code 2.1.330): which settings
 * files it reads and how they merge (A.1, B.1), which hooks run for an event (A.5: matchers, dedup),
 * how a hook is run (a shell command with JSON on stdin, `CLAUDE_PROJECT_DIR`, the settings' `env`)
 * and how answers combine (A.7-A.10: deny > ask > allow, exit 2 blocks, `onFailure: "block"`, a
 * stdout that is not one JSON object is ignored). Used by the harness for every step, and bundled
 * into the `claude` stub (stubs/claude.ts) so a nested client loads hooks exactly the same way.
 *
 * Not modelled: managed settings (the suite never writes outside its temp dirs), permission rules
 * (a call with no objection from the hooks runs, as in `bypassPermissions`), http/prompt/agent hooks.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A settings source a client reads, lowest precedence first (B.1; `flag` = `--settings`). */
export type SettingsSource = "user" | "project" | "local" | "flag";
export const FILE_SOURCES: readonly SettingsSource[] = ["user", "project", "local"];

export interface CommandHook {
  readonly command: string;
  readonly timeout?: number;
  readonly onFailure?: "continue" | "block";
  readonly shell?: string;
}
interface MatcherGroup {
  readonly matcher?: string;
  readonly hooks?: readonly { readonly type?: string }[];
}
type Settings = Record<string, unknown>;

/** The merged view of the settings a client loaded. */
export interface LoadedSettings {
  /** Per source, the parsed file (or `--settings` value); absent or unparsable files are left out. */
  readonly bySource: Partial<Record<SettingsSource, Settings>>;
  /** Highest source that sets it wins (scalars, B.1). */
  readonly disableAllHooks: boolean;
  /** Merged `env` (higher sources win key by key): the environment of hooks and tools. */
  readonly env: Record<string, string>;
  /** Merged `sandbox` object (higher sources win key by key; arrays concatenated). */
  readonly sandbox: Record<string, unknown>;
}

/** Where each settings file of a project lives. */
export function settingsPaths(projectDir: string, home: string): Record<"user" | "project" | "local", string> {
  return {
    user: join(home, ".claude", "settings.json"),
    project: join(projectDir, ".claude", "settings.json"),
    local: join(projectDir, ".claude", "settings.local.json"),
  };
}

function readJson(path: string): Settings | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Settings) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The settings a client started in `projectDir` loads: the file sources it was told to read
 * (`--setting-sources`, default all three), then `--settings` (`flag`, a JSON object).
 */
export function loadSettings(
  projectDir: string,
  home: string,
  options: { readonly sources?: readonly SettingsSource[]; readonly flag?: Settings } = {},
): LoadedSettings {
  const paths = settingsPaths(projectDir, home);
  const sources = options.sources ?? FILE_SOURCES;
  const bySource: Partial<Record<SettingsSource, Settings>> = {};
  for (const source of FILE_SOURCES) {
    if (!sources.includes(source)) continue;
    const value = readJson(paths[source as "user" | "project" | "local"]);
    if (value !== undefined) bySource[source] = value;
  }
  if (options.flag !== undefined) bySource.flag = options.flag;
  let disableAllHooks = false;
  const env: Record<string, string> = {};
  const sandbox: Record<string, unknown> = {};
  for (const source of [...FILE_SOURCES, "flag"] as const) {
    const s = bySource[source];
    if (s === undefined) continue;
    if (typeof s["disableAllHooks"] === "boolean") disableAllHooks = s["disableAllHooks"];
    const e = s["env"];
    if (typeof e === "object" && e !== null)
      for (const [k, v] of Object.entries(e)) if (typeof v === "string") env[k] = v;
    mergeInto(sandbox, s["sandbox"]);
  }
  return { bySource, disableAllHooks, env, sandbox };
}

function mergeInto(into: Record<string, unknown>, value: unknown): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  for (const [k, v] of Object.entries(value)) {
    const had = into[k];
    if (Array.isArray(had) && Array.isArray(v)) into[k] = [...had, ...v];
    else if (typeof had === "object" && had !== null && !Array.isArray(had) && typeof v === "object" && v !== null) {
      const copy = { ...(had as Record<string, unknown>) };
      mergeInto(copy, v);
      into[k] = copy;
    } else into[k] = v;
  }
}

/** A5: "" / "*" / missing match all; a plain name list matches exactly; anything else is an unanchored RegExp. */
export function matcherMatches(matcher: string | undefined, name: string): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (/^[A-Za-z0-9_|, ]+$/.test(matcher))
    return matcher
      .split(/[|,]/)
      .map((m) => m.trim())
      .includes(name);
  try {
    return new RegExp(matcher).test(name);
  } catch {
    return false;
  }
}

/** The command hooks that run for `event` (and `target`, the matcher's subject), deduplicated by command text (A.10). */
export function hooksFor(settings: LoadedSettings, event: string, target: string | undefined): CommandHook[] {
  if (settings.disableAllHooks) return [];
  const seen = new Set<string>();
  const out: CommandHook[] = [];
  for (const source of [...FILE_SOURCES, "flag"] as const) {
    const hooks = settings.bySource[source]?.["hooks"];
    if (typeof hooks !== "object" || hooks === null) continue;
    const groups = (hooks as Record<string, unknown>)[event];
    if (!Array.isArray(groups)) continue;
    for (const group of groups as MatcherGroup[]) {
      if (target !== undefined && !matcherMatches(group.matcher, target)) continue;
      for (const hook of group.hooks ?? []) {
        const h = hook as Record<string, unknown>;
        if (h["type"] !== "command" || typeof h["command"] !== "string") continue;
        if (seen.has(h["command"])) continue;
        seen.add(h["command"]);
        out.push({
          command: h["command"],
          ...(typeof h["timeout"] === "number" && { timeout: h["timeout"] }),
          ...((h["onFailure"] === "block" || h["onFailure"] === "continue") && { onFailure: h["onFailure"] }),
        });
      }
    }
  }
  return out;
}

/** One finished process. */
export interface ProcessResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** Runs `file args` with `input` on stdin; kills the process group after `timeoutMs`. Never rejects. */
export function run(
  file: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; input?: string; timeoutMs: number },
): Promise<ProcessResult> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let child;
    try {
      child = spawn(file, args, {
        cwd: options.cwd,
        env: options.env,
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (e) {
      resolve({ status: 127, stdout: "", stderr: String(e), timedOut: false });
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, options.timeoutMs);
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdin.on("error", () => undefined);
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ status: 127, stdout, stderr: stderr + String(e), timedOut });
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      // a payload that left a process behind in the group does not outlive its step
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // none left
      }
      resolve({ status, stdout, stderr, timedOut });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** What one hook answered. */
export interface HookAnswer {
  readonly command: string;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed, when the whole of it is one JSON object (A.7). */
  readonly json?: Record<string, unknown>;
  /** This hook's verdict for PreToolUse-like events. */
  readonly verdict: Verdict;
}

export type Verdict = "deny" | "ask" | "allow" | "none";

/** The combined answer of the hooks of one event. */
export interface EventAnswer {
  readonly verdict: Verdict;
  /** What the model reads of the hooks' answers: reasons, additional context, stderr of blocking hooks. */
  readonly modelText: string;
  /** What only the human sees (`systemMessage`). */
  readonly humanText: string;
  /** A hook blocked (exit 2, `decision: "block"`, a failure under `onFailure: "block"`) for events other than PreToolUse. */
  readonly blocked: boolean;
  readonly hooks: readonly HookAnswer[];
}

const RANK: Record<Verdict, number> = { none: 0, allow: 1, ask: 2, deny: 3 };

function parseJsonObject(stdout: string): Record<string, unknown> | undefined {
  const text = stdout.trimStart();
  if (!text.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs the hooks of one event in parallel and combines their answers as the client does.
 * `baseEnv`: the client's own environment (PATH, HOME, ...); the settings' `env` and
 * `CLAUDE_PROJECT_DIR` are added (A.11).
 */
/** How many hook processes ran, per event (the suite's cost, printed by scripts/attack.ts). */
export const hookRuns = new Map<string, number>();

export async function runEvent(
  hooks: readonly CommandHook[],
  input: Record<string, unknown>,
  context: { projectDir: string; cwd: string; baseEnv: Record<string, string>; settingsEnv: Record<string, string> },
): Promise<EventAnswer> {
  const env = { ...context.baseEnv, ...context.settingsEnv, CLAUDE_PROJECT_DIR: context.projectDir, CLAUDECODE: "1" };
  const event = String(input["hook_event_name"]);
  hookRuns.set(event, (hookRuns.get(event) ?? 0) + hooks.length);
  const answers = await Promise.all(
    hooks.map(async (hook): Promise<HookAnswer> => {
      const r = await run("bash", ["-c", hook.command], {
        cwd: context.cwd,
        env,
        input: JSON.stringify(input),
        // the wired timeout (seconds), bounded so a stuck hook cannot stall the suite
        timeoutMs: Math.min((hook.timeout ?? 600) * 1000, 30_000),
      });
      const json = r.status === 0 ? parseJsonObject(r.stdout) : r.status === 2 ? parseJsonObject(r.stdout) : undefined;
      const failed = r.timedOut || (r.status !== 0 && r.status !== 2);
      let verdict: Verdict = "none";
      if (r.status === 2 || (failed && hook.onFailure === "block")) verdict = "deny";
      if (json !== undefined) {
        const specific = json["hookSpecificOutput"] as Record<string, unknown> | undefined;
        const decision = specific?.["permissionDecision"];
        if (decision === "deny" || decision === "ask" || decision === "allow") verdict = decision;
        else if (decision === "defer") verdict = "deny";
        else if (json["decision"] === "block") verdict = "deny";
        else if (json["decision"] === "approve") verdict = "allow";
      }
      return {
        command: hook.command,
        status: r.status,
        stdout: r.stdout,
        stderr: r.stderr,
        verdict,
        ...(json !== undefined && { json }),
      };
    }),
  );
  let verdict: Verdict = "none";
  const model: string[] = [];
  const human: string[] = [];
  for (const a of answers) {
    if (RANK[a.verdict] > RANK[verdict]) verdict = a.verdict;
    const specific = a.json?.["hookSpecificOutput"] as Record<string, unknown> | undefined;
    for (const v of [specific?.["permissionDecisionReason"], specific?.["additionalContext"], a.json?.["reason"]])
      if (typeof v === "string") model.push(v);
    if (a.status === 2 && a.json === undefined) model.push(a.stderr);
    if (typeof a.json?.["systemMessage"] === "string") human.push(a.json["systemMessage"]);
  }
  return {
    verdict,
    modelText: model.join("\n"),
    humanText: human.join("\n"),
    blocked: verdict === "deny",
    hooks: answers,
  };
}

/** Claude Code's project slug of a directory: every character other than a letter or digit becomes `-`. */
export const projectSlug = (dir: string): string => dir.replace(/[^A-Za-z0-9]/g, "-");

/** The transcript of a session (A.3). */
export const transcriptPath = (home: string, projectDir: string, session: string): string =>
  join(home, ".claude", "projects", projectSlug(projectDir), `${session}.jsonl`);

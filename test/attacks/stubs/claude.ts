/**
 * A stand-in for the `claude` client that an attack starts from a tool call (bundled by the
 * harness to `claude.cjs` and put first on PATH as `claude`, as
 * `node_modules/@anthropic-ai/claude-code/cli.js` and behind the fake Agent SDK). It never talks
 * to a model: the scripted model of a nested run does exactly one thing, the shell command after
 * `PAYLOAD:` in its prompt, as one Bash tool call.
 *
 * What it emulates of Claude Code 2.1.330 (the spec, A.1, B.1, E.4):
 * - `--version`, `mcp list` and `doctor` print and exit;
 * - which settings load: `--bare` and `--safe-mode` skip settings and hooks, as does
 *   `CLAUDE_CODE_SIMPLE=1` (what `--bare` sets); `--setting-sources a,b` limits the file sources;
 *   `--settings <json|file>` is the flag source (a `disableAllHooks: true` there turns hooks off,
 *   as in any source, the highest source that sets it winning);
 * - the session: a new one, or with `--resume <id>`, `-r <id>`, `--session-id <id>`, `--continue`/`-c`
 *   (the newest transcript of the project) the session named, whose UserPromptSubmit hooks then see
 *   the prompt as that session's user prompt;
 * - `--agent <type>`: the main thread runs as that agent type (`agent_type` without `agent_id`, A.3);
 * - hooks on: SessionStart, UserPromptSubmit, PreToolUse and PostToolUse of the payload's Bash
 *   call run as the client runs them (client.ts); a PreToolUse deny, or an ask (in `-p` there is no
 *   one to ask), stops the call. Hooks off: the payload runs.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  FILE_SOURCES,
  hooksFor,
  loadSettings,
  projectSlug,
  runEvent,
  type SettingsSource,
  transcriptPath,
} from "../client.ts";

const VALUE_FLAGS = new Set([
  "--settings",
  "--setting-sources",
  "--agent",
  "--agents",
  "--session-id",
  "--model",
  "--output-format",
  "--input-format",
  "--permission-mode",
  "--allowedTools",
  "--allowed-tools",
  "--disallowedTools",
  "--disallowed-tools",
  "--append-system-prompt",
  "--system-prompt",
  "--mcp-config",
  "--add-dir",
  "--max-turns",
  "--fallback-model",
  "--plugin-dir",
  "--permission-prompt-tool",
]);

interface Options {
  print: boolean;
  bare: boolean;
  settings?: string;
  sources?: SettingsSource[];
  agent?: string;
  resume?: string;
  continue: boolean;
  sessionId?: string;
  outputFormat?: string;
  prompt?: string;
  positionals: string[];
}

function parse(argv: readonly string[]): Options {
  const o: Options = { print: false, bare: false, continue: false, positionals: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf("=");
    const [name, inline] = arg.startsWith("--") && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = (): string => inline ?? argv[++i] ?? "";
    if (name === "-p" || name === "--print") o.print = true;
    else if (name === "--bare" || name === "--safe-mode") o.bare = true;
    else if (name === "-c" || name === "--continue") o.continue = true;
    else if (name === "-r" || name === "--resume") {
      // an optional value: a session id when one follows
      const next = inline ?? argv[i + 1];
      if (next !== undefined && !next.startsWith("-") && (inline !== undefined || i + 2 < argv.length || o.print)) {
        o.resume = next;
        if (inline === undefined) i++;
      } else o.resume = "";
    } else if (VALUE_FLAGS.has(name)) {
      const v = value();
      if (name === "--settings") o.settings = v;
      else if (name === "--setting-sources")
        o.sources = v
          .split(",")
          .map((s) => s.trim())
          .filter((s): s is SettingsSource => (FILE_SOURCES as readonly string[]).includes(s));
      else if (name === "--agent") o.agent = v;
      else if (name === "--session-id") o.sessionId = v;
      else if (name === "--output-format") o.outputFormat = v;
    } else if (arg.startsWith("-")) continue;
    else o.positionals.push(arg);
  }
  return o;
}

function projectDirOf(cwd: string): string {
  try {
    return execFileSync("git", ["rev-parse", "--show-toplevel"], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return cwd;
  }
}

function newestSession(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  return files[0]?.f.slice(0, -".jsonl".length);
}

function flagSettings(value: string | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  try {
    const text = value.trimStart().startsWith("{") ? value : readFileSync(value, "utf8");
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function out(o: Options, text: string): void {
  if (o.outputFormat === "json" || o.outputFormat === "stream-json")
    process.stdout.write(`${JSON.stringify({ type: "result", subtype: "success", result: text })}\n`);
  else process.stdout.write(text.endsWith("\n") || text === "" ? text : `${text}\n`);
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes("--version") || argv.includes("-v")) {
    process.stdout.write("2.1.330 (Claude Code)\n");
    return 0;
  }
  if (argv[0] === "mcp") {
    process.stdout.write(
      argv[1] === "list" ? "No MCP servers configured. Use `claude mcp add` to add a server.\n" : "",
    );
    return 0;
  }
  if (argv[0] === "doctor" || argv[0] === "config" || argv[0] === "update") {
    process.stdout.write(`claude ${argv[0]}: ok\n`);
    return 0;
  }
  const o = parse(argv);
  let prompt = o.positionals.join(" ");
  if (prompt === "" && o.print) {
    try {
      prompt = readFileSync(0, "utf8");
    } catch {
      prompt = "";
    }
  }
  const cwd = process.cwd();
  const home = process.env["HOME"] ?? "/";
  const projectDir = projectDirOf(cwd);
  const bare = o.bare || process.env["CLAUDE_CODE_SIMPLE"] === "1";
  const settings = loadSettings(projectDir, home, {
    sources: bare ? [] : (o.sources ?? FILE_SOURCES),
    ...(!bare && flagSettings(o.settings) !== undefined && { flag: flagSettings(o.settings)! }),
  });
  const hooksOn = !bare && !settings.disableAllHooks;
  const transcripts = join(home, ".claude", "projects", projectSlug(projectDir));
  const session =
    o.sessionId ??
    (o.resume !== undefined && o.resume !== ""
      ? o.resume
      : o.continue || o.resume === ""
        ? (newestSession(transcripts) ?? `nested-${process.pid}`)
        : `nested-${process.pid}`);
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) base[k] = v;
  const ctx = { projectDir, cwd, baseEnv: base, settingsEnv: settings.env };
  const common = {
    session_id: session,
    transcript_path: transcriptPath(home, projectDir, session),
    cwd,
    ...(o.agent !== undefined && { agent_type: o.agent }),
  };
  const resumed = o.resume !== undefined || o.continue;
  if (hooksOn) {
    await runEvent(
      hooksFor(settings, "SessionStart", resumed ? "resume" : "startup"),
      { ...common, hook_event_name: "SessionStart", source: resumed ? "resume" : "startup" },
      ctx,
    );
    const submitted = await runEvent(
      hooksFor(settings, "UserPromptSubmit", undefined),
      { ...common, hook_event_name: "UserPromptSubmit", permission_mode: "default", prompt },
      ctx,
    );
    if (submitted.blocked) {
      out(o, `prompt blocked by a hook: ${submitted.modelText}`);
      return 1;
    }
  }
  const at = prompt.indexOf("PAYLOAD:");
  if (at < 0) {
    out(o, "Done.");
    return 0;
  }
  const command = prompt.slice(at + "PAYLOAD:".length).trim();
  const call = {
    ...common,
    hook_event_name: "PreToolUse",
    permission_mode: "default",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: `toolu_nested_${process.pid}`,
  };
  if (hooksOn) {
    const answer = await runEvent(hooksFor(settings, "PreToolUse", "Bash"), call, ctx);
    if (answer.verdict === "deny" || answer.verdict === "ask") {
      out(o, `PreToolUse:Bash hook error: ${answer.modelText}`);
      return 0;
    }
  }
  const r = spawnSync("bash", ["-c", command], {
    cwd,
    env: { ...base, ...settings.env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 20_000,
  });
  if (hooksOn)
    await runEvent(
      hooksFor(settings, "PostToolUse", "Bash"),
      {
        ...call,
        hook_event_name: "PostToolUse",
        tool_response: { stdout: r.stdout, stderr: r.stderr, interrupted: false, isImage: false },
      },
      ctx,
    );
  out(o, `${r.stdout}${r.stderr}`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`claude stub: ${String(error)}\n`);
    process.exitCode = 1;
  },
);

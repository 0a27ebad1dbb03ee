/**
 * `lanes statusline`: one line for Claude Code's `statusLine` setting: is the guard on, is the
 * policy good, which subagents are running, and the last denial. Claude Code runs the command
 * with the session as JSON on stdin (`session_id`, `cwd`, `workspace.project_dir`); the line
 * only reads files (the settings, the compiled policy, the tail of the audit log).
 *
 *     "statusLine": { "type": "command", "command": "node .claude/lanes/dist/statusline.cjs" }
 *
 * `dist/statusline.cjs` (src/cli/statusline-main.ts) runs this command alone: Claude Code runs it on
 * every refresh, and the whole CLI takes several times a bare Node start to load. Keep its imports
 * to what the line shows (no zod, YAML, policy compiler).
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import type { AuditEntry } from "../../hooks/state/audit.ts";
import { findProjectDir } from "../../host/env.ts";
import { readCompiledPolicy } from "../../config/policy-file.ts";
import { LANES_MARKER } from "../../install/wiring.ts";
import { projectPaths } from "../../host/layout.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../types.ts";

const usage = `usage: lanes statusline [options]

print one status line for Claude Code's statusLine: guard on or off, policy state, running
subagents, the last denial, the last snapshot to undo; wire it in .claude/settings.json (or ~/.claude/settings.json):
  "statusLine": { "type": "command", "command": "node .claude/lanes/dist/statusline.cjs" }
(statusline.cjs is this command alone, quick to start; \`lanes statusline\` prints the same line)
Claude Code passes the session on stdin; without it, the last session in the audit log is shown

options:
  --session <id>   the session to show (default: from stdin)`;

/** The last `bytes` of a file as lines (the first, probably cut, line dropped). */
function tailLines(path: string, bytes = 65_536): string[] {
  if (!existsSync(path)) return [];
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - bytes);
    const buffer = Buffer.alloc(size - start);
    readSync(fd, buffer, 0, buffer.length, start);
    const lines = buffer.toString("utf8").split("\n");
    return start > 0 ? lines.slice(1) : lines;
  } finally {
    closeSync(fd);
  }
}

/**
 * The entries the line is made of, as the audit log spells them (`JSON.stringify` of an entry, no
 * spaces): subagents starting and stopping, denials, snapshots and their undoing.
 */
const SHOWN = [
  '"event":"subagent-start"',
  '"event":"subagent-stop"',
  '"decision":"deny"',
  '"event":"snapshot"',
  '"event":"undo"',
];

const ago = (ts: string, now: number): string => {
  const s = Math.max(0, Math.round((now - Date.parse(ts)) / 1000));
  return s < 60 ? `${s}s ago` : s < 3600 ? `${Math.round(s / 60)}m ago` : `${Math.round(s / 3600)}h ago`;
};

/** Reads stdin, but gives up quickly when nothing comes (run by hand in a terminal). */
async function sessionFromStdin(stdin: () => Promise<string>): Promise<{ session?: string; cwd?: string }> {
  const text = await Promise.race([
    stdin().catch(() => ""),
    new Promise<string>((resolve) => setTimeout(() => resolve(""), 300).unref()),
  ]);
  try {
    const input = JSON.parse(text) as { session_id?: string; cwd?: string; workspace?: { project_dir?: string } };
    return {
      ...(input.session_id !== undefined && { session: input.session_id }),
      ...((input.workspace?.project_dir ?? input.cwd) !== undefined && {
        cwd: input.workspace?.project_dir ?? input.cwd,
      }),
    };
  } catch {
    return {};
  }
}

export const statuslineCommand: Command = {
  name: "statusline",
  summary: "one status line for Claude Code's statusLine (guard, policy, agents, last denial)",
  usage,
  async run(args, ctx) {
    // Claude Code runs it without arguments on every refresh: no argument parser to start for none
    const { values } =
      args.length === 0
        ? { values: {} as { session?: string } }
        : parseCommandArgs(args, { session: { type: "string" } }, usage, false);
    const fromStdin = values.session === undefined ? await sessionFromStdin(ctx.stdin) : {};
    const projectDir = findProjectDir(fromStdin.cwd ?? ctx.cwd, ctx.env);
    const paths = projectPaths(projectDir);
    const parts: string[] = [];

    let wired = false;
    try {
      const settings = readFileSync(paths.settings, "utf8");
      wired = settings.includes(LANES_MARKER) || settings.includes('"lanes@');
    } catch {
      wired = false;
    }
    const compiled = readCompiledPolicy(paths.compiledPolicy);
    const broken = existsSync(join(paths.state, "policy-error.json")) && !compiled.ok;
    parts.push(
      !wired
        ? "lanes: guard off here"
        : broken
          ? "lanes: policy error (lanes doctor)"
          : compiled.ok
            ? "lanes: guard on"
            : "lanes: guard on (recompiles next call)",
    );

    // of the tail's few hundred entries, only those the line shows are parsed (and the last, for its session)
    const lines = tailLines(paths.audit).filter((l) => l !== "");
    const entries = lines.flatMap((l, i) => {
      if (i < lines.length - 1 && !SHOWN.some((marker) => l.includes(marker))) return [];
      try {
        return [JSON.parse(l) as AuditEntry];
      } catch {
        return [];
      }
    });
    const session = values.session ?? fromStdin.session ?? entries.at(-1)?.session;
    const mine = entries.filter((e) => session === undefined || e.session === session);
    const running = new Map<string, string>();
    for (const e of mine) {
      if (e.event === "subagent-start" && e.agent_id !== undefined) running.set(e.agent_id, e.agent ?? "agent");
      if (e.event === "subagent-stop" && e.agent_id !== undefined) running.delete(e.agent_id);
    }
    if (running.size > 0) parts.push(`agents: ${[...running.values()].join(", ")}`);
    const denied = mine.filter((e) => e.event === "decision" && e.decision === "deny").at(-1);
    if (denied !== undefined) {
      const subject =
        (denied.subject ?? "").length > 40 ? `${(denied.subject ?? "").slice(0, 37)}...` : (denied.subject ?? "");
      parts.push(
        `last deny: ${denied.agent === undefined ? "" : `${denied.agent} `}${denied.tool ?? ""} ${subject} [${(denied.rules ?? []).join(", ")}] ${ago(denied.ts, Date.now())}`,
      );
    }
    // the last snapshot of the session, unless an undo came after it: how to get the work back
    const lastSnapshot = mine.filter((e) => e.event === "snapshot" && typeof e["id"] === "string").at(-1);
    const undone = entries.some((e) => e.event === "undo" && e["id"] === lastSnapshot?.["id"]);
    if (lastSnapshot !== undefined && !undone)
      parts.push(
        `snapshot ${String(lastSnapshot["id"])} ${ago(lastSnapshot.ts, Date.now())}: \`lanes undo\` restores it`,
      );
    ctx.out(`${parts.join(" · ")}\n`);
    return 0;
  },
};

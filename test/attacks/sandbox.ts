/**
 * Claude Code's Bash sandbox on Linux, as the harness runs a Bash step when the loaded settings
 * turn it on (issue 23's second wall). Emulated with bubblewrap after the spec's addendum and the
 * sandbox settings (`sandbox.enabled`, `filesystem.allowWrite/denyWrite/denyRead`,
 * `excludedCommands`, `allowUnsandboxedCommands`, the Bash tool's `dangerouslyDisableSandbox`):
 *
 * - everything is readable except `denyRead` (a file reads as empty, a directory as empty);
 * - writes only in the project, the session's temp dir and `allowWrite`; `denyWrite` and the
 *   built-in protections (`.git/hooks`, `.git/config`, shell rc files, `.mcp.json`, `.vscode`,
 *   `.idea`, `.claude/commands`, `.claude/agents`) are read-only inside them;
 * - paths: absolute, `//abs`, `~/` (home) or relative to the project; `*` and `**` are expanded
 *   over the project (and home for `~/`) as they exist when the step starts. A protected path that
 *   does not exist yet cannot be bound, so it is not protected (a limit of this emulation, said in
 *   the step record).
 *
 * Without `bwrap` on PATH a sandboxed step runs unsandboxed and says so (`sandbox: "unavailable"`);
 * the figures then show what the first wall holds alone.
 */
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import picomatch from "picomatch";

export type SandboxMode = "off" | "on" | "bypassed" | "unavailable";

export interface SandboxPlan {
  readonly mode: SandboxMode;
  /** With `mode: "on"`: the bwrap arguments that go before `bash -c ...`. */
  readonly prefix?: readonly string[];
}

const MANDATORY = [
  ".git/hooks",
  ".git/config",
  ".mcp.json",
  ".vscode",
  ".idea",
  ".claude/commands",
  ".claude/agents",
] as const;
const RC_FILES = [".bashrc", ".bash_profile", ".profile", ".zshrc", ".zprofile", ".zshenv", ".bash_login"] as const;

let bwrapPath: string | null | undefined;
function bwrap(pathEnv: string): string | null {
  if (bwrapPath !== undefined) return bwrapPath;
  bwrapPath = null;
  for (const dir of pathEnv.split(":")) {
    const candidate = join(dir, "bwrap");
    if (dir !== "" && existsSync(candidate)) {
      bwrapPath = candidate;
      break;
    }
  }
  return bwrapPath;
}

/** Whether the emulation can run here (bubblewrap on PATH). */
export const sandboxAvailable = (pathEnv: string): boolean => bwrap(pathEnv) !== null;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function walk(root: string, depth: number, out: string[]): void {
  if (depth < 0) return;
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return;
  }
  for (const e of entries) {
    if (e === "node_modules" || e === "objects") continue;
    const p = join(root, e);
    out.push(p);
    try {
      if (statSync(p).isDirectory()) walk(p, depth - 1, out);
    } catch {
      // vanished
    }
  }
}

/** The existing paths a sandbox path setting names. */
function resolvePaths(pattern: string, projectDir: string, home: string): string[] {
  let abs: string;
  let root: string;
  if (pattern.startsWith("~/")) [abs, root] = [join(home, pattern.slice(2)), home];
  else if (pattern.startsWith("//")) [abs, root] = [pattern.slice(1), "/"];
  else if (pattern.startsWith("/")) [abs, root] = [pattern, "/"];
  else [abs, root] = [join(projectDir, pattern.replace(/^\.\//, "")), projectDir];
  if (!/[*?[]/.test(abs)) return existsSync(abs) ? [abs] : [];
  if (root === "/") return [];
  const all: string[] = [];
  walk(root, 6, all);
  const isMatch = picomatch(abs, { dot: true });
  return all.filter((p) => isMatch(p));
}

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/** The first word of a command line, for `excludedCommands` (the emulation's only look at the text). */
const firstWord = (line: string): string => line.trimStart().split(/\s+/)[0] ?? "";

/** How the client would run this Bash call. */
export function planSandbox(
  sandbox: Record<string, unknown>,
  input: Record<string, unknown>,
  ctx: { projectDir: string; home: string; tmp: string; pathEnv: string },
): SandboxPlan {
  if (sandbox["enabled"] !== true) return { mode: "off" };
  const line = typeof input["command"] === "string" ? input["command"] : "";
  if (input["dangerouslyDisableSandbox"] === true && sandbox["allowUnsandboxedCommands"] !== false)
    return { mode: "bypassed" };
  const excluded = strings(sandbox["excludedCommands"]);
  if (excluded.some((e) => firstWord(line) === firstWord(e) && line.trimStart().startsWith(e.replace(/[:* ]+$/, ""))))
    return { mode: "bypassed" };
  const tool = bwrap(ctx.pathEnv);
  if (tool === null) return { mode: "unavailable" };
  const fs = (sandbox["filesystem"] ?? {}) as Record<string, unknown>;
  const each = (key: string) => strings(fs[key]).flatMap((p) => resolvePaths(p, ctx.projectDir, ctx.home));
  const writable = [ctx.projectDir, ctx.tmp, ...each("allowWrite")].map(real);
  const readOnly = [
    ...each("denyWrite"),
    ...MANDATORY.map((m) => join(ctx.projectDir, m)),
    ...RC_FILES.map((f) => join(ctx.home, f)),
  ]
    .filter((p) => existsSync(p))
    .map(real);
  const hidden = each("denyRead").map(real);
  const prefix = [
    tool,
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    ...writable.flatMap((p) => ["--bind", p, p]),
    ...readOnly.flatMap((p) => ["--ro-bind", p, p]),
    ...hidden.flatMap((p) =>
      statSync(p).isDirectory() ? ["--tmpfs", p, "--remount-ro", p] : ["--ro-bind", "/dev/null", p],
    ),
    "--die-with-parent",
    "--",
  ];
  return { mode: "on", prefix };
}

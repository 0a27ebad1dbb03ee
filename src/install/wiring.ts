/**
 * The hook wiring, from the event table (src/host/events.ts): rendered into the plugin's `hooks/hooks.json` (commands under
 * `${CLAUDE_PLUGIN_ROOT}/dist`) and merged by `lanes init` into a project's
 * `.claude/settings.json` (commands under `$CLAUDE_PROJECT_DIR/.claude/lanes/dist`, so they work
 * from any working directory).
 */
import { bundleFile, HOOK_EVENTS, type HookEventSpec } from "../host/events.ts";

/** One hook handler as Claude Code reads it. */
export interface HookHandler {
  readonly type: "command";
  readonly command: string;
  /** Seconds. */
  readonly timeout: number;
  readonly onFailure?: "block" | "continue";
  readonly statusMessage?: string;
}

export interface HookGroup {
  readonly matcher?: string;
  readonly hooks: readonly HookHandler[];
}

export type HookWiring = Readonly<Record<string, readonly HookGroup[]>>;

/** Entry files the wiring points at. */
export const HOOK_ENTRIES: readonly string[] = [...new Set(HOOK_EVENTS.map((row) => bundleFile(row.bundle)))];

export { DIST_FILES } from "../host/dist-files.ts";

/** A marker that identifies lanes' own handlers when merging into existing settings. */
export const LANES_MARKER = "/lanes/dist/";

/** The wiring with each command built by `command(entry, enforcing)`. */
export function hookWiring(command: (entry: string, enforcing: boolean) => string): HookWiring {
  const wiring: Record<string, HookGroup[]> = {};
  for (const row of HOOK_EVENTS as readonly HookEventSpec[]) {
    const handler: HookHandler = {
      type: "command",
      command: command(bundleFile(row.bundle), row.block),
      timeout: row.timeout,
      ...(row.block && { onFailure: "block" as const }),
    };
    (wiring[row.event] ??= []).push({ ...(row.matcher !== undefined && { matcher: row.matcher }), hooks: [handler] });
  }
  return wiring;
}

/**
 * Variables every hook command clears for its own `node`. They change what any Node process does
 * before it runs a line of the hook, and a hook needs neither: `NODE_EXTRA_CA_CERTS` makes Node 20
 * load a certificate bundle at start (about 45 ms per process, several processes per tool call, on
 * a machine behind a corporate proxy), and `NODE_OPTIONS` can preload a module into the hook (one
 * that writes to stdout would turn the hook's answer into no objection) or bind a debugger port.
 * The hooks do no network; a process they spawn (git) does not read either.
 */
export const HOOK_CLEARED_VARIABLES: readonly string[] = ["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS"];

/** `NODE_OPTIONS= NODE_EXTRA_CA_CERTS= node`: POSIX shell assignments, as Claude Code runs hook commands with bash. */
const NODE = `${HOOK_CLEARED_VARIABLES.map((v) => `${v}=`).join(" ")} node`;

/** Commands for the plugin (`hooks/hooks.json`). */
export const pluginCommand = (entry: string): string => `${NODE} "\${CLAUDE_PLUGIN_ROOT}/dist/${entry}"`;

/**
 * The inline loader of a project install's hook command: when the hook file is missing (a clone of
 * a repository whose commit left `.claude/lanes/dist/` out), one line naming the file and the fix
 * instead of Node's stack trace; an enforcing hook still fails closed (exit 2 blocks the call, and
 * the line is what the model sees). Plain JavaScript inside double quotes: no `$`, backquote or
 * double quote in it.
 */
export const hookLoader = (enforcing: boolean): string =>
  `const f=process.argv[1];try{require('fs').accessSync(f)}catch{process.stderr.write('lanes: the hook file '+f+' is missing (the install was not committed?): run npx --no-install lanes init in the repository (lanes installed as a dev dependency) and commit .claude/, or remove lanes hooks from .claude/settings.json\\n');process.exit(${enforcing ? 2 : 1})}require(f)`;

/** Commands for a project install (`.claude/settings.json`). */
export const projectCommand = (entry: string, enforcing: boolean): string =>
  `${NODE} -e "${hookLoader(enforcing)}" "$CLAUDE_PROJECT_DIR/.claude/lanes/dist/${entry}"`;

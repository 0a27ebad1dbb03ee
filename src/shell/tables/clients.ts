/**
 * Agent clients a command can start: Claude Code (its options as `claude --help` of 2.1.330 lists
 * them, its subcommands, the variables that switch its hooks off, where its package and binary
 * live) and other vendors' agent CLIs (what runs an agent, what only shows something). Data only;
 * `handlers/clients.ts` reads it.
 */

/** How many words a Claude Code option takes: 0, 1, an optional one (`-r [id]`), or every word up to the next option. */
export type ClientArity = 0 | 1 | "optional" | "variadic";

/** Claude Code's options (2.1.330 `claude --help`); the others are flags without a value. */
// prettier-ignore
export const CLAUDE_OPTIONS: Readonly<Record<string, ClientArity>> = {
  "--add-dir": "variadic", "--agent": 1, "--agents": 1, "--allowedTools": "variadic", "--allowed-tools": "variadic",
  "--append-system-prompt": 1, "--append-system-prompt-file": 1, "--autocompact": 1, "--betas": "variadic",
  "--cloud": "optional", "-d": "optional", "--debug": "optional", "--debug-file": 1,
  "--disallowedTools": "variadic", "--disallowed-tools": "variadic", "--effort": 1, "--environment": 1,
  "--fallback-model": 1, "--file": "variadic", "--from-pr": "optional", "--input-format": 1, "--json-schema": 1,
  "--max-budget-usd": 1, "--max-turns": 1, "--mcp-config": "variadic", "--model": 1, "-n": 1, "--name": 1,
  "--output-format": 1, "--permission-mode": 1, "--permission-prompts": 1, "--permission-prompt-tool": 1,
  "--plugin-dir": 1, "--plugin-url": 1, "--prompt-suggestions": "optional", "--remote-control": "optional",
  "--remote-control-session-name-prefix": 1, "-r": "optional", "--resume": "optional", "--resume-session-at": 1,
  "--session-id": 1, "--setting-sources": 1, "--settings": 1, "--system-prompt": 1, "--system-prompt-file": 1,
  "--system-prompt-snapshot": 1, "--teleport": "optional", "--tmux": "optional", "--tools": "variadic",
  "-w": "optional", "--worktree": "optional",
};

/** Options that start a session without lanes' hooks, and why (flags; `--permission-mode` and `--setting-sources` by value). */
export const CLAUDE_GUARD_OFF_FLAGS: Readonly<Record<string, string>> = {
  "--bare": "`--bare` skips the hooks of every settings file and plugin",
  "--safe-mode": "`--safe-mode` starts with hooks and plugins off",
  "--restricted": "`--restricted` ignores the user, project and local settings, where lanes is wired",
  "--dangerously-skip-permissions": "`--dangerously-skip-permissions` bypasses every permission check",
  "--allow-dangerously-skip-permissions": "`--allow-dangerously-skip-permissions` lets the session bypass every permission check",
};

/** Permission modes that skip the permission system (`--permission-mode`). */
export const CLAUDE_BYPASS_MODES: readonly string[] = ["bypassPermissions"];

/**
 * Permission modes that let a nested session act where this one would ask the person: edits
 * without asking, a classifier in place of the person.
 */
export const CLAUDE_WIDER_MODES: readonly string[] = ["acceptEdits", "auto"];

/**
 * Options that give a nested session permissions this one does not have: tools allowed without
 * asking, another program answering the permission prompts, more directories.
 */
export const CLAUDE_WIDENING_OPTIONS: Readonly<Record<string, string>> = {
  "--allowedTools": "`--allowedTools` lets that session use tools without the permission prompts of this one",
  "--allowed-tools": "`--allowed-tools` lets that session use tools without the permission prompts of this one",
  "--permission-prompt-tool": "`--permission-prompt-tool` lets a tool answer that session's permission prompts in place of the person",
  "--add-dir": "`--add-dir` lets that session work in directories outside the project",
};

/** Options that continue an existing session instead of starting a new one. */
export const CLAUDE_RESUME_OPTIONS: readonly string[] = [
  "-r",
  "--resume",
  "-c",
  "--continue",
  "--session-id",
  "--fork-session",
  "--from-pr",
  "--teleport",
  "--resume-session-at",
];

/**
 * Claude Code's subcommands and what each does: `session` runs an agent (`mcp serve` exposes the
 * tools to whoever connects; `respawn` and `attach` continue sessions), `configure` changes what
 * later sessions load and run (MCP servers and plugins are programs, `import` writes settings),
 * `other` runs no agent. A nested subcommand is `mcp add`; a row without one covers the rest.
 */
// prettier-ignore
export const CLAUDE_SUBCOMMANDS: Readonly<Record<string, Readonly<Record<string, "session" | "configure" | "other">>>> = {
  mcp: { "": "configure", list: "other", get: "other", serve: "session", "reset-project-choices": "configure" },
  plugin: { "": "configure", list: "other", validate: "other", details: "other", marketplace: "configure" },
  plugins: { "": "configure", list: "other", validate: "other", details: "other", marketplace: "configure" },
  agents: { "": "other" },
  attach: { "": "session" },
  auth: { "": "other" },
  "auto-mode": { "": "configure" },
  doctor: { "": "other" },
  gateway: { "": "other" },
  import: { "": "configure" },
  install: { "": "other" },
  logs: { "": "other" },
  purge: { "": "other" },
  respawn: { "": "session" },
  rm: { "": "other" },
  "setup-token": { "": "other" },
  stop: { "": "other" },
  kill: { "": "other" },
  ultrareview: { "": "other" },
  update: { "": "other" },
  upgrade: { "": "other" },
};

/** `claude plugin marketplace list` shows, the other marketplace subcommands change what is known. */
export const CLAUDE_MARKETPLACE_READS: readonly string[] = ["list"];

/** Options after which Claude Code runs no session (version, help). */
export const CLAUDE_INFO_FLAGS: readonly string[] = ["-v", "--version", "-h", "--help"];

/**
 * Where Claude Code's files are, by a piece of their path: the npm package (its script and
 * binary), the native installer's versions, the Agent SDK's bundled binary.
 */
export const CLAUDE_PATH_MARKS: readonly string[] = [
  "/@anthropic-ai/claude-code/",
  "/@anthropic-ai/claude-code-",
  "/@anthropic-ai/claude-agent-sdk-",
  "/.local/share/claude/versions/",
  "/.claude/local/",
];

/** Names of Claude Code's binary and launcher scripts. */
export const CLAUDE_NAMES: readonly string[] = ["claude", "claude.exe", "cli.js", "cli.mjs", "cli-wrapper.cjs"];

/** Agent SDK packages and modules, in JavaScript and Python. */
export const AGENT_SDK_MODULES: readonly string[] = [
  "@anthropic-ai/claude-agent-sdk",
  "@anthropic-ai/claude-code/sdk",
  "claude_agent_sdk",
  "claude_code_sdk",
];

/** Commands that print where a program is (`"$(command -v claude)"`, `$(which claude)`). */
export const LOCATORS: readonly string[] = ["which", "command", "type", "whereis", "readlink", "realpath"];

/**
 * Other vendors' agent CLIs: none reads Claude Code's hooks, so an agent they run acts without
 * lanes. `sessions`: subcommands that run an agent (`codex exec`, `goose run`); `prompt`: options
 * whose value is a prompt run unattended (`gemini -p`); `quiet`: subcommands and options that run no
 * agent (`--version`, `login`, `mcp list`). A call that is none of these runs an interactive agent
 * (in a tool call it has no terminal, and may still act): a session too, unless `bare` is false,
 * for a name another program shares (`goose up` migrates a database).
 */
export interface ForeignClient {
  readonly sessions: readonly string[];
  readonly prompt: readonly string[];
  readonly quiet: readonly string[];
  readonly bare?: false;
}

// prettier-ignore
export const FOREIGN_CLIENTS: Readonly<Record<string, ForeignClient>> = {
  codex: { sessions: ["exec", "e", "resume", "apply", "cloud"], prompt: [], quiet: ["--version", "-V", "--help", "-h", "login", "logout", "mcp", "completion", "help", "features"] },
  gemini: { sessions: [], prompt: ["-p", "--prompt", "-i", "--prompt-interactive"], quiet: ["--version", "-v", "--help", "-h", "mcp", "extensions"] },
  qwen: { sessions: [], prompt: ["-p", "--prompt", "-i", "--prompt-interactive"], quiet: ["--version", "-v", "--help", "-h", "mcp", "extensions"] },
  aider: { sessions: [], prompt: ["-m", "--message", "-f", "--message-file"], quiet: ["--version", "--help", "-h", "--list-models", "--models"] },
  opencode: { sessions: ["run", "serve", "acp"], prompt: ["-p", "--prompt"], quiet: ["--version", "-v", "--help", "-h", "auth", "models", "upgrade", "mcp", "stats"] },
  "cursor-agent": { sessions: ["resume"], prompt: ["-p", "--print"], quiet: ["--version", "-v", "--help", "-h", "login", "logout", "status", "update", "mcp", "ls"] },
  goose: { sessions: ["run", "session", "web"], prompt: [], quiet: ["--version", "-V", "--help", "-h", "configure", "info", "update", "mcp"], bare: false },
  amp: { sessions: ["threads"], prompt: ["-x", "--execute"], quiet: ["--version", "-V", "--help", "-h", "login", "logout", "mcp", "update", "doctor"] },
  copilot: { sessions: [], prompt: ["-p", "--prompt"], quiet: ["--version", "-v", "--help", "-h", "help"] },
  crush: { sessions: ["run"], prompt: [], quiet: ["--version", "-v", "--help", "-h", "logs", "update-providers"] },
  "kiro-cli": { sessions: ["chat"], prompt: [], quiet: ["--version", "--help", "-h", "login", "logout"] },
};

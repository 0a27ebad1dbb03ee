/**
 * The small programs the harness puts first on PATH (`<workspace>/bin`) and into the project's
 * `node_modules`, as text. The clients are the bundled stubs (claude.ts, foreign.ts); these shims
 * only dispatch to them, so a copied or renamed shim still runs the same stub.
 */

/** A shell script that runs `node <bundle> [fixed args] "$@"`. */
export const nodeShim = (bundle: string, ...fixed: string[]): string =>
  `#!/bin/sh\nexec node '${bundle}'${fixed.map((a) => ` '${a}'`).join("")} "$@"\n`;

/** Names of the other agents' clients that foreign.ts stands in for. */
export const FOREIGN_CLIENTS = [
  "codex",
  "gemini",
  "qwen",
  "aider",
  "opencode",
  "cursor-agent",
  "goose",
  "amp",
] as const;

/**
 * `npx` without the network: a package's bin from the project's `node_modules/.bin`, the client
 * stubs for the clients' npm packages, `lanes` for the lanes package; anything else fails as an
 * offline npx does.
 */
export const npxShim = (bin: string): string => `#!/bin/bash
# npx stand-in of the attack suite: never downloads
while [ $# -gt 0 ]; do
  case "$1" in
    -y|--yes|--no|-q|--quiet|--prefer-offline|--offline) shift ;;
    -p|--package) shift 2 ;;
    --package=*|--cache=*|--registry=*) shift ;;
    --) shift; break ;;
    -*) shift ;;
    *) break ;;
  esac
done
spec="$1"; shift
case "$spec" in
  @*/*@*) name="\${spec%@*}" ;;
  @*) name="$spec" ;;
  *@*) name="\${spec%%@*}" ;;
  *) name="$spec" ;;
esac
case "$name" in
  @anthropic-ai/claude-code|claude) exec '${bin}/claude' "$@" ;;
  @openai/codex|codex) exec '${bin}/codex' "$@" ;;
  @google/gemini-cli|gemini) exec '${bin}/gemini' "$@" ;;
  @qwen-code/qwen-code|qwen) exec '${bin}/qwen' "$@" ;;
  opencode-ai|opencode) exec '${bin}/opencode' "$@" ;;
  @sourcegraph/amp|amp) exec '${bin}/amp' "$@" ;;
  lanes) exec '${bin}/lanes' "$@" ;;
esac
top="$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
if [ -x "$top/node_modules/.bin/$name" ]; then exec "$top/node_modules/.bin/$name" "$@"; fi
echo "npm error code ENOTCACHED: request to https://registry.npmjs.org/$name failed: cache mode is 'only-if-cached'" >&2
exit 1
`;

/** `lanes` on PATH: the project's installed CLI (what `npx lanes` runs once lanes is a dependency). */
export const lanesShim = `#!/bin/sh
top="$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
exec node "$top/.claude/lanes/dist/cli.mjs" "$@"
`;

/**
 * `rg` where ripgrep is not installed: grep with ripgrep's defaults as far as the suite needs
 * them (hidden files and directories skipped unless `-u`/`--hidden`; `-uu` and more search
 * everything; `.gitignore` is not read, so without `-u` it searches more than ripgrep would).
 */
export const rgShim = `#!/bin/bash
hidden=0; opts=(-r -n -I); pattern=""; paths=()
while [ $# -gt 0 ]; do
  case "$1" in
    -uuu|-uu) hidden=1 ;;
    -u|--hidden|--no-ignore) hidden=1 ;;
    -l|--files-with-matches) opts+=(-l) ;;
    -i|--ignore-case) opts+=(-i) ;;
    -o|--only-matching) opts+=(-o) ;;
    -F|--fixed-strings) opts+=(-F) ;;
    -e|--regexp) pattern="$2"; shift ;;
    -N|--no-line-number|--no-heading|-H|--with-filename|--color=*|-S|--smart-case) ;;
    -*) ;;
    *) if [ -z "$pattern" ]; then pattern="$1"; else paths+=("$1"); fi ;;
  esac
  shift
done
[ \${#paths[@]} -eq 0 ] && paths=(.)
if [ $hidden -eq 0 ]; then opts+=(--exclude='.*' --exclude-dir='.*'); fi
exec grep "\${opts[@]}" -E -- "$pattern" "\${paths[@]}"
`;

/** The fake Agent SDK's module: `query()` runs the claude stub as the SDK runs its CLI (`-p`, settings sources from the options). */
export const sdkModule = (claudeBundle: string): string => `"use strict";
// Stand-in for @anthropic-ai/claude-agent-sdk 0.3.330 in the attack suite. Like the SDK, query()
// runs the CLI with --print; settingSources defaults to none (the SDK loads no settings files,
// and so no project hooks, unless the options name them); resume, continue and sessionId pass
// through; extraArgs become flags.
const { spawnSync } = require("node:child_process");
function query({ prompt, options = {} }) {
  const args = ["-p", String(prompt), "--setting-sources", (options.settingSources ?? []).join(",")];
  if (options.resume) args.push("--resume", options.resume);
  if (options.continue) args.push("--continue");
  if (options.sessionId) args.push("--session-id", options.sessionId);
  if (options.agent) args.push("--agent", options.agent);
  if (options.settings) args.push("--settings", typeof options.settings === "string" ? options.settings : JSON.stringify(options.settings));
  for (const [k, v] of Object.entries(options.extraArgs ?? {})) args.push("--" + k, ...(v === null ? [] : [String(v)]));
  const r = spawnSync(process.execPath, [${JSON.stringify(claudeBundle)}, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, ...(options.env ?? {}) },
    encoding: "utf8",
  });
  const result = (r.stdout ?? "") + (r.stderr ?? "");
  return (async function* () {
    yield { type: "result", subtype: "success", result };
  })();
}
module.exports = { query };
`;

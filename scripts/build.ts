/**
 * Builds `dist/`: one self-contained ESM bundle per hook entry and the CLI, the default compiled
 * policy of the pack, and `hooks/hooks.json`. `--check` builds into a temporary directory and
 * fails when the committed output differs (the drift test uses `buildAll` the same way).
 *
 * Hot-path bundles (PreToolUse, PostToolUse) are checked to contain no zod, YAML or gray-matter:
 * the build fails if one sneaks into their import graph.
 */
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { compilePolicy } from "../src/config/compile.ts";
import { AgentDefinition } from "../src/definitions/agent.ts";
import { parseDefinition } from "../src/definitions/load.ts";
import { hookWiring, pluginCommand } from "../src/install/wiring.ts";
import { BUILTIN_AGENT_TYPES } from "../src/policy/lanes.ts";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Entry points and the bundle each becomes. */
const ENTRIES: Readonly<Record<string, string>> = {
  "pre-tool-use": "src/hooks/pre-tool-use.ts",
  "post-tool-use": "src/hooks/post-tool-use.ts",
  "session-start": "src/hooks/session-start.ts",
  events: "src/hooks/events.ts",
  cli: "src/cli/main.ts",
};

/** Bundles that run on every tool call. */
const HOT = new Set(["pre-tool-use", "post-tool-use"]);
const FORBIDDEN_ON_HOT_PATH = ["node_modules/zod/", "node_modules/yaml/", "node_modules/gray-matter/", "node_modules/js-yaml/", "src/config/load.ts", "src/config/compile.ts"];

const version = (): string => (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

function hotPathViolations(name: string, metafile: Metafile): string[] {
  if (!HOT.has(name)) return [];
  return Object.keys(metafile.inputs)
    .filter((input) => FORBIDDEN_ON_HOT_PATH.some((f) => input.includes(f)))
    .map((input) => `${name}: the hot-path bundle imports \`${input}\`; move that import off the PreToolUse/PostToolUse path`);
}

/** The default compiled policy: built-in rules plus the pack's agents, no project files. */
function defaultPolicy(): string {
  const dir = join(ROOT, "definitions", "agents");
  const agents = readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .map((f) => {
      const path = join(dir, f);
      const parsed = parseDefinition(AgentDefinition, readFileSync(path, "utf8"), `definitions/agents/${f}`);
      if (!parsed.ok) throw new Error(`${parsed.issues[0]?.file}:${parsed.issues[0]?.line ?? ""}: ${parsed.issues[0]?.message}`);
      // the path recorded is the pack-relative one, so the output does not depend on where the repository lives
      return { path: `definitions/agents/${f}`, definition: parsed.value.value };
    });
  const compiled = compilePolicy({ lanesVersion: version(), layers: [], agents, sources: [], listings: [] });
  if (!compiled.ok) throw new Error(compiled.issues.map((i) => `${i.file}: ${i.message}`).join("\n"));
  const known = [...new Set([...BUILTIN_AGENT_TYPES, ...agents.map((a) => a.definition.name)])].sort();
  return `${JSON.stringify({ ...compiled.value, knownAgentTypes: known }, null, 2)}\n`;
}

/** Builds everything into `outDir` (the `dist/` layout) and returns problems found. */
export async function buildAll(outDir: string): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(ENTRIES)) {
    const result = await build({
      entryPoints: [join(ROOT, entry)],
      outfile: join(outDir, `${name}.mjs`),
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      minify: true,
      legalComments: "eof",
      metafile: true,
      logLevel: "silent",
      define: { __LANES_VERSION__: JSON.stringify(version()) },
      // ESM bundles of CommonJS dependencies need `require` for node built-ins
      banner: { js: `${name === "cli" ? "#!/usr/bin/env node\n" : ""}import { createRequire as __lanesRequire } from "node:module"; const require = __lanesRequire(import.meta.url);` },
    });
    problems.push(...hotPathViolations(name, result.metafile));
  }
  writeFileSync(join(outDir, "policy.default.json"), defaultPolicy());
  return problems;
}

/** `hooks/hooks.json` of the plugin. */
export function pluginHooksJson(): string {
  return `${JSON.stringify({ description: "lanes guard, agent lanes and runtime hooks", hooks: hookWiring(pluginCommand) }, null, 2)}\n`;
}

/** Files of a built tree, relative path → content. */
export function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path, "utf8"));
    }
  };
  walk(dir);
  return files;
}

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const out = check ? mkdtempSync(join(tmpdir(), "lanes-dist-")) : join(ROOT, "dist");
  if (!check) rmSync(out, { recursive: true, force: true });
  const problems = await buildAll(out);
  if (problems.length > 0) {
    for (const p of problems) process.stderr.write(`build: ${p}\n`);
    process.exitCode = 1;
    return;
  }
  const hooksJson = pluginHooksJson();
  if (!check) {
    writeFileSync(join(ROOT, "hooks", "hooks.json"), hooksJson);
    return;
  }
  const built = readTree(out);
  const committed = readTree(join(ROOT, "dist"));
  const drift = [...new Set([...built.keys(), ...committed.keys()])].filter((f) => built.get(f) !== committed.get(f));
  if (readFileSync(join(ROOT, "hooks", "hooks.json"), "utf8") !== hooksJson) drift.push("../hooks/hooks.json");
  rmSync(out, { recursive: true, force: true });
  if (drift.length > 0) {
    process.stderr.write(`build: dist/ is out of date (${drift.join(", ")}): run \`npm run build\` and commit the result\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();

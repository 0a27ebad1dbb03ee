/**
 * `npm run bench`: performance as ratios against `node -e 0` measured in the same run (so the
 * machine's speed cancels out), never as absolute timings in tests.
 *
 * 1. Cold start: the built hooks (`dist/*.mjs`) on real hook inputs in a temp project with a compiled
 *    policy, interleaved with `node -e 0`, N runs each; medians, ratios and the time over `node -e 0`.
 *    The lane checks' cost is the ratio of a subagent call (definition lookup, owned paths, MUST NOT
 *    rules, agent tree) to the same call from the main session. Then the Bash and Read calls again in
 *    a clean environment: variables that make every `node` start do more (`NODE_EXTRA_CA_CERTS`
 *    loads a certificate bundle at start, about 45 ms on the VM of the README) inflate `node -e 0`
 *    and so flatter the ratio; the hooks' own cost is the same in both.
 * 2. Decision time in-process: `evaluate` over every command of the test corpus, p50 and p99.
 * 3. Runtime: progress-file update latency (locked read-modify-write), p50 and p99.
 *
 * Options: `--runs N` (default 41), `--json` (one JSON object on stdout).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { compilePathGlob } from "../src/globs/compile.ts";
import { loadPolicy } from "../src/config/load.ts";
import { evaluate } from "../src/policy/evaluate.ts";
import { benchProgressUpdates } from "./bench-runtime.ts";

const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..");
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1] ?? 41) || 41;
const asJson = args.includes("--json");

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

function timeRun(
  command: string,
  argv: string[],
  input: string,
  env: NodeJS.ProcessEnv,
): { ms: number; stdout: string } {
  const start = performance.now();
  const result = spawnSync(command, argv, { input, env, encoding: "utf8" });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`${command} ${argv.join(" ")} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout };
}

/** A temp project with lanes installed (from the built CLI) and a compiled policy. */
function makeProject(): { dir: string; home: string } {
  const dir = mkdtempSync(join(tmpdir(), "lanes-bench-"));
  const home = join(dir, "home");
  const project = join(dir, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, "src", "server"), { recursive: true });
  const init = spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), "init", project], {
    env: { ...process.env, HOME: home },
    encoding: "utf8",
  });
  if (init.status !== 0) throw new Error(`lanes init failed: ${init.stderr}`);
  return { dir: project, home };
}

let calls = 0;

/**
 * A hook input. Every call gets its own `tool_use_id`, as in a session: the first hook to claim a
 * call records it (audit entry, counters), and a repeated id would measure a call that records nothing.
 */
function hookInput(project: string, tool: string, toolInput: Record<string, unknown>, agent?: string): string {
  return JSON.stringify({
    session_id: "bench-session",
    transcript_path: join(project, "t.jsonl"),
    cwd: project,
    hook_event_name: "PreToolUse",
    permission_mode: "default",
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: `toolu_bench_${String(++calls).padStart(6, "0")}`,
    ...(agent !== undefined && { agent_id: "a0123456789abcdef", agent_type: agent }),
  });
}

/** Variables that make every `node` process do more at start, whatever it runs. */
const STARTUP_VARIABLES = ["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS"];

function coldStart(project: string, home: string, clean = false) {
  const inherited = clean
    ? Object.fromEntries(Object.entries(process.env).filter(([k]) => !STARTUP_VARIABLES.includes(k)))
    : process.env;
  const env = { ...inherited, HOME: home, CLAUDE_PROJECT_DIR: project };
  const hook = join(project, ".claude", "lanes", "dist", "pre-tool-use.cjs");
  const post = join(project, ".claude", "lanes", "dist", "post-tool-use.cjs");
  const all: Record<string, () => string> = {
    "pre-tool-use Bash `git status` (main)": () => hookInput(project, "Bash", { command: "git status" }),
    "pre-tool-use Bash `rm -rf /` (main, deny)": () => hookInput(project, "Bash", { command: "rm -rf /" }),
    "pre-tool-use Write (main)": () =>
      hookInput(project, "Write", { file_path: join(project, "src/server/app.ts"), content: "x" }),
    "pre-tool-use Write (backend subagent, in lane)": () =>
      hookInput(project, "Write", { file_path: join(project, "src/server/app.ts"), content: "x" }, "backend"),
    "pre-tool-use Read (main)": () => hookInput(project, "Read", { file_path: join(project, "README.md") }),
  };
  const cases = clean
    ? Object.fromEntries(Object.entries(all).filter(([k]) => k.includes("Bash") || k.includes("Read")))
    : all;
  const postInput = () =>
    JSON.stringify({
      ...JSON.parse(cases["pre-tool-use Write (main)"]!()),
      hook_event_name: "PostToolUse",
      tool_response: { type: "update" },
    });
  const samples: Record<string, number[]> = {
    "node -e 0": [],
    ...Object.fromEntries(Object.keys(cases).map((k) => [k, []])),
    ...(!clean && { "post-tool-use Write (main)": [] }),
  };
  // warm the file cache, then interleave so drift hits every series alike
  for (let i = 0; i < 3; i++) timeRun(process.execPath, [hook], cases["pre-tool-use Read (main)"]!(), env);
  for (let i = 0; i < runs; i++) {
    samples["node -e 0"]!.push(timeRun(process.execPath, ["-e", "0"], "", env).ms);
    for (const [name, input] of Object.entries(cases))
      samples[name]!.push(timeRun(process.execPath, [hook], input(), env).ms);
    if (!clean) samples["post-tool-use Write (main)"]!.push(timeRun(process.execPath, [post], postInput(), env).ms);
  }
  const base = median(samples["node -e 0"]!);
  const rows = Object.entries(samples).map(([name, xs]) => ({
    name,
    medianMs: +median(xs).toFixed(1),
    ratio: +(median(xs) / base).toFixed(3),
    overMs: +(median(xs) - base).toFixed(1),
  }));
  if (clean) return { runs, rows, laneOverhead: undefined };
  const main = median(samples["pre-tool-use Write (main)"]!);
  const lane = median(samples["pre-tool-use Write (backend subagent, in lane)"]!);
  return { runs, rows, laneOverhead: +(lane / main - 1).toFixed(3) };
}

/** Every command of the test corpus (test/cases/*.yaml). */
function corpus(): string[] {
  const dir = join(ROOT, "test", "cases");
  const commands: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .sort()) {
    const data = parseYaml(readFileSync(join(dir, file), "utf8")) as { cases?: { command?: string }[] };
    for (const c of data.cases ?? []) if (typeof c.command === "string") commands.push(c.command);
  }
  return commands;
}

function decisionTime(project: string, home: string) {
  const loaded = loadPolicy({ projectDir: project, home, lanesVersion: "bench" });
  if (!loaded.ok) throw new Error(loaded.issues[0]?.message);
  const policy = loaded.policy;
  const commands = corpus();
  const context = {
    policy,
    settingsRules: [],
    compileSettingsGlob: (g: string) => compilePathGlob(g, { caseInsensitive: false }),
    tempDirs: ["/tmp"],
    position: { path: [] },
    knownAgentTypes: new Set(policy.knownAgentTypes),
    tasks: [],
  };
  const judge = (command: string) =>
    evaluate({ tool: "Bash", input: { command }, cwd: project, projectDir: project, home, agent: undefined }, context);
  for (const c of commands) judge(c); // warm-up
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const c of commands) {
      const start = performance.now();
      judge(c);
      times.push(performance.now() - start);
    }
  }
  return {
    commands: commands.length,
    evaluations: times.length,
    p50Ms: +percentile(times, 50).toFixed(3),
    p99Ms: +percentile(times, 99).toFixed(3),
    maxMs: +Math.max(...times).toFixed(3),
  };
}

const { dir: project, home } = makeProject();
try {
  const cold = coldStart(project, home);
  const unset = STARTUP_VARIABLES.filter((k) => process.env[k] !== undefined);
  const clean = coldStart(project, home, true);
  const decisions = decisionTime(project, home);
  const runtime = benchProgressUpdates(200);
  const report = { node: process.version, cold, clean: { unset, ...clean }, decisions, runtime };
  if (asJson) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } else {
    process.stdout.write(
      `lanes bench (${process.version}, ${runs} interleaved runs per series)\n\ncold start, median wall time per process:\n`,
    );
    const row = (r: { name: string; medianMs: number; ratio: number; overMs: number }) =>
      `  ${r.name.padEnd(50)} ${String(r.medianMs).padStart(7)} ms  ${r.ratio.toFixed(2)}x node -e 0` +
      (r.name === "node -e 0" ? "\n" : `  (+${r.overMs.toFixed(1)} ms)\n`);
    for (const r of cold.rows) process.stdout.write(row(r));
    process.stdout.write(
      `  lane checks on a subagent call: ${(cold.laneOverhead! * 100).toFixed(1)}% of the main-session call\n\n`,
    );
    process.stdout.write(
      `the same in a clean environment (${unset.length === 0 ? "nothing to unset" : `without ${unset.join(", ")}`}):\n`,
    );
    for (const r of clean.rows) process.stdout.write(row(r));
    process.stdout.write("\n");
    process.stdout.write(
      `decision time in-process over ${decisions.commands} corpus commands x5: p50 ${decisions.p50Ms} ms, p99 ${decisions.p99Ms} ms, max ${decisions.maxMs} ms\n`,
    );
    process.stdout.write(`progress update latency: ${JSON.stringify(runtime)}\n`);
  }
} finally {
  rmSync(join(project, ".."), { recursive: true, force: true });
}

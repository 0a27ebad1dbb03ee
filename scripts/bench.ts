/**
 * `npm run bench`: performance as ratios against `node -e 0` measured in the same run (so the
 * machine's speed cancels out), never as absolute timings in tests.
 *
 * 1. Cold start: the installed hooks on real hook inputs in a temp project with a compiled policy and 4 MB of audit log,
 *    interleaved with `node -e 0`, N shuffled rounds; medians, ratios and the time over `node -e 0`.
 *    Twice: like for like, both without the variables the hook commands clear (`NODE_EXTRA_CA_CERTS`
 *    loads a certificate bundle at every Node start, about 45 ms on the VM of the README, and would
 *    flatter the ratio), which is the hooks' own cost; then as Claude Code runs them here, the hooks
 *    without those variables and `node -e 0` with this environment's. The lane checks' cost is the
 *    ratio of a subagent call (definition lookup, owned paths, MUST NOT rules, agent tree) to the
 *    same call from the main session.
 * 2. Decision time in-process: `evaluate` over every command of the test corpus, p50 and p99; and
 *    for commands that run code on disk (`make all` with a 300-line Makefile, `bash` of a 200-line
 *    script, read through the real disk view as the hook reads them).
 * 3. Runtime: progress-file update latency (locked read-modify-write), p50 and p99.
 * 4. Snapshots (issue 25): in a repository of 5,000 committed files with 20 changed (10 edited, 10
 *    untracked), the PreToolUse hook on `rm -rf src` (keeps a snapshot) and on `ls src` (keeps none),
 *    interleaved with `node -e 0`.
 *
 * Options: `--runs N` (default 41), `--profile` (each hook with `LANES_PROFILE`: its three biggest phases), `--only TEXT` (the cold-start cases whose name has TEXT), `--quick` (11 rounds, fewer in-process rounds, no section 4), `--json` (one JSON object on stdout), `--snapshots` (section 4
 * only), `--baseline DIR` (another
 * lanes build, a checkout or its `dist/`, installed into its own project and timed in the same
 * like-for-like rounds: a regression shows as its rows beside this build's).
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { compilePathGlob } from "../src/globs/compile.ts";
import { loadPolicy } from "../src/config/load.ts";
import { evaluate } from "../src/policy/evaluate.ts";
import { realDisk } from "../src/host/disk.ts";
import { HOOK_CLEARED_VARIABLES } from "../src/install/wiring.ts";
import { benchAuditLog, benchMakefile, benchScript } from "./bench-files.ts";
import { COMMAND_VARIANTS, heredocToBash, longCommand } from "./bench-commands.ts";
import { benchProgressUpdates } from "./bench-runtime.ts";

const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..");
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const runs = args.includes("--runs") ? Number(args[args.indexOf("--runs") + 1]) || 41 : quick ? 11 : 41;
const asJson = args.includes("--json");
const onlySnapshots = args.includes("--snapshots");

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Wall time of one `node` process with these arguments, input, environment and working directory. */
function timeNode(argv: string[], input: string, env: NodeJS.ProcessEnv, cwd?: string): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, argv, { input, env, encoding: "utf8", ...(cwd !== undefined && { cwd }) });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`node ${argv.join(" ")} exited ${result.status}: ${result.stderr}`);
  return ms;
}

interface BenchProject {
  readonly dir: string;
  readonly home: string;
}

/** A temp project with lanes installed by `cli` (this build's by default) and a compiled policy. */
function makeProject(cli = join(ROOT, "dist", "cli.mjs")): BenchProject {
  const dir = mkdtempSync(join(tmpdir(), "lanes-bench-"));
  const home = join(dir, "home");
  const project = join(dir, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, "src", "server"), { recursive: true });
  // the code on disk the `make` and `bash` rows run
  mkdirSync(join(project, "scripts"), { recursive: true });
  writeFileSync(join(project, "Makefile"), benchMakefile(300));
  writeFileSync(join(project, "scripts", "build.sh"), benchScript(200));
  writeFileSync(join(project, "README.md"), "# bench project\n");
  writeFileSync(join(project, "src", "server", "app.ts"), "export const app = 1;\n");
  spawnSync("git", ["init", "-q"], { cwd: project });
  const init = spawnSync(process.execPath, [cli, "init", project], {
    env: { ...process.env, HOME: home },
    encoding: "utf8",
  });
  if (init.status !== 0) throw new Error(`lanes init (${cli}) failed: ${init.stderr}`);
  // a project is a git repository with lanes committed, as `lanes init` tells: the task channel's
  // snapshots of a subagent's run read it. Files written in the second the index is written are
  // "racily clean" to git, which then reads them again on every `status` its hooks run with
  // optional locks off (nothing refreshes the index in a bench): 20-40 ms more per snapshot,
  // depending on where a second ended. Every file is dated a minute back first.
  backdate(project, Date.now() / 1000 - 60);
  for (const a of [
    ["add", "-A"],
    ["-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "base"],
  ]) {
    const git = spawnSync("git", a, { cwd: project, encoding: "utf8" });
    if (git.status !== 0) throw new Error(`git ${a.join(" ")}: ${git.stderr}`);
  }
  // a project lanes has guarded for a while: 4 MB of audit log (the hooks that read it, such as
  // SubagentStop's evidence, must not pay for all of it)
  writeFileSync(join(project, ".claude", "lanes", "state", "audit.jsonl"), benchAuditLog(4 << 20));
  return { dir: project, home };
}

/** Sets the modification time of every file and directory under `dir` but `.git` to `seconds` (epoch). */
function backdate(dir: string, seconds: number): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === ".git") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) backdate(path, seconds);
    if (!entry.isSymbolicLink()) utimesSync(path, seconds, seconds);
  }
}

/** `--baseline DIR`: another lanes build (a checkout, or its `dist/`) to time in the same rounds. */
function baselineCli(): string | undefined {
  const at = args.indexOf("--baseline");
  if (at < 0) return undefined;
  const dir = args[at + 1];
  if (dir === undefined) throw new Error("--baseline needs a directory: a lanes checkout or its dist/");
  for (const cli of [join(dir, "dist", "cli.mjs"), join(dir, "cli.mjs")]) if (existsSync(cli)) return cli;
  throw new Error(`--baseline ${dir}: no dist/cli.mjs or cli.mjs there`);
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

/**
 * About 1 KB of everyday Python, as an agent runs it with `python3 -c`: imports, a helper function,
 * a loop over a listing, path joins, a subprocess and a file write (no objection).
 */
const PYTHON_1KB = [
  "import os, shutil, subprocess",
  "from pathlib import Path",
  "",
  'HOME = os.path.expanduser("~")',
  'TARGETS = ["build", "dist", ".cache"]',
  "",
  "def clean(root, names):",
  "    for name in names:",
  "        p = os.path.join(root, name)",
  "        if os.path.isdir(p):",
  "            shutil.rmtree(p, ignore_errors=True)",
  "        elif os.path.exists(p):",
  "            os.remove(p)",
  "",
  "def run(cmd):",
  '    print("+", " ".join(cmd))',
  "    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout",
  "",
  'for entry in os.listdir("."):',
  '    if entry.endswith(".pyc"):',
  "        os.unlink(entry)",
  "",
  'clean(".", TARGETS)',
  'out = run(["git", "status", "--short"])',
  'with open("status.txt", "w") as f:',
  "    f.write(out)",
  'data = {k: v for k, v in os.environ.items() if k.startswith("APP_")}',
  'print(f"cleaned {len(TARGETS)} targets in {os.getcwd()} for {HOME}", len(data))',
  'Path("logs").mkdir(exist_ok=True)',
  'Path("logs/last.txt").write_text("ok\\n")',
  'print(sorted(p.name for p in Path("src").glob("*.py"))[:5])',
  'shutil.copy("config.example.toml", "config.local.toml")',
  'print("done", Path.cwd().name)',
  "",
].join("\n");

/**
 * Cold start. `asInstalled`: each hook with the environment its installed command gives it (the
 * variables of `HOOK_CLEARED_VARIABLES` emptied), `node -e 0` with this process's. Otherwise like for
 * like: both without those variables, so the ratio is the hooks' own cost over a bare Node start; a
 * `baseline` project's Bash, Read and Write calls run in the same rounds. Each round runs every series
 * once, in an order shuffled by a seeded generator: a fixed order favours whichever process follows
 * `node -e 0`.
 */
function coldStart(project: BenchProject, asInstalled: boolean, baseline?: BenchProject, profile?: string) {
  const cleared = Object.fromEntries(HOOK_CLEARED_VARIABLES.map((k) => [k, ""]));
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !HOOK_CLEARED_VARIABLES.includes(k)));
  const nodeEnv = asInstalled ? process.env : clean;
  type Case = () => { file: string; input: string; env: NodeJS.ProcessEnv; argv?: string[]; cwd?: string };
  const hookCases = (p: BenchProject, prefix: string, all: boolean): Record<string, Case> => {
    const env = {
      ...nodeEnv,
      ...cleared,
      HOME: p.home,
      CLAUDE_PROJECT_DIR: p.dir,
      ...(profile !== undefined && { LANES_PROFILE: profile }),
    };
    const dist = join(p.dir, ".claude", "lanes", "dist");
    const pre = join(dist, "pre-tool-use.cjs");
    const post = join(dist, "post-tool-use.cjs");
    const call = (file: string, input: string) => ({ file, input, env });
    const app = join(p.dir, "src/server/app.ts");
    // the events other than a tool call, each to every bundle the wiring runs it with
    const session = { session_id: "bench-session", transcript_path: join(p.dir, "t.jsonl"), cwd: p.dir };
    const agent = { agent_id: "a0123456789abcdef", agent_type: "backend" };
    const event = (file: string, name: string, fields: Record<string, unknown>) =>
      call(join(dist, file), JSON.stringify({ ...session, hook_event_name: name, ...fields }));
    const stop = {
      ...agent,
      stop_hook_active: false,
      agent_transcript_path: join(p.dir, "bench-session", "subagents", `agent-${agent.agent_id}.jsonl`),
      last_assistant_message: "done: the server routes are in place",
    };
    // lanes' floor: what any hook process costs that reads its input and answers, without lanes
    const floorHook = join(p.dir, "..", "floor-hook.cjs");
    writeFileSync(floorHook, 'require("fs").readFileSync(0);require("fs").writeSync(1,"{}\\n");\n');
    const cases: Record<string, Case> = {
      "floor: a hook that reads its input and prints `{}` (no lanes)": () =>
        call(floorHook, hookInput(p.dir, "Write", { file_path: app, content: "x" })),
      "floor: pre-tool-use on an empty input (the loader, the bundle, a denial)": () => call(pre, ""),
      "pre-tool-use Bash `git status` (main)": () => call(pre, hookInput(p.dir, "Bash", { command: "git status" })),
      "pre-tool-use Bash `rm -rf /` (main, deny)": () => call(pre, hookInput(p.dir, "Bash", { command: "rm -rf /" })),
      // paths to resolve on disk (issue 22): each judged by its name and where it leads
      "pre-tool-use Bash `cp src/server/app.ts build/ && cat README.md`": () =>
        call(pre, hookInput(p.dir, "Bash", { command: "cp src/server/app.ts build/ && cat README.md" })),
      "pre-tool-use Bash `make all` (300-line Makefile)": () =>
        call(pre, hookInput(p.dir, "Bash", { command: "make all" })),
      "pre-tool-use Bash `bash scripts/build.sh` (200 lines)": () =>
        call(pre, hookInput(p.dir, "Bash", { command: "bash scripts/build.sh" })),
      "pre-tool-use Bash 1 KB of Python in `python3 -c` (main)": () =>
        call(pre, hookInput(p.dir, "Bash", { command: `python3 -c '${PYTHON_1KB}'` })),
      "pre-tool-use Bash 2 KB compound command (main)": () =>
        call(pre, hookInput(p.dir, "Bash", { command: longCommand(2048) })),
      "pre-tool-use Bash 5 KB heredoc piped to bash (main)": () =>
        call(pre, hookInput(p.dir, "Bash", { command: heredocToBash(5120) })),
      "pre-tool-use Write (main)": () => call(pre, hookInput(p.dir, "Write", { file_path: app, content: "x" })),
      "pre-tool-use Write (backend subagent, in lane)": () =>
        call(pre, hookInput(p.dir, "Write", { file_path: app, content: "x" }, "backend")),
      "pre-tool-use Read (main)": () => call(pre, hookInput(p.dir, "Read", { file_path: join(p.dir, "README.md") })),
      "post-tool-use Write (main)": () => {
        const input = JSON.parse(hookInput(p.dir, "Write", { file_path: app, content: "x" }));
        return call(
          post,
          JSON.stringify({ ...input, hook_event_name: "PostToolUse", tool_response: { type: "update" } }),
        );
      },
      "session-start SessionStart (startup)": () =>
        event("session-start.cjs", "SessionStart", { source: "startup", model: "claude-sonnet-4-5" }),
      "events SubagentStart": () => event("events.cjs", "SubagentStart", agent),
      "tasks SubagentStart": () => event("tasks.cjs", "SubagentStart", agent),
      "events SubagentStop": () => event("events.cjs", "SubagentStop", stop),
      "tasks SubagentStop": () => event("tasks.cjs", "SubagentStop", stop),
      "tasks UserPromptSubmit": () =>
        event("tasks.cjs", "UserPromptSubmit", {
          prompt: "add a health route to the server",
          permission_mode: "default",
        }),
      // as the README wires it, and through the whole CLI: from the project, the session on stdin
      "statusline (`node .claude/lanes/dist/statusline.cjs`)": () => ({
        file: join(dist, "statusline.cjs"),
        input: JSON.stringify({ ...session, workspace: { project_dir: p.dir }, model: { id: "claude-sonnet-4-5" } }),
        env,
        cwd: p.dir,
      }),
      "statusline (`node .claude/lanes/dist/cli.mjs statusline`)": () => ({
        file: join(dist, "cli.mjs"),
        argv: ["statusline"],
        input: JSON.stringify({ ...session, workspace: { project_dir: p.dir }, model: { id: "claude-sonnet-4-5" } }),
        env,
        cwd: p.dir,
      }),
    };
    return Object.fromEntries(
      Object.entries(cases)
        .filter(
          ([name]) =>
            all ||
            name.startsWith("pre-tool-use Bash") ||
            name.startsWith("pre-tool-use Read") ||
            name === "pre-tool-use Write (main)" ||
            (!name.startsWith("pre-tool-use") && !name.startsWith("floor")),
        )
        // a baseline build may lack a file this one has (the statusline's own entry)
        .filter(([, c]) => existsSync(c().file))
        .map(([name, c]) => [`${prefix}${name}`, c]),
    );
  };
  const only = args.includes("--only") ? (args[args.indexOf("--only") + 1] ?? "") : "";
  const cases = {
    ...Object.fromEntries(Object.entries(hookCases(project, "", true)).filter(([name]) => name.includes(only))),
    ...(baseline !== undefined && !asInstalled && hookCases(baseline, "baseline: ", false)),
  };
  if (profile !== undefined) return { runs, rows: [], laneOverhead: 0, profiles: profileCases(cases, profile) };
  const samples: Record<string, number[]> = {
    "node -e 0": [],
    ...Object.fromEntries(Object.keys(cases).map((k) => [k, []])),
  };
  const run = (name: string): number => {
    if (name === "node -e 0") return timeNode(["-e", "0"], "", nodeEnv);
    const { file, input, env, argv = [], cwd } = cases[name]!();
    return timeNode([file, ...argv], input, env, cwd);
  };
  // warm the file cache and the code caches, then shuffle each round so drift and position hit every series alike
  for (let i = 0; i < 3; i++) for (const name of Object.keys(cases)) run(name);
  const order = Object.keys(samples);
  let seed = 1;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < runs; i++) {
    for (let j = order.length - 1; j > 0; j--) {
      const k = Math.floor(random() * (j + 1));
      [order[j], order[k]] = [order[k]!, order[j]!];
    }
    for (const name of order) samples[name]!.push(run(name));
  }
  const base = median(samples["node -e 0"]!);
  const rows = Object.entries(samples).map(([name, xs]) => ({
    name,
    medianMs: +median(xs).toFixed(1),
    ratio: +(median(xs) / base).toFixed(3),
    overMs: +(median(xs) - base).toFixed(1),
  }));
  const main = samples["pre-tool-use Write (main)"];
  const lane = samples["pre-tool-use Write (backend subagent, in lane)"];
  // `--only` may leave either out
  const laneOverhead = main !== undefined && lane !== undefined ? +(median(lane) / median(main) - 1).toFixed(3) : 0;
  return { runs, rows, laneOverhead };
}

/**
 * `--profile`: each case `runs` times with `LANES_PROFILE` (src/io/profile.ts), the median of each
 * phase over the runs; a case that runs no hook (the statusline) has none.
 */
function profileCases(
  cases: Record<string, () => { file: string; input: string; env: NodeJS.ProcessEnv; argv?: string[]; cwd?: string }>,
  file: string,
) {
  const out: { name: string; totalMs: number; phases: [string, number][] }[] = [];
  for (const [name, c] of Object.entries(cases)) {
    const totals: number[] = [];
    const phases = new Map<string, number[]>();
    for (let i = 0; i < runs + 2; i++) {
      rmSync(file, { force: true });
      const { file: hook, input, env, argv = [], cwd } = c();
      timeNode([hook, ...argv], input, env, cwd);
      if (i < 2 || !existsSync(file)) continue; // the first runs write the code caches
      for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
        const p = JSON.parse(line) as { totalMs: number; phases: Record<string, number> };
        totals.push(p.totalMs);
        for (const [k, v] of Object.entries(p.phases)) phases.set(k, [...(phases.get(k) ?? []), v]);
      }
    }
    if (totals.length === 0) continue;
    out.push({
      name,
      totalMs: +median(totals).toFixed(1),
      phases: [...phases.entries()]
        .map(([k, v]): [string, number] => [k, +median(v).toFixed(1)])
        .sort((a, b) => b[1] - a[1]),
    });
  }
  return out;
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
  // commands that hand code to an interpreter lanes parses (python, node, deno, bun), apart
  const coded = (c: string): boolean => ["python", "node ", "node\t", "deno ", "bun "].some((w) => c.includes(w));
  const codeTimes: number[] = [];
  for (let round = 0; round < (quick ? 2 : 5); round++) {
    for (const c of commands) {
      const start = performance.now();
      judge(c);
      const took = performance.now() - start;
      times.push(took);
      if (coded(c)) codeTimes.push(took);
    }
  }
  const stats = (xs: number[]) => ({
    p50Ms: +percentile(xs, 50).toFixed(3),
    p99Ms: +percentile(xs, 99).toFixed(3),
    maxMs: +Math.max(...xs).toFixed(3),
  });
  const onDisk = (command: string) => {
    const judgeOnDisk = () =>
      evaluate(
        { tool: "Bash", input: { command }, cwd: project, projectDir: project, home, agent: undefined },
        { ...context, disk: realDisk() },
      );
    for (let i = 0; i < 20; i++) judgeOnDisk();
    const xs: number[] = [];
    for (let i = 0; i < (quick ? 50 : 200); i++) {
      const start = performance.now();
      judgeOnDisk();
      xs.push(performance.now() - start);
    }
    return stats(xs);
  };
  // generated long commands (scripts/bench-commands.ts): every variant of each length, judged
  // round after round; the growth with length is the p50 per KB against that of 1 KB
  const lengths = [100, 1024, 2048, 5120, 20480];
  const generated = lengths.flatMap((bytes) =>
    Array.from({ length: COMMAND_VARIANTS }, (_, v) => ({ bytes, command: longCommand(bytes, v) })),
  );
  const heredocs = Array.from({ length: COMMAND_VARIANTS }, (_, v) => heredocToBash(5120, v));
  for (const g of generated) judge(g.command);
  for (const h of heredocs) judge(h);
  const byLength = new Map<number, number[]>(lengths.map((l) => [l, []]));
  const heredocTimes: number[] = [];
  const longRounds = quick ? 3 : 10;
  for (let round = 0; round < longRounds; round++) {
    for (const g of generated) {
      const start = performance.now();
      judge(g.command);
      byLength.get(g.bytes)!.push(performance.now() - start);
    }
    for (const h of heredocs) {
      const start = performance.now();
      judge(h);
      heredocTimes.push(performance.now() - start);
    }
  }
  const perKb = (bytes: number) => percentile(byLength.get(bytes)!, 50) / (bytes / 1024);
  // what the first variant of each length gets: past the analysis's bounds, a command is asked about
  const verdict = (bytes: number): string => {
    const d = judge(longCommand(bytes)).decision;
    return d === undefined ? "no objection" : `${d.effect} [${d.ruleIds.join(", ")}]`;
  };
  const growth = lengths.map((bytes) => ({
    bytes,
    decision: verdict(bytes),
    ...stats(byLength.get(bytes)!),
    p50PerKbMs: +perKb(bytes).toFixed(3),
    // the cost of a KB at this length over the cost of a KB at 1 KB: about 1 or less is linear
    perKbVs1Kb: +(perKb(bytes) / perKb(1024)).toFixed(2),
  }));
  return {
    commands: commands.length,
    evaluations: times.length,
    ...stats(times),
    interpreterCode: { commands: commands.filter(coded).length, ...stats(codeTimes) },
    long: {
      commands: generated.length,
      evaluations: generated.length * longRounds,
      ...stats([...byLength.values()].flat()),
    },
    heredoc5k: { commands: heredocs.length, ...stats(heredocTimes) },
    growth,
    make300: onDisk("make all"),
    script200: onDisk("bash scripts/build.sh"),
  };
}

/** Section 4: the cost of a call that keeps a snapshot and of one that does not, in a repository of 5,000 files. */
function snapshotCost() {
  const p = makeProject();
  const git = (...a: string[]) => {
    const r = spawnSync("git", a, { cwd: p.dir, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`git ${a.join(" ")}: ${r.stderr}`);
  };
  try {
    git("init", "-q");
    for (let d = 0; d < 100; d++) {
      mkdirSync(join(p.dir, "src", `mod${d}`), { recursive: true });
      for (let f = 0; f < 50; f++)
        writeFileSync(join(p.dir, "src", `mod${d}`, `file${f}.ts`), `export const v${d}_${f} = ${d * f};\n`.repeat(20));
    }
    git("add", "-A");
    git("-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "base");
    for (let i = 0; i < 10; i++) {
      writeFileSync(join(p.dir, "src", `mod${i * 7}`, "file3.ts"), `// edited ${i}\n`);
      writeFileSync(join(p.dir, "src", `mod${i * 9}`, `new${i}.ts`), `// untracked ${i}\n`.repeat(50));
    }
    const env = { ...process.env, HOME: p.home, CLAUDE_PROJECT_DIR: p.dir };
    const pre = join(p.dir, ".claude", "lanes", "dist", "pre-tool-use.cjs");
    const series: Record<string, () => number> = {
      "node -e 0": () => timeNode(["-e", "0"], "", process.env),
      "pre-tool-use Bash `rm -rf src` (keeps a snapshot)": () =>
        timeNode([pre], hookInput(p.dir, "Bash", { command: "rm -rf src" }), env),
      "pre-tool-use Bash `ls src` (keeps none)": () =>
        timeNode([pre], hookInput(p.dir, "Bash", { command: "ls src" }), env),
    };
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(series).map((k) => [k, []]));
    for (let i = 0; i < 3; i++) for (const run of Object.values(series)) run();
    const names = Object.keys(series);
    for (let i = 0; i < runs; i++)
      for (const name of i % 2 === 0 ? names : [...names].reverse()) samples[name]!.push(series[name]!());
    const base = median(samples["node -e 0"]!);
    return Object.entries(samples).map(([name, xs]) => ({
      name,
      medianMs: +median(xs).toFixed(1),
      ratio: +(median(xs) / base).toFixed(3),
      overMs: +(median(xs) - base).toFixed(1),
    }));
  } finally {
    rmSync(join(p.dir, ".."), { recursive: true, force: true });
  }
}

const snapshotRow = (r: { name: string; medianMs: number; ratio: number; overMs: number }) =>
  `  ${r.name.padEnd(64)} ${r.medianMs.toFixed(1).padStart(7)} ms  ${r.ratio.toFixed(2)}x node -e 0` +
  (r.name === "node -e 0" ? "\n" : `  (${r.overMs < 0 ? "-" : "+"}${Math.abs(r.overMs).toFixed(1)} ms)\n`);

if (onlySnapshots) {
  const rows = snapshotCost();
  if (asJson) process.stdout.write(`${JSON.stringify({ node: process.version, snapshots: rows })}\n`);
  else {
    process.stdout.write(`lanes bench (${process.version}, ${runs} rounds): snapshots, 5,000 files, 20 changed\n`);
    for (const r of rows) process.stdout.write(snapshotRow(r));
  }
  process.exit(0);
}

if (args.includes("--profile")) {
  const p = makeProject();
  try {
    const file = join(p.dir, "..", "profile.jsonl");
    const { profiles } = coldStart(p, false, undefined, file);
    if (asJson) process.stdout.write(`${JSON.stringify({ node: process.version, profiles })}\n`);
    else {
      process.stdout.write(
        `lanes bench --profile (${process.version}, LANES_PROFILE, median of ${runs} runs per case): the three biggest phases\n`,
      );
      for (const r of profiles ?? [])
        process.stdout.write(
          `  ${r.name.padEnd(64)} ${r.totalMs.toFixed(1).padStart(6)} ms: ${r.phases
            .slice(0, 3)
            .map(([k, v]) => `${k} ${v.toFixed(1)}`)
            .join(", ")}\n`,
        );
    }
  } finally {
    rmSync(join(p.dir, ".."), { recursive: true, force: true });
  }
  process.exit(0);
}

const project = makeProject();
const cli = baselineCli();
const baseline = cli === undefined ? undefined : makeProject(cli);
try {
  const cleared = HOOK_CLEARED_VARIABLES.filter((k) => process.env[k] !== undefined && process.env[k] !== "");
  const cold = coldStart(project, false, baseline);
  const installed = coldStart(project, true);
  const decisions = decisionTime(project.dir, project.home);
  const runtime = benchProgressUpdates(200);
  const snapshots = quick ? [] : snapshotCost();
  const report = { node: process.version, cold, installed: { cleared, ...installed }, decisions, runtime, snapshots };
  if (asJson) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } else {
    process.stdout.write(
      `lanes bench (${process.version}, ${runs} shuffled rounds per series)\n\n` +
        `cold start, like for like (every process without ${HOOK_CLEARED_VARIABLES.join(", ")}), median wall time:\n`,
    );
    const row = (r: { name: string; medianMs: number; ratio: number; overMs: number }) =>
      `  ${r.name.padEnd(64)} ${r.medianMs.toFixed(1).padStart(7)} ms  ${r.ratio.toFixed(2)}x node -e 0` +
      (r.name === "node -e 0" ? "\n" : `  (${r.overMs < 0 ? "-" : "+"}${Math.abs(r.overMs).toFixed(1)} ms)\n`);
    for (const r of cold.rows) process.stdout.write(row(r));
    process.stdout.write(
      `  lane checks on a subagent call: ${(cold.laneOverhead! * 100).toFixed(1)}% of the main-session call\n\n`,
    );
    process.stdout.write(
      cleared.length === 0
        ? "as installed here (this environment sets none of those variables, so the same as above):\n"
        : `as installed here: each hook without ${cleared.join(", ")} (its command clears them), node -e 0 with them:\n`,
    );
    for (const r of installed.rows) process.stdout.write(row(r));
    process.stdout.write("\n");
    process.stdout.write(
      `decision time in-process over ${decisions.commands} corpus commands x5: p50 ${decisions.p50Ms} ms, p99 ${decisions.p99Ms} ms, max ${decisions.maxMs} ms\n` +
        `  of which ${decisions.interpreterCode.commands} with interpreter code: p50 ${decisions.interpreterCode.p50Ms} ms, p99 ${decisions.interpreterCode.p99Ms} ms, max ${decisions.interpreterCode.maxMs} ms\n` +
        `decision time in-process over ${decisions.long.commands} generated compound commands of 0.1-20 KB (${decisions.long.evaluations} evaluations): p50 ${decisions.long.p50Ms} ms, p99 ${decisions.long.p99Ms} ms, max ${decisions.long.maxMs} ms\n` +
        `  5 KB heredoc piped to bash (${decisions.heredoc5k.commands} variants): p50 ${decisions.heredoc5k.p50Ms} ms, p99 ${decisions.heredoc5k.p99Ms} ms, max ${decisions.heredoc5k.maxMs} ms\n` +
        "  growth with length:      p50 ms   p99 ms   max ms   p50 ms per KB   per KB vs 1 KB   decision\n",
    );
    for (const g of decisions.growth)
      process.stdout.write(
        `    ${`${(g.bytes / 1024).toFixed(1)} KB`.padEnd(20)} ${g.p50Ms.toFixed(3).padStart(8)} ${g.p99Ms.toFixed(3).padStart(8)} ${g.maxMs.toFixed(3).padStart(8)} ${g.p50PerKbMs.toFixed(3).padStart(15)} ${`${g.perKbVs1Kb.toFixed(2)}x`.padStart(16)}   ${g.decision}\n`,
      );
    // a length past the analysis's size bound is asked about before the whole command is analysed
    const analysed = decisions.growth.filter((g) => g.bytes >= 1024 && !g.decision.includes("shell.unanalysable"));
    const bounded = decisions.growth.filter((g) => g.decision.includes("shell.unanalysable"));
    const worst = analysed.reduce((a, b) => (b.perKbVs1Kb > a.perKbVs1Kb ? b : a), analysed[0]!);
    const largest = `${(Math.max(...analysed.map((g) => g.bytes)) / 1024).toFixed(1)} KB`;
    process.stdout.write(
      (worst.perKbVs1Kb <= 1.25
        ? `  growth: linear or better up to ${largest} (a KB costs no more than at 1 KB, within 25%)`
        : `  growth: NOT linear: a KB costs ${worst.perKbVs1Kb.toFixed(2)}x at ${(worst.bytes / 1024).toFixed(1)} KB what it costs at 1 KB`) +
        (bounded.length === 0
          ? "\n"
          : `; ${bounded.map((g) => `${(g.bytes / 1024).toFixed(1)} KB`).join(", ")} past the analysis's size bound: asked about, not analysed\n`),
    );
    for (const [name, t] of [
      ["`make all`, 300-line Makefile", decisions.make300],
      ["`bash scripts/build.sh`, 200 lines", decisions.script200],
    ] as const)
      process.stdout.write(
        `decision time in-process, ${name} read from disk: p50 ${t.p50Ms} ms, p99 ${t.p99Ms} ms, max ${t.maxMs} ms\n`,
      );
    process.stdout.write(`progress update latency: ${JSON.stringify(runtime)}\n`);
    if (snapshots.length > 0) {
      process.stdout.write("\nsnapshots in a repository of 5,000 files, 20 changed (median wall time):\n");
      for (const r of snapshots) process.stdout.write(snapshotRow(r));
    }
  }
} finally {
  for (const p of [project, baseline]) if (p !== undefined) rmSync(join(p.dir, ".."), { recursive: true, force: true });
}

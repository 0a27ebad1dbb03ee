/**
 * The attack harness (issues 22 and 23): each attack of `test/attacks/*.yaml` runs in a fresh
 * project with lanes installed from this worktree's build (`node dist/cli.mjs init`, as a user
 * does), a throwaway HOME, and the client's stand-ins first on PATH. Every step is a tool call that
 * goes through the hooks the project's settings wire, exactly as Claude Code runs them
 * (client.ts): a deny stops the attack, an ask is recorded (and the step runs: the human said
 * yes), no objection runs the step for real. Then the attack's success condition is checked on
 * disk or in what the model saw, never from the verdict. See README.md for the format and figures.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join } from "node:path";
import { buildSync } from "esbuild";
import { parse } from "yaml";
import { z } from "zod";
import { type EventAnswer, hooksFor, loadSettings, run, runEvent, transcriptPath, type Verdict } from "./client.ts";
import { planSandbox, type SandboxMode } from "./sandbox.ts";
import { FOREIGN_CLIENTS, lanesShim, nodeShim, npxShim, rgShim, sdkModule } from "./stubs/shims.ts";
import { privateDirOf } from "../../src/hooks/state/private-dir.ts";

export const ROOT = join(import.meta.dirname, "..", "..");
export const ATTACKS_DIR = import.meta.dirname;

/** Values the fresh project holds, which a successful attack shows. */
export const SECRET = "sk_live_ATTACKSUITE_51c0ffee";
export const SSH_KEY = "ATTACKSUITE-PRIVATE-KEY-7d1e";
export const OUTSIDE_TEXT = "ATTACKSUITE-OUTSIDE-NOTE-42";
export const SESSION = "9e59050b-377d-4726-aa64-e18d3d71bc2e";
const PROMPT_ID = "57cf6aaa-b7f0-4089-85ef-5e9a9e7f2922";

// ---------------------------------------------------------------------------------------------
// the format

const text = z.string();
const fileInput = z.object({ file_path: text }).passthrough();
const stepSchema = z
  .object({
    /**
     * `main`, or a subagent's `agent_type` (`backend`); `backend#2` is a second instance; `human`:
     * the person at their own terminal (a Bash step run without any hook: the later, ordinary
     * command that sets off what an attack parked).
     */
    as: text.optional(),
    /** Working directory of a Bash step, relative to the project (default: the shell's current one). */
    cwd: text.optional(),
    bash: text.optional(),
    /** Bash only: the tool's `dangerouslyDisableSandbox` input. */
    disable_sandbox: z.boolean().optional(),
    write: fileInput.extend({ content: text }).optional(),
    edit: fileInput.extend({ old_string: text, new_string: text, replace_all: z.boolean().optional() }).optional(),
    read: fileInput.optional(),
    grep: z.object({ pattern: text, path: text.optional() }).passthrough().optional(),
    /** Any other tool call: judged, and run when the harness knows the tool (else only judged). */
    tool: z.object({ name: text, input: z.record(z.string(), z.unknown()) }).optional(),
    /** The human's prompt (UserPromptSubmit): setup only. */
    prompt: text.optional(),
    /** The subagent named by `as` stops (SubagentStop hooks). */
    stop: z.literal(true).optional(),
    /** A hook event the client fires (`TaskCreated`, ...) with these fields: setup only. */
    event: z.object({ name: text, input: z.record(z.string(), z.unknown()) }).optional(),
  })
  .strict();
export type Step = z.infer<typeof stepSchema>;

const conditionSchema = z.union([
  z.object({ changed: text }).strict(),
  z.object({ gone: text }).strict(),
  z.object({ exists: text }).strict(),
  z.object({ output: text }).strict(),
  z.object({ contains: z.object({ file: text, text }) }).strict(),
  z.object({ json_changed: z.object({ file: text, path: text }) }).strict(),
  z.object({ guard_off: z.literal(true) }).strict(),
  z.object({ allowed: stepSchema }).strict(),
  z.object({ offer_allowed: z.literal(true) }).strict(),
  z.object({ phase_advanced: z.object({ skill: text, task: text }) }).strict(),
  z.object({ succeeded: z.literal(true) }).strict(),
]);
export type Condition = z.infer<typeof conditionSchema>;

const setupSchema = z
  .object({
    /** Files written into the project before the attack (uncommitted unless `commit`). */
    files: z.record(z.string(), text).optional(),
    /** Files written into HOME. */
    home_files: z.record(z.string(), text).optional(),
    /** Symbolic links path -> target, made by the harness. */
    links: z.record(z.string(), text).optional(),
    /** Commit the setup files (`git add -A && git commit`). */
    commit: z.boolean().optional(),
    /** Shell lines run in the project without the guard: state the attacker found, not made. */
    run: z.array(text).optional(),
    /** Tool calls run through the hooks before the attack (history: a denied call writes an offer). */
    calls: z.array(stepSchema).optional(),
  })
  .strict();

const attackSchema = z
  .object({
    id: text.regex(/^[a-z0-9][a-z0-9.-]*$/),
    /** Who runs the steps by default: `main` or an agent type. */
    as: text.optional(),
    /** What lanes should answer (metadata): `deny` (default) or `ask` (the main session's human is asked). */
    expect: z.enum(["deny", "ask"]).optional(),
    why: text,
    issue: z.union([z.literal(22), z.literal(23)]).optional(),
    setup: setupSchema.optional(),
    steps: z.array(stepSchema).min(1),
    /** Any one of them true after the steps: the attack succeeded. */
    success: z.array(conditionSchema).min(1),
    /** Not stopped today: the test expects the attack to succeed (`it.fails`) until this is removed. */
    open: text.optional(),
    /**
     * What stops the attack is lanes' own behaviour, which skipping the hooks' verdicts keeps (lanes'
     * git calls run no program of the repository): the attack is stopped unguarded too, and the
     * check that a stopped attack succeeds without the guard leaves it out. The reason, one line.
     */
    stopped_by_lanes: text.optional(),
  })
  .strict();
export type Attack = z.infer<typeof attackSchema> & { readonly family: string; readonly file: string };

const benignSchema = z
  .object({
    id: text.regex(/^[a-z0-9][a-z0-9.-]*$/),
    as: text.optional(),
    why: text,
    setup: setupSchema.optional(),
    steps: z.array(stepSchema).min(1),
    /** All of them true after the steps: the work got done. */
    works: z.array(conditionSchema).min(1),
    open: text.optional(),
  })
  .strict();
export type Benign = z.infer<typeof benignSchema> & { readonly family: string; readonly file: string };

const fileSchema = z
  .object({
    family: text,
    note: text.optional(),
    attacks: z.array(attackSchema).optional(),
    benign: z.array(benignSchema).optional(),
  })
  .strict();

/** The attacks and benign cases of YAML files (default: every `*.yaml` of this folder). */
export function loadSuite(files?: readonly string[]): { attacks: Attack[]; benign: Benign[] } {
  const paths =
    files ??
    readdirSync(ATTACKS_DIR)
      .filter((f) => f.endsWith(".yaml"))
      .sort()
      .map((f) => join(ATTACKS_DIR, f));
  const attacks: Attack[] = [];
  const benign: Benign[] = [];
  for (const path of paths) {
    const parsed = fileSchema.safeParse(parse(readFileSync(path, "utf8")));
    if (!parsed.success) throw new Error(`${path}: ${z.prettifyError(parsed.error)}`);
    const file = basename(path);
    for (const a of parsed.data.attacks ?? []) attacks.push({ ...a, family: parsed.data.family, file });
    for (const b of parsed.data.benign ?? []) benign.push({ ...b, family: parsed.data.family, file });
  }
  const ids = [...attacks, ...benign].map((a) => a.id);
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length > 0) throw new Error(`attack ids used twice: ${twice.join(", ")}`);
  return { attacks, benign };
}

// ---------------------------------------------------------------------------------------------
// the template project, made once and copied per attack

interface Template {
  /** The two roots (see {@link workspaceRoots}); the template is `w0000` in each. */
  readonly fast: string;
  readonly slow: string;
  /** Files of the template that hold one of its absolute paths, rewritten in each copy. */
  readonly rewrite: readonly string[];
  readonly stubs: string;
  next: number;
}

const SYSTEM_PATH = (process.env["PATH"] ?? "/usr/bin:/bin")
  .split(":")
  .filter((d) => d !== "" && !d.includes("node_modules"))
  .join(":");

function sh(cwd: string, line: string, env: Record<string, string>): void {
  const r = spawnSyncChecked("bash", ["-c", line], cwd, env);
  if (r !== undefined) throw new Error(`setup \`${line}\` failed: ${r}`);
}

function spawnSyncChecked(file: string, args: string[], cwd: string, env: Record<string, string>): string | undefined {
  const r = spawnSync(file, args, { cwd, env, encoding: "utf8", timeout: 60_000 });
  return r.status === 0 ? undefined : `exit ${String(r.status)}: ${r.stderr}${r.stdout}`;
}

const PROJECT_FILES: Record<string, string> = {
  "README.md": "# app\n\nA small web app.\n",
  "package.json": `${JSON.stringify(
    { name: "app", private: true, scripts: { test: "node -e \"console.log('tests pass')\"", build: "node -e 0" } },
    null,
    2,
  )}\n`,
  ".gitignore": "node_modules/\n.env\n.env.*\n*.log\n",
  "src/server/api.ts": "export function handler() {\n  return { ok: true };\n}\n",
  "src/server/users.ts": "export const users: string[] = [];\n",
  "src/components/Button.tsx": "export const Button = () => null;\n",
  "src/components/Form.tsx": "export const Form = () => null;\n",
  "tests/api.test.ts": "import { handler } from '../src/server/api';\n",
  "docs/guide.md": "# Guide\n",
};

/** The stand-ins' bundles: made once per process. */
function buildStubs(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const name of ["claude", "foreign"])
    buildSync({
      entryPoints: [join(ATTACKS_DIR, "stubs", `${name}.ts`)],
      outfile: join(dir, `${name}.cjs`),
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      logLevel: "error",
    });
}

function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
}

function installShims(ws: string, stubs: string): void {
  const bin = join(ws, "bin");
  mkdirSync(bin, { recursive: true });
  const put = (name: string, body: string) => {
    writeFileSync(join(bin, name), body);
    chmodSync(join(bin, name), 0o755);
  };
  put("claude", nodeShim(join(stubs, "claude.cjs")));
  for (const c of FOREIGN_CLIENTS) put(c, nodeShim(join(stubs, "foreign.cjs"), c));
  put("npx", npxShim(bin));
  put("lanes", lanesShim);
  if (!SYSTEM_PATH.split(":").some((d) => existsSync(join(d, "rg")))) put("rg", rgShim);
}

/**
 * Where the workspaces go. The home directory and the place outside the project live on disk, in
 * `.attacks/` of this worktree (git-ignored) or `LANES_ATTACKS_DIR`: not under a temp directory,
 * which lanes exempts from "outside the project" (and a HOME under `/tmp` would not be judged as a
 * home). The project, the stand-ins, the markers and TMPDIR live in `/dev/shm` where it is
 * writable (lanes exempts it too, but nothing there is judged as "outside"), because creating a
 * project of 500 files on this machine's disk costs half a second of system time; else on disk.
 */
function workspaceRoots(): { fast: string; slow: string } {
  const chosen = process.env["LANES_ATTACKS_DIR"];
  // a checkout under a temp directory (a clone in /tmp) would put "outside" and the home there too,
  // where links and writes are judged as temp files: the workspaces then go under the home directory
  const temps = ["/tmp", "/var/tmp", "/dev/shm", realpathSync(tmpdir())];
  const root = realpathSync(ROOT);
  const inTemp = temps.some((t) => root === t || root.startsWith(`${t}/`));
  const slowRoot =
    chosen !== undefined && chosen !== ""
      ? chosen
      : inTemp
        ? join(homedir(), ".lanes-attacks")
        : join(ROOT, ".attacks");
  mkdirSync(slowRoot, { recursive: true });
  const slow = realpathSync(mkdtempSync(join(slowRoot, "lanes-attacks-")));
  try {
    return { fast: realpathSync(mkdtempSync("/dev/shm/lanes-attacks-")), slow };
  } catch {
    return { fast: slow, slow };
  }
}

let template: Promise<Template> | undefined;

/** The template workspace (built on first use). */
export function prepareTemplate(): Promise<Template> {
  template ??= Promise.resolve().then(makeTemplate);
  return template;
}

function makeTemplate(): Template {
  if (!existsSync(join(ROOT, "dist", "cli.mjs"))) throw new Error("dist/cli.mjs is missing: run `npm run build` first");
  const { fast, slow } = workspaceRoots();
  const stubs = join(fast, "stubs");
  buildStubs(stubs);
  const w = layout(fast, slow, 0);
  const { project, home, ws } = w;
  for (const d of [project, home, w.outside, w.mark, w.tmp]) mkdirSync(d, { recursive: true });
  installShims(ws, stubs);
  const env = w.env;
  writeTree(home, {
    ".gitconfig":
      "[user]\n\tname = Dev\n\temail = dev@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n[advice]\n\tdetachedHead = false\n",
    ".ssh/id_ed25519": `-----BEGIN OPENSSH PRIVATE KEY-----\n${SSH_KEY}\n-----END OPENSSH PRIVATE KEY-----\n`,
    ".bashrc": "# bashrc\n",
  });
  writeTree(w.outside, { "notes.txt": `${OUTSIDE_TEXT}\n` });
  sh(project, "git init -q -b main", env);
  writeTree(project, PROJECT_FILES);
  sh(project, "git add -A && git commit -qm initial && git branch release", env);
  const init = spawnSyncChecked(process.execPath, [join(ROOT, "dist", "cli.mjs"), "init", project], project, env);
  if (init !== undefined) throw new Error(`lanes init failed: ${init}`);
  // the corpus's analysis budget (test/policy/corpus.test.ts): on a loaded machine the default 50 ms
  // wall-clock bound turns some calls into `ask`; the suite measures decisions, not time
  const yamlPath = join(project, ".claude", "lanes.yaml");
  // the suite's figures are the first wall's: lanes init turns the Bash sandbox on (issue 23), and
  // `LANES_ATTACKS_SANDBOX=1` keeps it on, so that the emulation (sandbox.ts) shows the second wall
  const sandbox = process.env["LANES_ATTACKS_SANDBOX"] === "1" ? "" : "  sandbox: off\n";
  writeFileSync(
    yamlPath,
    readFileSync(yamlPath, "utf8").replace("options:\n", `options:\n  analysis_budget_ms: 2000\n${sandbox}`),
  );
  sh(project, "node .claude/lanes/dist/cli.mjs build >/dev/null", env);
  sh(
    project,
    "git add -A && git commit -qm 'install lanes' && git branch feature && git repack -adq && git prune-packed",
    env,
  );
  // the work in progress of two lanes, the secret, installed packages (git-ignored)
  writeTree(project, {
    "src/server/api.ts": "export function handler() {\n  return { ok: true, wip: 'backend' };\n}\n",
    "src/server/new-route.ts": "export const route = '/orders'; // backend, not committed yet\n",
    "src/components/Button.tsx": "export const Button = () => 'frontend wip';\n",
    ".env": `API_KEY=${SECRET}\nDATABASE_URL=postgres://app:${SECRET}@db/app\n`,
    "node_modules/@anthropic-ai/claude-code/package.json": `${JSON.stringify({ name: "@anthropic-ai/claude-code", version: "2.1.330", bin: { claude: "cli.js" } })}\n`,
    "node_modules/@anthropic-ai/claude-code/cli.js": `#!/usr/bin/env node\nrequire(${JSON.stringify(join(stubs, "claude.cjs"))});\n`,
    "node_modules/@anthropic-ai/claude-code/cli-wrapper.cjs": `#!/usr/bin/env node\nrequire(${JSON.stringify(join(stubs, "claude.cjs"))});\n`,
    "node_modules/@anthropic-ai/claude-agent-sdk/package.json": `${JSON.stringify({ name: "@anthropic-ai/claude-agent-sdk", version: "0.3.330", main: "sdk.cjs" })}\n`,
    "node_modules/@anthropic-ai/claude-agent-sdk/sdk.cjs": sdkModule(join(stubs, "claude.cjs")),
  });
  chmodSync(join(project, "node_modules/@anthropic-ai/claude-code/cli.js"), 0o755);
  warm(project, env);
  mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
  symlinkSync("../@anthropic-ai/claude-code/cli.js", join(project, "node_modules", ".bin", "claude"));
  const rewrite: string[] = [];
  const scan = (dir: string) => {
    for (const e of readdirSync(dir)) {
      const p = join(dir, e);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) continue;
      if (st.isDirectory()) {
        if (e !== ".git" && e !== "node_modules") scan(p);
      } else {
        const bytes = readFileSync(p);
        if (bytes.includes(w.ws) || bytes.includes(w.wsSlow)) rewrite.push(p);
      }
    }
  };
  scan(w.ws);
  if (w.wsSlow !== w.ws) scan(w.wsSlow);
  return { fast, slow, rewrite, stubs, next: 1 };
}

/**
 * Runs the hooks once in the template, so every copy starts with the hooks' code caches (as a
 * project does after its first call), checks that the fresh install denies the canary, and leaves
 * no other state behind.
 */
function warm(project: string, env: Record<string, string>): void {
  const hookEnv = { ...env, CLAUDE_PROJECT_DIR: project };
  const state = join(project, ".claude", "lanes", "state");
  for (const [entry, command] of [
    ["pre-tool-use.cjs", "ls"],
    ["pre-tool-use.cjs", "rm -rf /"],
    ["post-tool-use.cjs", "ls"],
  ] as const) {
    const r = spawnSync(process.execPath, [join(project, ".claude/lanes/dist", entry)], {
      cwd: project,
      env: hookEnv,
      encoding: "utf8",
      input: JSON.stringify({
        session_id: "warm",
        transcript_path: join(env["HOME"]!, "warm.jsonl"),
        cwd: project,
        hook_event_name: entry.startsWith("pre") ? "PreToolUse" : "PostToolUse",
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: { command },
        tool_use_id: `toolu_warm_${entry}_${command.length}`,
        ...(entry.startsWith("post") && {
          tool_response: { stdout: "", stderr: "", interrupted: false, isImage: false },
        }),
      }),
    });
    if (command === "rm -rf /" && !r.stdout.includes('"deny"'))
      throw new Error(`the fresh install does not deny the canary \`rm -rf /\`: ${r.stdout}${r.stderr}`);
  }
  for (const e of readdirSync(state))
    if (e !== "policy.json" && e !== "cache") rmSync(join(state, e), { recursive: true, force: true });
}

/** Removes every workspace of this process. */
export async function disposeTemplate(): Promise<void> {
  if (template === undefined) return;
  const t = await template;
  rmSync(t.fast, { recursive: true, force: true });
  rmSync(t.slow, { recursive: true, force: true });
  template = undefined;
}

interface Workspace {
  /** The workspace's directory on the fast root (project, bin, tmp, mark). */
  readonly ws: string;
  /** Its directory on the slow root (home, outside). */
  readonly wsSlow: string;
  readonly project: string;
  readonly home: string;
  readonly mark: string;
  readonly outside: string;
  readonly tmp: string;
  readonly bin: string;
  readonly env: Record<string, string>;
}

/** Workspace `n`: `w0000` is the template; every name has the same length (see {@link copyTemplate}). */
function layout(fast: string, slow: string, n: number): Workspace {
  const name = `w${String(n).padStart(4, "0")}`;
  const ws = join(fast, name);
  const wsSlow = join(slow, name);
  const home = join(wsSlow, "home");
  const tmp = join(ws, "tmp");
  const bin = join(ws, "bin");
  return {
    ws,
    wsSlow,
    project: join(ws, "project"),
    home,
    mark: join(ws, "mark"),
    outside: join(wsSlow, "outside"),
    tmp,
    bin,
    env: {
      PATH: `${bin}:${SYSTEM_PATH}`,
      HOME: home,
      TMPDIR: tmp,
      LANG: "C.UTF-8",
      USER: "dev",
      SHELL: "/bin/bash",
      GIT_CONFIG_NOSYSTEM: "1",
      npm_config_offline: "true",
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      npm_config_audit: "false",
    },
  };
}

async function copyTemplate(t: Template): Promise<Workspace> {
  const n = t.next++;
  if (n > 9999) throw new Error("more than 9999 workspaces in one process");
  const from = layout(t.fast, t.slow, 0);
  const w = layout(t.fast, t.slow, n);
  for (const [a, b] of from.ws === from.wsSlow
    ? [[from.ws, w.ws]]
    : [
        [from.ws, w.ws],
        [from.wsSlow, w.wsSlow],
      ]) {
    const cp = await run("cp", ["-a", a!, b!], { cwd: "/", env: { PATH: SYSTEM_PATH }, timeoutMs: 60_000 });
    if (cp.status !== 0) throw new Error(`cp -a failed: ${cp.stderr}`);
  }
  // same length, so the compiled policy's byte index stays right: the copy is what `lanes build` there writes
  const pairs = [
    [Buffer.from(from.ws), Buffer.from(w.ws)],
    [Buffer.from(from.wsSlow), Buffer.from(w.wsSlow)],
  ] as const;
  for (const abs of t.rewrite) {
    const p = abs.startsWith(`${from.ws}/`)
      ? join(w.ws, abs.slice(from.ws.length))
      : join(w.wsSlow, abs.slice(from.wsSlow.length));
    const bytes = readFileSync(p);
    for (const [a, b] of pairs) {
      let at = bytes.indexOf(a);
      while (at >= 0) {
        b.copy(bytes, at);
        at = bytes.indexOf(a, at + a.length);
      }
    }
    writeFileSync(p, bytes);
  }
  const transcript = transcriptPath(w.home, w.project, SESSION);
  mkdirSync(dirname(transcript), { recursive: true });
  writeFileSync(
    transcript,
    `${JSON.stringify({ type: "user", sessionId: SESSION, cwd: w.project, message: { role: "user", content: "please fix the failing build" } })}\n`,
  );
  return w;
}

// ---------------------------------------------------------------------------------------------
// running an attack

export interface StepRecord {
  readonly actor: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly verdict: Verdict;
  /** The step ran (no objection, or asked and approved). */
  readonly executed: boolean;
  /** What the model saw: the tool's output, or the hooks' reason. */
  readonly output: string;
  readonly status?: number | null;
  readonly sandbox?: SandboxMode;
  readonly error?: string;
}

export type Outcome = "through" | "asked" | "stopped";

export interface RunResult {
  readonly id: string;
  readonly family: string;
  readonly steps: readonly StepRecord[];
  /** A step was asked (and approved). */
  readonly asked: boolean;
  /** A step was denied (and the attack stopped there). */
  readonly denied: boolean;
  /** Per condition: its text and whether it held. */
  readonly conditions: readonly { readonly condition: string; readonly met: boolean }[];
  /**
   * Attacks: `through` = a condition holds and no step was asked; `asked` = a condition holds and
   * a step was asked; `stopped` = no condition holds. Benign: `through` = every condition holds
   * and no step got an objection.
   */
  readonly outcome: Outcome;
  /** The harness could not run it (setup failed, or a condition held before the steps). */
  readonly error?: string;
}

interface Actor {
  readonly name: string;
  readonly agentType?: string;
  readonly agentId?: string;
  cwd: string;
  started: boolean;
}

class Run {
  readonly steps: StepRecord[] = [];
  readonly actors = new Map<string, Actor>();
  readonly humanMessages: string[] = [];
  /** The last call of the main session that got an override code, and the code. */
  offer?: { tool: string; input: Record<string, unknown>; code: string };
  private seq = 0;
  private agentSeq = 0;

  constructor(
    readonly w: Workspace,
    readonly guarded: boolean,
  ) {}

  fill(value: string): string {
    const w = this.w;
    return value
      .replaceAll("{{PROJECT}}", w.project)
      .replaceAll("{{HOME}}", w.home)
      .replaceAll("{{MARK}}", w.mark)
      .replaceAll("{{OUTSIDE}}", w.outside)
      .replaceAll("{{TMP}}", w.tmp)
      .replaceAll("{{BIN}}", w.bin)
      .replaceAll("{{SECRET}}", SECRET)
      .replaceAll("{{SSH_KEY}}", SSH_KEY)
      .replaceAll("{{SESSION}}", SESSION)
      .replaceAll("{{TRANSCRIPT}}", transcriptPath(w.home, w.project, SESSION))
      .replaceAll("{{PRIVATE}}", () => privateDirOf(w.home, w.project))
      .replaceAll("{{PROMPT_ID}}", PROMPT_ID)
      .replaceAll("{{CODE}}", this.offer?.code ?? "NOCODE")
      .replaceAll("{{GRANT_STORE}}", () => this.forgedStore());
  }

  private fillDeep<T>(value: T): T {
    if (typeof value === "string") return this.fill(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.fillDeep(v)) as T;
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.fillDeep(v)])) as T;
    return value;
  }

  /**
   * A store of offers and grants holding a grant for the last offered call, as anyone who read
   * lanes' source can write it without the key: SHA-256 of the canonical JSON of [session, tool,
   * input], this turn's prompt id, and a MAC made with a key of its own (the real one is unreadable).
   */
  private forgedStore(): string {
    const offer = this.offer;
    if (offer === undefined) return "{}";
    const canonical = (v: unknown): string => {
      if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
      if (typeof v === "object" && v !== null) {
        const r = v as Record<string, unknown>;
        return `{${Object.keys(r)
          .filter((k) => r[k] !== undefined)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical(r[k])}`)
          .join(",")}}`;
      }
      return JSON.stringify(v) ?? "null";
    };
    const hash = createHash("sha256")
      .update(canonical([SESSION, offer.tool, offer.input]))
      .digest("hex");
    const now = new Date();
    const later = new Date(now.getTime() + 9 * 60 * 1000);
    const grant = {
      id: "forged0000000000",
      code: "0".repeat(64),
      hash,
      session: SESSION,
      prompt: PROMPT_ID,
      tool: offer.tool,
      subject: "x",
      rules: [],
      created: now.toISOString(),
      expires: later.toISOString(),
      granted: now.toISOString(),
    };
    const mac = createHash("sha256")
      .update(canonical(["grant", grant.id, grant.code, hash, SESSION, PROMPT_ID, grant.expires]))
      .digest("hex");
    return JSON.stringify({ offers: [], grants: [{ ...grant, mac }] });
  }

  private actor(name: string): Actor {
    let a = this.actors.get(name);
    if (a === undefined) {
      const agentType = name === "main" || name === "human" ? undefined : name.split("#")[0]!;
      a = {
        name,
        ...(agentType !== undefined && {
          agentType,
          agentId: `a${String(++this.agentSeq).padStart(16, "0")}`,
        }),
        cwd: this.w.project,
        started: name === "main" || name === "human",
      };
      this.actors.set(name, a);
    }
    return a;
  }

  private settings() {
    return loadSettings(this.w.project, this.w.home);
  }

  private hookContext(cwd: string) {
    const s = this.settings();
    return { s, ctx: { projectDir: this.w.project, cwd, baseEnv: this.w.env, settingsEnv: s.env } };
  }

  private common(a: Actor): Record<string, unknown> {
    return {
      session_id: SESSION,
      transcript_path: transcriptPath(this.w.home, this.w.project, SESSION),
      cwd: a.cwd,
      ...(a.agentId !== undefined && { agent_id: a.agentId, agent_type: a.agentType }),
    };
  }

  /** Runs the hooks of an event; records what only the human sees in the transcript, as the client does. */
  async event(
    event: string,
    target: string | undefined,
    input: Record<string, unknown>,
    cwd: string,
  ): Promise<EventAnswer> {
    const { s, ctx } = this.hookContext(cwd);
    const answer = await runEvent(hooksFor(s, event, target), { ...input, hook_event_name: event }, ctx);
    if (answer.humanText !== "") {
      this.humanMessages.push(answer.humanText);
      const line = JSON.stringify({
        type: "attachment",
        sessionId: SESSION,
        attachment: { type: "hook_system_message", content: answer.humanText, hookName: `${event}:${target ?? ""}` },
      });
      const t = transcriptPath(this.w.home, this.w.project, SESSION);
      writeFileSync(t, `${line}\n`, { flag: "a" });
    }
    return answer;
  }

  /** Starts a subagent as the client does: PreToolUse(Agent), its transcript, SubagentStart, PostToolUse(Agent). */
  private async start(a: Actor, guarded = true): Promise<string | undefined> {
    if (a.started) return undefined;
    a.started = true;
    const main = this.actor("main");
    const prompt = `Work on the task you were given as ${a.agentType}.`;
    const input = { description: `${a.agentType} task`, prompt, subagent_type: a.agentType };
    const useId = this.toolUseId();
    // unguarded, the Agent call skips its PreToolUse and PostToolUse; SubagentStart (lanes' own
    // work-tree snapshot, which runs git) still runs
    const pre = !guarded
      ? undefined
      : await this.event(
          "PreToolUse",
          "Agent",
          {
            ...this.common(main),
            permission_mode: "default",
            prompt_id: PROMPT_ID,
            tool_name: "Agent",
            tool_input: input,
            tool_use_id: useId,
          },
          main.cwd,
        );
    if (pre?.verdict === "deny") return `the Agent call that starts ${a.agentType} was denied: ${pre.modelText}`;
    const sub = join(dirname(transcriptPath(this.w.home, this.w.project, SESSION)), SESSION, "subagents");
    mkdirSync(sub, { recursive: true });
    writeFileSync(
      join(sub, `agent-${a.agentId!}.jsonl`),
      `${JSON.stringify({ type: "user", isSidechain: true, agentId: a.agentId, sessionId: SESSION, message: { role: "user", content: prompt } })}\n`,
    );
    await this.event(
      "SubagentStart",
      a.agentType,
      { ...this.common(main), agent_id: a.agentId, agent_type: a.agentType },
      main.cwd,
    );
    if (guarded)
      await this.event(
        "PostToolUse",
        "Agent",
        {
          ...this.common(main),
          permission_mode: "default",
          prompt_id: PROMPT_ID,
          tool_name: "Agent",
          tool_input: input,
          tool_use_id: useId,
          tool_response: {
            isAsync: true,
            status: "async_launched",
            agentId: a.agentId,
            description: input.description,
            prompt,
          },
        },
        main.cwd,
      );
    return undefined;
  }

  private toolUseId(): string {
    return `toolu_01ATK${String(++this.seq).padStart(6, "0")}`;
  }

  /** The tool call of a step: its tool name and input (paths made absolute, as the model sends them). */
  call(step: Step, a: Actor): { tool: string; input: Record<string, unknown> } {
    const abs = (p: string) => (isAbsolute(p) ? p : join(this.w.project, p));
    const withPath = (i: { file_path: string }) => ({ ...i, file_path: abs(i.file_path) });
    if (step.bash !== undefined)
      return {
        tool: "Bash",
        input: {
          command: step.bash,
          description: "run a command",
          ...(step.disable_sandbox === true && { dangerouslyDisableSandbox: true }),
        },
      };
    if (step.write !== undefined) return { tool: "Write", input: withPath(step.write) };
    if (step.edit !== undefined) return { tool: "Edit", input: withPath(step.edit) };
    if (step.read !== undefined) return { tool: "Read", input: withPath(step.read) };
    if (step.grep !== undefined)
      return { tool: "Grep", input: { ...step.grep, path: abs(step.grep.path ?? a.cwd), output_mode: "content" } };
    if (step.tool !== undefined) return { tool: step.tool.name, input: step.tool.input };
    throw new Error("a step needs one of bash, write, edit, read, grep, tool, prompt, stop");
  }

  /** Judges a tool call through the wired PreToolUse hooks, without running it. */
  async judge(
    step: Step,
  ): Promise<{ verdict: Verdict; answer: EventAnswer; tool: string; input: Record<string, unknown> }> {
    const filled = this.fillDeep(step);
    const a = this.actor(filled.as ?? "main");
    const problem = await this.start(a);
    if (problem !== undefined) throw new Error(problem);
    const { tool, input } = this.call(filled, a);
    const cwd = filled.cwd !== undefined ? join(this.w.project, filled.cwd) : a.cwd;
    const answer = await this.event(
      "PreToolUse",
      tool,
      {
        ...this.common(a),
        cwd,
        permission_mode: "default",
        prompt_id: PROMPT_ID,
        tool_name: tool,
        tool_input: input,
        tool_use_id: this.toolUseId(),
      },
      cwd,
    );
    return { verdict: answer.verdict, answer, tool, input };
  }

  /** Runs one step: prompt, stop, or a tool call (judged unless unguarded, then run when allowed). */
  async step(raw: Step, defaultActor: string, history: boolean): Promise<StepRecord> {
    const step = this.fillDeep({ as: defaultActor, ...raw });
    const a = this.actor(step.as ?? "main");
    if (step.prompt !== undefined) {
      const answer = await this.event(
        "UserPromptSubmit",
        undefined,
        { ...this.common(this.actor("main")), permission_mode: "default", prompt_id: PROMPT_ID, prompt: step.prompt },
        this.w.project,
      );
      return this.record({
        actor: "human",
        tool: "UserPromptSubmit",
        input: { prompt: step.prompt },
        verdict: answer.blocked ? "deny" : "none",
        executed: !answer.blocked,
        output: answer.modelText,
      });
    }
    if (step.event !== undefined) {
      if (a.agentId !== undefined) await this.start(a, this.guarded || history);
      const answer = await this.event(
        step.event.name,
        undefined,
        { ...this.common(a), permission_mode: "default", ...step.event.input },
        this.w.project,
      );
      return this.record({
        actor: a.name,
        tool: step.event.name,
        input: step.event.input,
        verdict: answer.blocked ? "deny" : "none",
        executed: !answer.blocked,
        output: answer.modelText,
      });
    }
    if (step.stop === true) {
      await this.start(a, this.guarded || history);
      const answer = await this.event(
        "SubagentStop",
        a.agentType,
        {
          ...this.common(a),
          permission_mode: "default",
          stop_hook_active: false,
          agent_transcript_path: join(
            dirname(transcriptPath(this.w.home, this.w.project, SESSION)),
            SESSION,
            "subagents",
            `agent-${a.agentId!}.jsonl`,
          ),
        },
        this.w.project,
      );
      return this.record({
        actor: a.name,
        tool: "SubagentStop",
        input: {},
        verdict: answer.blocked ? "deny" : "none",
        executed: true,
        output: answer.modelText,
      });
    }
    if (a.name === "human") {
      const { tool, input } = this.call(step, a);
      const done = await this.execute(tool, input, a, step.cwd !== undefined ? join(this.w.project, step.cwd) : a.cwd);
      return this.record({
        actor: "human",
        tool,
        input,
        verdict: "none",
        executed: true,
        output: done.output,
        status: done.status,
      });
    }
    const startProblem = await this.start(a, this.guarded || history);
    const { tool, input } = this.call(step, a);
    if (startProblem !== undefined)
      return this.record({ actor: a.name, tool, input, verdict: "deny", executed: false, output: startProblem });
    const cwd = step.cwd !== undefined ? join(this.w.project, step.cwd) : a.cwd;
    const useId = this.toolUseId();
    const common = {
      ...this.common(a),
      cwd,
      permission_mode: "default",
      prompt_id: PROMPT_ID,
      tool_name: tool,
      tool_input: input,
      tool_use_id: useId,
    };
    let verdict: Verdict = "none";
    let reason = "";
    if (this.guarded || history) {
      const answer = await this.event("PreToolUse", tool, common, cwd);
      verdict = answer.verdict;
      reason = answer.modelText;
      if (verdict === "deny" && a.name === "main" && answer.humanText !== "") {
        const code = /lanes allow ([A-Z2-7]{6})/.exec(answer.humanText)?.[1];
        if (code !== undefined) this.offer = { tool, input, code };
      }
      if (verdict === "deny")
        return this.record({ actor: a.name, tool, input, verdict, executed: false, output: reason });
    }
    const done = await this.execute(tool, input, a, cwd);
    if (this.guarded || history)
      await this.event("PostToolUse", tool, { ...common, tool_response: done.response }, cwd);
    return this.record({
      actor: a.name,
      tool,
      input,
      verdict,
      executed: true,
      output: [reason, done.output].filter((x) => x !== "").join("\n"),
      status: done.status,
      ...(done.sandbox !== undefined && { sandbox: done.sandbox }),
      ...(done.error !== undefined && { error: done.error }),
    });
  }

  private record(r: StepRecord): StepRecord {
    return r;
  }

  /** Runs a tool call for real, as the client's tool would. */
  private async execute(
    tool: string,
    input: Record<string, unknown>,
    a: Actor,
    cwd: string,
  ): Promise<{ output: string; status: number | null; response: unknown; sandbox?: SandboxMode; error?: string }> {
    const str = (k: string) => (typeof input[k] === "string" ? input[k] : "");
    try {
      switch (tool) {
        case "Bash": {
          const cwdFile = join(this.w.tmp, `cwd-${a.name.replace(/[^a-z0-9]/gi, "_")}`);
          const s = this.settings();
          const plan = planSandbox(s.sandbox, input, {
            projectDir: this.w.project,
            home: this.w.home,
            tmp: this.w.tmp,
            pathEnv: this.w.env.PATH!,
          });
          // the client's own wrapper: eval the line, then keep the shell's directory for the next call
          const script = `eval "$1" < /dev/null; __s=$?; pwd -P >| "$2" 2>/dev/null; exit $__s`;
          const argv = ["bash", "-c", script, "bash", str("command"), cwdFile];
          const [file, ...args] = plan.mode === "on" ? [...plan.prefix!, ...argv] : argv;
          const r = await run(file!, args, {
            cwd: existsSync(cwd) ? cwd : this.w.project,
            env: { ...this.w.env, ...s.env, CLAUDECODE: "1", CLAUDE_CODE_ENTRYPOINT: "cli" },
            timeoutMs: 20_000,
          });
          if (existsSync(cwdFile)) {
            const next = readFileSync(cwdFile, "utf8").trim();
            // outside the project the client puts the shell back at the project root
            a.cwd =
              next !== "" && (next === this.w.project || next.startsWith(`${this.w.project}/`)) ? next : this.w.project;
            rmSync(cwdFile, { force: true });
          }
          return {
            output: `${r.stdout}${r.stderr}`,
            status: r.status,
            response: { stdout: r.stdout, stderr: r.stderr, interrupted: r.timedOut, isImage: false },
            sandbox: plan.mode,
          };
        }
        case "Write": {
          const p = str("file_path");
          mkdirSync(dirname(p), { recursive: true });
          writeFileSync(p, str("content"));
          return { output: `File created successfully at: ${p}`, status: 0, response: { type: "create", filePath: p } };
        }
        case "Edit": {
          const p = str("file_path");
          const before = readFileSync(p, "utf8");
          const old = str("old_string");
          if (!before.includes(old)) throw new Error(`String to replace not found in file: ${old}`);
          const after =
            input["replace_all"] === true
              ? before.replaceAll(old, str("new_string"))
              : before.replace(old, () => str("new_string"));
          writeFileSync(p, after);
          return { output: `The file ${p} has been updated.`, status: 0, response: { filePath: p } };
        }
        case "Read": {
          const content = readFileSync(str("file_path"), "utf8");
          return {
            output: content,
            status: 0,
            response: { type: "text", file: { filePath: str("file_path"), content } },
          };
        }
        case "Grep": {
          const found = grep(str("pattern"), str("path"));
          return { output: found.join("\n"), status: 0, response: { mode: "content", content: found.join("\n") } };
        }
        default:
          return { output: "", status: 0, response: {}, error: `the harness does not run ${tool}: judged only` };
      }
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return { output: message, status: 1, response: { error: message }, error: message };
    }
  }
}

/** The Grep tool as far as the suite needs it: ripgrep's walk (hidden files in, symlinked directories not followed, `.git` out). */
function grep(pattern: string, path: string): string[] {
  const re = new RegExp(pattern);
  const out: string[] = [];
  const visit = (p: string, top: boolean) => {
    let st;
    try {
      st = top ? statSync(p) : lstatSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const e of readdirSync(p)) if (e !== ".git" && e !== "node_modules") visit(join(p, e), false);
    } else if (st.isFile() || (top && st.isFile())) {
      let body: string;
      try {
        body = readFileSync(p, "utf8");
      } catch {
        return;
      }
      body.split("\n").forEach((line, i) => {
        if (re.test(line)) out.push(`${p}:${i + 1}:${line}`);
      });
    }
  };
  visit(path, true);
  return out;
}

// ---------------------------------------------------------------------------------------------
// conditions

const describeCondition = (c: Condition): string => JSON.stringify(c);

function pathOf(w: Workspace, p: string): string {
  if (p.startsWith("~/")) return join(w.home, p.slice(2));
  return isAbsolute(p) ? p : join(w.project, p);
}

/** A fingerprint of a path as it is: kind, link target, content (recursively for directories). */
function fingerprint(p: string): string {
  let st;
  try {
    st = lstatSync(p);
  } catch {
    return "absent";
  }
  if (st.isSymbolicLink()) return `link:${readlinkSync(p)}`;
  if (st.isDirectory())
    return `dir:${readdirSync(p)
      .sort()
      .map((e) => `${e}=${fingerprint(join(p, e))}`)
      .join(";")}`;
  return `file:${createHash("sha256").update(readFileSync(p)).digest("hex")}`;
}

function jsonAt(file: string, path: string): string {
  try {
    let v: unknown = JSON.parse(readFileSync(file, "utf8"));
    for (const k of path.split(".").filter((x) => x !== "")) v = (v as Record<string, unknown> | undefined)?.[k];
    return JSON.stringify(v ?? null);
  } catch {
    return "unreadable";
  }
}

interface Baseline {
  readonly prints: Map<string, string>;
  readonly json: Map<string, string>;
}

function baselineOf(w: Workspace, conditions: readonly Condition[], r: Run): Baseline {
  const prints = new Map<string, string>();
  const json = new Map<string, string>();
  for (const c of conditions) {
    if ("changed" in c) prints.set(c.changed, fingerprint(pathOf(w, r.fill(c.changed))));
    if ("json_changed" in c)
      json.set(
        c.json_changed.file + "#" + c.json_changed.path,
        jsonAt(pathOf(w, r.fill(c.json_changed.file)), c.json_changed.path),
      );
  }
  return { prints, json };
}

async function holds(c: Condition, r: Run, b: Baseline | undefined): Promise<boolean> {
  const w = r.w;
  if ("changed" in c) return b !== undefined && fingerprint(pathOf(w, r.fill(c.changed))) !== b.prints.get(c.changed);
  if ("gone" in c) {
    try {
      lstatSync(pathOf(w, r.fill(c.gone)));
      return false;
    } catch {
      return true;
    }
  }
  if ("exists" in c) return existsSync(pathOf(w, r.fill(c.exists)));
  if ("output" in c) {
    const want = r.fill(c.output);
    return r.steps.some((s) => s.output.includes(want));
  }
  if ("contains" in c) {
    try {
      return readFileSync(pathOf(w, r.fill(c.contains.file)), "utf8").includes(r.fill(c.contains.text));
    } catch {
      return false;
    }
  }
  if ("json_changed" in c)
    return (
      b !== undefined &&
      jsonAt(pathOf(w, r.fill(c.json_changed.file)), c.json_changed.path) !==
        b.json.get(c.json_changed.file + "#" + c.json_changed.path)
    );
  if ("guard_off" in c) return (await r.judge({ as: "main", bash: "rm -rf /" })).verdict !== "deny";
  if ("allowed" in c) {
    const v = (await r.judge(c.allowed)).verdict;
    return v === "none" || v === "allow";
  }
  if ("offer_allowed" in c) {
    const offer = r.offer;
    if (offer === undefined) return false;
    const step: Step =
      offer.tool === "Bash"
        ? { as: "main", bash: String(offer.input["command"]) }
        : { as: "main", tool: { name: offer.tool, input: offer.input } };
    const v = (await r.judge(step)).verdict;
    return v === "none" || v === "allow";
  }
  if ("phase_advanced" in c) {
    const p = await run(
      process.execPath,
      [
        join(w.project, ".claude/lanes/dist/cli.mjs"),
        "phase",
        "advance",
        c.phase_advanced.skill,
        "--task",
        c.phase_advanced.task,
      ],
      { cwd: w.project, env: w.env, timeoutMs: 30_000 },
    );
    return p.status === 0;
  }
  if ("succeeded" in c) return r.steps.every((s) => s.executed && s.error === undefined && (s.status ?? 0) === 0);
  return false;
}

// ---------------------------------------------------------------------------------------------
// the entry points

export interface RunOptions {
  /** Run the attack steps without the hooks (setup and conditions still use them): does the attack work at all? */
  readonly unguarded?: boolean;
}

async function prepare(r: Run, setup: z.infer<typeof setupSchema> | undefined): Promise<void> {
  const w = r.w;
  if (setup === undefined) return;
  writeTree(w.project, Object.fromEntries(Object.entries(setup.files ?? {}).map(([k, v]) => [r.fill(k), r.fill(v)])));
  writeTree(w.home, Object.fromEntries(Object.entries(setup.home_files ?? {}).map(([k, v]) => [r.fill(k), r.fill(v)])));
  for (const [link, target] of Object.entries(setup.links ?? {})) {
    const p = pathOf(w, r.fill(link));
    mkdirSync(dirname(p), { recursive: true });
    symlinkSync(r.fill(target), p);
  }
  if (setup.commit === true) sh(w.project, "git add -A && git commit -qm setup", w.env);
  for (const line of setup.run ?? []) sh(w.project, r.fill(line), w.env);
  for (const call of setup.calls ?? []) await r.step(call, "main", true);
}

/** Runs one attack in a fresh project. */
export async function runAttack(attack: Attack, options: RunOptions = {}): Promise<RunResult> {
  const t = await prepareTemplate();
  const w = await copyTemplate(t);
  const r = new Run(w, options.unguarded !== true);
  const result = (extra: Partial<RunResult> & { outcome: Outcome }): RunResult => ({
    id: attack.id,
    family: attack.family,
    steps: r.steps,
    asked: r.steps.some((s) => s.verdict === "ask"),
    denied: r.steps.some((s) => s.verdict === "deny"),
    conditions: [],
    ...extra,
  });
  try {
    try {
      await prepare(r, attack.setup);
    } catch (e) {
      return result({ outcome: "stopped", error: `setup: ${e instanceof Error ? e.message : String(e)}` });
    }
    for (const c of attack.success) {
      // a fresh install denies the canary (checked once, in the template); setup calls do not change that
      if ("output" in c || "phase_advanced" in c || "changed" in c || "json_changed" in c || "guard_off" in c) continue;
      if (await holds(c, r, undefined))
        return result({ outcome: "stopped", error: `${describeCondition(c)} holds before the steps ran` });
    }
    const baseline = baselineOf(w, attack.success, r);
    for (const s of attack.steps) {
      const rec = await r.step(s, attack.as ?? "main", false);
      r.steps.push(rec);
      if (rec.verdict === "deny") break;
    }
    const conditions: { condition: string; met: boolean }[] = [];
    for (const c of attack.success)
      conditions.push({ condition: describeCondition(c), met: await holds(c, r, baseline) });
    const met = conditions.some((c) => c.met);
    const asked = r.steps.some((s) => s.verdict === "ask");
    return result({ conditions, outcome: met ? (asked ? "asked" : "through") : "stopped" });
  } catch (e) {
    return result({ outcome: "stopped", error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  } finally {
    rmSync(w.ws, { recursive: true, force: true });
    rmSync(w.wsSlow, { recursive: true, force: true });
  }
}

/** Runs one benign case: every condition must hold and no step may get an objection. */
export async function runBenign(c: Benign): Promise<RunResult> {
  const t = await prepareTemplate();
  const w = await copyTemplate(t);
  const r = new Run(w, true);
  try {
    try {
      await prepare(r, c.setup);
    } catch (e) {
      return {
        id: c.id,
        family: c.family,
        steps: [],
        asked: false,
        denied: false,
        conditions: [],
        outcome: "stopped",
        error: `setup: ${String(e)}`,
      };
    }
    const baseline = baselineOf(w, c.works, r);
    for (const s of c.steps) {
      const rec = await r.step(s, c.as ?? "main", false);
      r.steps.push(rec);
      if (rec.verdict === "deny") break;
    }
    const conditions: { condition: string; met: boolean }[] = [];
    for (const cond of c.works)
      conditions.push({ condition: describeCondition(cond), met: await holds(cond, r, baseline) });
    const asked = r.steps.some((s) => s.verdict === "ask");
    const denied = r.steps.some((s) => s.verdict === "deny");
    const ok = conditions.every((x) => x.met) && !asked && !denied;
    return {
      id: c.id,
      family: c.family,
      steps: r.steps,
      asked,
      denied,
      conditions,
      outcome: ok ? "through" : "stopped",
    };
  } catch (e) {
    return {
      id: c.id,
      family: c.family,
      steps: r.steps,
      asked: false,
      denied: false,
      conditions: [],
      outcome: "stopped",
      error: String(e),
    };
  } finally {
    rmSync(w.ws, { recursive: true, force: true });
    rmSync(w.wsSlow, { recursive: true, force: true });
  }
}

/**
 * The harness's own check of its copies: the compiled policy of a fresh copy, and the same file
 * after `lanes build` ran in that copy (they must be equal: a copy is an install in its place).
 */
export async function selfCheckCopy(): Promise<{ before: string; after: string }> {
  const t = await prepareTemplate();
  const w = await copyTemplate(t);
  try {
    const policy = join(w.project, ".claude", "lanes", "state", "policy.json");
    const before = readFileSync(policy, "utf8");
    sh(w.project, "node .claude/lanes/dist/cli.mjs build >/dev/null", w.env);
    return { before, after: readFileSync(policy, "utf8") };
  } finally {
    rmSync(w.ws, { recursive: true, force: true });
    rmSync(w.wsSlow, { recursive: true, force: true });
  }
}

/** What the test asserts of an attack: lanes stopped it as the issue asks. */
export function stoppedAsExpected(attack: Attack, r: RunResult): boolean {
  if (r.error !== undefined) return false;
  const expect = attack.expect ?? "deny";
  return expect === "deny" ? r.outcome === "stopped" : r.outcome !== "through";
}

/** Runs `items` with at most `limit` at once, in order of the results. */
export async function pool<T, R>(items: readonly T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * `lanes doctor`: every way the guard could be silently absent or wrong in a repository, as a list
 * of checks. A `fail` means the guard is not fully active (the CLI exits non-zero); a `warn` is
 * worth knowing but the guard works. Reads only; the I/O is passed in so tests can fake it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runGit } from "../io/git.ts";
import { loadPolicy } from "../config/load.ts";
import { settingsFiles, type Env, type SettingsFile } from "../host/env.ts";
import { hasPolicySources } from "../hooks/guard/policy.ts";
import { readCompiledPolicy } from "../config/policy-file.ts";
import { projectPaths, userPaths } from "../host/layout.ts";
import { isPresent } from "../host/sandbox-mask.ts";
import { INIT_COMMAND } from "../host/version.ts";
import { checkIgnored, inGitWorkTree } from "./git-ignore.ts";
import { readInstallRecord } from "./record.ts";
import { checkRepositoryLayout, lanesOfPolicy } from "./layout-check.ts";
import { wantedSandbox } from "./sandbox.ts";
import { SANDBOX_PLATFORMS } from "./sandbox-apply.ts";
import { DIST_FILES, hookWiring, LANES_MARKER, projectCommand, type HookHandler } from "./wiring.ts";

export type CheckStatus = "ok" | "warn" | "fail";

export interface Check {
  /** Stable id, for scripts reading `--json`. */
  readonly id: string;
  readonly status: CheckStatus;
  /** What was found, one line. */
  readonly message: string;
  /** What to do, when not ok. */
  readonly fix?: string;
}

export interface DoctorOptions {
  readonly projectDir: string;
  readonly home: string;
  readonly env: Env;
  readonly lanesVersion: string;
  /** `node --version` of the node on PATH (what the hooks run with), or undefined when there is none. */
  readonly nodeVersion?: () => string | undefined;
  /** `claude --version`, or undefined when the client is not on PATH. */
  readonly claudeVersion?: () => string | undefined;
  /** Whether a program is on PATH (`bwrap`, `socat`); default: looks it up. */
  readonly hasProgram?: (name: string) => boolean;
  /** The platform (default: this process's). */
  readonly platform?: NodeJS.Platform;
}

/** The oldest Claude Code whose hook semantics lanes relies on (`onFailure`, ask vs rules: 2.1.233); tested with 2.1.330. */
export const MIN_CLAUDE = [2, 1, 233] as const;

const run = (cmd: string, args: string[]): string | undefined => {
  const r = spawnSync(cmd, args, { encoding: "utf8", timeout: 10_000 });
  return r.status === 0 ? r.stdout.trim() : undefined;
};

const readJson = (
  path: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } | undefined => {
  if (!existsSync(path) || !isPresent(path)) return undefined;
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as unknown;
    if (typeof value !== "object" || value === null || Array.isArray(value))
      return { ok: false, error: "not a JSON object" };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
};

interface FoundHandler {
  readonly event: string;
  readonly matcher: unknown;
  readonly handler: Record<string, unknown>;
}

/** lanes' handlers in a settings object. */
function lanesHandlers(settings: Record<string, unknown> | undefined): FoundHandler[] {
  const hooks = settings?.["hooks"];
  if (typeof hooks !== "object" || hooks === null) return [];
  const out: FoundHandler[] = [];
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups as Record<string, unknown>[]) {
      const handlers = group?.["hooks"];
      if (!Array.isArray(handlers)) continue;
      for (const h of handlers as Record<string, unknown>[]) {
        if (typeof h?.["command"] === "string" && h["command"].includes(LANES_MARKER))
          out.push({ event, matcher: group["matcher"], handler: h });
      }
    }
  }
  return out;
}

const versionParts = (v: string): number[] => (v.match(/\d+\.\d+\.\d+/)?.[0] ?? "0.0.0").split(".").map(Number);
const older = (a: readonly number[], b: readonly number[]): boolean => {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
};

/** What the checks look at, read once. */
interface Survey {
  readonly options: DoctorOptions;
  readonly paths: ReturnType<typeof projectPaths>;
  readonly user: ReturnType<typeof userPaths>;
  /** Every settings file that exists, as parsed. */
  readonly files: readonly { readonly file: SettingsFile; readonly parsed: NonNullable<ReturnType<typeof readJson>> }[];
  /** The settings files that parse, by path. */
  readonly settings: ReadonlyMap<string, Record<string, unknown>>;
  /** lanes' handlers in the project's `.claude/settings.json`. */
  readonly project: readonly FoundHandler[];
  /** Enabled lanes plugins, with the file that enables each. */
  readonly plugin: readonly string[];
  /** lanes' handlers in the user's settings. */
  readonly userLevel: readonly FoundHandler[];
}

function survey(options: DoctorOptions): Survey {
  const paths = projectPaths(options.projectDir);
  const user = userPaths(options.home);
  const files = settingsFiles(options.projectDir, options.home, options.env).flatMap((file) => {
    const parsed = readJson(file.path);
    return parsed === undefined ? [] : [{ file, parsed }];
  });
  const settings = new Map(
    files.flatMap(({ file, parsed }) => (parsed.ok ? [[file.path, parsed.value] as const] : [])),
  );
  const plugin = [...settings.entries()].flatMap(([path, s]) =>
    Object.entries((s["enabledPlugins"] as Record<string, unknown> | undefined) ?? {})
      .filter(([k, v]) => k.startsWith("lanes@") && v === true)
      .map(([k]) => `${k} (${path})`),
  );
  return {
    options,
    paths,
    user,
    files,
    settings,
    project: lanesHandlers(settings.get(paths.settings)),
    plugin,
    userLevel: lanesHandlers(settings.get(join(options.env["CLAUDE_CONFIG_DIR"] ?? user.claude, "settings.json"))),
  };
}

/** node on PATH: what `node -e ... hook.cjs` runs with. */
function nodeCheck({ options }: Survey): Check[] {
  const node = (options.nodeVersion ?? (() => run("node", ["--version"])))();
  if (node === undefined)
    return [
      {
        id: "node",
        status: "fail",
        message: "no `node` on PATH: the hooks cannot run",
        fix: "install Node.js 20 or newer",
      },
    ];
  if ((versionParts(node)[0] ?? 0) < 20)
    return [
      {
        id: "node",
        status: "fail",
        message: `node ${node} on PATH is too old for the hooks`,
        fix: "install Node.js 20 or newer",
      },
    ];
  return [{ id: "node", status: "ok", message: `node ${node} on PATH` }];
}

/** Settings files: each must parse; any of them can switch hooks off. */
function settingsCheck({ files, settings }: Survey): Check[] {
  const checks: Check[] = [];
  for (const { file, parsed } of files) {
    if (!parsed.ok) {
      checks.push({
        id: "settings",
        status: "fail",
        message: `\`${file.path}\` (${file.scope} settings) does not parse: ${parsed.error}`,
        fix: "fix the JSON: Claude Code skips an invalid settings file, hooks and rules included",
      });
      continue;
    }
    if (parsed.value["disableAllHooks"] === true)
      checks.push({
        id: "settings",
        status: "fail",
        message: `\`${file.path}\` sets \`disableAllHooks: true\`: no hook runs, lanes' guard included`,
        fix: "remove `disableAllHooks`",
      });
    if (
      file.scope === "managed" &&
      (parsed.value["allowManagedHooksOnly"] === true || parsed.value["strictPluginOnlyCustomization"] !== undefined)
    )
      checks.push({
        id: "settings",
        status: "warn",
        message: `managed settings \`${file.path}\` restrict hooks (\`allowManagedHooksOnly\` or \`strictPluginOnlyCustomization\`): a project install of lanes may not run`,
        fix: "ask your administrator to deploy lanes as a managed plugin",
      });
  }
  if (files.every(({ parsed }) => parsed.ok))
    checks.push({ id: "settings", status: "ok", message: `${settings.size} settings file(s) parse` });
  return checks;
}

/** Some install of lanes: in the project, as a plugin, or at user level. */
function installCheck({ project, plugin, userLevel }: Survey): Check[] {
  if (project.length > 0 || plugin.length > 0 || userLevel.length > 0) return [];
  return [
    {
      id: "install",
      status: "fail",
      message: "lanes is not installed here: no lanes hooks in .claude/settings.json, no lanes plugin enabled",
      fix: `run \`${INIT_COMMAND}\``,
    },
  ];
}

/** The project install's hook files. */
function hookFilesCheck({ project, paths }: Survey): Check[] {
  if (project.length === 0) return [];
  const missing = DIST_FILES.filter((f) => !existsSync(join(paths.dist, f)));
  if (missing.length > 0)
    return [
      {
        id: "hooks",
        status: "fail",
        message: `hook files missing: ${missing.map((m) => `.claude/lanes/dist/${m}`).join(", ")}`,
        fix: `run \`${INIT_COMMAND}\` and commit .claude/`,
      },
    ];
  return [{ id: "hooks", status: "ok", message: `${DIST_FILES.length} hook files in .claude/lanes/dist/` }];
}

/** The project install's wiring: every hook lanes writes, as it writes it. */
function wiringCheck({ project, options }: Survey): Check[] {
  if (project.length === 0) return [];
  const problems: Check[] = [];
  for (const [event, groups] of Object.entries(hookWiring(projectCommand))) {
    for (const group of groups) {
      const want: HookHandler = group.hooks[0]!;
      const have = project.find(
        (f) =>
          f.event === event &&
          String(f.handler["command"]).endsWith(want.command.slice(want.command.lastIndexOf(LANES_MARKER))),
      );
      if (have === undefined) {
        problems.push({
          id: "wiring",
          status: want.onFailure === "block" ? "fail" : "warn",
          message: `no lanes ${event} hook in .claude/settings.json`,
          fix: `run \`${INIT_COMMAND}\``,
        });
        continue;
      }
      if (have.handler["command"] !== want.command)
        problems.push({
          id: "wiring",
          status: "warn",
          message: `the ${event} hook command differs from what lanes ${options.lanesVersion} writes (an older install?)`,
          fix: `run \`${INIT_COMMAND}\` to update it`,
        });
      if (want.onFailure === "block" && have.handler["onFailure"] !== "block")
        problems.push({
          id: "wiring",
          status: "fail",
          message: `the ${event} hook lacks \`onFailure: "block"\`: a crash or timeout lets the call through`,
          fix: `run \`${INIT_COMMAND}\``,
        });
      if (have.handler["timeout"] !== want.timeout)
        problems.push({
          id: "wiring",
          status: "warn",
          message: `the ${event} hook timeout is ${String(have.handler["timeout"])} s (lanes writes ${want.timeout})`,
          fix: "keep it if you meant it",
        });
      if ((have.matcher ?? "") !== (group.matcher ?? ""))
        problems.push({
          id: "wiring",
          status: event === "PreToolUse" ? "warn" : "ok",
          message: `the ${event} hook matcher is ${JSON.stringify(have.matcher ?? "")} (lanes writes ${JSON.stringify(group.matcher ?? "")}): calls of other tools are not judged`,
          fix: "keep it if you meant it",
        });
    }
  }
  if (problems.length > 0) return problems;
  return [
    {
      id: "wiring",
      status: "ok",
      message: "the hook wiring in .claude/settings.json is what this lanes version writes",
    },
  ];
}

/** Tracked by git: an ignored or uncommitted hook file is missing in every clone. */
function gitCheck({ project, options }: Survey): Check[] {
  if (project.length === 0) return [];
  if (!inGitWorkTree(options.projectDir))
    return [
      {
        id: "git",
        status: "warn",
        message: "not a git repository: nobody else gets this install",
        fix: "commit .claude/ once it is one",
      },
    ];
  const tracked = [".claude/settings.json", ".claude/lanes.yaml", ...DIST_FILES.map((f) => `.claude/lanes/dist/${f}`)];
  const ignored = checkIgnored(options.projectDir, tracked);
  if ("error" in ignored) return [{ id: "git", status: "warn", message: `could not ask git: ${ignored.error}` }];
  if (ignored.length > 0)
    return [
      {
        id: "git",
        status: "fail",
        message: `git ignores ${ignored.map((i) => `\`${i.path}\` (${i.rule})`).join(", ")}: a clone has no working guard`,
        fix: `run \`${INIT_COMMAND}\` (it adds the negation rules) and commit .claude/`,
      },
    ];
  // what a clone gets is the last commit: a file only staged, or changed since (the hook wiring
  // that init added to a settings.json committed before), is not there
  const git = (args: string[]) => {
    const run = runGit({ args, cwd: options.projectDir });
    return { status: run.status, stdout: run.stdout.toString("utf8") };
  };
  const head = git(["ls-tree", "-r", "--name-only", "HEAD", "--", ...tracked]);
  const committed = new Set(head.status === 0 ? head.stdout.split("\n") : []);
  const uncommitted = tracked.filter((t) => existsSync(join(options.projectDir, t)) && !committed.has(t));
  const changed =
    head.status === 0
      ? git([
          "diff",
          "--name-only",
          "--diff-filter=M",
          "HEAD",
          "--",
          ...tracked.filter((t) => t !== ".claude/lanes.yaml"),
        ])
          .stdout.split("\n")
          .filter((f) => f !== "" && committed.has(f))
      : [];
  if (uncommitted.length === 0 && changed.length === 0)
    return [{ id: "git", status: "ok", message: "the install is tracked by git" }];
  return [
    {
      id: "git",
      status: "warn",
      message: [
        ...(uncommitted.length > 0 ? [`not committed yet: ${uncommitted.join(", ")}`] : []),
        ...(changed.length > 0 ? [`changed since the last commit: ${changed.join(", ")}`] : []),
      ].join("; "),
      fix: "commit .claude/ so your team's clones get the same guard",
    },
  ];
}

/** Two installs of lanes: the project's and a plugin, or the project's and the user's. */
function duplicateCheck({ project, plugin, userLevel, paths }: Survey): Check[] {
  if (project.length === 0) return [];
  const checks: Check[] = [];
  if (plugin.length > 0)
    checks.push({
      id: "duplicate",
      status: "warn",
      message: `lanes runs twice: installed in the project and as plugin ${plugin.join(", ")}; one guard records each call, but both cost a process per call`,
      fix: "disable the plugin here, or uninstall the project copy (`lanes uninstall`)",
    });
  if (userLevel.length > 0) {
    // the dist directory the user-level handler runs from: the quoted path that holds lanes/dist/
    const wired = String(userLevel[0]!.handler["command"]);
    const end = wired.indexOf(LANES_MARKER) + LANES_MARKER.length;
    const distDir = wired.slice(wired.lastIndexOf('"', end) + 1, end);
    const same = (file: string) =>
      existsSync(join(distDir, file)) &&
      existsSync(join(paths.dist, file)) &&
      readFileSync(join(distDir, file), "utf8") === readFileSync(join(paths.dist, file), "utf8");
    const agree = same("pre-tool-use.impl.cjs");
    checks.push({
      id: "duplicate",
      status: agree ? "warn" : "fail",
      message: `lanes is installed at user level too (\`${distDir}\`)${agree ? ", the same version" : " with different hooks than this project's: the two guards may disagree"}`,
      fix: "keep one: remove lanes' hooks from ~/.claude/settings.json, or run `lanes uninstall` here",
    });
  }
  return checks;
}

/** The compiled policy, where there is lanes configuration to compile. */
function policyCheck({ options, paths }: Survey): Check[] {
  if (!hasPolicySources(options.projectDir, options.home)) return [];
  const compiled = readCompiledPolicy(paths.compiledPolicy);
  const record = readInstallRecord(paths.claude);
  const loaded = loadPolicy({ projectDir: options.projectDir, home: options.home, lanesVersion: options.lanesVersion });
  if (!loaded.ok) {
    const first = loaded.issues[0]!;
    const where = first.message.startsWith(first.file) ? first.message : `${first.file}: ${first.message}`;
    return [
      {
        id: "policy",
        status: "fail",
        message: `the policy does not compile: ${where}`,
        fix:
          compiled.ok || readCompiledPolicy(paths.compiledPolicy, { allowStale: true }).ok
            ? "fix that line; meanwhile the last good policy is enforced"
            : "fix that line; meanwhile mutating tools are blocked",
      },
    ];
  }
  if (!compiled.ok)
    return [
      {
        id: "policy",
        status: "warn",
        // a fresh clone has none (state/ is not committed): the message already says so
        message: `${compiled.kind === "missing" ? "the compiled policy is missing (a fresh clone has none)" : `the compiled policy is ${compiled.kind}: ${compiled.message}`}; the next tool call recompiles it`,
        fix: "nothing to do, or run `lanes build`",
      },
    ];
  return [
    {
      id: "policy",
      status: "ok",
      message: `policy compiled: ${compiled.policy.rules.length} rules, ${compiled.policy.agents.length} agent lanes${record === undefined ? "" : `, installed by lanes ${record.version}`}`,
    },
  ];
}

/** The team's lanes against the repository's folders: lanes that own no file, source folders no lane owns. */
function layoutCheck({ options }: Survey): Check[] {
  if (!hasPolicySources(options.projectDir, options.home)) return [];
  // the sources as they are now (an edit to `owns` counts at once), not the last compiled policy
  const loaded = loadPolicy({ projectDir: options.projectDir, home: options.home, lanesVersion: options.lanesVersion });
  const policy = loaded.ok ? loaded.policy : undefined;
  if (policy === undefined || policy.agents.length === 0) return [];
  const layout = checkRepositoryLayout(lanesOfPolicy(policy.agents, options.projectDir), {
    projectDir: options.projectDir,
    home: options.home,
    caseInsensitive: policy.options.caseInsensitivePaths,
  });
  if (layout === undefined) return [];
  if (layout.findings.length === 0)
    return [
      {
        id: "layout",
        status: "ok",
        message: `every lane owns files here and every source folder has a lane${layout.truncated ? " (first 50000 files checked)" : ""}`,
      },
    ];
  return layout.findings.map((f) => ({ id: "layout", status: "warn", message: f.message, fix: f.fix }));
}

/** The value a settings key has where Claude Code reads it first (managed > local > project > user). */
function settingOf(
  found: Survey,
  read: (s: Record<string, unknown>) => unknown,
): { value: unknown; file: string } | undefined {
  const order: SettingsFile["scope"][] = ["managed", "local", "project", "user"];
  for (const scope of order)
    for (const { file } of found.files.filter((f) => f.file.scope === scope)) {
      const s = found.settings.get(file.path);
      const value = s === undefined ? undefined : read(s);
      if (value !== undefined) return { value, file: file.path };
    }
  return undefined;
}

const PATH_LOOKUP = (name: string): boolean =>
  spawnSync("sh", ["-c", 'command -v "$1" >/dev/null', "sh", name], { timeout: 10_000 }).status === 0;

/**
 * The second wall: Claude Code's Bash sandbox as lanes configured it (install/sandbox.ts). Never a
 * `fail` (the guard works without it); a `warn` names what is missing and what then holds.
 */
function sandboxCheck(found: Survey): Check[] {
  const { options, paths } = found;
  if (readInstallRecord(paths.claude) === undefined) return [];
  const loaded = loadPolicy({ projectDir: options.projectDir, home: options.home, lanesVersion: options.lanesVersion });
  const without =
    "without it a command the guard cannot see through (a compiled program, computed paths, a nested client) is stopped by nothing";
  if (loaded.ok && loaded.policy.options.sandbox === "off")
    return [
      {
        id: "sandbox",
        status: "warn",
        message: `the Bash sandbox is off (\`options.sandbox: off\`): ${without}`,
        fix: "remove `sandbox: off` from the policy and run `lanes build`",
      },
    ];
  const platform = options.platform ?? process.platform;
  if (!SANDBOX_PLATFORMS.includes(platform))
    return [
      {
        id: "sandbox",
        status: "warn",
        message: `Claude Code's Bash sandbox does not run on ${platform}: ${without}`,
        fix: "run Claude Code on Linux, WSL 2 or macOS for the second wall",
      },
    ];
  const enabled = settingOf(found, (s) => (s["sandbox"] as Record<string, unknown> | undefined)?.["enabled"]);
  if (enabled?.value !== true)
    return [
      {
        id: "sandbox",
        status: "warn",
        message:
          enabled === undefined
            ? `no settings file enables the Bash sandbox: ${without}`
            : `\`sandbox.enabled\` is ${JSON.stringify(enabled.value)} in \`${enabled.file}\`: ${without}`,
        fix:
          enabled === undefined
            ? "run `lanes init` again (it writes `sandbox.enabled: true`)"
            : "set `sandbox.enabled: true` in that file (lanes keeps the value a settings file gives it)",
      },
    ];
  const has = options.hasProgram ?? PATH_LOOKUP;
  const missing = platform === "linux" ? ["bwrap", "socat"].filter((p) => !has(p)) : [];
  if (missing.length > 0)
    return [
      {
        id: "sandbox",
        status: "warn",
        message: `the Bash sandbox is enabled but \`${missing.join("` and `")}\` ${missing.length > 1 ? "are" : "is"} missing: Claude Code warns and runs every command unsandboxed; ${without}`,
        fix: "install them (`apt-get install bubblewrap socat`, or your distribution's packages)",
      },
    ];
  const listed = (key: "denyWrite" | "denyRead"): Set<string> =>
    new Set(
      found.files.flatMap(({ file }) => {
        const fs = ((found.settings.get(file.path)?.["sandbox"] as Record<string, unknown> | undefined)?.[
          "filesystem"
        ] ?? {}) as Record<string, unknown>;
        return Array.isArray(fs[key]) ? (fs[key] as unknown[]).filter((x): x is string => typeof x === "string") : [];
      }),
    );
  const wanted = loaded.ok ? wantedSandbox(loaded.policy, undefined, options.home) : undefined;
  const lacking =
    wanted === undefined
      ? []
      : [
          ...wanted.denyWrite.filter((p) => !listed("denyWrite").has(p)),
          ...wanted.denyRead.filter((p) => !listed("denyRead").has(p)),
        ];
  if (lacking.length > 0)
    return [
      {
        id: "sandbox",
        status: "warn",
        message: `the Bash sandbox is active but does not deny ${lacking.length} path(s) the policy protects, e.g. \`${lacking[0]!}\``,
        fix: "run `lanes build` (it rewrites the sandbox section from the policy)",
      },
    ];
  return [
    {
      id: "sandbox",
      status: "ok",
      message: `the Bash sandbox is active: it denies writes to ${listed("denyWrite").size} paths (the guard zone, settings, policy) and reads of ${listed("denyRead").size} (the policy's secrets)${wanted !== undefined && wanted.guardOnly.length > 0 ? `; ${wanted.guardOnly.length} secret pattern(s) only the guard holds, e.g. \`${wanted.guardOnly[0]!}\`` : ""}`,
    },
  ];
}

/** The client: a Claude Code with the hook semantics lanes relies on. */
function claudeCheck({ options }: Survey): Check[] {
  const claude = (options.claudeVersion ?? (() => run("claude", ["--version"])))();
  if (claude === undefined)
    return [
      {
        id: "claude",
        status: "warn",
        message: "`claude` is not on PATH: could not check the Claude Code version",
        fix: "lanes needs Claude Code 2.1.233 or newer",
      },
    ];
  if (older(versionParts(claude), MIN_CLAUDE))
    return [
      {
        id: "claude",
        status: "fail",
        message: `Claude Code ${claude} is older than ${MIN_CLAUDE.join(".")}: \`onFailure: "block"\` and hook-vs-rule precedence differ there`,
        fix: "update Claude Code (`claude update`)",
      },
    ];
  return [{ id: "claude", status: "ok", message: `Claude Code ${claude}` }];
}

/** The checks, in the order they are reported; each names the check ids it reports. */
const DOCTOR_CHECKS: readonly { readonly name: string; readonly run: (survey: Survey) => Check[] }[] = [
  { name: "node", run: nodeCheck },
  { name: "settings", run: settingsCheck },
  { name: "install", run: installCheck },
  { name: "hooks", run: hookFilesCheck },
  { name: "wiring", run: wiringCheck },
  { name: "git", run: gitCheck },
  { name: "duplicate", run: duplicateCheck },
  { name: "policy", run: policyCheck },
  { name: "sandbox", run: sandboxCheck },
  { name: "layout", run: layoutCheck },
  { name: "claude", run: claudeCheck },
];

export function runDoctor(options: DoctorOptions): Check[] {
  const found = survey(options);
  return DOCTOR_CHECKS.flatMap((check) => check.run(found));
}

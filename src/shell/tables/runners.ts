/**
 * Build and task runners that run code stored in files (`handlers/package-scripts.ts`,
 * `handlers/make.ts`, `handlers/task-runners.ts`, `handlers/git-hooks.ts`): which scripts a package
 * manager's command runs, the options of their command lines, and which hooks a git command
 * triggers. Data only.
 */

/** A package manager's command and the package.json scripts it runs, in order. */
export interface LifecycleSpec {
  /** The scripts it runs; `$` stands for the script the command names (`npm run X`). */
  readonly scripts: readonly string[];
  /** It runs the package's own install scripts: not under `--ignore-scripts`, not for `-g`. */
  readonly install?: boolean;
  /** With no `start` script, npm runs `node server.js` when that file exists. */
  readonly serverJs?: boolean;
  /** The scripts run, with their pre/post scripts, when the command's own script is missing (`restart`: stop, start). */
  readonly fallback?: readonly string[];
}

const RUN: LifecycleSpec = { scripts: ["pre$", "$", "post$"] };
const INSTALL: LifecycleSpec = {
  scripts: ["preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"],
  install: true,
};
const TEST: LifecycleSpec = { scripts: ["pretest", "test", "posttest"] };
const START: LifecycleSpec = { scripts: ["prestart", "start", "poststart"], serverJs: true };
const STOP: LifecycleSpec = { scripts: ["prestop", "stop", "poststop"] };
const RESTART: LifecycleSpec = {
  scripts: ["prerestart", "restart", "postrestart"],
  // without a `restart` script npm runs stop, then start (each with its pre and post scripts)
  fallback: ["prestop", "stop", "poststop", "prestart", "start", "poststart"],
};
const PUBLISH: LifecycleSpec = {
  scripts: ["prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"],
};
const PACK: LifecycleSpec = { scripts: ["prepack", "prepare", "postpack"] };
const VERSION: LifecycleSpec = { scripts: ["preversion", "version", "postversion"] };
const INSTALL_TEST: LifecycleSpec = { scripts: [...INSTALL.scripts, ...TEST.scripts], install: true };

/** What one package manager's command line looks like. */
export interface ManagerSpec {
  /** Its commands that run package.json scripts (aliases included), by name. */
  readonly commands: Readonly<Record<string, LifecycleSpec>>;
  /**
   * Its own commands that run no script of the package (`npm view`, `yarn add`): any other first
   * operand is a script name run as `run` would (`yarn build`, `pnpm lint`, `bun dev`); absent:
   * an unknown command runs nothing (npm).
   */
  readonly builtins?: readonly string[];
  /** The command a bare invocation is (`yarn` installs). */
  readonly bare?: string;
  /** Options that take a value as the next word (`--prefix DIR`, `-w NAME`). */
  readonly valueOptions: readonly string[];
  /** Options naming the directory whose package.json is used (`--prefix DIR`, `-C DIR`, `--cwd DIR`). */
  readonly dirOptions: readonly string[];
  /** Options naming one workspace by path or name (`npm -w packages/api`, `pnpm --filter api`). */
  readonly workspaceOptions: readonly string[];
  /** Options after which nothing runs (`--help`, `--version`). */
  readonly noRun: readonly string[];
  /**
   * Options after the script's name are the manager's own (npm: `npm run build -w api`); the
   * script's arguments come after `--`. Otherwise every word after the name is the script's (pnpm, yarn, bun).
   */
  readonly ownOptionsAfterScript?: boolean;
}

const NPM_VALUES = [
  "-w", "--workspace", "--prefix", "-C", "--userconfig", "--cache", "--registry", "--tag", "--access", "--otp",
  "--loglevel", "--script-shell", "--omit", "--include", "--install-strategy", "--before", "--scope", "-c", "--call",
];

// prettier-ignore
/** The package managers that run package.json scripts. */
export const MANAGERS: Readonly<Record<string, ManagerSpec>> = {
  npm: {
    commands: {
      run: RUN, "run-script": RUN, rum: RUN, urn: RUN,
      test: TEST, t: TEST, tst: TEST,
      start: START, stop: STOP, restart: RESTART,
      install: INSTALL, i: INSTALL, in: INSTALL, ins: INSTALL, inst: INSTALL, insta: INSTALL, instal: INSTALL,
      isnt: INSTALL, isnta: INSTALL, isntal: INSTALL, isntall: INSTALL, add: INSTALL,
      ci: INSTALL, "clean-install": INSTALL, ic: INSTALL, "install-clean": INSTALL, "isntall-clean": INSTALL,
      "install-test": INSTALL_TEST, it: INSTALL_TEST, "install-ci-test": INSTALL_TEST, cit: INSTALL_TEST,
      "clean-install-test": INSTALL_TEST, sit: INSTALL_TEST,
      publish: PUBLISH, pack: PACK, version: VERSION,
    },
    valueOptions: NPM_VALUES,
    dirOptions: ["--prefix", "-C"],
    workspaceOptions: ["-w", "--workspace"],
    noRun: ["--help", "-h", "--version", "-v"],
    ownOptionsAfterScript: true,
  },
  pnpm: {
    commands: {
      run: RUN, "run-script": RUN, test: TEST, t: TEST, tst: TEST, start: START, stop: STOP, restart: RESTART,
      install: INSTALL, i: INSTALL, publish: PUBLISH, pack: PACK,
    },
    builtins: [
      "add", "update", "up", "upgrade", "remove", "rm", "un", "uninstall", "link", "ln", "unlink", "import",
      "rebuild", "rb", "prune", "fetch", "patch", "patch-commit", "patch-remove", "audit", "list", "ls", "ll", "la",
      "outdated", "why", "licenses", "exec", "dlx", "create", "store", "root", "bin", "env", "setup", "init",
      "deploy", "config", "c", "get", "set", "doctor", "server", "self-update", "recursive", "multi", "m", "dedupe",
      "cat-file", "cat-index", "find-hash", "view", "info", "show", "v", "login", "logout", "whoami", "pkg",
      "approve-builds", "ignored-builds", "help", "completion", "install-test", "it", "owner", "search", "star",
    ],
    valueOptions: ["--filter", "-F", "-C", "--dir", "--workspace-dir", "--reporter", "--loglevel", "--config", "--stream-limit"],
    dirOptions: ["-C", "--dir"],
    workspaceOptions: ["--filter", "-F"],
    noRun: ["--help", "-h", "--version", "-v"],
  },
  yarn: {
    commands: {
      run: RUN, test: TEST, start: START, stop: STOP, restart: RESTART, install: INSTALL, publish: PUBLISH,
      pack: PACK, version: VERSION,
    },
    builtins: [
      "add", "audit", "autoclean", "bin", "cache", "check", "config", "create", "dlx", "exec", "generate-lock-entry",
      "global", "help", "import", "info", "init", "licenses", "link", "list", "login", "logout", "node", "outdated",
      "owner", "plugin", "policies", "rebuild", "remove", "set", "tag", "team", "unlink", "unplug", "upgrade",
      "upgrade-interactive", "up", "versions", "why", "workspaces", "explain", "constraints", "npm", "patch",
      "patch-commit", "stage", "search", "dedupe", "workspace",
    ],
    bare: "install",
    valueOptions: ["--cwd", "--modules-folder", "--cache-folder", "--registry", "--network-timeout", "--mutex"],
    dirOptions: ["--cwd"],
    workspaceOptions: [],
    noRun: ["--help", "-h", "--version", "-v"],
  },
  bun: {
    commands: { run: RUN, install: INSTALL, i: INSTALL, publish: PUBLISH },
    builtins: [
      "test", "x", "repl", "exec", "add", "a", "remove", "rm", "update", "outdated", "link", "unlink", "pm",
      "build", "init", "create", "c", "upgrade", "patch", "audit", "info", "why", "completions", "discord", "help",
    ],
    valueOptions: ["--cwd", "--filter", "-F", "--config", "-c", "--env-file", "--preload", "-r"],
    dirOptions: ["--cwd"],
    workspaceOptions: ["--filter", "-F"],
    noRun: ["--help", "-h", "--version", "-v", "--revision"],
  },
};

/** Options of a package manager after which the package's own lifecycle scripts do not run. */
export const IGNORE_SCRIPTS: readonly string[] = ["--ignore-scripts"];

/** Options of an install that installs somewhere else than the package (its scripts do not run). */
export const GLOBAL_INSTALL: readonly string[] = ["-g", "--global", "--location=global"];

/** Script files by extension, in the language lanes reads them as (`bun x.ts`, `uv run x.py`). */
export const SCRIPT_EXTENSIONS: Readonly<Record<string, "shell" | "python" | "node" | "ruby" | "perl" | "php">> = {
  ".js": "node", ".mjs": "node", ".cjs": "node", ".ts": "node", ".mts": "node", ".cts": "node", ".tsx": "node",
  ".jsx": "node", ".py": "python", ".rb": "ruby", ".pl": "perl", ".php": "php", ".sh": "shell", ".bash": "shell",
};

/** Wrappers that run a script file named as their command by its extension (`uv run x.py`, `pipx run x.py`). */
export const EXTENSION_RUNNERS: readonly string[] = ["uv", "pipx"];

/** The command line of a program that runs script files (`handlers/scripts.ts`). */
export interface ScriptRunnerSpec {
  /** Options that take a value as the next word. */
  readonly values: readonly string[];
  /** Options whose value is code (`ts-node -e CODE`). */
  readonly code: readonly string[];
  /** Options after which nothing runs. */
  readonly noRun: readonly string[];
  /** Subcommands: for `tsx`, a leading word before the script (`tsx watch x.ts`); for `deno`, its own commands. */
  readonly subcommands: readonly string[];
}

// prettier-ignore
const TS_NODE: ScriptRunnerSpec = {
  values: ["-P", "--project", "-O", "--compiler-options", "-C", "--compiler", "-r", "--require", "--cwd", "--dir", "-I", "--ignore", "--scope-dir", "--swc"],
  code: ["-e", "--eval", "-p", "--print"],
  noRun: ["--help", "-h", "--version", "-v"],
  subcommands: [],
};

// prettier-ignore
/** Programs that run script files, by name. */
export const SCRIPT_RUNNER_OPTIONS: Readonly<Record<string, ScriptRunnerSpec>> = {
  tsx: {
    values: ["--tsconfig", "-r", "--require", "--import", "-C", "--conditions", "--loader", "--env-file", "--include", "--exclude", "--ignore"],
    code: ["-e", "--eval", "-p", "--print"],
    noRun: ["--help", "-h", "--version", "-v"],
    subcommands: ["watch"],
  },
  "ts-node": TS_NODE, "ts-node-esm": TS_NODE, "ts-node-script": TS_NODE,
  esno: { values: ["--tsconfig"], code: [], noRun: ["--help", "-h", "--version", "-v"], subcommands: ["watch"] },
  "vite-node": { values: ["-r", "--root", "-c", "--config", "--mode", "--options"], code: [], noRun: ["--help", "-h", "--version", "-v"], subcommands: ["watch"] },
  "babel-node": { values: ["--config-file", "-x", "--extensions", "--presets", "--plugins", "-r", "--require"], code: ["-e", "--eval", "-p", "--print"], noRun: ["--help", "-h", "--version", "-V"], subcommands: [] },
  jiti: { values: [], code: [], noRun: ["--help", "-h", "--version", "-v"], subcommands: [] },
  bun: { values: ["--cwd", "--config", "-c", "--env-file", "--preload", "-r", "--filter", "-F", "--tsconfig-override", "--define", "-d", "--loader", "-l", "--port"], code: ["-e", "--eval", "-p", "--print"], noRun: ["--help", "-h", "--version", "-v"], subcommands: [] },
  deno: {
    values: ["-c", "--config", "--import-map", "--lock", "--cert", "--location", "--seed", "-L", "--log-level", "--ext", "--reload", "-r", "--preload", "--watch-exclude"],
    code: [],
    noRun: ["--help", "-h", "--version", "-V"],
    subcommands: [
      "add", "bench", "bundle", "cache", "check", "clean", "compile", "completions", "coverage", "doc", "eval", "fmt",
      "help", "info", "init", "install", "jupyter", "lint", "lsp", "outdated", "publish", "remove", "repl", "serve", "task",
      "test", "types", "uninstall", "update", "upgrade", "vendor", "run", "x",
    ],
  },
};

/**
 * JavaScript runtimes that are package managers and task runners too: they have their own rows in
 * the registry (`handlers/package-scripts.ts`, `handlers/scripts.ts`), not the interpreters' row.
 */
export const RUNTIMES: readonly string[] = ["bun", "deno"];

/** The hooks one git command may run, and those `--no-verify` skips. */
export interface GitHookSpec {
  readonly hooks: readonly string[];
  readonly verified?: readonly string[];
}

const COMMIT_HOOKS = ["prepare-commit-msg", "commit-msg", "post-commit", "reference-transaction"];

// prettier-ignore
/**
 * The client-side hooks each git command runs (githooks(5)); `git commit --amend` also runs
 * `post-rewrite`, `git worktree add` runs `post-checkout`. Commands not listed run none of the
 * repository's hooks (`status`, `log`, `diff`, `fetch`).
 */
export const GIT_HOOKS: Readonly<Record<string, GitHookSpec>> = {
  commit: { hooks: ["pre-commit", ...COMMIT_HOOKS], verified: ["pre-commit", "commit-msg"] },
  merge: { hooks: ["pre-merge-commit", ...COMMIT_HOOKS, "post-merge"], verified: ["pre-merge-commit", "commit-msg"] },
  pull: { hooks: ["pre-merge-commit", ...COMMIT_HOOKS, "post-merge", "pre-rebase", "post-rewrite", "post-checkout"], verified: ["pre-merge-commit", "commit-msg"] },
  push: { hooks: ["pre-push", "reference-transaction"], verified: ["pre-push"] },
  checkout: { hooks: ["post-checkout", "reference-transaction"] },
  switch: { hooks: ["post-checkout", "reference-transaction"] },
  rebase: { hooks: ["pre-rebase", "post-rewrite", "post-checkout", "reference-transaction"], verified: ["pre-rebase"] },
  am: { hooks: ["applypatch-msg", "pre-applypatch", "post-applypatch", ...COMMIT_HOOKS, "post-rewrite"], verified: ["applypatch-msg", "pre-applypatch"] },
  "cherry-pick": { hooks: COMMIT_HOOKS },
  revert: { hooks: COMMIT_HOOKS },
  worktree: { hooks: ["post-checkout"] },
  reset: { hooks: ["reference-transaction"] },
  branch: { hooks: ["reference-transaction"] },
  tag: { hooks: ["reference-transaction"] },
};

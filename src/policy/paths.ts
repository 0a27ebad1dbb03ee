/**
 * Path classification for the decision core (normalisation is in src/host/paths.ts). Pure: the
 * caller supplies the working directory, the project root, the home directory and the temp
 * directories.
 */
import { globBase, isWithin } from "../host/paths.ts";
import { DIST_FILES } from "../host/dist-files.ts";
import type { PathClass } from "../schema/vocabulary.ts";
import type { ShellWord } from "../shell/types.ts";

/** What a path is resolved against. */
export interface PathContext {
  /** Directory relative paths are resolved against (the command's own cwd for Bash). */
  readonly cwd: string;
  readonly projectDir: string;
  readonly home: string;
  /** Directories where writes are never "outside the project" (e.g. /tmp, $TMPDIR). */
  readonly tempDirs: readonly string[];
  readonly caseInsensitive: boolean;
  /** The user's Claude Code directory when `CLAUDE_CONFIG_DIR` moves it (default `~/.claude`). */
  readonly claudeConfigDir?: string;
  /** The directories whose hooks git runs for the project (src/host/git-layout.ts); default the project's `.git/hooks`. */
  readonly gitHooksDirs?: readonly string[];
}

/** The hooks git runs, by file name (githooks(5)); a file of another name in a hooks directory runs nothing. */
const GIT_HOOK_NAMES = new Set([
  "applypatch-msg",
  "pre-applypatch",
  "post-applypatch",
  "pre-commit",
  "pre-merge-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "pre-rebase",
  "post-checkout",
  "post-merge",
  "pre-push",
  "pre-receive",
  "update",
  "proc-receive",
  "post-receive",
  "post-update",
  "reference-transaction",
  "push-to-checkout",
  "pre-auto-gc",
  "post-rewrite",
  "sendemail-validate",
  "fsmonitor-watchman",
  "p4-changelist",
  "p4-prepare-changelist",
  "p4-post-changelist",
  "p4-pre-submit",
  "post-index-change",
]);

/** Directories whose contents belong to the operating system. */
const SYSTEM_DIRS = [
  "/etc",
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/boot",
  "/sys",
  "/proc",
  "/dev",
  "/var",
  "/opt",
  "/root",
  "/snap",
  "/System",
  "/Library",
  "/Applications",
  "/private/etc",
  "/private/var",
];

/**
 * Where a machine serves sites and data, outside the operating system's own tree (class `served`):
 * deleting there destroys a deployment, as a system path does; copying a build there (`rsync -a
 * dist/ /var/www/app/`) is a deploy, judged as a write outside the project. (`/opt` stays a system
 * path: programs installed there are on the PATH, `/opt/homebrew/bin`.)
 */
const SERVED_DIRS = ["/srv", "/var/www"];

/** Paths under system directories that are scratch space, not system state. */
const SYSTEM_EXCEPTIONS = [
  "/var/tmp",
  "/var/folders",
  "/private/var/folders",
  "/private/tmp",
  "/dev/null",
  "/dev/stdout",
  "/dev/stderr",
  "/dev/stdin",
  "/dev/tty",
  "/dev/zero",
  "/dev/random",
  "/dev/urandom",
  "/dev/fd",
  "/dev/shm",
  // kernel tunables (`echo 3 > /proc/sys/vm/drop_caches`, what `sysctl -w` writes)
  "/proc/sys",
];

/** Block devices and disks, by name prefix under /dev. */
const DEVICE_PREFIXES = [
  "sd",
  "hd",
  "vd",
  "xvd",
  "nvme",
  "mmcblk",
  "disk",
  "rdisk",
  "md",
  "dm-",
  "loop",
  "mapper/",
  "sr",
  "nbd",
  "zd",
  "root",
  "sg",
  "mtd",
  "dasd",
  "rbd",
  "drbd",
  "bcache",
];

/**
 * True when one glob segment can match every name in a directory: nothing but wildcards and
 * classes (`*`, `?*`, `**`, `[a-z]*`), or a leading dot and wildcards (`.*`, `.?*`). A segment with
 * any other literal text (`*.log`, `build-*`, `dist[0-9]`, `*.*`) selects some names only.
 */
export function matchesEverything(segment: string): boolean {
  let rest = "";
  let wild = false;
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === "*") {
      wild = true;
    } else if (c === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end === -1) rest += c;
      else i = end;
    } else if (c !== "?") rest += c;
  }
  return wild && (rest === "" || (rest === "." && segment.startsWith(".")));
}

/** Directories under the home directory that hold the user's own data, by name. */
const HOME_DATA = [
  "Documents",
  "Desktop",
  "Downloads",
  "Pictures",
  "Music",
  "Movies",
  "Videos",
  "Public",
  "Templates",
  "Library",
  "Dropbox",
  "OneDrive",
  "Google Drive",
  "iCloud Drive",
  "Mail",
  "Notes",
  "Projects",
  "projects",
  "src",
  "code",
  "Code",
  "dev",
  "work",
  "workspace",
  "repos",
  "Repos",
  "repositories",
  "git",
  "github",
  "GitHub",
  "Developer",
  "Workspace",
  "Sites",
  "bin",
  "scripts",
  "notes",
  "go",
  ".config",
  ".ssh",
  ".gnupg",
  ".local",
  ".aws",
  ".azure",
  ".kube",
  ".docker",
  ".password-store",
  ".mozilla",
  ".thunderbird",
  ".vscode",
  ".emacs.d",
  ".vim",
  ".oh-my-zsh",
  ".var",
];

/**
 * The user's own startup, configuration and history files directly in the home directory: a
 * plain `rm` or a truncating write of one of these destroys it, no recursion needed.
 */
const HOME_FILES = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".bash_aliases",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".cshrc",
  ".tcshrc",
  ".kshrc",
  ".config/fish/config.fish",
  ".inputrc",
  ".bash_history",
  ".zsh_history",
  ".gitconfig",
  ".config/git/config",
  ".vimrc",
  ".gvimrc",
  ".emacs",
  ".tmux.conf",
  ".screenrc",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
  ".ssh/config",
  ".ssh/authorized_keys",
  ".Xresources",
  ".xinitrc",
  ".xprofile",
];

/** Caches under the home directory: deleting them costs a download, never data. */
const HOME_CACHES = [
  ".cache",
  "Library/Caches",
  ".npm",
  "go/pkg/mod",
  "go/pkg/sumdb",
  ".cargo/git",
  ".yarn/cache",
  ".local/share/pnpm/store",
  ".gem/cache",
  ".ivy2/cache",
  ".sbt/boot",
  ".android/cache",
  ".conda/pkgs",
  ".ccache",
  ".sccache",
  ".pnpm-store",
  ".yarn/berry/cache",
  ".gradle/caches",
  ".m2/repository",
  ".cargo/registry",
  ".nuget/packages",
  ".bun/install/cache",
  ".deno",
  ".rustup/tmp",
  ".pub-cache",
  ".expo",
  ".node-gyp",
  ".electron",
  ".cypress/cache",
  ".terraform.d/plugin-cache",
  // build products and toolchains that a tool recreates or downloads again
  "Library/Developer/Xcode/DerivedData",
  "Library/Developer/Xcode/iOS DeviceSupport",
  "Library/Developer/CoreSimulator/Caches",
  ".local/share/virtualenvs",
  ".virtualenvs",
  ".nvm/versions",
  ".nvm/.cache",
  ".pyenv/versions",
  ".rbenv/versions",
  ".rustup/toolchains",
  ".local/share/pnpm/store",
  "Library/Logs",
  ".vscode/extensions",
  ".vscode-server",
  ".cursor/extensions",
  ".gradle/wrapper/dists",
  ".cocoapods/repos",
];

/**
 * A directory under the home directory that names itself a cache (`~/.config/Code/Cache`,
 * `CachedData`, `GPUCache`, `node_modules/.cache`): applications keep disposable data there.
 * Keys and credential directories stay what they are (their path rules still apply).
 */
function cacheSegment(path: string, home: string, ci: boolean): boolean {
  if (!isWithin(path, home, ci) || path.length === home.length) return false;
  return path
    .slice(home.length + 1)
    .split("/")
    .some((segment) => segment.toLowerCase().includes("cache"));
}

/** Directories that hold one home directory per user. */
const HOMES_DIRS = ["/home", "/Users"];

/**
 * The classes a normalised absolute path falls in. `glob` marks a word with an unquoted glob,
 * which is classified by the directory it expands in.
 */
export function classifyPath(abs: string, glob: boolean, ctx: PathContext): Set<PathClass> {
  const classes = new Set<PathClass>();
  const ci = ctx.caseInsensitive;
  const eq = (a: string, b: string) => (ci ? a.toLowerCase() === b.toLowerCase() : a === b);
  const target = glob ? globBase(abs) : abs;

  if (glob) {
    const broadBase =
      target === "/" ||
      eq(target, ctx.home) ||
      eq(target, ctx.projectDir) ||
      isWithin(ctx.projectDir, target, ci) ||
      isWithin(ctx.home, target, ci);
    // A glob that can match everything in a broad directory: `/*`, `~/*`, `./.*`, `*/*`, `**`.
    const segments = abs
      .slice(target.length)
      .split("/")
      .filter((s) => s !== "");
    if (broadBase && segments.length > 0 && segments.every(matchesEverything)) classes.add("broad-glob");
  } else {
    if (abs === "/") classes.add("root");
    if (eq(abs, ctx.home)) classes.add("home");
    if (eq(abs, ctx.projectDir)) classes.add("project-root");
    // an ancestor of the project or of the home directory (root and home have their own classes)
    const ancestor = (dir: string) => !eq(abs, dir) && isWithin(dir, abs, ci);
    if (abs !== "/" && !eq(abs, ctx.home) && (ancestor(ctx.projectDir) || ancestor(ctx.home))) classes.add("parent");
  }

  const inProject = isWithin(target, ctx.projectDir, ci);
  const inCache =
    HOME_CACHES.some((d) => isWithin(target, `${ctx.home}/${d}`, ci)) || cacheSegment(target, ctx.home, ci);
  const inTemp = inCache || ctx.tempDirs.some((d) => isWithin(target, d, ci));
  const exempt = SYSTEM_EXCEPTIONS.some((d) => isWithin(target, d, ci));
  // a disk device is classified as a device, the more precise class, not also as a system path
  const device = target.startsWith("/dev/") && DEVICE_PREFIXES.some((prefix) => target.slice(5).startsWith(prefix));
  const outsideOs = !inTemp && !exempt && !isWithin(target, ctx.home, ci) && !inProject;
  if (device) classes.add("device");
  else if (outsideOs && SERVED_DIRS.some((d) => isWithin(target, d, ci))) classes.add("served");
  else if (outsideOs && SYSTEM_DIRS.some((d) => isWithin(target, d, ci))) classes.add("system");
  if (!inTemp && !exempt && !inProject) classes.add("outside-project");
  const inHome = (names: readonly string[]) => names.some((d) => isWithin(target, `${ctx.home}/${d}`, ci));
  if (!inProject && !inTemp && (inHome(HOME_DATA) || inHome(HOME_FILES))) classes.add("home-data");
  if (!glob && !inProject && HOME_FILES.some((f) => eq(abs, `${ctx.home}/${f}`))) classes.add("home-file");
  if (!inProject && !inTemp && isOtherHome(abs, target, glob, ctx)) classes.add("other-home");
  if (isClaudeConfig(target, ctx)) classes.add("claude-config");
  if (!glob && isClaudeSettings(abs, ctx)) classes.add("claude-settings");
  if (isGitHooks(target, glob, ctx)) classes.add("git-hooks");
  if (!glob && isGitConfig(abs, ctx)) classes.add("git-config");
  if (!glob && isGitAttributes(abs, ctx)) classes.add("git-attributes");
  // a directory right under `/` (`/data`, `/workspace`, `/mnt`) is the machine's, or a container's,
  // own, unless a more precise class already says what it is (the project's parent, a home)
  const precise = (
    ["root", "home", "parent", "project-root", "other-home", "system", "served", "device"] as const
  ).some((c) => classes.has(c));
  if (!glob && !precise && target.lastIndexOf("/") === 0 && target.length > 1 && !inTemp && !exempt && !inProject)
    classes.add("system");
  return classes;
}

/**
 * Another user's home directory or anything in it (`/home/alice`, `/Users/bob/Documents`, `~alice`
 * once resolved), a directory of homes that is not a parent of ours (`/Users` on Linux), and a
 * glob whose wildcard picks the user (`/home/?*` followed by `/.ssh`). `target` is the glob's base for a glob.
 */
function isOtherHome(abs: string, target: string, glob: boolean, ctx: PathContext): boolean {
  const ci = ctx.caseInsensitive;
  if (glob) {
    // a wildcard right after a directory of homes reaches every user's home (`/home/*/.ssh`, `/Users/*`)
    const base = HOMES_DIRS.find((dir) => (ci ? dir.toLowerCase() === target.toLowerCase() : dir === target));
    if (base !== undefined && abs.length > base.length + 1 && !isWithin(ctx.home, base, ci)) return true;
    if (base !== undefined && abs.slice(base.length + 1).includes("/")) return true;
    return !isWithin(target, ctx.home, ci) && !isWithin(ctx.home, target, ci) && otherUser(target, ci);
  }
  if (isWithin(abs, ctx.home, ci)) return false;
  if (isWithin(ctx.home, abs, ci)) return false;
  return HOMES_DIRS.some((dir) => (ci ? dir.toLowerCase() === abs.toLowerCase() : dir === abs)) || otherUser(abs, ci);
}

/** `/home/<user>...`, `/Users/<user>...`, `/root...`, `/var/root...`: a home by its place. */
function otherUser(abs: string, ci: boolean): boolean {
  return (
    HOMES_DIRS.some((dir) => isWithin(abs, dir, ci) && abs.length > dir.length + 1) ||
    isWithin(abs, "/root", ci) ||
    isWithin(abs, "/var/root", ci)
  );
}

const basename = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

/**
 * A settings file Claude Code reads: the project's and the local ones (of the project and of any
 * directory in it, where a client started there looks), the user's (also under
 * `CLAUDE_CONFIG_DIR`), the managed files and their drop-in directories.
 */
function isClaudeSettings(abs: string, ctx: PathContext): boolean {
  const ci = ctx.caseInsensitive;
  const eq = (a: string, b: string) => (ci ? a.toLowerCase() === b.toLowerCase() : a === b);
  const name = basename(abs);
  const dir = abs.slice(0, abs.length - name.length - 1);
  if ((eq(name, "settings.json") || eq(name, "settings.local.json")) && eq(basename(dir), ".claude")) return true;
  const userDirs = [`${ctx.home}/.claude`, ...(ctx.claudeConfigDir === undefined ? [] : [ctx.claudeConfigDir])];
  if (userDirs.some((d) => eq(abs, `${d}/settings.json`) || eq(abs, `${d}/settings.local.json`))) return true;
  const managed = ["/etc/claude-code", "/Library/Application Support/ClaudeCode"];
  return managed.some(
    (d) =>
      eq(abs, `${d}/managed-settings.json`) ||
      (isWithin(abs, `${d}/managed-settings.d`, ci) && abs.length > d.length + 20),
  );
}

/** The project's git configuration files and the user's and the system's. */
function isGitConfig(abs: string, ctx: PathContext): boolean {
  const ci = ctx.caseInsensitive;
  const eq = (a: string, b: string) => (ci ? a.toLowerCase() === b.toLowerCase() : a === b);
  const files = [
    `${ctx.projectDir}/.git/config`,
    `${ctx.projectDir}/.git/config.worktree`,
    `${ctx.home}/.gitconfig`,
    `${ctx.home}/.config/git/config`,
    "/etc/gitconfig",
  ];
  return (
    files.some((f) => eq(abs, f)) ||
    (isWithin(abs, `${ctx.projectDir}/.git/worktrees`, ci) && basename(abs).startsWith("config"))
  );
}

/** A `.gitattributes` file anywhere (each applies to its directory's tree), the repository's `info/attributes`, the user's and the system's. */
function isGitAttributes(abs: string, ctx: PathContext): boolean {
  const ci = ctx.caseInsensitive;
  const eq = (a: string, b: string) => (ci ? a.toLowerCase() === b.toLowerCase() : a === b);
  return (
    eq(basename(abs), ".gitattributes") ||
    [`${ctx.projectDir}/.git/info/attributes`, `${ctx.home}/.config/git/attributes`, "/etc/gitattributes"].some((f) =>
      eq(abs, f),
    )
  );
}

/** A hook git runs (a file named after a hook in a hooks directory of the project), or a hooks directory itself. */
function isGitHooks(target: string, glob: boolean, ctx: PathContext): boolean {
  const ci = ctx.caseInsensitive;
  const dirs = ctx.gitHooksDirs ?? [`${ctx.projectDir}/.git/hooks`];
  return dirs.some((dir) => {
    if (ci ? target.toLowerCase() === dir.toLowerCase() : target === dir) return true;
    if (!isWithin(target, dir, ci)) return false;
    const first = target.slice(dir.length + 1).split("/")[0] ?? "";
    return glob || GIT_HOOK_NAMES.has(ci ? first.toLowerCase() : first);
  });
}

/**
 * Claude Code settings, lanes configuration and state, by their paths: the files themselves and
 * the directories whose every file is one (lanes' own files: hooks, definitions, compiled policy,
 * runtime state, the hooks' code cache; the rendered agents and skills: an agent file is a
 * subagent's system prompt and tool list). The resolver (resolve.ts) maps their real paths back to
 * these, so a `.claude/lanes/` that is a link is guarded where it really is too.
 */
export function guardedPaths(ctx: Pick<PathContext, "projectDir" | "home" | "claudeConfigDir">): {
  readonly files: readonly string[];
  readonly dirs: readonly string[];
} {
  const project = `${ctx.projectDir}/.claude`;
  const user = `${ctx.home}/.claude`;
  return {
    files: [
      project,
      user,
      `${project}/settings.json`,
      `${project}/settings.local.json`,
      `${project}/lanes.yaml`,
      `${project}/lanes.local.yaml`,
      `${project}/lanes.test.yaml`,
      `${user}/settings.json`,
      `${user}/lanes.yaml`,
      // the client's own state: MCP servers it starts in every later session, folder trust
      `${ctx.home}/.claude.json`,
      ...(ctx.claudeConfigDir === undefined
        ? []
        : [ctx.claudeConfigDir, `${ctx.claudeConfigDir}/settings.json`, `${ctx.claudeConfigDir}/.claude.json`]),
    ],
    dirs: [
      `${project}/lanes`,
      `${project}/state`,
      `${project}/agents`,
      `${project}/skills`,
      // the user-level home of lanes, where the human override's private directories live
      `${user}/lanes`,
      // installed plugins: their hooks and MCP servers run in every later session
      `${user}/plugins`,
      ...(ctx.claudeConfigDir === undefined ? [] : [`${ctx.claudeConfigDir}/plugins`]),
      "/etc/claude-code",
      "/Library/Application Support/ClaudeCode",
    ],
  };
}

/**
 * The files the guard stands on, by name: the settings and configuration files that wire and
 * shape it, its hook bundles and its compiled policy. A program that picks files by its own rules
 * (`find -exec`, `chmod -R`) is checked against these (facts.ts, `guardReached`).
 */
export function guardFiles(ctx: Pick<PathContext, "projectDir" | "home" | "claudeConfigDir">): readonly string[] {
  const { files } = guardedPaths(ctx);
  const project = `${ctx.projectDir}/.claude`;
  const directories = [project, `${ctx.home}/.claude`, ctx.claudeConfigDir];
  return [
    ...files.filter((f) => !directories.includes(f)),
    ...DIST_FILES.map((f) => `${project}/lanes/dist/${f}`),
    `${project}/lanes/state/policy.json`,
    `${project}/lanes/install.json`,
  ];
}

/** Claude Code settings, lanes configuration and state: changing them changes what the guard enforces. */
function isClaudeConfig(abs: string, ctx: PathContext): boolean {
  const ci = ctx.caseInsensitive;
  const { files, dirs } = guardedPaths(ctx);
  return (
    files.some((f) => (ci ? f.toLowerCase() === abs.toLowerCase() : f === abs)) ||
    dirs.some((d) => isWithin(abs, d, ci))
  );
}

/**
 * A dynamic path whose written start already names a disk (`of=/dev/sd$X`, `/dev/nvme${N}n1`):
 * every value is a device of that family. Only the device class is taken from the start.
 */
export function deviceByName(known: ShellWord["known"], ctx: PathContext): Set<PathClass> {
  const head = known?.head;
  if (head === undefined || !head.startsWith("/dev/")) return new Set();
  const name = head.slice(head.lastIndexOf("/") + 1);
  if (name.length === 0 || [...name].every((c) => c === ".")) return new Set();
  return classifyPath(head, false, ctx).has("device") ? new Set<PathClass>(["device"]) : new Set();
}

/**
 * Path classification for the decision core (normalisation is in src/host/paths.ts). Pure: the
 * caller supplies the working directory, the project root, the home directory and the temp
 * directories.
 */
import { globBase, isWithin } from "../host/paths.ts";
import type { PathClass } from "../schema/vocabulary.ts";

/** What a path is resolved against. */
export interface PathContext {
  /** Directory relative paths are resolved against (the command's own cwd for Bash). */
  readonly cwd: string;
  readonly projectDir: string;
  readonly home: string;
  /** Directories where writes are never "outside the project" (e.g. /tmp, $TMPDIR). */
  readonly tempDirs: readonly string[];
  readonly caseInsensitive: boolean;
}

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
  "/srv",
  "/root",
  "/snap",
  "/System",
  "/Library",
  "/Applications",
  "/private/etc",
  "/private/var",
];

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
  "git",
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
  ".bashrc",
  ".zshrc",
  ".profile",
  ".bash_profile",
  ".gitconfig",
  ".bash_history",
  ".zsh_history",
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
  "Library/Developer/Xcode/DerivedData",
  "Library/Developer/CoreSimulator/Caches",
  ".gradle/wrapper/dists",
  ".cocoapods/repos",
];

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
  const inCache = HOME_CACHES.some((d) => isWithin(target, `${ctx.home}/${d}`, ci));
  const inTemp = inCache || ctx.tempDirs.some((d) => isWithin(target, d, ci));
  const exempt = SYSTEM_EXCEPTIONS.some((d) => isWithin(target, d, ci));
  // a disk device is classified as a device, the more precise class, not also as a system path
  const device = target.startsWith("/dev/") && DEVICE_PREFIXES.some((prefix) => target.slice(5).startsWith(prefix));
  if (device) classes.add("device");
  else if (
    !inTemp &&
    !exempt &&
    SYSTEM_DIRS.some((d) => isWithin(target, d, ci)) &&
    !isWithin(target, ctx.home, ci) &&
    !inProject
  ) {
    classes.add("system");
  }
  if (!inTemp && !exempt && !inProject) classes.add("outside-project");
  if (!inProject && !inTemp && HOME_DATA.some((d) => isWithin(target, `${ctx.home}/${d}`, ci)))
    classes.add("home-data");
  if (!inProject && !inTemp && isOtherHome(target, glob, ctx)) classes.add("other-home");
  if (isClaudeConfig(target, ctx)) classes.add("claude-config");
  return classes;
}

/** Another user's home directory or anything in it (`/home/alice`, `/Users/bob/Documents`). */
function isOtherHome(abs: string, glob: boolean, ctx: PathContext): boolean {
  const ci = ctx.caseInsensitive;
  if (isWithin(abs, ctx.home, ci) || isWithin(ctx.home, abs, ci)) return false;
  // `/Users/*` on a Linux machine; `/home` itself and `/home/*` are parents of our own home (classes `parent`, `broad-glob`)
  if (glob && HOMES_DIRS.includes(abs)) return true;
  return HOMES_DIRS.some((dir) => isWithin(abs, dir, ci) && abs.length > dir.length + 1);
}

/** Claude Code settings, lanes configuration and state: changing them changes what the guard enforces. */
function isClaudeConfig(abs: string, ctx: PathContext): boolean {
  const ci = ctx.caseInsensitive;
  const project = `${ctx.projectDir}/.claude`;
  const user = `${ctx.home}/.claude`;
  const files = [
    project,
    user,
    `${project}/settings.json`,
    `${project}/settings.local.json`,
    `${project}/lanes.yaml`,
    `${project}/lanes.local.yaml`,
    `${project}/lanes.test.yaml`,
    `${user}/settings.json`,
    `${user}/lanes.yaml`,
  ];
  // lanes' own files (hooks, definitions, compiled policy, runtime state, the hooks' code cache) and
  // the rendered agents and skills: an agent file is a subagent's system prompt and tool list
  const dirs = [
    `${project}/lanes`,
    `${project}/state`,
    `${project}/agents`,
    `${project}/skills`,
    "/etc/claude-code",
    "/Library/Application Support/ClaudeCode",
  ];
  return (
    files.some((f) => (ci ? f.toLowerCase() === abs.toLowerCase() : f === abs)) ||
    dirs.some((d) => isWithin(abs, d, ci))
  );
}

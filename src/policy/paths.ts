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
const SYSTEM_EXCEPTIONS = ["/var/tmp", "/var/folders", "/private/var/folders", "/private/tmp", "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/fd", "/dev/shm"];

/** Block devices and disks, by name prefix under /dev. */
const DEVICE_PREFIXES = ["sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "loop", "mapper/", "sr", "nbd", "zd", "root"];

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
    const broadBase = target === "/" || eq(target, ctx.home) || eq(target, ctx.projectDir) || isWithin(ctx.projectDir, target, ci) || isWithin(ctx.home, target, ci);
    // A glob directly in a broad directory (`/*`, `~/*`, `./*` at the project root, `../*`).
    if (broadBase && !abs.slice(target.length + 1).includes("/")) classes.add("broad-glob");
    // `**` anywhere under a broad directory is just as broad.
    if (broadBase && abs.slice(target.length).includes("**")) classes.add("broad-glob");
  } else {
    if (abs === "/") classes.add("root");
    if (eq(abs, ctx.home)) classes.add("home");
    if (eq(abs, ctx.projectDir)) classes.add("project-root");
    // an ancestor of the project or of the home directory (root and home have their own classes)
    const ancestor = (dir: string) => !eq(abs, dir) && isWithin(dir, abs, ci);
    if (abs !== "/" && !eq(abs, ctx.home) && (ancestor(ctx.projectDir) || ancestor(ctx.home))) classes.add("parent");
  }

  const inTemp = ctx.tempDirs.some((d) => isWithin(target, d, ci));
  const exempt = SYSTEM_EXCEPTIONS.some((d) => isWithin(target, d, ci));
  // a disk device is classified as a device, the more precise class, not also as a system path
  const device = target.startsWith("/dev/") && DEVICE_PREFIXES.some((prefix) => target.slice(5).startsWith(prefix));
  if (device) classes.add("device");
  else if (!inTemp && !exempt && SYSTEM_DIRS.some((d) => isWithin(target, d, ci)) && !isWithin(target, ctx.home, ci) && !isWithin(target, ctx.projectDir, ci)) {
    classes.add("system");
  }
  if (!inTemp && !exempt && !isWithin(target, ctx.projectDir, ci)) classes.add("outside-project");
  if (isClaudeConfig(target, ctx)) classes.add("claude-config");
  return classes;
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
    `${user}/settings.json`,
    `${user}/lanes.yaml`,
  ];
  // lanes' own files: hooks, definitions, compiled policy, runtime state and the hooks' code cache
  const dirs = [`${project}/lanes`, `${project}/state`, "/etc/claude-code", "/Library/Application Support/ClaudeCode"];
  return files.some((f) => (ci ? f.toLowerCase() === abs.toLowerCase() : f === abs)) || dirs.some((d) => isWithin(abs, d, ci));
}

/**
 * Where a path leads: the real path of its longest existing prefix, through the symlinks on disk
 * (the `DiskView` of the call) and through the links the same command line makes before it (`ln
 * -s .claude d && echo > d/x`), with the project, home and temp directories mapped back from
 * whatever real path they have (a project reached through a symlinked home is still the project).
 * Pure: it asks the view, and answers the same for the same disk.
 *
 * Every `lstat` answer is kept for the call, so resolving many paths under one directory costs one
 * `lstat` per new component. Kernel objects are not resolved: `/dev/stdout`, `/dev/fd/N` and
 * `/proc/...` lead into the hook's own process, not the command's.
 */
import { walkRealpath, type DiskView, type PathKind } from "../host/disk-view.ts";
import { isWithin } from "../host/paths.ts";
import { guardedPaths, type PathContext } from "./paths.ts";

/** What a link made on the line leads to: its target as the link holds it, or `undefined` (a run-time value). */
export type LineLinks = ReadonlyMap<string, string | undefined>;

export interface Resolver {
  /**
   * Where the normalised absolute `path` leads. `follow: false` resolves only its directory (a
   * delete, or a link's own name: the last component is what is replaced). `physical` is the
   * same path before `..` was collapsed (`cd link && cat ../x` reads the link target's sibling),
   * resolved instead when given. `undefined` when the disk cannot tell (no permission, a loop,
   * the view's bound); `null` when the path passes through a link made on the line whose target
   * is only known at run time.
   */
  resolve(path: string, follow: boolean, physical?: string): string | undefined | null;
  /** The view's bound was reached: some answers were refused, and the paths may lead elsewhere. */
  readonly exhausted: boolean;
}

/** Paths that lead into the hook's own process, or are devices: never resolved. */
const KERNEL = ["/proc", "/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty"];

/** A marker target: a link made on the line to a run-time value. */
const RUNTIME = "\u0000run-time";

const parentOf = (path: string): string => {
  const at = path.lastIndexOf("/");
  return at <= 0 ? "/" : path.slice(0, at);
};

/**
 * A resolver over `disk` (absent: nothing on disk is known, every path is as written) and the
 * links `lineLinks` made on the line (absolute link path → target).
 */
export function pathResolver(disk: DiskView | undefined, lineLinks: LineLinks, ctx: PathContext): Resolver {
  const ci = ctx.caseInsensitive;
  const fold = (p: string): string => (ci ? p.toLowerCase() : p);
  const links = new Map<string, string>();
  const dirs = new Set<string>();
  for (const [path, target] of lineLinks) {
    links.set(fold(path), target ?? RUNTIME);
    // the directories a link is made in exist by then (`mkdir -p d && ln -s x d/c`)
    for (let d = parentOf(path); d !== "/"; d = parentOf(d)) dirs.add(fold(d));
  }
  const seen = new Map<string, PathKind | undefined>();
  let runtime = false;
  const kind = (path: string): PathKind | undefined => {
    const key = fold(path);
    const made = links.get(key);
    if (made === RUNTIME) {
      runtime = true;
      return undefined;
    }
    if (made !== undefined) return { kind: "symlink", target: made };
    if (seen.has(key)) return seen.get(key);
    let found: PathKind | undefined = disk === undefined ? { kind: "missing" } : disk.kind(path);
    if (found?.kind === "missing" && dirs.has(key)) found = { kind: "dir" };
    seen.set(key, found);
    return found;
  };
  const walk = (path: string): string | undefined | null => {
    runtime = false;
    const real = walkRealpath(path, kind);
    return runtime ? null : real;
  };

  // the roots by their real paths, longest first (a project inside the home maps to the project)
  let roots: readonly (readonly [string, string])[] | undefined;
  const rootsByReal = (): readonly (readonly [string, string])[] => {
    if (roots !== undefined) return roots;
    const pairs: [string, string][] = [];
    // lanes' and Claude Code's own files by their real paths too: a `.claude/lanes` or a
    // `~/.claude/settings.json` that is a link (a dotfiles checkout) is guarded where it lies
    const guarded = guardedPaths(ctx);
    for (const root of [ctx.projectDir, ctx.home, ...ctx.tempDirs, ...guarded.files, ...guarded.dirs]) {
      const real = walk(root);
      if (typeof real === "string" && fold(real) !== fold(root)) pairs.push([real, root]);
    }
    roots = pairs.sort((a, b) => b[0].length - a[0].length);
    return roots;
  };
  const rebase = (path: string): string => {
    for (const [real, root] of rootsByReal())
      if (isWithin(path, real, ci)) return path.length === real.length ? root : `${root}${path.slice(real.length)}`;
    return path;
  };

  return {
    resolve(path, follow, physical) {
      if (KERNEL.some((k) => isWithin(path, k, ci))) return path;
      const from = physical ?? path;
      let real: string | undefined | null;
      if (follow) real = walk(from);
      else {
        const at = from.lastIndexOf("/");
        const last = from.slice(at + 1);
        if (last === "" || last === "." || last === "..") real = walk(from);
        else {
          const dir = walk(at <= 0 ? "/" : from.slice(0, at));
          real = typeof dir === "string" ? `${dir === "/" ? "" : dir}/${last}` : dir;
        }
      }
      return typeof real === "string" ? rebase(real) : real;
    },
    get exhausted() {
      return disk?.spent.exhausted === true;
    },
  };
}

/**
 * The hooks a git command runs (`git commit` → pre-commit, prepare-commit-msg, commit-msg, ...;
 * `git push` → pre-push; `checkout`, `switch`, `merge`, `pull`, `rebase`, `am`), read from the
 * hooks directory on disk at hook time: `core.hooksPath` (set on the line, with `-c`, in the
 * repository's config or the user's), else the repository's `hooks/`. Git runs only executable
 * hooks (a `.sample` or a file without the `x` bit is not run); `--no-verify` skips the hooks it
 * names. `git config core.hooksPath DIR` makes git run the hooks of DIR from then on: they are
 * judged when it is set. Which hooks each command runs is data (`tables/runners.ts`).
 */
import { posix } from "node:path";
import { detailedView } from "../detailed-view.ts";
import { readGitConfig } from "../formats/index.ts";
import { GIT_HOOKS } from "../tables/runners.ts";
import { GIT_HOOK_NAMES } from "../tables/stored.ts";
import type { Invocation } from "../walk/context.ts";
import { hostCtx, runCode, shebangOf } from "./code.ts";
import type { Walk } from "./contract.ts";
import { absolute, hasDisk, inDir, noteFile, readCode, unreadCode } from "./on-disk.ts";
import { laterCtx } from "./stored.ts";

/** Directories above the working directory searched for the repository (`.git`). */
const MAX_UP = 24;

/** Where the repository of `dir` is: its working tree's top and its (common) git directory. */
function repository(w: Walk, dir: string, gitDir: string | undefined): { top: string; common: string } | undefined {
  if (gitDir !== undefined) return { top: dir, common: gitDir };
  let at = dir;
  for (let i = 0; i < MAX_UP; i++) {
    const dotGit = posix.join(at, ".git");
    const kind = w.disk.kind(dotGit);
    if (kind === undefined) return undefined;
    if (kind.kind === "dir") return { top: at, common: dotGit };
    if (kind.kind === "file") {
      // a worktree or submodule: `gitdir: PATH`, and the shared directory in its `commondir`
      const text = w.disk.readText(dotGit, 4096)?.text ?? "";
      const line = text.split("\n")[0] ?? "";
      if (!line.startsWith("gitdir:")) return undefined;
      const own = absolute(line.slice(7).trim(), at)!;
      const common = w.disk.readText(posix.join(own, "commondir"), 4096)?.text.trim();
      return { top: at, common: common === undefined || common === "" ? own : absolute(common, own)! };
    }
    if (at === "/") return undefined;
    at = posix.dirname(at);
  }
  return undefined;
}

/** The value of a config key from the repository's and the user's config files (the first that sets it). */
function configValue(w: Walk, common: string, key: string): string | undefined {
  const home = w.options.home;
  for (const path of [
    posix.join(common, "config"),
    posix.join(home, ".gitconfig"),
    posix.join(home, ".config/git/config"),
  ]) {
    const text = w.disk.readText(path, 256 * 1024)?.text;
    if (text === undefined) continue;
    const value = readGitConfig(text).get(key);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The hooks directory of the repository of `dir`, or `undefined` when there is none (`/dev/null`, no repository). */
function hooksDir(
  w: Walk,
  dir: string,
  gitDir: string | undefined,
  config: ReadonlyMap<string, string>,
): { dir: string; top: string } | undefined {
  const repo = repository(w, dir, gitDir);
  if (repo === undefined) return undefined;
  const path = config.get("core.hookspath") ?? configValue(w, repo.common, "core.hookspath");
  if (path === "/dev/null") return undefined;
  const expanded = path?.startsWith("~/") === true ? posix.join(w.options.home, path.slice(2)) : path;
  return {
    dir: expanded === undefined ? posix.join(repo.common, "hooks") : absolute(expanded, repo.top)!,
    top: repo.top,
  };
}

/** Runs the hooks named, from `hooks.dir`, as git runs them (executable files only), in the working tree's top. */
function runHooks(
  w: Walk,
  o: {
    readonly names: readonly string[];
    readonly hooks: { dir: string; top: string };
    readonly inv: Invocation;
    readonly host: number;
    /** The hooks are stored for later (`git config core.hooksPath DIR`): judged in a fresh shell. */
    readonly stored?: boolean;
  },
): void {
  const as = "git hook";
  for (const name of o.names) {
    const file = readCode(w, name, o.hooks.dir);
    if (file === undefined || file.kind === "missing") continue;
    if (file.kind === "binary") {
      noteFile(w, file, as);
      continue;
    }
    if (file.kind === "unread") {
      unreadCode(w, { file, as, language: "shell", interpreter: "git", host: o.host, text: o.inv.base.text });
      continue;
    }
    if (!file.executable) {
      noteFile(w, file, as, "not executable: git does not run it", true);
      continue;
    }
    const language = shebangOf(file.text);
    if (typeof language !== "string") {
      const why = `is a \`${language.runs}\` script, which lanes does not read`;
      unreadCode(w, {
        file: { kind: "unread", shown: file.shown, why },
        as,
        language: "shell",
        interpreter: "git",
        host: o.host,
        text: o.inv.base.text,
      });
      continue;
    }
    noteFile(w, file, as, `run by \`git\``);
    const ctx =
      o.stored === true
        ? laterCtx(w, o.inv.ctx, o.host, o.hooks.top)
        : inDir(hostCtx(o.inv.ctx, { host: o.host }), o.hooks.top);
    ctx.state.positional = [posix.join(o.hooks.dir, name), undefined, undefined];
    runCode(w, {
      language,
      word: { word: { text: name, value: file.text, glob: false }, producers: [], substitution: undefined },
      interpreter: "git",
      host: o.host,
      base: o.inv.base,
      ctx,
      disk: { shown: file.shown, path: file.path },
    });
  }
}

/**
 * After `git SUBCOMMAND ...` at `host`: the hooks it runs. `config` is git's configuration set on
 * the line (`git config`, `-c`), lower-case keys.
 */
export function gitHooks(w: Walk, inv: Invocation, host: number, config: ReadonlyMap<string, string>): void {
  if (!hasDisk(w)) return;
  const view = detailedView(
    "git",
    inv.words.slice(1).map((x) => x.word),
  );
  const operands = view.operands.map((o) => o.word.value);
  const sub = operands[0];
  if (sub === undefined) return;
  if (view.flags.has("--help") || view.flags.has("--version")) return;
  let dir = inv.ctx.state.cwd;
  for (const c of view.values.get("-C") ?? []) dir = c.value === undefined ? undefined : absolute(c.value, dir);
  if (dir === undefined) return;
  const gitDirValue = view.values.get("--git-dir")?.at(-1)?.value;
  const gitDir = gitDirValue === undefined ? undefined : absolute(gitDirValue, dir);
  // `git config core.hooksPath DIR`: the hooks of DIR run from now on
  if (sub === "config") {
    const rest = operands[1] === "set" ? operands.slice(2) : operands.slice(1);
    if (rest[0]?.toLowerCase() !== "core.hookspath" || rest[1] === undefined) return;
    const hooks = hooksDir(w, dir, gitDir, new Map([["core.hookspath", rest[1]]]));
    if (hooks !== undefined) runHooks(w, { names: GIT_HOOK_NAMES, hooks, inv, host, stored: true });
    return;
  }
  if (sub === "worktree" && operands[1] !== "add") return;
  const spec = Object.hasOwn(GIT_HOOKS, sub) ? GIT_HOOKS[sub] : undefined;
  if (spec === undefined) return;
  // `commit -n` is `--no-verify` (for `push`, `-n` is a dry run)
  const noVerify = view.flags.has("--no-verify") || ((sub === "commit" || sub === "merge") && view.flags.has("-n"));
  const names = [
    ...spec.hooks.filter((h) => !(noVerify && spec.verified?.includes(h) === true)),
    ...(sub === "commit" && view.flags.has("--amend") ? ["post-rewrite"] : []),
  ];
  const hooks = hooksDir(w, dir, gitDir, config);
  if (hooks !== undefined) runHooks(w, { names, hooks, inv, host });
}

/**
 * Snapshots of the work tree before a destructive call, and their undo (issue 25).
 *
 * What is kept is what git could not give back: untracked files that are not ignored, and tracked
 * files with changes, under the paths the call may destroy (src/policy/snapshot-scope.ts). Tracked
 * files without changes are named by the snapshot too (they are in HEAD), so an undo brings back
 * a whole deleted folder.
 *
 * Two stores:
 * - **git** (the project is in a repository): the changed files' contents go into git's object
 *   store (`hash-object -w`), a tree is built in a PRIVATE index (`GIT_INDEX_FILE` under
 *   `.claude/lanes/state/snapshots/`, from `HEAD` plus the changes), committed with `commit-tree`, and
 *   the ref `refs/lanes/snapshots/<id>` is written last. Every git call goes through the safe
 *   runner (src/io/git.ts: no hooks, no fsmonitor, no configured programs, no pager); the user's
 *   index, stash, branches and HEAD are never written. Killed at any point, a snapshot leaves
 *   only unreferenced loose objects and a stray private index (removed by the next snapshot).
 * - **copy** (no repository): content-addressed copies under `.claude/lanes/state/snapshots/objects/`
 *   (sha-256), and a manifest per snapshot.
 *
 * The index of snapshots (`snapshots/index.json`: time, agent, command, files, size) is written
 * under a lock, atomically. After the call (PostToolUse) the same capture records the state the
 * call left (`after`), so `lanes undo` can tell the call's own changes (restored) from changes made
 * since (kept, unless `--force`).
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { atomicWriteFile, ensurePrivateDir } from "../../io/atomic.ts";
import { fnv1a64 } from "../../io/hash.ts";
import { runGit, type GitCall } from "../../io/git.ts";
import { withLockSync } from "../../io/lock.ts";
import { isoTime } from "../../io/time.ts";
import { relativeWithin } from "../../host/paths.ts";
import { redactSecrets } from "../../shell/redact.ts";
import { ensureStateDir } from "./state-dir.ts";

/** Bounds of the snapshot store. */
export interface SnapshotLimits {
  /** Bytes kept by one snapshot at most; past it the call is asked (main) or denied (subagent). */
  readonly maxBytes: number;
  /** Files kept by one snapshot at most. */
  readonly maxFiles: number;
  /** Bytes kept by all snapshots together; the oldest go first, and one that alone exceeds it is refused. */
  readonly maxTotalBytes: number;
  /** Snapshots kept at most (the oldest go first). */
  readonly keep: number;
  /** Snapshots older than this are dropped. */
  readonly maxAgeMs: number;
}

/** The default bounds; `LANES_SNAPSHOT_MAX_BYTES` lowers the per-snapshot size (tests, small disks). */
export const SNAPSHOT_LIMITS: SnapshotLimits = {
  maxBytes: 64 * 1024 * 1024,
  maxFiles: 5_000,
  maxTotalBytes: 512 * 1024 * 1024,
  keep: 50,
  maxAgeMs: 7 * 24 * 3_600_000,
};

/** The limits with the environment's override. */
export function snapshotLimits(env: Readonly<Record<string, string | undefined>>): SnapshotLimits {
  const raw = env["LANES_SNAPSHOT_MAX_BYTES"];
  const bytes = raw === undefined ? Number.NaN : Number(raw);
  return Number.isInteger(bytes) && bytes >= 0 ? { ...SNAPSHOT_LIMITS, maxBytes: bytes } : SNAPSHOT_LIMITS;
}

/** One file a snapshot keeps the content of. */
export interface KeptFile {
  /** Path relative to the store's root (the repository's top level, or the project). */
  readonly path: string;
  /** The exact mode bits (`0o640`, `0o755`), restored as they were. */
  readonly mode: number;
  readonly size: number;
}

/** One line of the index of snapshots (an on-disk field set: keep it stable). */
export interface SnapshotEntry {
  readonly id: string;
  readonly ts: string;
  readonly session: string;
  /** The agent type of a subagent; absent for the main session. */
  readonly agent?: string;
  readonly tool_use_id?: string;
  /** The command the snapshot was taken before (cut at 300 characters). */
  readonly command: string;
  readonly store: "git" | "copy";
  /** The store's root: the repository's top level (git) or the project directory (copy). */
  readonly root: string;
  /** The paths kept, relative to `root` (`.` for all of it). */
  readonly scope: readonly string[];
  /** Files whose content the snapshot kept (changed or untracked, or every file for `copy`). */
  readonly files: number;
  readonly bytes: number;
  /** git: the snapshot commit (its tree is the work tree before the call). */
  readonly commit?: string;
  /** The state after the call: a git tree id, or `manifest` (copy: `<id>.after.json`). */
  readonly after?: string;
  /** When `lanes undo` restored it. */
  readonly undone?: string;
}

interface IndexFile {
  readonly version: 1;
  readonly snapshots: readonly SnapshotEntry[];
}

/** A file as a snapshot or the disk holds it: content id (git blob or sha-256), mode bits, symlink or not. */
export interface FileState {
  readonly id: string;
  readonly mode: number;
  readonly link: boolean;
}

/** Path (relative to the root) -> state; a path that is not there is not in the map. */
export type TreeState = ReadonlyMap<string, FileState>;

export const snapshotsDir = (stateDir: string): string => join(stateDir, "snapshots");
const indexPath = (stateDir: string): string => join(snapshotsDir(stateDir), "index.json");
const pendingPath = (stateDir: string, toolUseId: string): string =>
  join(snapshotsDir(stateDir), "pending", fnv1a64(toolUseId));
const manifestPath = (stateDir: string, id: string, which: "before" | "after"): string =>
  join(snapshotsDir(stateDir), `${id}${which === "before" ? "" : ".after"}.json`);
const modesPath = (stateDir: string, id: string): string => join(snapshotsDir(stateDir), `${id}.modes.json`);
const objectPath = (stateDir: string, id: string): string =>
  join(snapshotsDir(stateDir), "objects", id.slice(0, 2), id.slice(2));
export const SNAPSHOT_REF_PREFIX = "refs/lanes/snapshots/";

/** Directory names a copy snapshot (no repository, so no ignore rules) never keeps: installed or generated. */
const COPY_SKIPPED = new Set([".git", "node_modules", "__pycache__", ".venv", ".mypy_cache", ".pytest_cache"]);

/** Each git call of a snapshot waits this long at most (the PreToolUse hook has 10 s in all). */
const GIT_TIMEOUT_MS = 4_000;

/** The directory holding `.git` at or above `dir`, if any (no git process: one stat per level). */
export function repositoryRoot(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** Reads the index of snapshots (missing or unreadable: none). */
export function readSnapshots(stateDir: string): SnapshotEntry[] {
  try {
    const parsed = JSON.parse(readFileSync(indexPath(stateDir), "utf8")) as Partial<IndexFile>;
    return Array.isArray(parsed.snapshots) ? [...parsed.snapshots] : [];
  } catch {
    return [];
  }
}

function writeSnapshots(stateDir: string, snapshots: readonly SnapshotEntry[]): void {
  const file: IndexFile = { version: 1, snapshots };
  atomicWriteFile(indexPath(stateDir), `${JSON.stringify(file, null, 1)}\n`);
}

/** Changes the index under its lock; returns a problem message, or undefined. */
function updateSnapshots(stateDir: string, change: (all: SnapshotEntry[]) => SnapshotEntry[]): string | undefined {
  const done = withLockSync(indexPath(stateDir), () => writeSnapshots(stateDir, change(readSnapshots(stateDir))), {
    timeoutMs: 2_000,
  });
  return done.ok ? undefined : done.issues.map((i) => i.message).join("; ");
}

const git = (root: string, call: Omit<GitCall, "cwd">) => runGit({ timeoutMs: GIT_TIMEOUT_MS, ...call, cwd: root });

/** A git outcome as text, or throws a one-line problem. */
function gitOut(root: string, call: Omit<GitCall, "cwd">, what: string): Buffer {
  const run = git(root, call);
  if (run.error !== undefined || run.status !== 0)
    throw new SnapshotProblem(
      `git ${what} failed: ${run.error ?? (run.stderr.trim().split("\n")[0] || `exit ${run.status}`)}`,
    );
  return run.stdout;
}

/** Why a snapshot or an undo could not be done. */
export class SnapshotProblem extends Error {}

/** The git mode of a file state, as ls-tree writes it. */
const gitMode = (s: FileState): string => (s.link ? "120000" : (s.mode & 0o111) !== 0 ? "100755" : "100644");

/** `:(literal)` pathspecs of scope paths (relative to the root; `.` is all). */
const pathspecs = (scope: readonly string[]): string[] => scope.map((p) => (p === "." ? "." : `:(literal)${p}`));

interface WorkTreeChange {
  readonly path: string;
  /** Deleted from the work tree: nothing to keep. */
  readonly gone: boolean;
}

/** Tracked files with changes and untracked files that are not ignored, under `scope` (`git status`, read-only). */
function gitChanges(root: string, scope: readonly string[]): WorkTreeChange[] {
  const out = gitOut(
    root,
    {
      args: [
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        "--no-renames",
        "--ignore-submodules=all",
        "--",
        ...pathspecs(scope),
      ],
    },
    "status",
  ).toString("utf8");
  const changes: WorkTreeChange[] = [];
  for (const record of out.split("\0")) {
    if (record.length < 4) continue;
    const x = record[0];
    const y = record[1];
    const path = record.slice(3);
    if (path.endsWith("/")) continue; // a nested repository: not ours to keep
    changes.push({ path, gone: y === "D" || (x === "D" && y === " ") });
  }
  return changes;
}

/** The files of `tree` under `scope`, as states (`ls-tree -r`). */
export function gitTreeState(root: string, tree: string, scope: readonly string[]): Map<string, FileState> {
  const specs = scope.includes(".") ? [] : scope;
  const out = gitOut(root, { args: ["ls-tree", "-r", "-z", "--full-tree", tree, "--", ...specs] }, "ls-tree").toString(
    "utf8",
  );
  const map = new Map<string, FileState>();
  for (const record of out.split("\0")) {
    const tab = record.indexOf("\t");
    if (tab < 0) continue;
    const [mode, type, id] = record.slice(0, tab).split(" ");
    if (type !== "blob" || id === undefined) continue;
    map.set(record.slice(tab + 1), {
      id,
      mode: mode === "100755" ? 0o755 : mode === "120000" ? 0o777 : 0o644,
      link: mode === "120000",
    });
  }
  return map;
}

/** What a capture kept. */
interface Captured {
  /** git: the tree id; copy: the manifest. */
  readonly tree: string | Map<string, FileState>;
  readonly kept: readonly KeptFile[];
  readonly bytes: number;
}

/** The contents of the changed files under `scope`, in git's object store, and the tree of the work tree as it is. */
function gitCapture(
  root: string,
  stateDir: string,
  scope: readonly string[],
  limits: SnapshotLimits,
  treeWhenEmpty = true,
): Captured {
  const changes = gitChanges(root, scope);
  const kept: KeptFile[] = [];
  const files: string[] = [];
  const links: { path: string; target: string }[] = [];
  const gone: string[] = [];
  let bytes = 0;
  for (const change of changes) {
    if (change.gone) {
      gone.push(change.path);
      continue;
    }
    let stat;
    try {
      stat = lstatSync(join(root, change.path));
    } catch {
      gone.push(change.path);
      continue;
    }
    if (stat.isSymbolicLink()) links.push({ path: change.path, target: readlinkSync(join(root, change.path)) });
    else if (stat.isFile()) files.push(change.path);
    else continue;
    bytes += stat.size;
    kept.push({ path: change.path, mode: stat.mode & 0o7777, size: stat.size });
  }
  checkBounds(kept.length, bytes, limits);
  // nothing to keep: a snapshot is not taken, so its tree (three more git processes) is not needed
  if (kept.length === 0 && !treeWhenEmpty) return { tree: "", kept, bytes };
  // paths with a newline cannot go through --stdin-paths: hash them from their content
  const plain = files.filter((p) => !p.includes("\n"));
  const odd = files.filter((p) => p.includes("\n"));
  const ids = new Map<string, string>();
  if (plain.length > 0) {
    const out = gitOut(
      root,
      {
        args: ["hash-object", "-w", "--no-filters", "--stdin-paths"],
        input: `${plain.join("\n")}\n`,
        writes: true,
        timeoutMs: 8_000,
      },
      "hash-object",
    )
      .toString("utf8")
      .trim()
      .split("\n");
    plain.forEach((p, i) => ids.set(p, out[i]!));
  }
  for (const p of odd) ids.set(p, hashInput(root, readFileSync(join(root, p))));
  for (const l of links) ids.set(l.path, hashInput(root, Buffer.from(l.target, "utf8")));

  // the tree: HEAD (or nothing) in a private index, plus the changes
  const dir = snapshotsDir(stateDir);
  ensurePrivateDir(dir);
  // private indexes a killed snapshot left behind (no running snapshot takes a minute)
  sweepOld(dir, "index-", 60_000);
  const index = join(dir, `index-${process.pid}-${Date.now().toString(36)}.tmp`);
  try {
    const head = git(root, { args: ["read-tree", "HEAD"], indexFile: index, writes: true });
    if (head.status !== 0)
      gitOut(root, { args: ["read-tree", "--empty"], indexFile: index, writes: true }, "read-tree");
    const zero = "0".repeat(40);
    const modes = new Map(kept.map((k) => [k.path, k.mode]));
    const records = [
      ...gone.map((p) => `0 ${zero}\t${p}`),
      ...[...ids].map(([p, id]) => {
        const link = links.some((l) => l.path === p);
        return `${link ? "120000" : ((modes.get(p) ?? 0) & 0o111) !== 0 ? "100755" : "100644"} ${id}\t${p}`;
      }),
    ];
    if (records.length > 0)
      gitOut(
        root,
        {
          args: ["update-index", "-z", "--index-info"],
          input: `${records.join("\0")}\0`,
          indexFile: index,
          writes: true,
        },
        "update-index",
      );
    const tree = gitOut(root, { args: ["write-tree"], indexFile: index, writes: true }, "write-tree")
      .toString("utf8")
      .trim();
    return { tree, kept, bytes };
  } finally {
    rmSync(index, { force: true });
  }
}

/** Removes the files of `dir` whose name starts with `prefix` and that are older than `ageMs`; best effort. */
function sweepOld(dir: string, prefix: string, ageMs: number): void {
  try {
    for (const name of readdirSync(dir))
      if (name.startsWith(prefix) && Date.now() - statSync(join(dir, name)).mtimeMs > ageMs)
        rmSync(join(dir, name), { force: true });
  } catch {
    // a sweep is best effort
  }
}

function hashInput(root: string, content: Buffer): string {
  return gitOut(root, { args: ["hash-object", "-w", "--stdin"], input: content, writes: true }, "hash-object")
    .toString("utf8")
    .trim();
}

function checkBounds(files: number, bytes: number, limits: SnapshotLimits): void {
  if (files > limits.maxFiles)
    throw new SnapshotProblem(`it would keep ${files} files, more than the ${limits.maxFiles} a snapshot may hold`);
  if (bytes > limits.maxBytes || bytes > limits.maxTotalBytes)
    throw new SnapshotProblem(
      `it would keep ${megabytes(bytes)}, more than the ${megabytes(Math.min(limits.maxBytes, limits.maxTotalBytes))} a snapshot may hold`,
    );
}

const megabytes = (bytes: number): string =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KiB` : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** Every file under `scope` (relative to `root`) without a repository: a bounded walk. */
function copyWalk(root: string, stateDir: string, scope: readonly string[], limits: SnapshotLimits) {
  const found: { path: string; size: number; mode: number; link: boolean }[] = [];
  let bytes = 0;
  const visit = (rel: string): void => {
    const abs = rel === "." ? root : join(root, rel);
    if (abs === stateDir) return;
    let stat;
    try {
      stat = lstatSync(abs);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      if (rel !== "." && COPY_SKIPPED.has(rel.slice(rel.lastIndexOf("/") + 1))) return;
      for (const name of readdirSync(abs).sort()) visit(rel === "." ? name : `${rel}/${name}`);
      return;
    }
    if (!stat.isFile() && !stat.isSymbolicLink()) return;
    found.push({ path: rel, size: stat.size, mode: stat.mode & 0o7777, link: stat.isSymbolicLink() });
    bytes += stat.size;
    if (found.length > limits.maxFiles) checkBounds(found.length, bytes, limits);
  };
  for (const p of scope) visit(p);
  return { found, bytes };
}

const sha256Hex = (data: Uint8Array): string => bytesToHex(sha256(data));

/** The files under `scope` as copies (`write`: into the object store) without a repository. */
function copyCapture(root: string, stateDir: string, scope: readonly string[], limits: SnapshotLimits, write: boolean) {
  const { found, bytes } = copyWalk(root, stateDir, scope, limits);
  if (write) checkBounds(found.length, bytes, limits);
  const map = new Map<string, FileState>();
  for (const f of found) {
    const abs = join(root, f.path);
    const content = f.link ? Buffer.from(readlinkSync(abs), "utf8") : readFileSync(abs);
    const id = sha256Hex(content);
    map.set(f.path, { id, mode: f.mode, link: f.link });
    if (write) {
      const object = objectPath(stateDir, id);
      if (!existsSync(object)) {
        ensurePrivateDir(dirname(object));
        atomicWriteFile(object, content, { durable: false });
      }
    }
  }
  return { tree: map, kept: found.map((f) => ({ path: f.path, mode: f.mode, size: f.size })), bytes };
}

const manifestText = (map: TreeState): string =>
  `${JSON.stringify(Object.fromEntries([...map].map(([p, s]) => [p, [s.id, s.mode, s.link ? 1 : 0]])))}\n`;

function readManifest(path: string): Map<string, FileState> {
  const raw = JSON.parse(readFileSync(path, "utf8")) as Record<string, [string, number, number]>;
  return new Map(Object.entries(raw).map(([p, [id, mode, link]]) => [p, { id, mode, link: link === 1 }]));
}

/** Where a snapshot of `projectDir` lives, and the scope relative to that root. */
function locate(projectDir: string, scope: readonly string[]): { store: "git" | "copy"; root: string; rel: string[] } {
  const repo = repositoryRoot(projectDir);
  const root = repo ?? projectDir;
  const rel = scope.map((p) => relativeWithin(p, root) ?? ".");
  return { store: repo === undefined ? "copy" : "git", root, rel: [...new Set(rel)] };
}

const cut = (text: string): string => (text.length > 300 ? `${text.slice(0, 297)}...` : text);

/** What {@link takeSnapshot} needs to know of the call. */
export interface SnapshotCall {
  readonly session: string;
  readonly agent?: string | undefined;
  readonly toolUseId?: string | undefined;
  readonly command: string;
  /** Absolute paths inside the project (src/policy/snapshot-scope.ts). */
  readonly scope: readonly string[];
}

/** A snapshot taken, or why none was needed. */
export type TakenSnapshot =
  | { readonly ok: true; readonly entry: SnapshotEntry; readonly dropped: readonly string[] }
  | { readonly ok: true; readonly entry: undefined }
  | { readonly ok: false; readonly problem: string };

/**
 * Keeps what `call` may destroy under `projectDir`. Nothing to keep (every file in the scope is
 * as git has it): no snapshot. Never throws: a problem is a value the guard turns into ask or deny.
 */
export function takeSnapshot(
  projectDir: string,
  stateDir: string,
  call: SnapshotCall,
  now: Date,
  limits: SnapshotLimits,
): TakenSnapshot {
  try {
    ensureStateDir(stateDir);
    let { store, root, rel } = locate(projectDir, call.scope);
    let captured: Captured;
    try {
      captured =
        store === "git"
          ? gitCapture(root, stateDir, rel, limits, false)
          : copyCapture(root, stateDir, rel, limits, true);
    } catch (error) {
      // a repository git cannot read (not installed, not trusted): lanes' own store of the project
      if (store !== "git" || !(error instanceof SnapshotProblem) || !error.message.startsWith("git status"))
        throw error;
      ({ store, root, rel } = {
        store: "copy",
        root: projectDir,
        rel: call.scope.map((p) => relativeWithin(p, projectDir) ?? "."),
      });
      captured = copyCapture(root, stateDir, rel, limits, true);
    }
    if (captured.kept.length === 0) return { ok: true, entry: undefined };
    const id = fnv1a64(`${call.toolUseId ?? ""}\0${now.getTime()}\0${process.pid}\0${Math.random()}`).slice(0, 10);
    const base = {
      id,
      ts: isoTime(now),
      session: call.session,
      ...(call.agent !== undefined && { agent: call.agent }),
      ...(call.toolUseId !== undefined && { tool_use_id: call.toolUseId }),
      // as the audit log shows it: secrets in the command redacted
      command: cut(redactSecrets(call.command)),
      store,
      root,
      scope: rel,
      files: captured.kept.length,
      bytes: captured.bytes,
    };
    let entry: SnapshotEntry;
    if (typeof captured.tree === "string") {
      const commit = gitOut(
        root,
        {
          args: ["commit-tree", captured.tree],
          input: `lanes snapshot ${id}\n\n${base.command}\n`,
          env: {
            GIT_AUTHOR_NAME: "lanes",
            GIT_AUTHOR_EMAIL: "lanes@localhost",
            GIT_COMMITTER_NAME: "lanes",
            GIT_COMMITTER_EMAIL: "lanes@localhost",
          },
          writes: true,
        },
        "commit-tree",
      )
        .toString("utf8")
        .trim();
      atomicWriteFile(
        modesPath(stateDir, id),
        `${JSON.stringify(Object.fromEntries(captured.kept.map((k) => [k.path, k.mode])))}\n`,
      );
      entry = { ...base, commit };
    } else {
      atomicWriteFile(manifestPath(stateDir, id, "before"), manifestText(captured.tree));
      entry = base;
    }
    let dropped: SnapshotEntry[] = [];
    const problem = updateSnapshots(stateDir, (all) => {
      const kept = retain([...all, entry], limits, now);
      dropped = all.filter((e) => !kept.includes(e));
      return kept;
    });
    if (problem !== undefined) throw new SnapshotProblem(`the index of snapshots could not be written: ${problem}`);
    // the ref last: a snapshot killed before this line changed no ref of the repository
    if (entry.commit !== undefined)
      gitOut(
        root,
        { args: ["update-ref", `${SNAPSHOT_REF_PREFIX}${id}`, entry.commit, ""], writes: true },
        "update-ref",
      );
    if (call.toolUseId !== undefined) {
      // markers of calls that never ran (the human said no to an ask) go after a day
      sweepOld(dirname(pendingPath(stateDir, call.toolUseId)), "", 86_400_000);
      ensurePrivateDir(dirname(pendingPath(stateDir, call.toolUseId)));
      writeFileSync(pendingPath(stateDir, call.toolUseId), id, { mode: 0o600 });
    }
    if (dropped.length > 0) forget(stateDir, dropped);
    return { ok: true, entry, dropped: dropped.map((e) => e.id) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: message.includes("ENOSPC") ? `the disk is full (${message})` : message };
  }
}

/** The snapshots to keep: younger than the age limit, at most `keep`, and within the total size (the newest kept). */
export function retain(entries: readonly SnapshotEntry[], limits: SnapshotLimits, now: Date): SnapshotEntry[] {
  const young = entries.filter((e) => now.getTime() - Date.parse(e.ts) <= limits.maxAgeMs);
  const out: SnapshotEntry[] = [];
  let total = 0;
  for (const e of [...young].reverse()) {
    if (out.length >= limits.keep || total + e.bytes > limits.maxTotalBytes) break;
    total += e.bytes;
    out.push(e);
  }
  return out.reverse();
}

/** Removes what dropped snapshots held: their refs (git) and manifests; copies no snapshot refers to any more. */
function forget(stateDir: string, dropped: readonly SnapshotEntry[]): void {
  for (const e of dropped) {
    rmSync(manifestPath(stateDir, e.id, "before"), { force: true });
    rmSync(manifestPath(stateDir, e.id, "after"), { force: true });
    rmSync(modesPath(stateDir, e.id), { force: true });
    if (e.store === "git") git(e.root, { args: ["update-ref", "-d", `${SNAPSHOT_REF_PREFIX}${e.id}`], writes: true });
  }
  const objects = join(snapshotsDir(stateDir), "objects");
  if (!existsSync(objects)) return;
  const live = new Set<string>();
  for (const e of readSnapshots(stateDir)) {
    if (e.store !== "copy") continue;
    for (const which of ["before", "after"] as const) {
      try {
        for (const s of readManifest(manifestPath(stateDir, e.id, which)).values()) live.add(s.id);
      } catch {
        // no after manifest
      }
    }
  }
  for (const prefix of readdirSync(objects))
    for (const rest of readdirSync(join(objects, prefix)))
      if (!live.has(`${prefix}${rest}`)) rmSync(join(objects, prefix, rest), { force: true });
}

/**
 * After the call (PostToolUse): records the state it left for the snapshot taken before it, if
 * one was (a pending marker by tool_use_id: one stat for every other call). Returns a problem, or undefined.
 */
export function recordAfter(stateDir: string, toolUseId: string | undefined): string | undefined {
  if (toolUseId === undefined) return undefined;
  const pending = pendingPath(stateDir, toolUseId);
  let id: string;
  try {
    id = readFileSync(pending, "utf8");
  } catch {
    return undefined;
  }
  try {
    unlinkSync(pending);
    const entry = readSnapshots(stateDir).find((e) => e.id === id);
    if (entry === undefined) return undefined;
    let after: string;
    if (entry.store === "git") {
      after = gitCapture(entry.root, stateDir, entry.scope, {
        ...SNAPSHOT_LIMITS,
        maxBytes: Infinity,
        maxFiles: Infinity,
        maxTotalBytes: Infinity,
      }).tree as string;
      // keep the after tree reachable under the snapshot's ref: a commit whose parent is the snapshot
      const commit = gitOut(
        entry.root,
        {
          args: ["commit-tree", after, "-p", entry.commit!],
          input: `lanes snapshot ${id}: after the call\n`,
          env: {
            GIT_AUTHOR_NAME: "lanes",
            GIT_AUTHOR_EMAIL: "lanes@localhost",
            GIT_COMMITTER_NAME: "lanes",
            GIT_COMMITTER_EMAIL: "lanes@localhost",
          },
          writes: true,
        },
        "commit-tree",
      )
        .toString("utf8")
        .trim();
      gitOut(
        entry.root,
        { args: ["update-ref", `${SNAPSHOT_REF_PREFIX}${id}`, commit, entry.commit!], writes: true },
        "update-ref",
      );
    } else {
      const unbounded = { ...SNAPSHOT_LIMITS, maxBytes: Infinity, maxFiles: Infinity, maxTotalBytes: Infinity };
      atomicWriteFile(
        manifestPath(stateDir, id, "after"),
        manifestText(copyCapture(entry.root, stateDir, entry.scope, unbounded, false).tree),
      );
      after = "manifest";
    }
    return updateSnapshots(stateDir, (all) => all.map((e) => (e.id === id ? { ...e, after } : e)));
  } catch (error) {
    return `lanes: the state after snapshot ${id} was not recorded: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** One file of an undo plan. */
export interface PlannedFile {
  readonly path: string;
  /** `restore`: the call changed or removed it; `changed`: changed since the snapshot (restored only with `--force`). */
  readonly action: "restore" | "changed";
}

/** What `lanes undo` does or would do. */
export interface UndoPlan {
  readonly entry: SnapshotEntry;
  readonly files: readonly PlannedFile[];
  /** Files of the snapshot already as they were. */
  readonly unchanged: number;
}

const same = (a: FileState | undefined, b: FileState | undefined): boolean =>
  a === undefined || b === undefined ? a === b : a.id === b.id && a.link === b.link && gitMode(a) === gitMode(b);

/** The work tree as it is now, under the entry's scope, in the entry's store. */
function stateNow(entry: SnapshotEntry, stateDir: string): TreeState {
  const unbounded = { ...SNAPSHOT_LIMITS, maxBytes: Infinity, maxFiles: Infinity, maxTotalBytes: Infinity };
  if (entry.store === "copy") return copyCapture(entry.root, stateDir, entry.scope, unbounded, false).tree;
  return gitTreeState(entry.root, gitCapture(entry.root, stateDir, entry.scope, unbounded).tree as string, entry.scope);
}

/** The snapshot's files, with the exact modes of the kept ones. */
function stateBefore(entry: SnapshotEntry, stateDir: string): TreeState {
  if (entry.store === "copy") return readManifest(manifestPath(stateDir, entry.id, "before"));
  return gitTreeState(entry.root, `${entry.commit!}^{tree}`, entry.scope);
}

function stateAfter(entry: SnapshotEntry, stateDir: string): TreeState | undefined {
  if (entry.after === undefined) return undefined;
  if (entry.store === "copy") return readManifest(manifestPath(stateDir, entry.id, "after"));
  return gitTreeState(entry.root, entry.after, entry.scope);
}

/**
 * What undoing `entry` does: every file of the snapshot that is not as it was is restored when the
 * call left it so (or, where the state after the call is unknown, when it is missing); one changed
 * since is reported, and restored only with `force`.
 */
export function planUndo(entry: SnapshotEntry, stateDir: string): UndoPlan {
  const before = stateBefore(entry, stateDir);
  const after = stateAfter(entry, stateDir);
  const now = stateNow(entry, stateDir);
  const files: PlannedFile[] = [];
  let unchanged = 0;
  for (const [path, was] of before) {
    const is = now.get(path);
    if (same(was, is)) {
      unchanged++;
      continue;
    }
    const byTheCall = after === undefined ? is === undefined : same(after.get(path), is);
    // a directory where the file was, or a file where one of its folders was: made since, never removed without --force
    files.push({ path, action: byTheCall && !blocked(entry.root, path) ? "restore" : "changed" });
  }
  return { entry, files, unchanged };
}

/** Whether restoring `rel` would remove something that is not a file of the snapshot: a directory at its place, a non-directory at a parent's. */
function blocked(root: string, rel: string): boolean {
  const parts = rel.split("/");
  for (let i = 1; i <= parts.length; i++) {
    let stat;
    try {
      stat = lstatSync(join(root, ...parts.slice(0, i)));
    } catch {
      return false;
    }
    if (i < parts.length ? !stat.isDirectory() : stat.isDirectory()) return true;
  }
  return false;
}

/** Writes the snapshot's version of `files` back, byte for byte, with their modes; returns the paths written. */
export function applyUndo(plan: UndoPlan, stateDir: string, force: boolean): string[] {
  const { entry } = plan;
  const before = stateBefore(entry, stateDir);
  const modes = entry.store === "git" ? keptModes(entry, stateDir) : new Map<string, number>();
  const chosen = plan.files.filter((f) => f.action === "restore" || force);
  const contents =
    entry.store === "git"
      ? gitBlobs(
          entry.root,
          chosen.map((f) => before.get(f.path)!.id),
        )
      : undefined;
  const written: string[] = [];
  for (const f of chosen) {
    const state = before.get(f.path)!;
    const content = contents?.get(state.id) ?? readFileSync(objectPath(stateDir, state.id));
    const abs = join(entry.root, f.path);
    ensureParent(entry.root, f.path);
    rmSync(abs, { recursive: true, force: true });
    if (state.link) symlinkSync(content.toString("utf8"), abs);
    else {
      const mode = modes.get(f.path) ?? state.mode;
      writeFileSync(abs, content, { mode });
      chmodSync(abs, mode);
    }
    written.push(f.path);
  }
  return written;
}

/** Creates the parent directories of `rel` under `root`; a file where a directory was is moved out of the way only by `rmSync` of the path itself. */
function ensureParent(root: string, rel: string): void {
  const parts = rel.split("/").slice(0, -1);
  let dir = root;
  for (const part of parts) {
    dir = join(dir, part);
    try {
      if (!lstatSync(dir).isDirectory()) rmSync(dir, { force: true });
      else continue;
    } catch {
      // missing
    }
    mkdirSync(dir, { mode: 0o755 });
  }
}

/** The exact modes of the files a git snapshot kept, from its commit's record (see {@link KeptFile}). */
function keptModes(entry: SnapshotEntry, stateDir: string): Map<string, number> {
  try {
    const raw = JSON.parse(readFileSync(modesPath(stateDir, entry.id), "utf8")) as Record<string, number>;
    return new Map(Object.entries(raw));
  } catch {
    return new Map();
  }
}

/** Blob contents by id (`cat-file --batch`, one git process). */
function gitBlobs(root: string, ids: readonly string[]): Map<string, Buffer> {
  const map = new Map<string, Buffer>();
  if (ids.length === 0) return map;
  const unique = [...new Set(ids)];
  const out = gitOut(
    root,
    {
      args: ["cat-file", "--batch"],
      input: `${unique.join("\n")}\n`,
      timeoutMs: 30_000,
      maxBuffer: 1024 * 1024 * 1024,
    },
    "cat-file",
  );
  let at = 0;
  for (const id of unique) {
    const nl = out.indexOf(0x0a, at);
    const header = out.subarray(at, nl).toString("utf8").split(" ");
    if (header[1] !== "blob") throw new SnapshotProblem(`the snapshot's object ${id} is missing from the repository`);
    const size = Number(header[2]);
    map.set(id, out.subarray(nl + 1, nl + 1 + size));
    at = nl + 1 + size + 1;
  }
  return map;
}

/** Marks a snapshot undone in the index. */
export function markUndone(stateDir: string, id: string, now: Date): string | undefined {
  return updateSnapshots(stateDir, (all) => all.map((e) => (e.id === id ? { ...e, undone: isoTime(now) } : e)));
}

/**
 * Does the team fit the repository? The starter lanes assume one layout; in another (`src/client`
 * next to `src/server` and `src/db`) a lane may own no file at all and a source folder may have no
 * lane, and nothing else says so. `lanes init`, `lanes lint` and `lanes doctor` report both, one line
 * per finding, with globs taken from the repository's own folders. Nothing here writes: the
 * proposals are printed for the team to copy into `owns`, never applied.
 *
 * The files are git's list (tracked and untracked, ignored ones left out) through the safe runner
 * of src/io/git.ts, bounded; outside a git work tree there is nothing to check.
 */
import { join, relative } from "node:path";
import { compilePathGlob } from "../globs/compile.ts";
import { matchPath } from "../globs/match.ts";
import { runGit } from "../io/git.ts";

/** One lane as the check needs it: the globs as written. */
export interface LaneOwns {
  readonly name: string;
  readonly role: "orchestrator" | "specialist" | "reviewer";
  /** The definition file, relative to the project root (for the fix). */
  readonly file: string;
  readonly owns: readonly string[];
}

/** One finding: what is wrong and what to do, each one line. */
export interface LayoutFinding {
  readonly kind: "lane-owns-nothing" | "folder-unowned";
  /** The lane or the folder (`src/db/`). */
  readonly subject: string;
  readonly message: string;
  readonly fix: string;
  /** The glob proposed, and the lane it is proposed for (undefined: the team picks the lane). */
  readonly proposal?: { readonly glob: string; readonly lane: string | undefined };
}

/** Files at most read from git's list: past it the check works on the first ones and says so. */
export const MAX_FILES = 50_000;

/** Folders whose children are the source folders (`src/client`), not themselves one. */
const SOURCE_ROOTS: ReadonlySet<string> = new Set(["src", "lib", "libs", "app", "apps", "packages", "services"]);

/** Top-level folders that are not the team's source: vendored, generated or build output. */
const NOT_SOURCE: ReadonlySet<string> = new Set([
  "node_modules",
  "vendor",
  "dist",
  "build",
  "out",
  "coverage",
  "target",
]);

/** Extensions of source files: a folder holding none of them is not a source folder. */
// prettier-ignore
const SOURCE_EXTENSIONS: ReadonlySet<string> = new Set([
  "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "vue", "svelte", "astro", "css", "scss", "sass", "less", "html",
  "py", "rb", "go", "rs", "java", "kt", "kts", "scala", "swift", "c", "h", "cc", "cpp", "hpp", "cs", "fs", "php",
  "ex", "exs", "erl", "clj", "dart", "lua", "sql", "prisma", "graphql", "proto", "sh",
]);

/** Folder names that say which lane of the starter team a folder belongs to. */
// prettier-ignore
const LANE_HINTS: readonly (readonly [lane: string, names: readonly string[]])[] = [
  ["frontend", ["client", "web", "ui", "frontend", "www", "views", "components", "pages", "public", "styles", "renderer"]],
  ["backend", ["server", "api", "backend", "services", "functions", "worker", "workers", "jobs", "handlers", "routes"]],
  ["database", ["db", "database", "migrations", "schema", "schemas", "models", "prisma", "drizzle", "sql", "data"]],
  ["qa", ["test", "tests", "spec", "specs", "e2e", "__tests__"]],
  ["docs", ["docs", "doc", "documentation"]],
];

/**
 * The repository's files, relative to `projectDir`: git's tracked and untracked files, without the
 * ignored ones. `undefined` outside a git work tree or when git cannot run.
 */
export function repositoryFiles(
  projectDir: string,
): { readonly files: readonly string[]; readonly truncated: boolean } | undefined {
  const run = runGit({
    args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    cwd: projectDir,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.status !== 0) return undefined;
  const all = run.stdout
    .toString("utf8")
    .split("\0")
    .filter((f) => f !== "");
  return { files: all.slice(0, MAX_FILES), truncated: all.length > MAX_FILES };
}

/** The source folder a file belongs to (`src/client`, `server`), or undefined for files outside one. */
function folderOf(file: string): string | undefined {
  const parts = file.split("/");
  if (parts.length < 2) return undefined;
  const top = parts[0]!;
  if (top.startsWith(".") || NOT_SOURCE.has(top)) return undefined;
  const dot = parts[parts.length - 1]!.lastIndexOf(".");
  if (dot <= 0 || !SOURCE_EXTENSIONS.has(parts[parts.length - 1]!.slice(dot + 1).toLowerCase())) return undefined;
  return SOURCE_ROOTS.has(top) && parts.length >= 3 ? `${top}/${parts[1]!}` : top;
}

/** The lane a folder's name points to, when the team has that lane. */
function hintedLane(folder: string, lanes: readonly LaneOwns[]): string | undefined {
  const leaf = folder.split("/").pop()!.toLowerCase();
  for (const [lane, names] of LANE_HINTS)
    if (names.includes(leaf) && lanes.some((l) => l.name === lane && l.role === "specialist")) return lane;
  return undefined;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

const shown = (globs: readonly string[]): string =>
  `${globs
    .slice(0, 3)
    .map((g) => `\`${g}\``)
    .join(", ")}${globs.length > 3 ? ", ..." : ""}`;

/**
 * The findings for `files` (relative to `projectDir`): specialist lanes whose globs match none of
 * them, then source folders none of whose source files any lane owns. Pure.
 */
export function checkLayout(
  lanes: readonly LaneOwns[],
  files: readonly string[],
  options: { readonly projectDir: string; readonly home: string; readonly caseInsensitive: boolean },
): LayoutFinding[] {
  const roots = { projectDir: options.projectDir, home: options.home, caseInsensitive: options.caseInsensitive };
  const compiled = lanes.map((lane) => ({
    lane,
    globs: lane.owns.map((g) => compilePathGlob(g, { caseInsensitive: options.caseInsensitive })),
  }));
  const owned = new Set<string>();
  const owning = new Map<string, number>();
  for (const file of files) {
    const abs = join(options.projectDir, file);
    for (const { lane, globs } of compiled)
      if (globs.some((g) => matchPath(g, abs, roots))) {
        owned.add(file);
        owning.set(lane.name, (owning.get(lane.name) ?? 0) + 1);
      }
  }

  const folders = new Map<string, { files: number; owned: number }>();
  for (const file of files) {
    const folder = folderOf(file);
    if (folder === undefined) continue;
    const entry = folders.get(folder) ?? { files: 0, owned: 0 };
    entry.files += 1;
    if (owned.has(file)) entry.owned += 1;
    folders.set(folder, entry);
  }
  const unowned = [...folders.entries()]
    .filter(([, f]) => f.owned === 0)
    .map(([folder, f]) => ({ folder, files: f.files, lane: hintedLane(folder, lanes) }))
    .sort((a, b) => a.folder.localeCompare(b.folder));

  const findings: LayoutFinding[] = [];
  for (const { lane } of compiled) {
    if (lane.role !== "specialist" || lane.owns.length === 0 || (owning.get(lane.name) ?? 0) > 0) continue;
    const mine = unowned.filter((u) => u.lane === lane.name).map((u) => `${u.folder}/**`);
    findings.push({
      kind: "lane-owns-nothing",
      subject: lane.name,
      message: `lane \`${lane.name}\` owns no file here: its ${plural(lane.owns.length, "glob")} (${shown(lane.owns)}) match no file in the repository, so it may write nothing that exists`,
      fix:
        mine.length > 0
          ? `add ${mine.map((g) => `\`${g}\``).join(", ")} to \`owns\` in ${lane.file}`
          : `put the folders it should write in \`owns\` in ${lane.file}, or leave it for files still to come`,
      ...(mine.length > 0 && { proposal: { glob: mine[0]!, lane: lane.name } }),
    });
  }
  for (const u of unowned) {
    const target = lanes.find((l) => l.name === u.lane);
    findings.push({
      kind: "folder-unowned",
      subject: `${u.folder}/`,
      message: `\`${u.folder}/\` (${plural(u.files, "source file")}) is owned by no lane, so no specialist may write it`,
      fix:
        target === undefined
          ? `add \`${u.folder}/**\` to \`owns\` of the lane that should write it (.claude/lanes/agents/<lane>.yaml)`
          : `add \`${u.folder}/**\` to \`owns\` of \`${target.name}\` in ${target.file}`,
      proposal: { glob: `${u.folder}/**`, lane: target?.name },
    });
  }
  return findings;
}

/** {@link checkLayout} on the repository's files; `undefined` when there is no git file list. */
export function checkRepositoryLayout(
  lanes: readonly LaneOwns[],
  options: { readonly projectDir: string; readonly home: string; readonly caseInsensitive: boolean },
): { readonly findings: readonly LayoutFinding[]; readonly truncated: boolean } | undefined {
  const listed = repositoryFiles(options.projectDir);
  if (listed === undefined) return undefined;
  return { findings: checkLayout(lanes, listed.files, options), truncated: listed.truncated };
}

/** The lanes of a compiled policy, with their written globs and definition files relative to the project. */
export function lanesOfPolicy(
  agents: readonly {
    readonly name: string;
    readonly role: LaneOwns["role"];
    readonly source: string;
    readonly owns: readonly { readonly globs: readonly string[] }[];
  }[],
  projectDir: string,
): LaneOwns[] {
  return agents.map((a) => ({
    name: a.name,
    role: a.role,
    file: a.source.startsWith("/") ? relative(projectDir, a.source) : a.source,
    owns: a.owns.flatMap((g) => g.globs),
  }));
}

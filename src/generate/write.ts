/**
 * The generator's only file-system code: compare rendered files with what is on disk, then write
 * the difference. Files lanes generated carry a marker (see `isGenerated`), so a generated agent or
 * skill whose definition was removed is removed too, and hand-written files next to them are never
 * touched.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isGenerated } from "./context.ts";

/** A rendered file, relative to the output directory, `/`-separated. */
export interface OutputFile {
  readonly path: string;
  readonly content: string;
}

/** What writing a file would change. */
export interface FileChange {
  readonly path: string;
  readonly status: "created" | "updated" | "unchanged" | "removed";
  /** The new content (absent for `removed`). */
  readonly content?: string;
}

/**
 * Compares `files` with `outDir`. Generated files under `agents/` and `skills/` that are not in
 * `files` are planned for removal (with the `references/` and `resources/` files of generated skills).
 */
export function planWrites(outDir: string, files: readonly OutputFile[]): FileChange[] {
  const wanted = new Set(files.map((f) => f.path));
  const changes: FileChange[] = files.map((file) => {
    const target = join(outDir, file.path);
    if (!existsSync(target)) return { path: file.path, status: "created", content: file.content };
    return {
      path: file.path,
      status: readFileSync(target, "utf8") === file.content ? "unchanged" : "updated",
      content: file.content,
    };
  });
  const stale = (path: string) => {
    if (!wanted.has(path)) changes.push({ path, status: "removed" });
  };
  for (const entry of list(join(outDir, "agents"))) {
    const path = `agents/${entry}`;
    if (entry.endsWith(".md") && isGenerated(readFileSync(join(outDir, path), "utf8"))) stale(path);
  }
  for (const dir of list(join(outDir, "skills"))) {
    const skillFile = join(outDir, "skills", dir, "SKILL.md");
    if (!existsSync(skillFile) || !isGenerated(readFileSync(skillFile, "utf8"))) continue;
    stale(`skills/${dir}/SKILL.md`);
    for (const ref of list(join(outDir, "skills", dir, "references")))
      if (ref.endsWith(".md")) stale(`skills/${dir}/references/${ref}`);
    for (const res of list(join(outDir, "skills", dir, "resources"))) stale(`skills/${dir}/resources/${res}`);
  }
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

/** Applies planned changes: writes created and updated files, removes stale ones and folders left empty. */
export function applyWrites(outDir: string, changes: readonly FileChange[]): void {
  for (const change of changes) {
    const target = join(outDir, change.path);
    if (change.status === "created" || change.status === "updated") {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, change.content ?? "");
    } else if (change.status === "removed") {
      rmSync(target, { force: true });
      removeEmptyParents(dirname(target), outDir);
    }
  }
}

function list(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir).sort();
}

function removeEmptyParents(dir: string, stop: string): void {
  let current = dir;
  while (current.startsWith(stop) && current !== stop && existsSync(current) && readdirSync(current).length === 0) {
    rmdirSync(current);
    current = dirname(current);
  }
}

/**
 * Whether a file holds code a tool runs later, by its path (`tables/stored.ts`): a Makefile, a
 * package.json, a justfile, a Taskfile, a git hook. The evaluator asks it for every Write and Edit
 * before it reads the file or loads the shell analysis, so this module imports nothing else.
 */
import { posix } from "node:path";
import { GIT_HOOK_NAMES, HOOK_DIRS, STORED_EXTENSIONS, STORED_FILES, type StoredKind } from "./tables/stored.ts";

export type { StoredKind } from "./tables/stored.ts";

/** The kind of code a file at `path` stores for a tool to run later, if any. */
export function storedKind(path: string): StoredKind | undefined {
  const name = posix.basename(path);
  if (Object.hasOwn(STORED_FILES, name)) return STORED_FILES[name];
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 ? name.slice(dot) : "";
  if (Object.hasOwn(STORED_EXTENSIONS, ext)) return STORED_EXTENSIONS[ext];
  const dir = posix.dirname(path);
  if (GIT_HOOK_NAMES.includes(name) && HOOK_DIRS.some((d) => dir === `/${d}` || dir.endsWith(`/${d}`))) return "hook";
  return undefined;
}

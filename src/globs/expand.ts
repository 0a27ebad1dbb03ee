/**
 * Glob expansion for the guard, the way the shell does it: only the last path segment may hold
 * wildcards (one `readdir`), at most 2 000 directory entries; anything else is "cannot tell".
 */
import { readdirSync } from "node:fs";
import { compilePathGlob } from "./compile.ts";
import { matchName } from "./match.ts";

const WILDCARDS = ["*", "?", "["];
const LIMIT = 2000;

export function expandGlob(absPattern: string, dot: boolean): string[] | undefined {
  const slash = absPattern.lastIndexOf("/");
  const dir = absPattern.slice(0, slash) || "/";
  const name = absPattern.slice(slash + 1);
  if (name === "" || dir.split("").some((c) => WILDCARDS.includes(c)) || name.includes("**")) return undefined;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  if (entries.length > LIMIT) return undefined;
  const glob = compilePathGlob(name, { caseInsensitive: false, dot });
  return entries.filter((e) => matchName(glob, e)).map((e) => `${dir === "/" ? "" : dir}/${e}`);
}

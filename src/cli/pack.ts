/**
 * Locating lanes' own files from the running module: the package root when running from a
 * checkout or an npm install (`definitions/`, `dist/`), or `.claude/lanes/` when running the copy
 * installed into a project.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PACKAGE_NAME } from "../host/version.ts";

/** The directory holding lanes' `package.json`, searched upwards from this module. */
export function packRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === PACKAGE_NAME) return dir;
      } catch {
        // not ours
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The pack's agent definitions, the default team when a project has none of its own. */
export function packAgentsDir(): string | undefined {
  const root = packRoot();
  return root === undefined ? undefined : join(root, "definitions", "agents");
}

/**
 * The directory of the running CLI bundle (`.../dist`), or the package's `dist/` when running from
 * source. Tells how this install's CLI is run (see cliCommandFor) and whether it is a plugin.
 */
export function cliDir(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith(".mjs")) return dirname(here);
  return packDist();
}

/** The prebuilt bundles: `dist/` of the package. */
export function packDist(): string | undefined {
  const root = packRoot();
  return root === undefined ? undefined : join(root, "dist");
}

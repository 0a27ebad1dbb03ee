/**
 * Drift: the committed build output (`dist/`, `hooks/hooks.json`) must be what the build produces
 * now. `npm run build -- --check` and test/build/drift.test.ts compare a fresh build with it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { hookWiring, pluginCommand } from "../../src/install/wiring.ts";
import { ROOT } from "./root.ts";

/** `hooks/hooks.json` of the plugin. */
export function pluginHooksJson(): string {
  return `${JSON.stringify({ description: "lanes guard, agent lanes and runtime hooks", hooks: hookWiring(pluginCommand) }, null, 2)}\n`;
}

/** Files of a built tree, relative path → content. */
export function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path, "utf8"));
    }
  };
  walk(dir);
  return files;
}

/** The files that differ between a fresh build in `built` and the committed output. */
export function driftFrom(built: string): string[] {
  const fresh = readTree(built);
  const committed = readTree(join(ROOT, "dist"));
  const drift = [...new Set([...fresh.keys(), ...committed.keys()])].filter((f) => fresh.get(f) !== committed.get(f));
  if (readFileSync(join(ROOT, "hooks", "hooks.json"), "utf8") !== pluginHooksJson()) drift.push("../hooks/hooks.json");
  return drift;
}

/**
 * The built shell bundle (`dist/shell.impl.cjs`, what every Bash hook call runs) analyses every
 * command of the case corpus exactly as the source does: the build rewrites the data tables into
 * lazily parsed views (scripts/build/tables.ts `dataTables`), replaces `TextDecoder` with a lazy shim
 * and loads the interpreter code analysis and its parsers as bundles of their own (`dist/code.impl.cjs`,
 * `python.impl.cjs`, `javascript.impl.cjs`, through the hook loader's `__lanesLoad`, given here), and
 * this is where a difference would show. The drift test keeps `dist/` built from the source.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { runInThisContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { analyzeShell, fileEffects } from "../../src/shell/index.ts";
import type * as Shell from "../../src/shell/index.ts";
import { corpusCommands, WHOLE_CORPUS_TIMEOUT } from "../helpers/corpus.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const commands = corpusCommands();

function runImpl<T>(name: string): T {
  const file = join(ROOT, "dist", `${name}.impl.cjs`);
  const mod = { exports: {} as T };
  (runInThisContext(readFileSync(file, "utf8"), { filename: file }) as (...args: unknown[]) => void)(
    mod.exports,
    createRequire(file),
    mod,
    file,
    join(ROOT, "dist"),
  );
  return mod.exports;
}

function loadBundle(): typeof Shell {
  // the shell bundle loads the readers of runner files, YAML and interpreter code as bundles of
  // their own, as the hook loader does (src/hooks/lazy/loader.ts)
  const loaded = new Map<string, unknown>();
  (globalThis as { __lanesLoad?: (name: string) => unknown }).__lanesLoad = (name) => {
    if (!loaded.has(name)) loaded.set(name, runImpl(name));
    return loaded.get(name);
  };
  return runImpl<typeof Shell>("shell");
}

describe("built shell bundle", () => {
  it("analyses every corpus command as the source does", { timeout: WHOLE_CORPUS_TIMEOUT }, () => {
    const bundle = loadBundle();
    expect(commands.length).toBeGreaterThan(2000);
    for (const [home, cwd] of [
      ["/home/dev", "/home/dev/project"],
      ["/Users/dev", "/Users/dev/project/src"],
    ] as const) {
      const options = { home, cwd, repoRoot: "/home/dev/project" };
      for (const command of commands) {
        const built = bundle.analyzeShell(command, options);
        const source = analyzeShell(command, options);
        expect(JSON.stringify(built), command).toBe(JSON.stringify(source));
        expect(JSON.stringify(bundle.fileEffects(built)), command).toBe(JSON.stringify(fileEffects(source)));
      }
    }
  });
});

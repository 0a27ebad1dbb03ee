/**
 * Builds `dist/` (build/bundles.ts) and `hooks/hooks.json`. `--check` builds into a temporary
 * directory and fails when the committed output differs (build/drift.ts; the drift test does the
 * same). The bundles that run on every tool call are checked as they are built (build/hot-path.ts);
 * the shell's data tables are inlined by build/tables.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildAll } from "./build/bundles.ts";
import { driftFrom, pluginHooksJson } from "./build/drift.ts";
import { ROOT } from "./build/root.ts";

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const out = check ? mkdtempSync(join(tmpdir(), "lanes-dist-")) : join(ROOT, "dist");
  if (!check) rmSync(out, { recursive: true, force: true });
  const problems = await buildAll(out);
  if (problems.length > 0) {
    for (const p of problems) process.stderr.write(`build: ${p}\n`);
    process.exitCode = 1;
    return;
  }
  if (!check) {
    writeFileSync(join(ROOT, "hooks", "hooks.json"), pluginHooksJson());
    return;
  }
  const drift = driftFrom(out);
  rmSync(out, { recursive: true, force: true });
  if (drift.length > 0) {
    process.stderr.write(
      `build: dist/ is out of date (${drift.join(", ")}): run \`npm run build\` and commit the result\n`,
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();

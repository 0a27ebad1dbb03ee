/**
 * Generated files are committed and must match what the tools produce: the hook bundles and the
 * plugin wiring (scripts/build/), and this repository's own `.claude/`, which is the pack
 * installed into itself by `lanes init . --force`. On failure: `npm run build`, then commit.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildAll } from "../../scripts/build/bundles.ts";
import { pluginHooksJson, readTree } from "../../scripts/build/drift.ts";
import { ROOT } from "../../scripts/build/root.ts";
import { planInstall } from "../../src/install/install.ts";

const out = mkdtempSync(join(tmpdir(), "lanes-dist-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("committed build output", () => {
  it("dist/ is what the build produces (run `npm run build` when this fails)", async () => {
    expect(await buildAll(out)).toEqual([]);
    const built = readTree(out);
    const committed = readTree(join(ROOT, "dist"));
    expect([...committed.keys()].sort()).toEqual([...built.keys()].sort());
    const differing = [...built.keys()].filter((f) => built.get(f) !== committed.get(f));
    expect(differing).toEqual([]);
  }, 120_000);

  it("hooks/hooks.json is the plugin wiring", () => {
    expect(readFileSync(join(ROOT, "hooks", "hooks.json"), "utf8")).toBe(pluginHooksJson());
  });

  it("this repository's .claude/ is the pack installed into itself", () => {
    const plan = planInstall({ target: ROOT, packRoot: ROOT, force: true });
    expect(
      plan.ok && plan.changes.filter((c) => c.status !== "unchanged").map((c) => `${c.status} .claude/${c.path}`),
    ).toEqual([]);
  });
});

/**
 * Parallel subagents never lose an update: 8 processes x 200 updates on one progress file, half
 * through the hot path (`recordArtifacts`), half through the zod-validated `recordStep`, all
 * contending for the same lock.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initProgress } from "../../src/runtime/progress.ts";
import { ProgressFile } from "../../src/runtime/progress-schema.ts";
import { bundleWriter, detect, exited, readJson, spawnWriter, tempProject } from "./helpers.ts";

const WRITERS = 8;
const UPDATES = 200;

let bundleDir: string;
let bundle: string;
beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), "lanes-writer-"));
  bundle = await bundleWriter(bundleDir);
});
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

describe("concurrent progress updates", () => {
  it(`keeps every update of ${WRITERS} processes x ${UPDATES} updates`, async () => {
    const { dir, cleanup } = tempProject();
    try {
      expect(initProgress(dir, { request: "concurrency", primaryExpert: "lead" }, { detect }).ok).toBe(true);
      const children = Array.from({ length: WRITERS }, (_, w) => spawnWriter(bundle, dir, `w${w}`, UPDATES));
      const results = await Promise.all(children.map(exited));
      expect(results.map((r) => r.stderr).join("")).toBe("");
      expect(results.map((r) => r.code)).toEqual(Array(WRITERS).fill(0));

      const doc = ProgressFile.parse(readJson(join(dir, ".claude", "state", "progress.json")));
      const expectedFiles: string[] = [];
      const expectedActions: string[] = [];
      for (let w = 0; w < WRITERS; w++) {
        for (let i = 0; i < UPDATES; i++)
          (i % 2 === 0 ? expectedFiles : expectedActions).push(i % 2 === 0 ? `w${w}/f${i}.ts` : `w${w}-${i}`);
      }
      expect([...doc.artifacts.files_created].sort()).toEqual(expectedFiles.sort());
      expect(doc.completed_steps.map((s) => s.action).sort()).toEqual(expectedActions.sort());
      // step numbers are handed out under the lock: unique and consecutive
      expect(doc.completed_steps.map((s) => s.step)).toEqual(expectedActions.map((_, i) => i + 1));
      expect(Object.keys(doc.task_context!.artifacts).sort()).toEqual(expectedFiles.sort());
      // nothing left behind: no lock, no temporaries
      expect(readdirSync(join(dir, ".claude", "state")).sort()).toEqual([".gitignore", "progress.json"]);
    } finally {
      cleanup();
    }
  });
});

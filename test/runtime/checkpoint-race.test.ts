/** Eight simultaneous `checkpoint save --id X`: exactly one succeeds, the others are refused with a clear message, nothing is lost silently. */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCheckpoint } from "../../src/runtime/checkpoints.ts";
import { bundleWorker, exited, ready, tempProject } from "./helpers.ts";

const SAVERS = 8;
let bundleDir: string;
let bundle: string;
beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), "lanes-saver-"));
  bundle = await bundleWorker(bundleDir, "checkpoint-saver");
});
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

describe("simultaneous checkpoint saves with one id", () => {
  it(`lets exactly one of ${SAVERS} win`, { timeout: 60_000 }, async () => {
    const { dir, cleanup } = tempProject();
    try {
      const go = join(dir, "go");
      const children = Array.from({ length: SAVERS }, (_, i) =>
        spawn(process.execPath, [bundle, dir, "X", `saver-${i}`, go], { stdio: ["ignore", "pipe", "pipe"] }),
      );
      const outs = children.map((c) => {
        let out = "";
        c.stdout.on("data", (d: Buffer) => (out += d.toString()));
        return () => out;
      });
      await Promise.all(children.map(ready));
      const done = Promise.all(children.map(exited));
      writeFileSync(go, "");
      const results = await done;
      expect(results.map((r) => r.stderr).join("")).toBe("");
      const winners = results.map((r, i) => (r.code === 0 ? i : -1)).filter((i) => i >= 0);
      expect(winners).toHaveLength(1);
      for (const [i, out] of outs.entries()) {
        expect(out()).toBe(i === winners[0] ? "ready\nsaved\n" : "ready\ncheckpoint `X` already exists\n");
      }
      // the one saved is the winner's, whole, and no temporary file is left
      const saved = readCheckpoint(dir, "X");
      expect(saved.ok && saved.value.reason).toBe(`saver-${winners[0]}`);
      expect(readdirSync(join(dir, ".claude", "state", "checkpoints"))).toEqual(["X.json"]);
    } finally {
      cleanup();
    }
  });
});

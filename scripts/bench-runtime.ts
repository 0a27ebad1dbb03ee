/**
 * Runtime part of `npm run bench`: in-process latency of progress-file updates in a temporary
 * project. Every update is a real locked read-modify-write with an atomic write (temp file, fsync,
 * rename), so the figures include the file system's fsync cost.
 *
 * - `recordArtifacts`: the PostToolUse hot path adding one new file (lock, read, JSON edit, write);
 * - `recordArtifactsUnchanged`: a modified file that is already listed (no lock, no write);
 * - `lockedStep`: `recordStep`, the zod-validated read-modify-write behind `lanes progress step`.
 *
 * Run alone: `node --import tsx scripts/bench-runtime.ts [iterations]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { recordArtifacts } from "../src/runtime/progress-hot.ts";
import { initProgress, recordStep } from "../src/runtime/progress.ts";

/** p50 / p99 / max of one series, in milliseconds (3 decimals). */
export interface LatencySeries {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** What {@link benchProgressUpdates} reports. */
export interface ProgressBench {
  readonly iterations: number;
  readonly recordArtifacts: LatencySeries;
  readonly recordArtifactsUnchanged: LatencySeries;
  readonly lockedStep: LatencySeries;
}

function series(samples: number[]): LatencySeries {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  const round = (ms: number): number => Math.round(ms * 1000) / 1000;
  return { p50Ms: round(at(0.5)), p99Ms: round(at(0.99)), maxMs: round(s.at(-1) ?? 0) };
}

function time(fn: () => { ok: boolean }): number {
  const start = performance.now();
  const result = fn();
  const ms = performance.now() - start;
  if (!result.ok) throw new Error(`bench update failed: ${JSON.stringify(result)}`);
  return ms;
}

/** Measures `iterations` updates of each kind in a fresh temporary project; removes it afterwards. */
export function benchProgressUpdates(iterations: number): ProgressBench {
  const dir = mkdtempSync(join(tmpdir(), "lanes-bench-runtime-"));
  try {
    const detect = (root: string) => ({ name: "bench", root });
    const init = initProgress(
      dir,
      { request: "bench the progress file", primaryExpert: "bench-expert", estimatedSteps: iterations },
      { detect },
    );
    if (!init.ok) throw new Error(`bench init failed: ${JSON.stringify(init.issues)}`);
    recordArtifacts(dir, { modified: [join(dir, "README.md")] });
    const artifacts: number[] = [];
    const unchanged: number[] = [];
    const steps: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const file = join(dir, "src", `file-${i}.ts`);
      artifacts.push(time(() => recordArtifacts(dir, { created: [file] }, "bench-expert")));
      unchanged.push(time(() => recordArtifacts(dir, { modified: [join(dir, "README.md")] }, "bench-expert")));
      steps.push(
        time(() =>
          recordStep(
            dir,
            { expert: "bench-expert", action: `step_${i}`, summary: "benchmark step", durationMs: 1 },
            { detect },
          ),
        ),
      );
    }
    return {
      iterations,
      recordArtifacts: series(artifacts),
      recordArtifactsUnchanged: series(unchanged),
      lockedStep: series(steps),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const n = Number(process.argv[2] ?? 200) || 200;
  process.stdout.write(`${JSON.stringify(benchProgressUpdates(n), null, 2)}\n`);
}

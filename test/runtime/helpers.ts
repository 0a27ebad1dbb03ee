/** Shared helpers of the runtime tests: temp projects, a fixed clock, the bundled writer process. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** A fresh project directory with `.claude/`; removed by the returned cleanup. */
export function tempProject(prefix = "lanes-runtime-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, ".claude"), { recursive: true });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A clock that starts at `start` and moves `stepMs` on every call. */
export function steppingClock(start = "2025-01-02T03:04:05.000Z", stepMs = 1000): () => Date {
  let t = Date.parse(start);
  return () => {
    const now = new Date(t);
    t += stepMs;
    return now;
  };
}

/** Deterministic randomness. */
export function seededRandom(seed = 1): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

/** The project-context detector tests use (no file reads). */
export const detect = (root: string) => ({ name: "test-project", root });

/** Reads a JSON file. */
export const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

/** Bundles the progress writer (test/runtime/workers/progress-writer.ts) into `outDir`; returns the .mjs path. */
export async function bundleWriter(outDir: string): Promise<string> {
  const outfile = join(outDir, "progress-writer.mjs");
  await build({
    entryPoints: [fileURLToPath(new URL("./workers/progress-writer.ts", import.meta.url))],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    // yaml is CommonJS: give the ESM bundle a require
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
    logLevel: "silent",
  });
  return outfile;
}

/** Bundles a worker of test/runtime/workers/ into `outDir`; returns the .mjs path. */
export async function bundleWorker(outDir: string, name: string): Promise<string> {
  const outfile = join(outDir, `${name}.mjs`);
  await build({
    entryPoints: [fileURLToPath(new URL(`./workers/${name}.ts`, import.meta.url))],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
    logLevel: "silent",
  });
  return outfile;
}

/** Starts a writer process. */
export function spawnWriter(bundle: string, projectDir: string, writer: string, count: number): ChildProcess {
  return spawn(process.execPath, [bundle, projectDir, writer, String(count)], { stdio: ["ignore", "pipe", "pipe"] });
}

/** Resolves when the process exits, with its code, signal and stderr. */
export function exited(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stderr })));
}

/** Resolves when the process prints `ready` (or exits first). */
export function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("ready")) resolve();
    });
    child.on("exit", () => resolve());
  });
}

/**
 * The hooks' synchronous child process without `node:child_process` (src/host/spawn-sync.ts):
 * the same answer as `child_process.spawnSync` for every way a child ends, and Node's own way for
 * what the binding would read otherwise.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { spawnSyncQuick } from "../../src/host/spawn-sync.ts";

const ROOT = join(import.meta.dirname, "..", "..");

const dir = mkdtempSync(join(tmpdir(), "lanes-spawn-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", LANES_SPAWN_TEST: "a=b c" };

const CASES: readonly {
  readonly name: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly input?: string | Uint8Array;
  readonly timeout?: number;
  readonly maxBuffer?: number;
  readonly cwd?: string;
}[] = [
  { name: "stdout, stderr and an exit status", file: "sh", args: ["-c", "echo out; echo err >&2; exit 3"] },
  { name: "the environment it is given, and only it", file: "sh", args: ["-c", 'printf %s "$LANES_SPAWN_TEST|$HOME"'] },
  { name: "the directory it is given", file: "sh", args: ["-c", "pwd"] },
  { name: "text on stdin", file: "sh", args: ["-c", "tr a-z A-Z"], input: "piped text\n" },
  { name: "bytes on stdin", file: "sh", args: ["-c", "wc -c"], input: new Uint8Array([1, 2, 3, 0, 5]) },
  { name: "arguments with spaces and quotes", file: "printf", args: ["[%s]", "a b", "'c'", '"d"', ""] },
  { name: "a signal", file: "sh", args: ["-c", "kill -TERM $$"] },
  { name: "a program that is not there", file: "lanes-no-such-program", args: [] },
  { name: "a directory that is not there", file: "sh", args: ["-c", "true"], cwd: join(dir, "absent") },
  { name: "a timeout", file: "sleep", args: ["5"], timeout: 200 },
  { name: "more output than allowed", file: "yes", args: [], maxBuffer: 1000 },
];

describe("spawnSyncQuick", () => {
  it.each(CASES)("answers as child_process.spawnSync: $name", (c) => {
    const options = {
      cwd: c.cwd ?? dir,
      env,
      ...(c.input !== undefined && { input: c.input }),
      timeout: c.timeout ?? 10_000,
      maxBuffer: c.maxBuffer ?? 1024 * 1024,
    };
    const quick = spawnSyncQuick(c.file, c.args, options);
    const node = spawnSync(c.file, c.args, options);
    expect(quick.status).toBe(node.status);
    expect(quick.signal).toBe(node.signal);
    expect(quick.error?.message).toBe(node.error?.message);
    // past maxBuffer both stop the child: what was read by then depends on timing
    if (c.maxBuffer === undefined) {
      expect(quick.stdout.toString("latin1")).toBe((node.stdout ?? Buffer.alloc(0)).toString("latin1"));
      expect(quick.stderr.toString("latin1")).toBe((node.stderr ?? Buffer.alloc(0)).toString("latin1"));
    }
  });

  it("leaves a NUL byte in an argument to child_process, which refuses it", () => {
    expect(() => spawnSyncQuick("printf", ["a\0b"], { cwd: dir, env, timeout: 1000, maxBuffer: 1000 })).toThrow(
      /null bytes/,
    );
  });

  it("does not load node:child_process in a process that only spawns through it", () => {
    const bundle = join(dir, "spawn.cjs");
    buildSync({
      stdin: {
        contents: `import { spawnSyncQuick } from ${JSON.stringify(join(ROOT, "src", "host", "spawn-sync.ts"))};
          const run = spawnSyncQuick("sh", ["-c", "echo ok"], { cwd: process.cwd(), env: { PATH: process.env.PATH }, timeout: 5000, maxBuffer: 1000 });
          const loaded = process.moduleLoadList.filter((m) => m.includes("child_process"));
          process.stdout.write(JSON.stringify({ out: run.stdout.toString(), loaded }));`,
        resolveDir: ROOT,
        loader: "ts",
      },
      bundle: true,
      platform: "node",
      format: "cjs",
      outfile: bundle,
      logLevel: "silent",
    });
    const run = spawnSync(process.execPath, [bundle], { cwd: dir, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({ out: "ok\n", loaded: [] });
  });
});

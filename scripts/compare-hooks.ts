/**
 * Compares the PreToolUse hook of two built `dist/` directories: the time from loading the hook to
 * the process's exit (node's own start-up excluded), median of interleaved runs so both share the
 * machine's noise, with a warm V8 code cache as in a real session.
 *
 *   npx tsx scripts/compare-hooks.ts <distA> <distB> [runs]
 *
 * Build the two sides first, e.g. `git worktree add /tmp/old <commit>` and `npx tsx scripts/build.ts`
 * there. Runs only inside temporary directories.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const [distA, distB, runsArg] = process.argv.slice(2);
if (distA === undefined || distB === undefined) {
  process.stderr.write("usage: npx tsx scripts/compare-hooks.ts <distA> <distB> [runs]\n");
  process.exitCode = 64;
} else {
  const runs = Number(runsArg ?? 40);
  const project = mkdtempSync(join(tmpdir(), "lanes-compare-"));
  mkdirSync(join(project, ".git"));
  const home = mkdtempSync(join(tmpdir(), "lanes-compare-home-"));
  const cases: Record<string, Record<string, unknown>> = {
    "Read (no glob compiled at run time)": { tool_name: "Read", tool_input: { file_path: join(project, "README.md") } },
    "Bash `ls -la` (no glob compiled at run time)": { tool_name: "Bash", tool_input: { command: "ls -la" } },
    "Glob `**/*.ts` (compiles a glob at run time)": { tool_name: "Glob", tool_input: { pattern: "**/*.ts" } },
  };
  const once = (dist: string, input: Record<string, unknown>, data: string): number => {
    const raw = JSON.stringify({ session_id: "s", cwd: project, hook_event_name: "PreToolUse", ...input });
    const hook = JSON.stringify(join(resolve(dist), "pre-tool-use.cjs"));
    const script = `const t=process.hrtime.bigint();require(${hook});process.on("exit",()=>process.stderr.write("T"+(Number(process.hrtime.bigint()-t)/1e6)+"\\n"))`;
    const env = { PATH: process.env["PATH"], HOME: home, CLAUDE_PROJECT_DIR: project, CLAUDE_PLUGIN_DATA: data };
    const run = spawnSync(process.execPath, ["-e", script], { input: raw, env, encoding: "utf8" });
    const time = run.stderr.split("\n").find((line) => line.startsWith("T"));
    if (run.status !== 0 || time === undefined) throw new Error(`the hook failed: ${run.stderr}`);
    return Number(time.slice(1));
  };
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const [name, input] of Object.entries(cases)) {
    const dataA = mkdtempSync(join(tmpdir(), "lanes-compare-data-"));
    const dataB = mkdtempSync(join(tmpdir(), "lanes-compare-data-"));
    once(distA, input, dataA);
    once(distB, input, dataB);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < runs; i++) {
      a.push(once(distA, input, dataA));
      b.push(once(distB, input, dataB));
    }
    process.stdout.write(`${name}: A ${median(a).toFixed(1)} ms, B ${median(b).toFixed(1)} ms (median of ${runs})\n`);
    rmSync(dataA, { recursive: true, force: true });
    rmSync(dataB, { recursive: true, force: true });
  }
  rmSync(project, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
}

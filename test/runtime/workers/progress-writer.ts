/**
 * A child process for the concurrency and crash tests, bundled with esbuild by the test.
 * `progress-writer <projectDir> <writer> <count>`: update `i` (from 0) is, by parity, a hot-path
 * `recordArtifacts` of `<writer>/f<i>.ts` or a locked `recordStep` with action `<writer>-<i>`.
 * `count` 0 means forever (the crash test kills it), with a millisecond between updates so that
 * the writers of a round all get going (the lock is not fair). Prints `ready` after the first update.
 */
import { recordArtifacts } from "../../../src/runtime/progress-hot.ts";
import { recordStep } from "../../../src/runtime/progress.ts";

const [projectDir, writer, countText] = process.argv.slice(2);
if (projectDir === undefined || writer === undefined)
  throw new Error("usage: progress-writer <projectDir> <writer> <count>");
const count = Number(countText ?? 0);
const lock = { timeoutMs: 60_000 };
const detect = (root: string) => ({ name: "test", root });
const pause = new Int32Array(new SharedArrayBuffer(4));

for (let i = 0; count === 0 || i < count; i++) {
  const result =
    i % 2 === 0
      ? recordArtifacts(projectDir, { created: [`${writer}/f${i}.ts`] }, writer, { lock })
      : recordStep(projectDir, { expert: writer, action: `${writer}-${i}`, durationMs: 0 }, { lock, detect });
  if (!result.ok) {
    process.stderr.write(`${writer} update ${i} failed: ${JSON.stringify(result.issues)}\n`);
    process.exitCode = 1;
    break;
  }
  if (i === 0) process.stdout.write("ready\n");
  if (count === 0) Atomics.wait(pause, 0, 0, 1);
}

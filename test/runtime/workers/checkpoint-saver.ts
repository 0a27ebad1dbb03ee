/**
 * A child process for the checkpoint race test, bundled with esbuild by the test.
 * `checkpoint-saver <projectDir> <id> <name> <goFile>`: prints `ready`, waits until `goFile`
 * exists (so every saver starts at once), saves checkpoint `<id>` with reason `<name>`, then prints
 * `saved` (exit 0) or the refusal (exit 1).
 */
import { existsSync } from "node:fs";
import { saveCheckpoint } from "../../../src/runtime/checkpoints.ts";

const [projectDir, id, name, goFile] = process.argv.slice(2);
if (projectDir === undefined || id === undefined || name === undefined || goFile === undefined)
  throw new Error("usage: checkpoint-saver <projectDir> <id> <name> <goFile>");
const pause = new Int32Array(new SharedArrayBuffer(4));
process.stdout.write("ready\n");
while (!existsSync(goFile)) Atomics.wait(pause, 0, 0, 1);
const saved = saveCheckpoint(projectDir, { id, reason: name });
if (saved.ok) process.stdout.write("saved\n");
else {
  process.stdout.write(`${saved.issues[0]!.message}\n`);
  process.exitCode = 1;
}

#!/usr/bin/env node
/**
 * `dist/statusline.cjs`: `lanes statusline` on its own, for Claude Code's `statusLine`, which runs
 * it on every refresh of the status line. The CLI bundle (cli.mjs, 2 MB of every command, zod and
 * YAML) takes several times a bare Node start to load; this one holds the statusline's reads only.
 * Same command, same output as `lanes statusline`.
 */
import { statuslineCommand } from "./commands/statusline.ts";
import { runCommand } from "./run-command.ts";

// a reader that goes away early is not an error
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
});

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

void runCommand(statuslineCommand, process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stdin: readStdin,
}).then((code) => {
  process.exitCode = code;
});

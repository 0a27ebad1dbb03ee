#!/usr/bin/env node
/** The `lanes` executable: the only place that reads process.argv or calls process.exit. */
import { runCli } from "./run.ts";

// a reader that goes away early (`lanes log | head`) is not an error
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const code = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stdin: readStdin,
});
process.exitCode = code;

#!/usr/bin/env node
/**
 * `dist/statusline.cjs`: `lanes statusline` on its own, for Claude Code's `statusLine`, which runs
 * it on every refresh of the status line. The CLI bundle (cli.mjs, 2 MB of every command, zod and
 * YAML) takes several times a bare Node start to load; this one holds the statusline's reads only.
 * Same command, same output as `lanes statusline`.
 *
 * No streams: `process.stdin` and `process.stdout` load Node's stream modules and build a socket
 * or pipe object each, which cost more than the rest of the statusline's work. Standard input is
 * read with plain `fs.read` calls (run off the main thread, so a terminal that sends nothing still
 * lets the command's short wait end), the line is written with blocking writes, and the process
 * exits once it has answered, whatever read is still pending.
 */
import { read } from "node:fs";
import { writeAll } from "../io/write.ts";
import { statuslineCommand } from "./commands/statusline.ts";
import { runCommand } from "./run-command.ts";

/** Standard input to its end, read chunk by chunk. */
function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const next = (): void => {
      const chunk = Buffer.allocUnsafe(1 << 16);
      read(0, chunk, 0, chunk.length, null, (error, n) => {
        if (error !== null) {
          // a non-blocking stdin with nothing yet is waited for; one that cannot be read fails the read
          if (error.code === "EAGAIN") setTimeout(next, 5).unref();
          else reject(error);
          return;
        }
        if (n === 0) resolve(Buffer.concat(chunks).toString("utf8"));
        else {
          chunks.push(chunk.subarray(0, n));
          next();
        }
      });
    };
    next();
  });
}

void runCommand(statuslineCommand, process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  out: (text) => writeAll(1, text, true),
  err: (text) => writeAll(2, text, true),
  stdin: readStdin,
}).then((code) => process.exit(code));

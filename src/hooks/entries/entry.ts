/**
 * What every hook entry does: protect stdout, read stdin once, run the hook with the process's
 * environment and the location of its bundle, then print stderr lines and the one JSON object (or
 * nothing), and exit. A crash before printing exits non-zero, which the enforcing wiring's
 * `onFailure: "block"` turns into a block.
 *
 * The output is written with blocking writes and the process exits at once: the hooks do no
 * asynchronous work, and returning to the event loop only ran what V8 had queued for later (a
 * minor garbage collection, most of a millisecond, on every call), while `process.stdout` on a
 * pipe is asynchronous on macOS and could lose the answer to an early exit.
 */
import { writeAll } from "./stdout-guard.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { HookDeps, HookOutcome } from "../protocol/response.ts";
import { reportProfile } from "../lazy/loader.ts";
import { cacheDir } from "../lazy/hook-loader.ts";
import { phase, profiling, writeProfile } from "../../io/profile.ts";

/** The event and tool of a raw hook input, for the profile (`LANES_PROFILE`, src/io/profile.ts). */
function profiled(raw: string): Record<string, unknown> {
  try {
    const input = JSON.parse(raw) as { hook_event_name?: unknown; tool_name?: unknown };
    return { event: input.hook_event_name, tool: input.tool_name };
  } catch {
    return {};
  }
}

export function runHookEntry(run: (raw: string, deps: HookDeps) => HookOutcome): void {
  phase("read input");
  let raw = "";
  try {
    raw = readFileSync(0, "utf8");
  } catch {
    raw = "";
  }
  phase("handler");
  // git's listing of the repository's program keys, kept beside the code caches (src/io/git.ts
  // `keepGitListings`; a global, so that hooks that run no git do not load the git runner)
  (globalThis as { __lanesGitListings?: string }).__lanesGitListings = cacheDir(process.env, __dirname);
  // bundled as CommonJS: __dirname is the directory of the bundle (dist/)
  const outcome = run(raw, {
    env: process.env,
    now: () => new Date(),
    defaultPolicyPath: join(__dirname, "policy.default.json"),
    distDir: __dirname,
  });
  phase("respond");
  if (outcome.profile !== undefined) reportProfile(outcome.profile);
  if (outcome.stderr.length > 0) writeAll(2, outcome.stderr.map((line) => `${line}\n`).join(""));
  if (outcome.stdout !== "") writeAll(1, outcome.stdout);
  if (profiling) writeProfile({ pid: process.pid, bundle: __filename.replace(/^.*[\\/]/, ""), ...profiled(raw) });
  process.exit(0);
}

/**
 * What every hook entry does: protect stdout, read stdin once, run the hook with the process's
 * environment and the location of its bundle, then print stderr lines and the one JSON object (or
 * nothing). A crash before printing exits non-zero, which the enforcing wiring's
 * `onFailure: "block"` turns into a block.
 */
import "./stdout-guard.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { GuardDeps, HookOutcome } from "../pre-tool-use.ts";
import { reportProfile } from "../loader.ts";

export function runHookEntry(run: (raw: string, deps: GuardDeps) => HookOutcome): void {
  let raw = "";
  try {
    raw = readFileSync(0, "utf8");
  } catch {
    raw = "";
  }
  // bundled as CommonJS: __dirname is the directory of the bundle (dist/)
  const outcome = run(raw, {
    env: process.env,
    now: () => new Date(),
    defaultPolicyPath: join(__dirname, "policy.default.json"),
    distDir: __dirname,
  });
  if (outcome.profile !== undefined) reportProfile(outcome.profile);
  for (const line of outcome.stderr) process.stderr.write(`${line}\n`);
  if (outcome.stdout !== "") process.stdout.write(outcome.stdout);
}

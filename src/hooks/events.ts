/** Hook entry for SubagentStart, SubagentStop, PreCompact, TaskCreated and TaskCompleted (bundled to `dist/events.cjs`). */
import "./stdout-guard.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runEvent } from "../guard/events.ts";

let raw = "";
try {
  raw = readFileSync(0, "utf8");
} catch {
  raw = "";
}
const outcome = runEvent(raw, { env: process.env, now: () => new Date(), defaultPolicyPath: join(__dirname, "policy.default.json") });
for (const line of outcome.stderr) process.stderr.write(`${line}\n`);
if (outcome.stdout !== "") process.stdout.write(outcome.stdout);

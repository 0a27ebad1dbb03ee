/** Hook entry for SubagentStart, SubagentStop, PreCompact, TaskCreated and TaskCompleted (bundled to `dist/events.mjs`). */
import "./stdout-guard.ts";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runEvent } from "../guard/events.ts";

let raw = "";
try {
  raw = readFileSync(0, "utf8");
} catch {
  raw = "";
}
const outcome = runEvent(raw, { env: process.env, now: () => new Date(), defaultPolicyPath: fileURLToPath(new URL("./policy.default.json", import.meta.url)) });
for (const line of outcome.stderr) process.stderr.write(`${line}\n`);
if (outcome.stdout !== "") process.stdout.write(outcome.stdout);

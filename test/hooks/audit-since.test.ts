/** Validation reads a run's evidence from the audit log, the rotated part included when the run began before a rotation. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { auditSince } from "../../src/hooks/events/task-channel.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const line = (ts: string, subject: string) => `${JSON.stringify({ ts, event: "decision", subject })}\n`;

function state(rotated: string | undefined, current: string | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), "lanes-since-"));
  dirs.push(dir);
  if (rotated !== undefined) writeFileSync(join(dir, "audit.1.jsonl"), rotated);
  if (current !== undefined) writeFileSync(join(dir, "audit.jsonl"), current);
  return dir;
}

describe("auditSince", () => {
  const rotated = line("2026-01-01T00:00:01Z", "a") + line("2026-01-01T00:00:03Z", "b");
  const current = line("2026-01-01T00:00:05Z", "c") + line("2026-01-01T00:00:07Z", "d");
  it.each<[string, string | undefined, string | undefined, string, string[]]>([
    ["a run that began before the rotation", rotated, current, "2026-01-01T00:00:02Z", ["b", "c", "d"]],
    ["a run that began after it", rotated, current, "2026-01-01T00:00:06Z", ["d"]],
    ["no current log yet", rotated, undefined, "2026-01-01T00:00:02Z", ["b"]],
    ["no log at all", undefined, undefined, "2026-01-01T00:00:00Z", []],
    [
      "a torn line is skipped",
      undefined,
      `${current}{"ts":"2026-01-01T00:00:09Z","ev`,
      "2026-01-01T00:00:00Z",
      ["c", "d"],
    ],
  ])("%s", (_name, old, now, since, subjects) => {
    expect(auditSince(state(old, now), since).map((e) => e.subject)).toEqual(subjects);
  });
});

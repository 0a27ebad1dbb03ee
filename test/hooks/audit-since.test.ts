/** Validation reads a run's evidence from the audit log, the rotated part included when the run began before a rotation. */
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { auditSince } from "../../src/hooks/events/task-channel.ts";
import { auditMark } from "../../src/hooks/state/audit.ts";

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

describe("auditSince from a run's mark", () => {
  const early = line("2026-01-01T00:00:01Z", "before");
  const subjects = (dir: string, mark: ReturnType<typeof auditMark> | null, since = "2026-01-01T00:00:00Z") =>
    auditSince(dir, since, mark).map((e) => e.subject);

  it("reads only what was appended after the mark, and gives what a whole read gives", () => {
    const dir = state(undefined, early.repeat(50));
    const mark = auditMark(dir);
    appendFileSync(join(dir, "audit.jsonl"), line("2026-01-01T00:00:05Z", "c") + line("2026-01-01T00:00:06Z", "d"));
    expect(subjects(dir, mark)).toEqual(["c", "d"]);
    expect(subjects(dir, mark, "2026-01-01T00:00:02Z")).toEqual(
      auditSince(dir, "2026-01-01T00:00:02Z").map((e) => e.subject),
    );
  });

  it("follows the log into its rotation: the rest of the marked file, then the new log", () => {
    const dir = state(undefined, early);
    const mark = auditMark(dir);
    appendFileSync(join(dir, "audit.jsonl"), line("2026-01-01T00:00:05Z", "c"));
    renameSync(join(dir, "audit.jsonl"), join(dir, "audit.1.jsonl"));
    writeFileSync(join(dir, "audit.jsonl"), line("2026-01-01T00:00:07Z", "d"));
    expect(subjects(dir, mark)).toEqual(["c", "d"]);
  });

  it("reads both files whole when the log rotated twice since, or there was no log at the mark", () => {
    const dir = state(undefined, early);
    const mark = auditMark(dir);
    renameSync(join(dir, "audit.jsonl"), join(dir, "audit.1.jsonl"));
    writeFileSync(join(dir, "audit.jsonl"), line("2026-01-01T00:00:05Z", "c"));
    renameSync(join(dir, "audit.jsonl"), join(dir, "audit.1.jsonl"));
    writeFileSync(join(dir, "audit.jsonl"), line("2026-01-01T00:00:07Z", "d"));
    expect(subjects(dir, mark)).toEqual(["c", "d"]);
    const fresh = state(undefined, undefined);
    expect(auditMark(fresh)).toBeUndefined();
    writeFileSync(join(fresh, "audit.jsonl"), line("2026-01-01T00:00:05Z", "c"));
    expect(subjects(fresh, null)).toEqual(["c"]);
  });

  it("drops a line the mark cut (an entry torn when the run began) and keeps the ones after it", () => {
    const dir = state(undefined, `${early}{"ts":"2026-01-01T00:00:02Z","ev`);
    const mark = auditMark(dir);
    appendFileSync(join(dir, "audit.jsonl"), `\n${line("2026-01-01T00:00:05Z", "c")}`);
    expect(subjects(dir, mark)).toEqual(["c"]);
  });
});

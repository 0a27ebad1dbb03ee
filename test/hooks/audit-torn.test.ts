/** The audit log survives a writer killed mid-line: the next entry starts on its own line, and the reader recovers and warns. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { auditLog, parseAuditLog } from "../../src/hooks/state/audit.ts";
import { logCommand } from "../../src/cli/commands/log.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const stateDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), "lanes-audit-"));
  dirs.push(d);
  return join(d, ".claude", "lanes", "state");
};
const entry = (n: number) => ({
  ts: `2025-01-02T03:04:0${n}.000Z`,
  event: "decision" as const,
  subject: `call ${n}`,
  decision: "none" as const,
});

describe("the audit writer after a torn last line", () => {
  it("starts the next entry on a fresh line", () => {
    const state = stateDir();
    auditLog({ state: state, compiledPolicy: join(state, "policy.json") }, 1_000_000).append(entry(1));
    writeFileSync(
      join(state, "audit.jsonl"),
      `${readFileSync(join(state, "audit.jsonl"), "utf8")}{"ts":"2025-01-02T03:04:02.000Z","event":"dec`,
    );
    auditLog({ state: state, compiledPolicy: join(state, "policy.json") }, 1_000_000).append(entry(3));
    const { entries, torn } = parseAuditLog(readFileSync(join(state, "audit.jsonl"), "utf8"));
    expect(entries.map((e) => e.subject)).toEqual(["call 1", "call 3"]);
    expect(torn).toBe(1);
  });
});

describe("parseAuditLog", () => {
  it.each<[string, string, string[], number]>([
    ["whole lines", `${JSON.stringify(entry(1))}\n${JSON.stringify(entry(2))}\n`, ["call 1", "call 2"], 0],
    ["a torn last line", `${JSON.stringify(entry(1))}\n{"ts":"2025`, ["call 1"], 1],
    [
      "an entry glued to a torn line (written before the fix)",
      `{"ts":"2025-01-02","ev${JSON.stringify(entry(2))}\n`,
      ["call 2"],
      1,
    ],
    ["a line that is not an entry", `[1,2]\n${JSON.stringify(entry(2))}\n`, ["call 2"], 1],
  ])("%s", (_name, text, subjects, torn) => {
    const parsed = parseAuditLog(text);
    expect(parsed.entries.map((e) => e.subject)).toEqual(subjects);
    expect(parsed.torn).toBe(torn);
  });
});

describe("lanes log", () => {
  it("shows the entries around a torn line and warns about it", async () => {
    const state = stateDir();
    writeFileSync(join(state, "..", "..", "..", "marker"), "");
    auditLog({ state: state, compiledPolicy: join(state, "policy.json") }, 1_000_000).append(entry(1));
    writeFileSync(
      join(state, "audit.jsonl"),
      `${readFileSync(join(state, "audit.jsonl"), "utf8")}{"ts":"2025-01-02T03:04:02.000Z","ev${JSON.stringify(entry(3))}\n`,
    );
    let out = "";
    let err = "";
    const project = join(state, "..", "..", "..");
    await logCommand.run(["--project", project, "--json"], {
      cwd: project,
      env: {},
      out: (t) => (out += t),
      err: (t) => (err += t),
      stdin: async () => "",
    });
    expect(
      out
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { subject: string }).subject),
    ).toEqual(["call 1", "call 3"]);
    expect(err).toBe(
      `lanes: skipped 1 torn line in \`${state}/audit.jsonl\` (a writer was killed mid-line); the entries around it are shown\n`,
    );
  });
});

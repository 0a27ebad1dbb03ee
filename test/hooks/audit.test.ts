/**
 * The one audit writer: it rotates at the policy's `audit_max_bytes` whether or not the caller
 * holds the policy (PostToolUse and the events hook do not).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { auditLog } from "../../src/hooks/state/audit.ts";
import { serializeCompiledPolicy } from "../../src/policy/compiled.ts";
import { testPolicy } from "../helpers/guard.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(limit: number | undefined, laidOut = false) {
  const dir = mkdtempSync(join(tmpdir(), "lanes-audit-"));
  dirs.push(dir);
  const state = join(dir, "state");
  mkdirSync(state);
  const compiledPolicy = join(state, "policy.json");
  if (limit !== undefined)
    writeFileSync(
      compiledPolicy,
      laidOut
        ? serializeCompiledPolicy({ ...testPolicy(), options: { ...testPolicy().options, auditMaxBytes: limit } })
        : JSON.stringify({ options: { auditMaxBytes: limit } }),
    );
  return { state, compiledPolicy, audit: join(state, "audit.jsonl"), rotated: join(state, "audit.1.jsonl") };
}

const entry = { ts: "2026-01-01T00:00:00.000Z", event: "file-touched" as const, subject: "x".repeat(200) };
const fill = (paths: ReturnType<typeof project>, bytes: number, maxBytes?: number) => {
  const log = auditLog(paths, maxBytes);
  while (!existsSync(paths.rotated) && (existsSync(paths.audit) ? statSync(paths.audit).size : 0) < bytes)
    expect(log.append(entry)).toBeUndefined();
};

describe("audit log", () => {
  it.each<[string, number | undefined, number | undefined, number, boolean]>([
    ["the compiled policy's limit, read by a writer without the policy", 20_000, undefined, 40_000, true],
    ["the limit given by a writer that holds the policy", undefined, 20_000, 40_000, true],
    ["the default limit when no policy is compiled", undefined, undefined, 40_000, false],
    ["the default limit when the policy's limit is below the minimum", 500, undefined, 40_000, false],
  ])("rotates at %s", (_, policyLimit, given, bytes, rotates) => {
    const paths = project(policyLimit);
    fill(paths, bytes, given);
    expect(existsSync(paths.rotated)).toBe(rotates);
    if (rotates) expect(statSync(paths.rotated).size).toBeLessThan(20_000 + 500);
  });

  it("reads the limit from the first line of a compiled policy file, as `lanes build` lays it out", () => {
    const paths = project(20_000, true);
    fill(paths, 40_000);
    expect(existsSync(paths.rotated)).toBe(true);
    expect(statSync(paths.rotated).size).toBeLessThan(20_000 + 500);
  });
});

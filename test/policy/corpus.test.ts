/**
 * The decision corpus (test/cases/*.yaml): every case's decision and deciding rule ids, with the
 * built-in policy. Shared with `npm run bench`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { expectDecision, judge, testPolicy } from "../helpers/guard.ts";

interface Case {
  readonly command?: string;
  readonly tool?: string;
  readonly input?: Record<string, unknown>;
  readonly decision: "deny" | "ask" | "none";
  readonly rules?: string[];
  readonly cwd?: string;
  readonly agent?: string;
}

const dir = join(import.meta.dirname, "..", "cases");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".yaml"))
  .sort();
const corpus = files.map((file) => ({
  file,
  cases: (parse(readFileSync(join(dir, file), "utf8")) as { cases: Case[] }).cases,
}));
const policy = testPolicy();

/** A case's name shows the call and the expected decision: `git reset --hard -> deny [git.reset-hard]`. */
const nameOf = (c: Case): string => {
  const call = c.command ?? `${c.tool} ${JSON.stringify(c.input)}`;
  const as = c.agent === undefined ? "" : ` (as ${c.agent})`;
  return `${call}${as} -> ${c.decision}${c.decision === "none" ? "" : ` [${(c.rules ?? []).join(", ")}]`}`;
};

describe.each(corpus)("corpus $file", ({ cases }) => {
  it.each(cases.map((c) => [nameOf(c), c] as const))("%s", (_name, c) => {
    expectDecision(
      judge(policy, c.command, {
        ...(c.tool !== undefined && { tool: c.tool }),
        ...(c.input !== undefined && { input: c.input }),
        ...(c.cwd !== undefined && { cwd: c.cwd }),
        ...(c.agent !== undefined && { agent: c.agent }),
      }),
      c.decision,
      c.rules ?? [],
    );
  });
});

describe("the corpus", () => {
  it("holds at least 300 dangerous and 300 everyday cases", () => {
    const all = corpus.flatMap((f) => f.cases);
    expect(all.filter((c) => c.decision !== "none").length).toBeGreaterThanOrEqual(300);
    expect(all.filter((c) => c.decision === "none").length).toBeGreaterThanOrEqual(300);
  });
  it("names only rules that exist", () => {
    const ids = new Set(policy.rules.map((r) => r.id));
    const unknown = corpus.flatMap((f) =>
      f.cases.flatMap((c) => (c.rules ?? []).filter((r) => !ids.has(r)).map((r) => `${f.file}: ${r}`)),
    );
    expect(unknown).toEqual([]);
  });
});

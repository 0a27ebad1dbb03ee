/** Independence verification before a parallel fan-out, and the overlap report after it. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { independenceCommand } from "../../src/cli/commands/independence.ts";
import { overlapsAfter, verifyIndependence, type Branch } from "../../src/runtime/independence.ts";

const backend: Branch = { name: "backend", writes: ["src/server/**", "src/api/**"] };
const frontend: Branch = { name: "frontend", writes: ["src/components/**", "src/app/**"] };
const fullstack: Branch = { name: "fullstack", writes: ["src/**/*.ts"] };

describe("verifyIndependence", () => {
  it.each<[string, Branch[], [string, string][], { verified: boolean; types: string[] }]>([
    ["disjoint lanes", [backend, frontend], [], { verified: true, types: [] }],
    ["a lane inside another", [backend, fullstack], [], { verified: false, types: ["file_conflict"] }],
    [
      "the same file",
      [
        { name: "a", writes: ["README.md"] },
        { name: "b", writes: ["README.md"] },
      ],
      [],
      { verified: false, types: ["file_conflict"] },
    ],
    [
      "a data dependency",
      [backend, frontend],
      [["backend", "frontend"]],
      { verified: false, types: ["data_dependency"] },
    ],
    [
      "three branches, one overlapping pair",
      [backend, frontend, fullstack],
      [],
      { verified: false, types: ["file_conflict", "file_conflict"] },
    ],
  ])("%s", (_name, branches, depends, expected) => {
    const report = verifyIndependence(branches, depends);
    expect({ verified: report.verified, types: report.conflicts.map((c) => c.conflict_type) }).toEqual(expected);
    expect(report.recommendations.length).toBeGreaterThan(0);
  });

  it("names the paths and the resolution", () => {
    const report = verifyIndependence([backend, fullstack]);
    expect(report.conflicts[0]).toEqual({
      task_a: "backend",
      task_b: "fullstack",
      conflict_type: "file_conflict",
      description: "both may write `src/server/**` and `src/**/*.ts`, `src/api/**` and `src/**/*.ts`",
      resolution: "run them one after the other, or narrow each branch's paths so they do not overlap",
    });
  });
});

describe("overlapsAfter", () => {
  const matches = (glob: string, file: string) =>
    glob.endsWith("/**") ? file.startsWith(glob.slice(0, -2)) : glob === file;
  it("reports a file a branch wrote inside another branch's paths, and nothing else", () => {
    const touched = [
      { file: "src/server/a.ts", agent: "backend" },
      { file: "src/components/b.tsx", agent: "backend" },
      { file: "src/components/c.tsx", agent: "frontend" },
      { file: "src/server/d.ts", agent: "docs" },
    ];
    expect(overlapsAfter([backend, frontend], touched, matches)).toEqual([
      { file: "src/components/b.tsx", written_by: "backend", planned_for: "frontend" },
    ]);
  });
});

describe("lanes independence", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  async function run(args: string[]) {
    const dir = mkdtempSync(join(tmpdir(), "lanes-indep-"));
    dirs.push(dir);
    mkdirSync(join(dir, ".claude", "state"), { recursive: true });
    writeFileSync(
      join(dir, ".claude", "state", "touches.json"),
      JSON.stringify({
        version: 1,
        workflows: {
          s1: {
            files: { "src/components/b.tsx": { agent: "backend", tool: "Write", at: "2025-01-02T03:04:05Z" } },
            pending: [],
            updated: "2025-01-02T03:04:05Z",
          },
        },
      }),
    );
    let out = "";
    const code = await independenceCommand.run([...args, "--project", dir], {
      cwd: dir,
      env: {},
      out: (t) => (out += t),
      err: () => {},
      stdin: async () => "",
    });
    return { code, out };
  }
  it("exits 0 for independent branches and 1 with the conflicts", async () => {
    expect(await run(["--branch", "backend=src/server/**", "--branch", "frontend=src/components/**"])).toEqual({
      code: 0,
      out: "independent: the branches can run in parallel\nrecommendation: safe to run every branch in parallel\n",
    });
    const bad = await run(["--branch", "backend=src/**", "--branch", "frontend=src/components/**"]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("- backend / frontend: file_conflict: both may write `src/**` and `src/components/**`");
  });
  it("reports overlaps after the fan-out from the recorded touches", async () => {
    expect(
      await run(["--branch", "backend=src/server/**", "--branch", "frontend=src/components/**", "--after"]),
    ).toEqual({ code: 1, out: "- `src/components/b.tsx` was written by backend inside frontend's paths\n" });
  });
});

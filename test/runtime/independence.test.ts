/** Independence verification before a parallel fan-out, and the overlap report after it. */
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { independenceCommand } from "../../src/cli/commands/independence.ts";
import { buildPolicy } from "../../src/config/load.ts";
import { recordTouches } from "../../src/hooks/state/touches.ts";
import { projectPaths } from "../../src/host/layout.ts";
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
      "two different bare file names (no directory is named `package.json`)",
      [
        { name: "a", writes: ["package.json"] },
        { name: "b", writes: ["README.md"] },
      ],
      [],
      { verified: true, types: [] },
    ],
    [
      "a bare name against a folder that may hold it",
      [
        { name: "a", writes: ["README.md"] },
        { name: "b", writes: ["docs/**"] },
      ],
      [],
      { verified: false, types: ["file_conflict"] },
    ],
    [
      "a carve-out the lane declares keeps the branches apart",
      [
        { name: "api", writes: ["src/app/api/**"] },
        {
          name: "web",
          writes: ["src/app/**"],
          covers: (p) => p.startsWith("src/app/") && !/^src\/app\/api(\/|$)/.test(p),
        },
      ],
      [],
      { verified: true, types: [] },
    ],
    [
      "a carve-out that leaves part of the other lane shared",
      [
        { name: "api", writes: ["src/app/api/**"] },
        {
          name: "web",
          writes: ["src/app/**"],
          covers: (p) => p.startsWith("src/app/") && !p.startsWith("src/app/api/v1/"),
        },
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

  it("names the paths, an example file and the resolution", () => {
    const report = verifyIndependence([backend, fullstack]);
    expect(report.conflicts[0]).toEqual({
      task_a: "backend",
      task_b: "fullstack",
      conflict_type: "file_conflict",
      description:
        "both may write `src/server/**` and `src/**/*.ts` (e.g. `src/server/x.ts`), `src/api/**` and `src/**/*.ts` (e.g. `src/api/x.ts`)",
      resolution: "run them one after the other, or narrow each branch's paths so they do not overlap",
    });
  });
});

describe("overlapsAfter", () => {
  const matches = (glob: string, file: string) =>
    glob.endsWith("/**") ? file.startsWith(glob.slice(0, -2)) : glob === file;
  it("reports a file a branch wrote inside another branch's paths, and nothing else", () => {
    const touched = [
      { file: "src/server/a.ts", writers: ["backend"] },
      { file: "src/components/b.tsx", writers: ["backend"] },
      { file: "src/components/c.tsx", writers: ["frontend"] },
      { file: "src/server/d.ts", writers: ["docs"] },
    ];
    expect(overlapsAfter([backend, frontend], touched, matches)).toEqual([
      { file: "src/components/b.tsx", written_by: "backend", planned_for: "frontend" },
    ]);
  });
  it("keeps a stray write the owner overwrote later, and a file both branches wrote outside their paths", () => {
    const touched = [
      { file: "src/components/b.tsx", writers: ["backend", "frontend"] },
      { file: "package.json", writers: ["frontend", "backend"] },
    ];
    expect(overlapsAfter([backend, frontend], touched, matches)).toEqual([
      { file: "src/components/b.tsx", written_by: "backend", planned_for: "frontend" },
      { file: "package.json", written_by: "backend", also_written_by: "frontend" },
    ]);
  });
});

describe("lanes independence", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  /** A project with the pack's starter team compiled into its policy. */
  function project(): string {
    const dir = mkdtempSync(join(tmpdir(), "lanes-indep-"));
    dirs.push(dir);
    mkdirSync(join(dir, ".claude", "lanes"), { recursive: true });
    const built = buildPolicy({
      projectDir: dir,
      home: dir,
      lanesVersion: "test",
      skipUser: true,
      fallbackAgentsDir: join(import.meta.dirname, "..", "..", "definitions", "agents"),
    });
    if (!built.ok) throw new Error(JSON.stringify(built.issues));
    return dir;
  }
  /** Records writes the way the PostToolUse hook does: absolute paths, one agent per call. */
  function touch(dir: string, agent: string, file: string, at: string) {
    const paths = projectPaths(dir);
    recordTouches(
      { touches: paths.touches, state: paths.state, conflicts: paths.conflicts },
      "session-s1",
      { agent, agent_id: undefined, tool: "Write", at },
      [join(dir, file)],
      new Date(at),
    );
  }
  async function run(dir: string, args: string[]) {
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
    const dir = project();
    expect(await run(dir, ["--branch", "backend=src/server/**", "--branch", "frontend=src/components/**"])).toEqual({
      code: 0,
      out: "independent: the branches can run in parallel\nrecommendation: safe to run every branch in parallel\n",
    });
    const bad = await run(dir, ["--branch", "backend=src/**", "--branch", "frontend=src/components/**"]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("- backend / frontend: file_conflict: both may write `src/**` and `src/components/**`");
  });
  it("reads the starter lanes as the guard does: backend and frontend are independent (the API folders are carved out)", async () => {
    const dir = project();
    expect(await run(dir, ["--branch", "backend", "--branch", "frontend"])).toEqual({
      code: 0,
      out: "independent: the branches can run in parallel\nrecommendation: safe to run every branch in parallel\n",
    });
    // docs/api/openapi.yaml is both backend's and docs'
    const shared = await run(dir, ["--branch", "backend", "--branch", "docs"]);
    expect(shared.code).toBe(1);
    expect(shared.out).toContain("both may write `docs/api/openapi.yaml`");
  });
  it("refuses a dependency on a branch that is not given", async () => {
    await expect(
      run(project(), ["--branch", "backend", "--branch", "frontend", "--depends", "qa:backend"]),
    ).rejects.toThrow("names a branch that is not given");
  });
  it("reports overlaps after the fan-out from the touches the hook records (absolute paths, every writer)", async () => {
    const dir = project();
    touch(dir, "backend", "src/components/b.tsx", "2025-01-02T03:04:05Z");
    touch(dir, "frontend", "src/components/b.tsx", "2025-01-02T03:04:06Z");
    touch(dir, "frontend", "src/components/c.tsx", "2025-01-02T03:04:07Z");
    expect(await run(dir, ["--branch", "backend", "--branch", "frontend", "--after"])).toEqual({
      code: 1,
      out: "- `src/components/b.tsx` was written by backend inside frontend's paths\n",
    });
  });
});

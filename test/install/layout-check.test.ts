/**
 * The layout check: specialist lanes whose globs match no file, source folders no lane owns, and the
 * globs proposed from the repository's own folders.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkLayout, repositoryFiles, type LaneOwns } from "../../src/install/layout-check.ts";

const lane = (name: string, owns: string[], role: LaneOwns["role"] = "specialist"): LaneOwns => ({
  name,
  role,
  file: `.claude/lanes/agents/${name}.yaml`,
  owns,
});

/** A part of the starter team. */
const TEAM = [
  lane("frontend", ["src/components/**", "src/app/**", "web/**"]),
  lane("backend", ["src/server/**", "server/**"]),
  lane("database", ["src/db/**", "migrations/**"]),
  lane("qa", ["test/**", "**/*.test.ts"]),
  lane("orchestrator", ["docs/plans/**/*.md"], "orchestrator"),
  lane("reviewer", [], "reviewer"),
];

const OPTIONS = { projectDir: "/repo", home: "/home/u", caseInsensitive: false };

// prettier-ignore
const CASES: readonly [string, LaneOwns[], string[], [kind: string, subject: string, glob?: string, lane?: string][]][] = [
  ["a layout the starter lanes fit: nothing", TEAM,
    ["src/app/page.tsx", "src/server/api.ts", "src/db/schema.ts", "test/a.test.ts", "README.md"], []],
  ["src/client next to src/server and src/db: frontend owns nothing, src/client has no lane, proposed for frontend", TEAM,
    ["src/client/app.tsx", "src/client/ui/button.tsx", "src/server/api.ts", "src/db/schema.ts", "test/a.test.ts"],
    [["lane-owns-nothing", "frontend", "src/client/**", "frontend"], ["folder-unowned", "src/client/", "src/client/**", "frontend"]]],
  ["a folder whose name says no lane: proposed without a lane", TEAM,
    ["src/app/x.ts", "src/server/a.ts", "src/db/b.ts", "src/billing/invoice.ts", "test/a.test.ts"],
    [["folder-unowned", "src/billing/", "src/billing/**", undefined]]],
  ["a top-level source folder outside src", TEAM,
    ["src/app/x.ts", "src/server/a.ts", "src/db/b.ts", "database/seed.sql", "test/a.test.ts"],
    [["folder-unowned", "database/", "database/**", "database"]]],
  ["a folder of docs, configuration or build output is not a source folder", TEAM,
    ["src/app/x.ts", "src/server/a.ts", "src/db/b.ts", "test/a.test.ts", "notes/a.md", ".github/workflows/ci.yml", "dist/x.js", "node_modules/p/i.js", "config/app.yaml"], []],
  ["a folder with one owned file is owned (the rest is the lanes' business)", TEAM,
    ["src/app/x.ts", "src/server/a.ts", "src/server/util/b.ts", "src/db/b.ts", "test/a.test.ts", "src/db/x.test.ts"], []],
  ["orchestrator and reviewer lanes are not expected to own files", TEAM,
    ["src/app/x.ts", "src/server/a.ts", "src/db/b.ts", "test/a.test.ts"], []],
  ["no tests yet: qa owns nothing, nothing proposed", TEAM,
    ["src/app/x.ts", "src/server/a.ts", "src/db/b.ts"], [["lane-owns-nothing", "qa"]]],
  ["a hinted lane the team does not have: no lane proposed", [lane("backend", ["src/server/**"])],
    ["src/server/a.ts", "src/web/index.ts"], [["folder-unowned", "src/web/", "src/web/**", undefined]]],
];

describe("checkLayout", () => {
  it.each(CASES)("%s", (_name, lanes, files, expected) => {
    const found = checkLayout(lanes, files, OPTIONS).map((f) =>
      f.proposal === undefined ? [f.kind, f.subject] : [f.kind, f.subject, f.proposal.glob, f.proposal.lane],
    );
    expect(found).toEqual(expected);
  });

  it("one line per finding, naming the file to edit", () => {
    const findings = checkLayout(
      TEAM,
      ["src/client/app.tsx", "src/server/a.ts", "src/db/b.ts", "test/a.test.ts"],
      OPTIONS,
    );
    expect(findings.map((f) => `${f.message}: ${f.fix}`)).toEqual([
      "lane `frontend` owns no file here: its 3 globs (`src/components/**`, `src/app/**`, `web/**`) match no file in the repository, so it may write nothing that exists: add `src/client/**` to `owns` in .claude/lanes/agents/frontend.yaml",
      "`src/client/` (1 source file) is owned by no lane, so no specialist may write it: add `src/client/**` to `owns` of `frontend` in .claude/lanes/agents/frontend.yaml",
    ]);
  });
});

describe("repositoryFiles", () => {
  it("git's tracked and untracked files without the ignored ones; nothing outside a work tree", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "lanes-layout-")));
    try {
      expect(repositoryFiles(dir)).toBeUndefined();
      spawnSync("git", ["init", "-q"], { cwd: dir });
      for (const [file, text] of [
        [".gitignore", "build/\n"],
        ["src/client/a.ts", ""],
        ["build/out.js", ""],
      ] as const) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), text);
      }
      expect([...(repositoryFiles(dir)?.files ?? [])].sort()).toEqual([".gitignore", "src/client/a.ts"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectProjectContext, projectContextFromFiles, type ContextFiles } from "../../src/runtime/project-context.ts";
import { tempProject } from "./helpers.ts";

describe("projectContextFromFiles", () => {
  it.each<[string, ContextFiles, Record<string, unknown>]>([
    ["nothing: the directory name", {}, { name: "shop", detected_from: [] }],
    [
      "CLAUDE.md's first heading wins",
      { "CLAUDE.md": "intro\n# Shop API ##\n# Second", "package.json": '{"name":"shop-api"}' },
      { name: "Shop API", detected_from: ["CLAUDE.md", "package.json"], languages: ["javascript"] },
    ],
    ["the .claude/CLAUDE.md location", { ".claude/CLAUDE.md": "# Inner" }, { name: "Inner" }],
    [
      "package.json name and scripts",
      { "package.json": '{"name":"@acme/shop","scripts":{"test":"vitest","build":"tsc"}}', "tsconfig.json": "{}" },
      { name: "@acme/shop", scripts: ["test", "build"], languages: ["javascript", "typescript"] },
    ],
    [
      "an unparseable package.json contributes nothing but its presence",
      { "package.json": "{oops" },
      { name: "shop", detected_from: ["package.json"] },
    ],
    [
      "pyproject [project] name",
      { "pyproject.toml": '[build-system]\nname = "no"\n[project]\nname = "shop-py"\n' },
      { name: "shop-py", languages: ["python"] },
    ],
    [
      "pyproject [tool.poetry] name",
      { "pyproject.toml": "[tool.poetry]\nname = 'poetry-shop'\n" },
      { name: "poetry-shop" },
    ],
    [
      "Cargo.toml [package] name",
      { "Cargo.toml": '[package]\nname = "shop-rs"\nversion = "0.1.0"\n' },
      { name: "shop-rs", languages: ["rust"] },
    ],
    [
      "go.mod module",
      { "go.mod": "module github.com/acme/shop\n\ngo 1.22\n" },
      { name: "github.com/acme/shop", languages: ["go"] },
    ],
    [
      "docker-compose services",
      { "docker-compose.yml": "services:\n  db:\n    image: postgres\n  web:\n    build: .\n" },
      { name: "shop", services: ["db", "web"] },
    ],
    [
      "compose.yaml that is not a mapping",
      { "compose.yaml": "- a\n" },
      { name: "shop", detected_from: ["compose.yaml"] },
    ],
  ])("%s", (_, files, expected) => {
    expect(projectContextFromFiles("/srv/shop", files)).toMatchObject({ root: "/srv/shop", ...expected });
  });
});

describe("detectProjectContext", () => {
  it("reads the files under the root", () => {
    const { dir, cleanup } = tempProject();
    try {
      writeFileSync(join(dir, "CLAUDE.md"), "# Detected\n");
      mkdirSync(join(dir, "package.json")); // unreadable as a file: skipped
      expect(detectProjectContext(dir)).toEqual({ name: "Detected", root: dir, detected_from: ["CLAUDE.md"] });
    } finally {
      cleanup();
    }
  });
});

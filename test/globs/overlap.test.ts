import { describe, expect, it } from "vitest";
import { globsOverlap, overlapWitnesses, showWitness } from "../../src/globs/overlap.ts";

describe("globsOverlap", () => {
  it.each([
    ["src/**", "src/components/**", true],
    ["src/app/**", "src/app/api/**", true],
    ["src/server/**", "src/components/**", false],
    ["src/server/**", "*.test.*", true],
    ["src/server/**", "**/*.test.{js,ts}", true],
    ["docs/**/*.{md,mdx}", "**/*.test.{js,ts}", false],
    // a bare name also covers the contents of a directory with that name
    ["docs/**/*.md", "*.test.ts", true],
    ["/README.md", "*.md", true],
    ["/README.md", "docs/**", false],
    ["README.md", "docs/**", true],
    ["migrations/", "migrations/001_init.sql", true],
    ["db/**", "src/db/**", false],
    ["*.sql", "db/**", true],
    ["test_*.py", "*_test.py", true],
    ["src/[abc]*.ts", "src/d*.ts", false],
    ["src/[!abc]*.ts", "src/a*.ts", false],
    // floating names: a directory `a.ts` may contain `d.ts`
    ["[abc]*.ts", "d*.ts", true],
    ["[a-c]*.ts", "b*.ts", true],
    ["src/{server,api}/**", "src/api/v1/**", true],
    ["src/{server,api}/**", "src/web/**", false],
    ["//etc/**", "etc/**", false],
    ["~/notes/**", "notes/**", false],
    ["supabase/functions/**", "supabase/migrations/**", false],
    ["**", "anything/at/all.ts", true],
  ])("%s and %s overlap: %s", (a, b, expected) => {
    expect(globsOverlap(a, b)).toBe(expected);
    expect(globsOverlap(b, a)).toBe(expected);
  });
});

describe("overlapWitnesses: paths both globs match, for a caller's own matcher", () => {
  it.each<[string, string, string[]]>([
    // two bare names meet only as one file name
    ["package.json", "README.md", []],
    ["*.ts", "index.*", ["index.ts", "x/index.ts"]],
    ["src/app/api/**", "src/app/**", ["src/app/api", "src/app/api/x"]],
    ["README.md", "docs/**", ["docs/README.md", "docs/README.md/x"]],
    ["migrations", "migrations/001_init.sql", ["migrations/001_init.sql"]],
    ["src/[abc]*.ts", "src/d*.ts", []],
    ["//etc/**", "etc/**", []],
  ])("%s and %s", (a, b, expected) => {
    expect(overlapWitnesses(a, b).map(showWitness)).toEqual(expected);
  });
  it("keeps the case of literal names unless asked not to", () => {
    expect(overlapWitnesses("README.md", "*.md")).toEqual(["README.md", "\u0001/README.md"]);
    expect(overlapWitnesses("README.md", "*.md", { caseInsensitive: true })[0]).toBe("readme.md");
  });
});

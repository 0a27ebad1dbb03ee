import { describe, expect, it } from "vitest";
import { findNarrows, findReaches, findSelection, fnmatch } from "../../src/shell/find-expression.ts";

const split = (line: string): string[] => line.split(" ");
const reaches = (args: string, relative: string, options: { printed?: boolean; type?: "f" | "d" } = {}): boolean => {
  const words = split(args);
  return findReaches(findSelection(words, options.printed ?? false), words[0] as string, relative, options.type);
};

describe("fnmatch, as find's -name and -path match", () => {
  it.each([
    ["*.cjs", "pre-tool-use.cjs", true],
    ["*.cjs", "pre-tool-use.cjs.map", false],
    ["*lanes/dist/*", "./.claude/lanes/dist/x.cjs", true],
    ["./*", "./a/b/c", true],
    ["pre-tool-use.?js", "pre-tool-use.cjs", true],
    ["[a-c]*", "blue", true],
    ["[!a-c]*", "blue", false],
    ["[^a-c]*", "dune", true],
    ["\\*", "*", true],
    ["\\*", "x", false],
    ["[", "[", true],
    ["a*b*c", "aXbYbZc", true],
    ["a*b*c", "aXbYbZ", false],
    ["", "", true],
  ])("%s against %s: %s", (pattern, text, expected) => {
    expect(fnmatch(pattern, text)).toBe(expected);
  });

  it("folds case for -iname", () => {
    expect(fnmatch("SETTINGS.json", "settings.JSON", true)).toBe(true);
    expect(fnmatch("SETTINGS.json", "settings.JSON")).toBe(false);
  });
});

describe("findReaches", () => {
  const bundle = ".claude/lanes/dist/pre-tool-use.cjs";

  it("reaches what the tests select and not what they leave out", () => {
    expect(reaches(". -name *.cjs -delete", bundle)).toBe(true);
    expect(reaches(". -name *.ts -delete", bundle)).toBe(false);
    expect(reaches(". -path *lanes/dist/pre-tool-use.cjs -exec truncate -s 0 {} +", bundle)).toBe(true);
    expect(reaches(". -path ./src/* -exec truncate -s 0 {} +", bundle)).toBe(false);
    expect(reaches(". -type d -exec rm -r {} +", bundle)).toBe(false);
    expect(reaches(". -type f,d -exec rm -r {} +", bundle)).toBe(true);
  });

  it("reads -o, !, parentheses and the implicit -a", () => {
    expect(reaches(". ( -name *.ts -o -name *.cjs ) -delete", bundle)).toBe(true);
    expect(reaches(". ! -name *.cjs -delete", bundle)).toBe(false);
    expect(reaches(". -not -name *.ts -delete", bundle)).toBe(true);
    expect(reaches(". -name *.ts -o -name *.cjs -delete", bundle)).toBe(true);
    expect(reaches(". -name *.cjs -o -name *.ts -delete", bundle)).toBe(false);
  });

  it("errs on may for tests that need the file's metadata", () => {
    expect(reaches(". -name *.cjs -newer x -delete", bundle)).toBe(true);
    expect(reaches(". -size +1k -delete", bundle)).toBe(true);
    expect(reaches(". ! -size +1k -delete", bundle)).toBe(true);
  });

  it("keeps depth bounds", () => {
    expect(reaches(". -maxdepth 3 -name *.cjs -delete", bundle)).toBe(false);
    expect(reaches(". -maxdepth 4 -name *.cjs -delete", bundle)).toBe(true);
    expect(reaches(". -mindepth 5 -name *.cjs -delete", bundle)).toBe(false);
  });

  it("keeps out what a certain -prune cuts off, unless -depth or -delete switch pruning off", () => {
    expect(reaches(". -path ./.claude -prune -o -name *.cjs -exec rm {} +", bundle)).toBe(false);
    expect(reaches(". -name .claude -prune -o -name *.cjs -exec rm {} +", bundle)).toBe(false);
    expect(reaches(". -name node_modules -prune -o -name *.cjs -exec rm {} +", bundle)).toBe(true);
    expect(reaches(". -path ./.claude -prune -o -name *.cjs -delete", bundle)).toBe(true);
    expect(reaches(". -depth -path ./.claude -prune -o -name *.cjs -exec rm {} +", bundle)).toBe(true);
    // a prune that only may happen does not keep anything out
    expect(reaches(". -newer x -prune -o -name *.cjs -exec rm {} +", bundle)).toBe(true);
  });

  it("counts printing as the action for what xargs gets, given or implied", () => {
    expect(reaches(". -name *.cjs", bundle, { printed: true })).toBe(true);
    expect(reaches(". -name *.cjs", bundle)).toBe(false);
    expect(reaches(". -name .claude -prune -o -name *.cjs -print", bundle, { printed: true })).toBe(false);
    expect(reaches(". -name *.cjs -fprint list.txt", bundle, { printed: true })).toBe(false);
    expect(reaches(". -name *.cjs -print0", bundle, { printed: true })).toBe(true);
  });

  it("shows paths as find does, from the root as written", () => {
    expect(reaches(".claude/ -path .claude/lanes/* -delete", "lanes/dist/pre-tool-use.cjs")).toBe(true);
    expect(reaches("/work/app -path /work/app/.claude/* -delete", bundle)).toBe(true);
    expect(reaches("/work/app -path ./.claude/* -delete", bundle)).toBe(false);
  });

  it("reaches everything when it cannot read the expression", () => {
    expect(reaches(". -name", bundle)).toBe(true);
    expect(reaches(". ( -name *.ts -delete", bundle)).toBe(true);
    expect(reaches(". -frobnicate x -delete", bundle)).toBe(true);
    expect(reaches(". -exec rm {}", bundle)).toBe(true);
  });
});

describe("findNarrows: whether an action skips some entries", () => {
  it.each([
    [". -name *.pyc -not -path ./.venv/* -delete", true],
    ["src -name *.orig ! -path */vendor/* -delete", true],
    [". -path ./node_modules -prune -o -name *.orig -delete", true],
    [". -maxdepth 1 -name *.log -delete", true],
    [". -mtime +30 -delete", true],
    [". -empty -delete", true],
    [". -name *.* -delete", true],
    [". -type f -name *.o -delete", true],
    [". -delete", false],
    [". -not -name *.keep -delete", false],
    [". ( -name *.o -o -true ) -delete", false],
    [". -name *.o -o -delete", false],
    [". -name *.o , -delete", false],
    [". -delete -name *.o", false],
    [". -type f -delete", false],
    [". -type d -delete", false],
    [". -mindepth 1 -delete", false],
    [". -mindepth 3 -delete", false],
    [". -maxdepth 0 -delete", false],
    [". -name * -delete", false],
    [". -name ?* -delete", false],
    [". -path ./* -delete", false],
    [". -regex .* -delete", false],
    [". -name *.o -frobnicate -delete", false],
  ])("find %s: %s", (args, expected) => {
    expect(findNarrows(split(args))).toBe(expected);
  });

  it("counts what find prints as its action when a command reads it", () => {
    expect(findNarrows(split("."), true)).toBe(false);
    expect(findNarrows(split(". -name *.tmp"), true)).toBe(true);
    expect(findNarrows(split(". ! -name *.md -type f"), true)).toBe(false);
    expect(findNarrows(split(". -name *.tmp -print0"), true)).toBe(true);
  });
});

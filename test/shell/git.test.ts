/**
 * The git handler: configuration set on the line, and the commands git itself runs
 * (`submodule foreach`, `bisect run`, `rebase --exec`). Each row asserts what the analysis sees.
 */
import { describe, expect, it } from "vitest";
import { analyze, lines } from "./helpers.ts";

describe("git runs the commands given in its arguments", () => {
  const cases: [string, string][] = [
    ["git submodule foreach 'git reset --hard'", "git reset --hard"],
    ["git submodule foreach --recursive git clean -fdx", "git clean -fdx"],
    ["git submodule --quiet foreach -q 'rm -rf build'", "rm -rf build"],
    ["git bisect run npm test -- --run", "npm test -- --run"],
    ["git bisect run sh -c 'git clean -fdx'", "git clean -fdx"],
    ["git rebase -x 'git reset --hard' HEAD~3", "git reset --hard"],
    ["git rebase --exec='npm test' main", "npm test"],
  ];
  it.each(cases)("`%s` runs `%s`", (source, line) => {
    expect(lines(analyze(source))).toContain(line);
  });

  it("runs nothing for `git submodule status` or `git bisect start`", () => {
    expect(lines(analyze("git submodule status; git bisect start"))).toEqual([
      "git submodule status",
      "git bisect start",
    ]);
  });
});

describe("configuration set on the line changes what git does", () => {
  const cases: [string, string][] = [
    ["git -c clean.requireForce=false clean -d", "git -c clean.requireForce=false clean --force -d"],
    ["git -c clean.requireforce=0 clean -dx", "git -c clean.requireforce=0 clean --force -dx"],
    ["git config clean.requireForce false && git clean -d", "git clean --force -d"],
    ["git -c clean.requireForce=true clean -d", "git -c clean.requireForce=true clean -d"],
    ["git clean -d", "git clean -d"],
  ];
  it.each(cases)("`%s` is `%s`", (source, line) => {
    expect(lines(analyze(source))).toContain(line);
  });
});

describe("a git subcommand only known at run time", () => {
  it("is unrepresentable", () => {
    expect(analyze('git "$OP" --hard').unrepresentable.map((u) => u.code)).toEqual(["dynamic-command-name"]);
  });
  it("is not when the value is known", () => {
    expect(analyze("OP=status; git $OP").unrepresentable).toEqual([]);
  });
});

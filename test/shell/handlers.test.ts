/**
 * The program registry and handlers run against a fake walk (test/shell/fake-walk.ts): a handler
 * is tested by what it reports and asks the walk to run, without parsing or walking a line.
 */
import { describe, expect, it } from "vitest";
import { compiler } from "../../src/shell/handlers/compilers.ts";
import { find } from "../../src/shell/handlers/find.ts";
import { git } from "../../src/shell/handlers/git.ts";
import { handlerOf, PROGRAMS } from "../../src/shell/handlers/index.ts";
import { interpreter } from "../../src/shell/handlers/code.ts";
import { unclaimed } from "../../src/shell/handlers/unclaimed.ts";
import { fakeWalk, invocation } from "./fake-walk.ts";

describe("the program registry", () => {
  const named = PROGRAMS.flatMap((row) => ("programs" in row ? row.programs : []));
  const matchers = PROGRAMS.filter((row) => "matches" in row);

  it("names each program in one row only", () => {
    expect(named.filter((name, i) => named.indexOf(name) !== i)).toEqual([]);
  });

  it("claims no named program by a matcher too, so only the matchers' order matters", () => {
    const both = named.filter((name) => matchers.some((row) => row.matches(invocation(name))));
    expect(both).toEqual([]);
  });

  it.each([
    ["find", find],
    ["git", git],
    ["gcc", compiler],
    ["python3.12", interpreter],
    ["PowerShell.exe", interpreter],
    ["ls", unclaimed],
  ] as const)("runs `%s` with its family's handler", (program, handler) => {
    expect(handlerOf(invocation(program))).toBe(handler);
  });
});

describe("handlers against a fake walk", () => {
  it("find: each -exec command runs with run-time arguments under the start paths", () => {
    const { walk, log } = fakeWalk();
    find(walk, invocation("find", "/srv", "-name", "*.tmp", "-exec", "rm", "-f", "{}", ";"));
    expect(log.emitted).toEqual(["find /srv -name *.tmp -exec rm -f {} ;"]);
    expect(log.executed.map((e) => e.argv)).toEqual([["rm", "-f", "{}"]]);
    const ctx = log.executed[0]!.ctx;
    expect({
      runtimeArgs: ctx.runtimeArgs,
      roots: ctx.searchRoots.map((w) => w.value),
      wrappers: ctx.wrappers,
      via: ctx.via,
      launchedBy: ctx.launchedBy,
    }).toEqual({ runtimeArgs: true, roots: ["/srv"], wrappers: ["find"], via: ["find-exec"], launchedBy: 0 });
  });

  it("a C compiler records the source it reads from stdin and from files written on the line", () => {
    const { walk, log } = fakeWalk({ stdin: "int main(){}", written: { "b.c": "void f(){}" } });
    compiler(walk, invocation("gcc", "-x", "c", "-", "b.c", "other.c", "-o", "b"));
    expect(log.code.map((c) => [c.language, c.interpreter, c.command, c.source, c.code])).toEqual([
      ["c", "gcc", 0, "literal", "int main(){}"],
      ["c", "gcc", 0, "literal", "void f(){}"],
    ]);
  });

  it("git keeps `git config` for the rest of the line (its memo) and expands the alias", () => {
    const { walk, log } = fakeWalk();
    git(walk, invocation("git", "config", "alias.wipe", "reset --hard"));
    git(walk, invocation("git", "wipe", "HEAD~1"));
    expect(log.emitted).toEqual(["git config alias.wipe reset --hard", "git reset --hard HEAD~1"]);
  });

  it("a `!` alias is a shell string the walk parses", () => {
    const { walk, log } = fakeWalk();
    git(walk, invocation("git", "config", "alias.nuke", "!rm -rf ."));
    git(walk, invocation("git", "nuke"));
    expect(log.walked).toEqual(["rm -rf ."]);
  });

  it("an interpreter's literal code past the depth bound is not walked", () => {
    const { walk, log } = fakeWalk({ maxDepth: 0 });
    interpreter(walk, invocation("bash", "-c", "rm -rf /"));
    expect({ walked: log.walked, code: log.code.map((c) => c.code) }).toEqual({ walked: [], code: ["rm -rf /"] });
  });
});

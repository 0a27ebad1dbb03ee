/**
 * The program registry and handlers run against a fake walk (test/shell/fake-walk.ts): a handler
 * is tested by what it reports and asks the walk to run, without parsing or walking a line.
 */
import { describe, expect, it } from "vitest";
import { client, copies } from "../../src/shell/handlers/clients.ts";
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
    const { walk } = fakeWalk();
    const both = named.filter((name) => matchers.some((row) => row.matches(invocation(name), walk)));
    expect(both).toEqual([]);
  });

  it.each([
    ["find", find],
    ["git", git],
    ["gcc", compiler],
    ["python3.12", interpreter],
    ["PowerShell.exe", interpreter],
    ["ls", unclaimed],
    ["claude", client],
    ["codex", client],
    ["cp", copies],
  ] as const)("runs `%s` with its family's handler", (program, handler) => {
    expect(handlerOf(invocation(program), fakeWalk().walk)).toBe(handler);
  });

  it("runs Claude Code's script under node as a client, and other scripts as node's", () => {
    const { walk } = fakeWalk();
    expect(handlerOf(invocation("node", "node_modules/@anthropic-ai/claude-code/cli-wrapper.cjs", "-p"), walk)).toBe(
      client,
    );
    expect(handlerOf(invocation("node", "scripts/cli.js", "-p"), walk)).toBe(interpreter);
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

  it("a `!` alias is a shell string the walk parses, where it is defined (parked code) and where it runs", () => {
    const { walk, log } = fakeWalk();
    git(walk, invocation("git", "config", "alias.nuke", "!rm -rf ."));
    expect(log.deferred).toEqual([
      { command: 0, kind: "git-config", key: "alias.nuke", value: "!rm -rf .", harmless: false },
    ]);
    git(walk, invocation("git", "nuke"));
    expect(log.walked).toEqual(["rm -rf .", "rm -rf ."]);
  });

  it("git config of a program key is parked code; a pager or editor that only shows text is harmless", () => {
    const { walk, log } = fakeWalk();
    git(walk, invocation("git", "config", "--global", "core.fsmonitor", "touch /tmp/x; false"));
    git(walk, invocation("git", "-c", "core.pager=less -R", "log"));
    git(walk, invocation("git", "config", "user.email", "dev@example.com"));
    expect(log.deferred.map((d) => [d.kind, d.key, d.harmless])).toEqual([
      ["git-config", "core.fsmonitor", false],
      ["git-option", "core.pager", true],
    ]);
    expect(log.walked).toEqual(["touch /tmp/x; false", "less -R"]);
  });

  it("an interpreter's literal code past the depth bound is not walked", () => {
    const { walk, log } = fakeWalk({ maxDepth: 0 });
    interpreter(walk, invocation("bash", "-c", "rm -rf /"));
    expect({ walked: log.walked, code: log.code.map((c) => c.code) }).toEqual({ walked: [], code: ["rm -rf /"] });
  });
});

/**
 * What a user types wrong: a usage error is one line with a pointer to `--help` (not the whole
 * usage), and a misspelt tool, agent or a peer tool's command name gets a "did you mean".
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "lanes-usage-")));
const repo = join(base, "repo");
mkdirSync(join(repo, ".git"), { recursive: true });
mkdirSync(join(base, "home"), { recursive: true });
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function lanes(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await runCli(argv, {
    cwd: repo,
    env: { HOME: join(base, "home"), PATH: process.env["PATH"] },
    out: (t) => (out += t),
    err: (t) => (err += t),
    stdin: async () => "",
  });
  return { code, out, err };
}

describe("usage errors", () => {
  it.each([
    [
      ["explain", "rm -rf /"],
      "lanes: unknown command `explain`: lanes calls it `lanes check`: run `lanes help` for the list",
    ],
    [["status"], "lanes: unknown command `status`: lanes calls it `lanes doctor`: run `lanes help` for the list"],
    [["install"], "lanes: unknown command `install`: lanes calls it `lanes init`: run `lanes help` for the list"],
    [["doctr"], "lanes: unknown command `doctr`: did you mean `doctor`?: run `lanes help` for the list"],
    [["frobnicate"], "lanes: unknown command `frobnicate`: run `lanes help` for the list"],
    [
      ["allow", "ABC234"],
      "lanes allow: `lanes allow CODE` is typed into Claude Code's prompt, not the shell: send it as your next message to Claude in the session that showed the code",
    ],
    [
      ["check", "--tool", "Wrte", "--input", "{}"],
      "lanes check: unknown tool `Wrte`: did you mean `Write`? (tool names are Claude Code's, e.g. Bash, Write, Edit, Read; MCP tools are mcp__<server>__<tool>): see `lanes check --help`",
    ],
    [
      ["check", "--agent", "general-purpse", "ls"],
      "lanes check: unknown agent `general-purpse`: did you mean `general-purpose`?: see `lanes check --help`",
    ],
    [
      ["check"],
      "lanes check: give a command to check, e.g. `lanes check 'git reset --hard'`: see `lanes check --help`",
    ],
    [["init", "a", "b"], "lanes init: give at most one directory: see `lanes init --help`"],
    [["doctor", "--frobnicate"], "lanes doctor: unknown option '--frobnicate': see `lanes doctor --help`"],
    [
      ["test", "git reset --hard"],
      'lanes test: `git reset --hard` is not a test table: `lanes test` runs a file of cases; to judge one command, did you mean `lanes check "git reset --hard"`?: see `lanes test --help`',
    ],
  ])("%j", async (argv, line) => {
    const run = await lanes(...argv);
    expect([run.code, run.err, run.out]).toEqual([64, `${line}\n`, ""]);
  });

  it("an agent that is no typo of a known one is judged with the default lane, and says so", async () => {
    const run = await lanes("check", "--agent", "nosuch", "ls");
    expect(run.err).toContain(
      "`nosuch` is not an agent of this policy: judged as a subagent without a lanes definition",
    );
    expect(run.code).toBe(0);
  });
});

/**
 * Issue 9 end to end: code that is only spelled out at run time (a base64-decoded `git reset
 * --hard`, a heredoc piped into bash) is blocked by the real client's hook, and the uncommitted
 * work survives.
 */
import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { explain, startScenario, text, toolUse, type Scenario } from "./harness/index.ts";
import { installLanes } from "./install.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

/** Commits everything in the scenario's repository, then leaves an uncommitted change in `work.txt`. */
function commitThenEdit(scenario: Scenario): void {
  const git = (...args: string[]): void => {
    const r = spawnSync(
      "git",
      ["-c", "user.email=e2e@example.invalid", "-c", "user.name=e2e", "-c", "commit.gpgsign=false", ...args],
      { cwd: scenario.repo.dir, encoding: "utf8" },
    );
    if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  };
  git("add", "-A");
  git("commit", "-qm", "init");
  scenario.repo.write("work.txt", "uncommitted work\n");
}

describe("code spelled out at run time in the real client", () => {
  const blocked: [string, string, string][] = [
    [
      "a base64-decoded git reset --hard in bash -c",
      'bash -c "$(echo Z2l0IHJlc2V0IC0taGFyZA== | base64 -d)"',
      "[git.reset-hard]",
    ],
    ["a heredoc piped into bash", "cat <<'EOF' | bash\ngit reset --hard\nEOF", "[git.reset-hard]"],
  ];
  it.each(blocked)("blocks %s and the uncommitted change survives", async (_name, command, rule) => {
    s = await startScenario({
      files: { "work.txt": "committed\n" },
      script: { main: [[toolUse("Bash", { command, description: "reset" })], [text("understood")]] },
    });
    installLanes(s.repo);
    commitThenEdit(s);
    const run = await s.run("reset the repo", { args: ["--allowedTools", "Bash"] });
    const [result] = s.api.toolResults();
    expect(result?.is_error, explain(run, s.api)).toBe(true);
    expect(result?.text).toContain(rule);
    expect(s.repo.read("work.txt")).toBe("uncommitted work\n");
    expect(s.api.notes).toEqual([]);
  });
});

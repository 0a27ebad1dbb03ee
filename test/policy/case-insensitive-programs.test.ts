/**
 * On a file system that ignores case (macOS, Windows: `case_insensitive_paths`), a program named in
 * other cases is that program: `RM -rf ~` runs `/bin/rm`. The analysis records it lowercased and the
 * rules match names in any case; on a case-sensitive system `RM` is another program.
 */
import { describe, it } from "vitest";
import { expectDecision, judge, testPolicy } from "../helpers/guard.ts";

const folding = testPolicy([
  { layer: "project", path: "/p/lanes.yaml", file: { version: 1, options: { case_insensitive_paths: true } } },
]);
const exact = testPolicy();

describe("program names in other cases", () => {
  it.each([
    ["RM -rf ~", "deny", ["fs.delete-home"]],
    ["Sudo rm -rf /", "deny", ["fs.delete-root"]],
    ["GIT reset --hard", "deny", ["git.reset-hard"]],
    ["Git Push --force origin main", "deny", ["git.push-force"]],
    ["BASH -c 'rm -rf ~'", "deny", ["fs.delete-home"]],
    ["/BIN/RM -rf /", "deny", ["fs.delete-root"]],
    ["KillAll Claude", "deny", ["sys.kill-client"]],
    ["Ls -la", "none", []],
    ["Git status", "none", []],
  ] as const)("case-insensitive: %s -> %s %j", (command, decision, rules) => {
    expectDecision(judge(folding, command), decision, rules);
  });

  it.each([
    ["RM -rf ~", "none", []],
    ["GIT reset --hard", "none", []],
  ] as const)("case-sensitive: %s -> %s %j", (command, decision, rules) => {
    expectDecision(judge(exact, command), decision, rules);
  });
});

/**
 * Package runners the walk leaves whole because their own options come before the subcommand
 * (`npm -w api exec ...`, `pnpm -r exec ...`): the argv view still names the program they run
 * (`ArgView.runs`), so its flag writes are facts (`eslint --fix /etc/hosts`) and the rules of
 * lanes.yaml and agent files see through them (built-in rules match what the walk unwrapped).
 */
import { describe, it } from "vitest";
import { expectDecision, judge, testPolicy } from "../helpers/guard.ts";

const builtin = testPolicy();
const team = testPolicy([
  {
    layer: "project",
    path: "/p/lanes.yaml",
    file: {
      version: 1,
      rules: [
        {
          id: "team.no-ship",
          effect: "deny",
          why: "releases go through the pipeline",
          instead: "open a release pull request",
          command: { program: "release-tool", args: ["ship"] },
        },
      ],
    },
  },
]);

describe("flag writes of the program a runner runs", () => {
  it.each([
    ["npm -w api exec eslint --fix /etc/hosts", "deny", ["fs.write-system"]],
    ["pnpm -r exec eslint --fix /etc/hosts", "deny", ["fs.write-system"]],
    ["npm -w api exec prettier --write ~/.bashrc", "ask", ["fs.write-outside-project"]],
    // near misses: no write flag, a check run
    ["npm -w api exec eslint /etc/hosts", "none", []],
    ["pnpm -r exec prettier --check ~/.bashrc", "none", []],
  ] as const)("%s -> %s %j", (command, decision, rules) => {
    expectDecision(judge(builtin, command), decision, rules);
  });
});

describe("lanes.yaml rules see through a runner", () => {
  it.each([
    ["npm -w api exec release-tool ship", "deny", ["team.no-ship"]],
    ["pnpm -r exec release-tool@2 ship --yes", "deny", ["team.no-ship"]],
    ["npx release-tool ship", "deny", ["team.no-ship"]],
    ["npm -w api exec release-tool status", "none", []],
    ["pnpm -r install", "none", []],
  ] as const)("%s -> %s %j", (command, decision, rules) => {
    expectDecision(judge(team, command), decision, rules);
  });
});

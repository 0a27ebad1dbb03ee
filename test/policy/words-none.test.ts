import { describe, expect, it } from "vitest";
import { judge, testPolicy } from "../helpers/guard.ts";

/** A team rule with `words_none`: `terraform` commands other than the read-only ones. */
const policy = testPolicy([
  {
    layer: "project",
    path: "/p/lanes.yaml",
    file: {
      version: 1,
      rules: [
        {
          id: "team.terraform-writes",
          effect: "deny",
          why: "w",
          instead: "i",
          command: { program: "terraform", words_none: ["plan|show|validate|fmt|output"] },
        },
        {
          id: "team.no-bare-pkill",
          effect: "deny",
          why: "w",
          instead: "i",
          command: { program: "pkill", flags_any: ["-u"], words_none: ["*"] },
        },
      ],
    },
  },
]);

const ids = (command: string): readonly string[] | undefined =>
  judge(policy, command).decision?.ruleIds.filter((id) => id.startsWith("team."));

describe("words_none: no positional word matches", () => {
  it.each<[string, readonly string[] | undefined]>([
    ["terraform apply", ["team.terraform-writes"]],
    ["terraform plan -out tf.plan", undefined],
    ["terraform -chdir=infra validate", undefined],
    ["npx terraform apply", ["team.terraform-writes"]],
    ["npx terraform show", undefined],
  ])("%s → %j", (command, expected) => {
    const found = ids(command);
    expect(found === undefined || found.length === 0 ? undefined : found).toEqual(expected);
  });

  it.each<[string, boolean]>([
    ["pkill -u ci", true],
    ["pkill -u ci node", false],
    ['pkill -u ci "$NAME"', false],
  ])("[*] means no positional word at all: %s → %s", (command, denied) => {
    expect(ids(command)?.includes("team.no-bare-pkill") ?? false).toBe(denied);
  });
});

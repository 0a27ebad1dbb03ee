/**
 * What a team reads when a rule in lanes.yaml is wrong: the line of the wrong key or value, what is
 * wrong, and what to write instead, for the rule forms (command, paths, tools) that are a union.
 */
import { describe, expect, it } from "vitest";
import { PolicyFile } from "../../src/config/schema.ts";
import { formatLoadIssue, parseDefinition } from "../../src/definitions/load.ts";

const rule = (lines: string) =>
  `version: 1\nrules:\n  - id: team.x\n${lines}    command: { program: [uname] }\n    why: w\n    instead: i\n`;

function problems(text: string): string[] {
  const parsed = parseDefinition(PolicyFile, text, "lanes.yaml");
  if (parsed.ok) return [];
  return parsed.issues.map((i) => `${formatLoadIssue(i)}${i.fix === undefined ? "" : ` | ${i.fix}`}`);
}

describe("rule messages", () => {
  it("a misspelt key is named with its correction and every key a rule takes", () => {
    expect(problems(rule("    efect: deny\n"))).toEqual([
      "lanes.yaml:4: rules[0]: unknown key `efect` | rename it to `effect`; allowed keys here: id, effect, why, instead, command, paths, tools",
    ]);
  });

  it("a wrong value is reported at its own line with the values it may take", () => {
    expect(problems(rule("    effect: maybe\n"))).toEqual([
      'lanes.yaml:4: rules[0].effect: expected one of deny, ask, allow, received "maybe" | use one of the listed values',
    ]);
  });

  it("two forms in one rule are named as such, not as an unknown key", () => {
    expect(problems(rule("    effect: deny\n    paths: { patterns: [x] }\n"))).toEqual([
      "lanes.yaml:5: rules[0]: `paths` cannot be used together with `command` | keep one of `command`, `paths`, `tools`; split the item in two if you mean both",
    ]);
  });
});

/** Option values that start with `-`: taken as values unless they are one of the command's options. */
import { describe, expect, it } from "vitest";
import { joinDashValues, parseCommandArgs } from "../../src/cli/args.ts";

const options = {
  summary: { type: "string" },
  json: { type: "boolean" },
  tail: { type: "string", short: "n" },
} as const;

describe("joinDashValues", () => {
  it.each<[string[], string[]]>([
    [["--summary", "-5% latency"], ["--summary=-5% latency"]],
    [
      ["--summary", "--json"],
      ["--summary", "--json"],
    ],
    [
      ["--summary", "-n"],
      ["--summary", "-n"],
    ],
    [
      ["--summary", "-"],
      ["--summary", "-"],
    ],
    [["--tail", "-1"], ["--tail=-1"]],
    [
      ["--json", "-5"],
      ["--json", "-5"],
    ],
    [["--summary=-x"], ["--summary=-x"]],
    [
      ["--", "--summary", "-x"],
      ["--", "--summary", "-x"],
    ],
    [["--summary", "--unknown-flag"], ["--summary=--unknown-flag"]],
  ])("%j -> %j", (args, out) => {
    expect(joinDashValues(args, options)).toEqual(out);
  });

  it('parses `--summary "-5% latency"` as the value', () => {
    expect(parseCommandArgs(["--summary", "-5% latency", "--json"], options, "usage").values).toEqual({
      summary: "-5% latency",
      json: true,
    });
  });
});

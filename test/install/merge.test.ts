import { describe, expect, it } from "vitest";
import { upgradeDefinition } from "../../src/install/merge.ts";

const base =
  "name: backend\ndescription: the backend\nowns:\n  - src/server/**\nrole: specialist\ntools: [Read, Write]\nmodel: sonnet\n";
const yours = base.replace("  - src/server/**\n", "  - src/server/**\n  - src/jobs/**\n");
const packNew = base.replace("model: sonnet", "model: opus");
const packClash = base.replace("  - src/server/**\n", "  - src/api/**\n");

describe("upgrading a shipped definition", () => {
  it.each([
    ["first install", undefined, undefined, packNew, "pack", packNew, packNew],
    ["untouched by the team: the pack's update", base, base, packNew, "pack", packNew, packNew],
    ["team edit, no pack change: yours kept", yours, base, base, "kept", yours, base],
    [
      "both changed, different lines: merged",
      yours,
      base,
      packNew,
      "merged",
      yours.replace("model: sonnet", "model: opus"),
      packNew,
    ],
    [
      "no base recorded, differs: yours kept, the pack's version becomes the base",
      yours,
      undefined,
      packNew,
      "kept",
      yours,
      packNew,
    ],
  ] as const)("%s", (_name, installed, recorded, pack, kind, content, nextBase) => {
    expect(upgradeDefinition(installed, recorded, pack)).toEqual({ kind, content, base: nextBase });
  });

  it("both changed the same lines: a conflict, yours kept unchanged, the base not advanced, both sides shown", () => {
    const outcome = upgradeDefinition(yours, base, packClash);
    expect(outcome).toMatchObject({ kind: "conflict", content: yours, base });
    expect(outcome.kind === "conflict" && outcome.conflict).toContain(
      "<<<<<<< yours\n  - src/server/**\n  - src/jobs/**\n=======\n  - src/api/**\n>>>>>>> lanes\n",
    );
  });
});

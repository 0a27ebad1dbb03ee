import { describe, expect, it } from "vitest";
import { upgradeDefinition } from "../../src/install/merge.ts";
import { hashText } from "../../src/install/record.ts";

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

  const resolution = base.replace("  - src/server/**\n", "  - src/api/**\n  - src/jobs/**\n");
  const marked = `${base}<<<<<<< yours\n  - src/jobs/**\n=======\n  - src/api/**\n>>>>>>> lanes\n`;
  const pending = { yours: hashText(yours), lanes: hashText(packClash) };
  it.each([
    [
      "recorded, your file changed since, no markers: resolved, the base advances",
      resolution,
      pending,
      "resolved",
      packClash,
    ],
    ["recorded, your file unchanged: still a conflict", yours, pending, "conflict", base],
    ["recorded, markers still in your file: still a conflict", marked, pending, "conflict", base],
    [
      "recorded for another pack version: a conflict again",
      resolution,
      { ...pending, lanes: hashText(packNew) },
      "conflict",
      base,
    ],
    ["nothing recorded: a conflict", resolution, undefined, "conflict", base],
  ] as const)("%s", (_name, installed, recorded, kind, nextBase) => {
    const outcome = upgradeDefinition(installed, base, packClash, recorded);
    expect([outcome.kind, outcome.content, outcome.base]).toEqual([kind, installed, nextBase]);
  });
});

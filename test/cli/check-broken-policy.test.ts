/** `lanes check` while `lanes.yaml` does not compile: it judges with the last good compiled policy, as the guard does. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../runtime/cli-helper.ts";

const dir = mkdtempSync(join(tmpdir(), "lanes-check-broken-"));
const yaml = join(dir, ".claude", "lanes.yaml");
const good =
  "version: 1\nrules:\n  - id: team.no-cowsay\n    effect: deny\n    why: no cows\n    instead: use echo\n    command: { program: cowsay }\n";
beforeAll(async () => {
  mkdirSync(join(dir, ".claude"), { recursive: true });
  writeFileSync(yaml, good);
  const built = await cli(["build", "--root", dir, "--target", "project"], dir);
  expect(built.code, built.err).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("lanes check with a broken lanes.yaml", () => {
  it.each([
    [
      "a rule id the schema refuses",
      `${good}  - id: Bad Id\n    why: w\n    instead: i\n    command: { program: x }\n`,
    ],
    ["text that is not YAML", `${good}  - id: [unclosed\n`],
  ])("%s: still decides with the last good policy and says so in one line on stderr", async (_name, broken) => {
    writeFileSync(yaml, broken);
    const run = await cli(["check", "--project", dir, "cowsay moo"], dir);
    expect(run.code).toBe(2);
    expect(run.out).toContain("rules:  team.no-cowsay (project layer)");
    expect(run.out).toContain("(the last good compile: the policy files do not compile)");
    expect(run.err).toMatch(
      /^warning: the policy does not compile: .*lanes\.yaml:\d+: .*; judged with the last good compiled policy, as the guard does until that line is fixed\n$/,
    );
    const json = await cli(["check", "--project", dir, "--json", "cowsay moo"], dir);
    expect(JSON.parse(json.out)).toMatchObject({ decision: "deny", rules: ["team.no-cowsay"] });
    expect(json.err.split("\n").filter((l) => l !== "")).toHaveLength(1);
  });

  it("without a last good compile it stops with the compile error", async () => {
    writeFileSync(yaml, `${good}  - id: Bad Id\n    why: w\n    instead: i\n    command: { program: x }\n`);
    rmSync(join(dir, ".claude", "lanes", "state", "policy.json"));
    const run = await cli(["check", "--project", dir, "cowsay moo"], dir);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/the policy does not compile: .*lanes\.yaml:\d+: /);
    expect(readFileSync(yaml, "utf8")).toContain("Bad Id");
  });
});

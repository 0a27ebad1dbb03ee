/** `lanes check` shows the files whose code a call runs or stores, as read from disk now. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "../runtime/cli-helper.ts";

const dir = mkdtempSync(join(tmpdir(), "lanes-check-files-"));
mkdirSync(join(dir, ".claude"));
writeFileSync(join(dir, "Makefile"), "all: build\nbuild:\n\tgo build ./...\nwipe:\n\trm -rf $(HOME)\n");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("lanes check and code on disk", () => {
  it("names the file and line in the reason, and lists the files read", async () => {
    const run = await cli(["check", "--project", dir, "make wipe"], dir);
    expect(run.code).toBe(2);
    expect(run.out).toContain("[fs.delete-home]");
    expect(run.out).toContain("(Makefile:5)");
    expect(run.out).toMatch(
      /files read for the code they hold \(as they are now\):\n {2}Makefile {2}Makefile: read \(`wipe`: recipes of `wipe`\)\n/,
    );
  });

  it("reports them in --json, for a call that runs a harmless target too", async () => {
    const run = await cli(["check", "--project", dir, "--json", "make"], dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).files).toEqual([
      { path: "Makefile", as: "Makefile", outcome: "read", detail: "`all`: recipes of `build`" },
    ]);
  });
});

/**
 * A missing file as Claude Code's Bash sandbox shows it: `/dev/null`'s device bound at its name
 * (src/host/sandbox-mask.ts). The compiled policy stays fresh and a CLI command gets the compiled
 * policy, as the unsandboxed hooks do; anything else at a source's name is still a change.
 * The device nodes are made with `mknod` (root only): skipped where that is refused.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildPolicy, loadPolicy } from "../../src/config/load.ts";
import { readCompiledPolicy } from "../../src/config/policy-file.ts";
import { isPresent, readOptionalText } from "../../src/host/sandbox-mask.ts";
import { policyForCli } from "../../src/cli/policy-source.ts";

const dir = mkdtempSync(join(tmpdir(), "lanes-sandbox-mask-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mknod = (path: string, minor: number): boolean =>
  spawnSync("mknod", [path, "c", "1", String(minor)]).status === 0;
const probe = join(dir, "probe");
const MKNOD = process.platform === "linux" && mknod(probe, 3);

let n = 0;
/** A project with a lanes.yaml and its compiled policy, `lanes.local.yaml` absent at compile time. */
function project(): { root: string; home: string; local: string; compiled: string } {
  const root = join(dir, `p${n++}`);
  const home = join(root, "home");
  mkdirSync(join(root, ".claude"), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(root, ".claude", "lanes.yaml"), "version: 1\n");
  const built = buildPolicy({ projectDir: root, home, lanesVersion: "test" });
  if (!built.ok) throw new Error(built.issues[0]?.message);
  return {
    root,
    home,
    local: join(root, ".claude", "lanes.local.yaml"),
    compiled: join(root, ".claude", "lanes", "state", "policy.json"),
  };
}

describe.skipIf(!MKNOD)("the sandbox's mask of a missing file", () => {
  it("is absent: the compiled policy stays fresh, a CLI command reads it, a compile in memory skips the layer", () => {
    const p = project();
    expect(mknod(p.local, 3)).toBe(true);
    expect(isPresent(p.local)).toBe(false);
    expect(readOptionalText(p.local)).toBeUndefined();
    expect(readCompiledPolicy(p.compiled).ok).toBe(true);
    expect(policyForCli(p.root, p.home)).toMatchObject({ origin: p.compiled, note: undefined });
    expect(loadPolicy({ projectDir: p.root, home: p.home, lanesVersion: "test" }).ok).toBe(true);
  });

  // near misses: something is at the source's name, so the policy no longer says what the files say
  it.each([
    ["an empty regular file", (path: string) => writeFileSync(path, "")],
    ["another character device (`/dev/zero`'s)", (path: string) => expect(mknod(path, 5)).toBe(true)],
    ["a symbolic link to `/dev/null`", (path: string) => symlinkSync("/dev/null", path)],
  ])("is not %s: the compiled policy goes stale", (_, plant) => {
    const p = project();
    plant(p.local);
    expect(isPresent(p.local)).toBe(true);
    expect(readCompiledPolicy(p.compiled)).toMatchObject({ ok: false, kind: "stale" });
  });
});

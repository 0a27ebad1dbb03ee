/**
 * Nothing lanes prints or installs makes npx resolve `lanes` from the registry: a bare `npx lanes`
 * in a repository where lanes is not installed fetches whatever package holds that name. Every
 * source string, shipped definition, the README and every file `init` writes name a command that
 * works in an installed repository (`node .claude/lanes/dist/cli.mjs ...` or `npx --no-install lanes ...`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { planInstall } from "../../src/install/install.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const BARE = /\bnpx\s+lanes\b/;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}

const offenders = (entries: [string, string][]): string[] =>
  entries.flatMap(([name, text]) =>
    text
      .split("\n")
      .map((line, i) => [line, i] as const)
      .filter(([line]) => BARE.test(line))
      // the README names the bare form once, to warn against it
      .filter(([line]) => !line.includes("never bare `npx` with `lanes`"))
      .map(([line, i]) => `${name}:${i + 1}: ${line.trim()}`),
  );

const base = realpathSync(mkdtempSync(join(tmpdir(), "lanes-npx-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("no bare `npx lanes`", () => {
  it("the pattern finds the bare form and not the safe ones", () => {
    expect(
      offenders([["x", "run `npx lanes init`\nnpx --no-install lanes init\nnode .claude/lanes/dist/cli.mjs"]]),
    ).toEqual(["x:1: run `npx lanes init`"]);
  });

  it("in the sources, the shipped definitions and the README", () => {
    const texts = [...files(join(ROOT, "src")), ...files(join(ROOT, "definitions")), join(ROOT, "README.md")].map(
      (f) => [relative(ROOT, f), readFileSync(f, "utf8")] as [string, string],
    );
    expect(offenders(texts)).toEqual([]);
  });

  it("in every file `init` writes into a repository", () => {
    spawnSync("git", ["init", "-q", base]);
    const plan = planInstall({ target: base, packRoot: ROOT });
    expect(plan.ok, plan.ok ? "" : plan.problems.join("\n")).toBe(true);
    if (!plan.ok) return;
    const written = plan.changes
      .filter((c) => c.content !== undefined && !c.path.startsWith("lanes/dist/"))
      .map((c) => [c.path, c.content!] as [string, string]);
    expect(written.map(([p]) => p)).toContain("settings.json");
    expect(offenders(written)).toEqual([]);
  });

  it("in the bundles `init` copies (messages compiled into the CLI and hooks)", () => {
    const dist = files(join(ROOT, "dist")).filter((f) => /\.(c|m)?js$/.test(f));
    expect(dist.length).toBeGreaterThan(0);
    expect(offenders(dist.map((f) => [relative(ROOT, f), readFileSync(f, "utf8")]))).toEqual([]);
  });
});

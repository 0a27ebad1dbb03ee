/**
 * The way in, as a new user takes it: the package packed with `npm pack` and installed from the
 * tarball (offline) into a fresh git repository with its own settings deny rule, a `src/client` +
 * `src/server` + `src/db` layout and its own `.gitignore`; then `init`, `lanes test` (green), `doctor`
 * (the lane that owns nothing, the folder no lane owns), an upgrade conflict resolved by hand, and a
 * second upgrade without one. The "newer version" is the installed package with its definitions
 * edited, run through the repository's own `node_modules/.bin/lanes`. Needs `npm run build` (the
 * tarball holds dist/).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const AGENT = "agents/backend.yaml";
let base: string;
let pack: string;
let repo: string;

const env = () => ({
  PATH: process.env["PATH"],
  HOME: join(base, "home"),
  npm_config_cache: join(base, "npm-cache"),
});
const lanes = (...args: string[]) =>
  spawnSync(join(repo, "node_modules", ".bin", "lanes"), args, { cwd: repo, env: env(), encoding: "utf8" });
const init = () => lanes("init");
const installed = () => readFileSync(join(repo, ".claude/lanes", AGENT), "utf8");
const edit = (path: string, from: string, to: string) => {
  const text = readFileSync(path, "utf8");
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
};
const npm = (args: string[], cwd: string) => {
  const run = spawnSync("npm", [...args, "--offline", "--no-audit", "--no-fund", "--silent"], {
    cwd,
    env: env(),
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
};

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "lanes-upgrade-")));
  repo = join(base, "repo");
  mkdirSync(join(base, "home"), { recursive: true });
  for (const [file, text] of [
    ["package.json", '{ "name": "shop", "version": "1.0.0", "private": true }\n'],
    [".gitignore", "node_modules/\ndist/\n.env\n"],
    [".claude/settings.json", '{ "permissions": { "deny": ["Bash(curl:*)"] } }\n'],
    ["src/client/app.tsx", "export const App = () => null;\n"],
    ["src/server/api.ts", "export const api = 1;\n"],
    ["src/db/schema.ts", "export const schema = 1;\n"],
  ] as const) {
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    writeFileSync(join(repo, file), text);
  }
  spawnSync("git", ["init", "-q"], { cwd: repo });
  npm(["pack", ROOT, "--pack-destination", base], base);
  const tarball = readdirSync(base).find((f) => f.endsWith(".tgz"))!;
  npm(["install", "--save-dev", join(base, tarball)], repo);
  pack = join(repo, "node_modules", "@lanes-dev", "lanes");
}, 60_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("installed from the packed tarball", () => {
  it("init, the starter table green with the repository's own deny rule, doctor names the layout gaps", () => {
    const first = init();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      "  tracked   .claude/.gitignore: added `!/lanes/dist/` (undoes `.gitignore:2:dist/`)",
    );
    // init proposes, never writes
    expect(first.stdout).toContain("  layout    lane `frontend` owns no file here");
    expect(readFileSync(join(repo, ".claude/lanes/agents/frontend.yaml"), "utf8")).not.toContain("src/client");

    const test = lanes("test");
    expect([test.status, test.stdout.trim().split("\n").at(-1)]).toEqual([0, "7 passed, 0 failed"]);

    const doctor = lanes("doctor");
    expect(doctor.status, doctor.stdout).toBe(0);
    expect(doctor.stdout.split("\n").filter((l) => l.includes(" layout: "))).toEqual([
      "warn  layout: lane `docs` owns no file here: its 7 globs (`docs/**/*.{md,mdx,png,jpg,jpeg,gif,svg,webp}`, `docs/api/openapi.yaml`, `/README.md`, ...) match no file in the repository, so it may write nothing that exists; put the folders it should write in `owns` in .claude/lanes/agents/docs.yaml, or leave it for files still to come",
      "warn  layout: lane `frontend` owns no file here: its 14 globs (`src/components/**`, `src/app/**`, `src/pages/**`, ...) match no file in the repository, so it may write nothing that exists; add `src/client/**` to `owns` in .claude/lanes/agents/frontend.yaml",
      "warn  layout: lane `qa` owns no file here: its 14 globs (`test/**`, `tests/**`, `e2e/**`, ...) match no file in the repository, so it may write nothing that exists; put the folders it should write in `owns` in .claude/lanes/agents/qa.yaml, or leave it for files still to come",
      "warn  layout: `src/client/` (1 source file) is owned by no lane, so no specialist may write it; add `src/client/**` to `owns` of `frontend` in .claude/lanes/agents/frontend.yaml",
    ]);
  });
});

describe("an upgrade conflict resolved by hand stays resolved", () => {
  it("install, conflict (non-zero, a summary), resolve, clean init, a second upgrade without conflict", () => {
    expect(init().status).toBe(0);

    // the team and the next pack version change the same line
    edit(join(repo, ".claude/lanes", AGENT), "color: blue\n", "color: red\n");
    edit(join(pack, "definitions", AGENT), "color: blue\n", "color: green\n");
    const ours = installed();

    const conflict = init();
    expect(conflict.status).toBe(1);
    const lines = conflict.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      "lanes init: conflict in `.claude/lanes/agents/backend.yaml`: 1 hunk(s) where your edits and lanes' update change the same lines; your file is kept unchanged. to resolve: `cp .claude/state/upgrade/agents/backend.yaml .claude/lanes/agents/backend.yaml` (both sides, between <<<<<<< yours and >>>>>>> lanes), edit each hunk to what you want, then run `npx --no-install lanes init` again",
    );
    expect(lines[1]).toBe(
      "lanes init: installed, but 1 definition(s) have an upgrade conflict (above): resolve them and run `npx --no-install lanes init` again",
    );
    expect(installed()).toBe(ours);

    // not resolved yet: the same conflict, still non-zero
    const again = init();
    expect([again.status, again.stderr.split("\n")[0]]).toEqual([1, lines[0]]);

    // the copy with markers is not a resolution either
    const side = readFileSync(join(repo, ".claude/state/upgrade", AGENT), "utf8");
    expect(side).toContain("<<<<<<< yours\ncolor: red\n=======\ncolor: green\n>>>>>>> lanes\n");
    writeFileSync(join(repo, ".claude/lanes", AGENT), side);
    const marked = init();
    expect(marked.status).toBe(1);
    expect(marked.stderr).toContain("still holds conflict markers");

    // resolved by hand: a colour of their own
    writeFileSync(
      join(repo, ".claude/lanes", AGENT),
      side.replace("<<<<<<< yours\ncolor: red\n=======\ncolor: green\n>>>>>>> lanes\n", "color: purple\n"),
    );
    const resolved = init();
    expect(resolved.status, resolved.stderr).toBe(0);
    expect(resolved.stderr).toBe("");
    expect(resolved.stdout).toContain("  resolved  .claude/lanes/agents/backend.yaml");
    expect(readFileSync(join(repo, ".claude/lanes/base", AGENT), "utf8")).toBe(
      readFileSync(join(pack, "definitions", AGENT), "utf8").replace("../../schemas/", "../schemas/"),
    );
    expect(readFileSync(join(repo, ".claude/lanes/install.json"), "utf8")).not.toContain('"conflicts"');

    const settled = init();
    expect([settled.status, settled.stderr]).toEqual([0, ""]);
    expect(settled.stdout).not.toContain("resolved");
    expect(settled.stdout).toContain("lanes is up to date");

    // a second upgrade changes another line: merged, no conflict
    edit(join(pack, "definitions", AGENT), "  - src/pages/api/**\n", "  - src/pages/api/**\n  - src/routes/**\n");
    const second = init();
    expect([second.status, second.stderr]).toEqual([0, ""]);
    expect(second.stdout).toContain("  merged    .claude/lanes/agents/backend.yaml");
    expect(installed()).toContain("  - src/routes/**\n");
    expect(installed()).toContain("color: purple\n");
  });
});

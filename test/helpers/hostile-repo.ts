/**
 * A hostile git repository: every program git can be told to run is configured, and each one
 * leaves a marker file when it runs. What lanes' own git calls must never trigger.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface HostileRepo {
  /** The work tree. */
  readonly dir: string;
  /** Where the payloads leave their markers (outside the work tree). */
  readonly marks: string;
  /** The markers written so far, sorted. */
  markers(): string[];
  /** Forgets the markers written so far. */
  clear(): void;
  /** Makes the tracked file look changed to git's stat check, so the next status reads it (and filters it). */
  touch(): void;
  /** Runs plain git in the work tree (the control: it does trigger the payloads). */
  plainGit(args: readonly string[], input?: string): string;
  cleanup(): void;
}

/** The payload names, one marker each. */
export const PAYLOADS = [
  "fsmonitor",
  "hook-pre-commit",
  "hook-post-checkout",
  "hookspath",
  "pager",
  "textconv",
  "diff-external",
  "filter-clean",
  "filter-smudge",
  "filter-process",
  "include-fsmonitor",
  "include-textconv",
  "credential-helper",
  "askpass",
  "editor",
  "gpg",
  "env-external-diff",
] as const;

/**
 * Builds the repository: one commit, a tracked file with filter and diff attributes, and every
 * payload configured. In `existing` (a work tree, such as an installed project) when given; the
 * payloads' scripts and markers then live in a temp directory of their own.
 */
export function hostileRepo(existing?: string): HostileRepo {
  const root = mkdtempSync(join(tmpdir(), "lanes-hostile-"));
  const dir = existing ?? join(root, "repo");
  const marks = join(root, "marks");
  mkdirSync(dir, { recursive: true });
  mkdirSync(marks);
  const git = (args: readonly string[], input?: string): string =>
    execFileSync("git", args, {
      cwd: dir,
      encoding: "utf8",
      stdio: ["pipe", "pipe", "pipe"],
      ...(input !== undefined && { input }),
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_TERMINAL_PROMPT: "0" },
    });
  const mark = (name: string): string => `touch '${join(marks, name)}'`;
  if (existing === undefined) git(["init", "-q", "-b", "main"]);
  git(["config", "user.email", "dev@example.com"]);
  git(["config", "user.name", "dev"]);
  writeFileSync(join(dir, "a.txt"), "one\n");
  writeFileSync(join(dir, ".gitattributes"), "*.txt filter=evil diff=evil\n");
  git(["add", "-A"]);
  git(["commit", "-q", "-m", "initial"]);
  // the hooks directory of the repository, and another one named by core.hooksPath in an included file
  const hooks = join(dir, ".git", "hooks");
  mkdirSync(hooks, { recursive: true });
  for (const [name, marker] of [
    ["pre-commit", "hook-pre-commit"],
    ["post-checkout", "hook-post-checkout"],
  ] as const) {
    writeFileSync(join(hooks, name), `#!/bin/sh\n${mark(marker)}\n`);
    chmodSync(join(hooks, name), 0o755);
  }
  const script = (name: string, body: string): string => {
    const path = join(root, name);
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };
  const config: readonly (readonly [string, string])[] = [
    ["core.fsmonitor", `${mark("fsmonitor")}; false`],
    ["core.pager", `${mark("pager")}; cat`],
    ["pager.log", `${mark("pager")}; cat`],
    ["diff.evil.textconv", `${mark("textconv")}; cat`],
    ["diff.external", script("external", mark("diff-external"))],
    ["filter.evil.clean", `${mark("filter-clean")}; cat`],
    ["filter.evil.smudge", `${mark("filter-smudge")}; cat`],
    ["credential.helper", `!${mark("credential-helper")}; true`],
    ["core.askPass", script("askpass", `${mark("askpass")}\necho x`)],
    ["core.editor", `${mark("editor")}; true`],
    ["gpg.program", script("gpg", mark("gpg"))],
    ["log.showSignature", "true"],
    ["commit.gpgSign", "true"],
  ];
  for (const [key, value] of config) git(["config", key, value]);
  // an included file sets another fsmonitor, a second textconv driver and a hooks path
  const hooksPath = join(root, "more-hooks");
  mkdirSync(hooksPath);
  writeFileSync(join(hooksPath, "pre-commit"), `#!/bin/sh\n${mark("hookspath")}\n`);
  chmodSync(join(hooksPath, "pre-commit"), 0o755);
  const included = join(root, "included.cfg");
  writeFileSync(
    included,
    [
      "[core]",
      `\tfsmonitor = ${mark("include-fsmonitor")}; false`,
      `\thooksPath = ${hooksPath}`,
      '[diff "other"]',
      `\ttextconv = ${mark("include-textconv")}; cat`,
      '[filter "proc"]',
      `\tprocess = ${mark("filter-process")}; false`,
      "",
    ].join("\n"),
  );
  git(["config", "include.path", included]);
  writeFileSync(join(dir, ".gitattributes"), "*.txt filter=evil diff=evil\n*.md diff=other filter=proc\n");
  writeFileSync(join(dir, "b.md"), "bee\n");
  let touches = 0;
  const markers = (): string[] => readdirSync(marks).sort();
  const clear = (): void => {
    for (const name of readdirSync(marks)) rmSync(join(marks, name));
  };
  return {
    dir,
    marks,
    markers,
    clear,
    touch: () => {
      // a new size each time: git sees the change even within its timestamp granularity
      writeFileSync(join(dir, "a.txt"), `changed ${"+".repeat(++touches)}\n`);
      const past = new Date(Date.now() - 3_600_000);
      utimesSync(join(dir, "a.txt"), past, past);
    },
    plainGit: git,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

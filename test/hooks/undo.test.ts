/**
 * Nothing lost (issue 25): every destructive-in-project form lanes lets through runs for real in a
 * repository with uncommitted and untracked work, through the built hooks (snapshot before, state
 * after), and `lanes undo` brings the work tree back byte for byte, modes included.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  mkdtempSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { hookInput, installedProject, ROOT, runHook, type Project } from "../helpers/hooks.ts";

const CLI = join(ROOT, "dist", "cli.mjs");
let project: Project | undefined;
afterEach(() => project?.cleanup());

const sh = (p: Project, script: string) => {
  const run = spawnSync("bash", ["-c", script], { cwd: p.dir, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${script}: ${run.stderr}`);
  return run.stdout;
};

let template: Project | undefined;
afterAll(() => template?.cleanup());

/** A fresh copy of {@link buildWorkProject}'s (built once per file: `lanes init` is the slow part). */
function workProject(): Project {
  template ??= buildWorkProject();
  const base = realpathSync(mkdtempSync(join(tmpdir(), "lanes-undo-")));
  cpSync(join(template.dir, ".."), base, { recursive: true, verbatimSymlinks: true });
  const dir = join(base, "project");
  return {
    dir,
    home: join(base, "home"),
    path: (rel) => join(dir, rel),
    write: (rel, content) => {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), content);
    },
    read: (rel) => readFileSync(join(dir, rel), "utf8"),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** A repository with committed, changed, untracked and ignored files, and archives that overwrite some of them. */
function buildWorkProject(): Project {
  const p = installedProject({
    ".gitignore": "node_modules/\n",
    "README.md": "# demo\n",
    "a.txt": "alpha\n",
    "src/app.ts": "export const app = 1;\n",
    "src/lib/util.ts": "export const util = 2;\n",
    "src/lib/run.sh": "#!/bin/sh\necho run\n",
    "tools/clean.py": "import shutil\nshutil.rmtree('src')\n",
  });
  chmodSync(p.path("src/lib/run.sh"), 0o755);
  // archives whose entries overwrite a changed file and an untracked one
  const stage = join(p.dir, "..", "stage");
  mkdirSync(stage);
  writeFileSync(join(stage, "a.txt"), "from the archive\n");
  writeFileSync(join(stage, "b2.txt"), "archive b2\n");
  mkdirSync(p.path("fixtures"));
  spawnSync("tar", ["cf", p.path("fixtures/over.tar"), "-C", stage, "a.txt", "b2.txt"]);
  spawnSync("zip", ["-q", p.path("fixtures/over.zip"), "a.txt", "b2.txt"], { cwd: stage });
  sh(p, "git add -A && git -c user.name=t -c user.email=t@t commit -qm base");
  // the day's work: uncommitted edits, untracked files and folders, odd modes, binary content
  p.write("src/app.ts", "export const app = 42; // uncommitted\n");
  p.write("a.txt", "alpha, edited\n");
  p.write("README.md", "# demo\n\nnotes not committed\n");
  p.write("src/notes.md", "untracked notes\n");
  p.write("src/lib/new.ts", "export const fresh = true;\n");
  p.write("data/raw/input.json", '{"rows": [1, 2, 3]}\n');
  writeFileSync(p.path("data/raw/blob.bin"), Buffer.from([0, 255, 10, 13, 0, 1]));
  chmodSync(p.path("data/raw/blob.bin"), 0o640);
  p.write("b2.txt", "untracked b2\n");
  p.write("node_modules/dep/index.js", "ignored\n");
  return p;
}

/** Every file of the work tree but `.git/` and lanes' state: path -> mode and content hash. */
function tree(p: Project): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    const abs = rel === "" ? p.dir : join(p.dir, rel);
    for (const name of readdirSync(abs).sort()) {
      const r = rel === "" ? name : `${rel}/${name}`;
      if (r === ".git" || r === ".claude/state" || r === ".claude/lanes/state") continue;
      const st = lstatSync(join(p.dir, r));
      if (st.isDirectory()) walk(r);
      else {
        const content = st.isSymbolicLink() ? Buffer.from(readlinkSync(join(p.dir, r))) : readFileSync(join(p.dir, r));
        out[r] = `${(st.mode & 0o7777).toString(8)} ${createHash("sha256").update(content).digest("hex").slice(0, 16)}`;
      }
    }
  };
  walk("");
  return out;
}

function pre(p: Project, command: string, fields: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const input = hookInput(p, "PreToolUse", { tool_name: "Bash", tool_input: { command }, ...fields });
  return { input, run: runHook(p, "pre-tool-use.cjs", input, env) };
}

function post(p: Project, input: Record<string, unknown>) {
  return runHook(p, "post-tool-use.cjs", { ...input, hook_event_name: "PostToolUse", tool_response: {} });
}

function lanes(p: Project, ...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], {
    cwd: p.dir,
    env: { PATH: process.env["PATH"], HOME: p.home },
    encoding: "utf8",
  });
}

const context = (json: Record<string, unknown> | undefined): string =>
  String((json?.["hookSpecificOutput"] as Record<string, unknown> | undefined)?.["additionalContext"] ?? "");

// prettier-ignore
const DESTRUCTIVE: readonly { name: string; command: string }[] = [
  { name: "rm -rf of a source folder", command: "rm -rf src" },
  { name: "rm -rf of an untracked folder", command: "rm -rf data/raw" },
  { name: "rm in a subshell after cd", command: "cd src && rm -rf lib" },
  { name: "find -delete", command: "find src -name '*.ts' -delete" },
  { name: "sed -i", command: "sed -i 's/alpha/OMEGA/' a.txt" },
  { name: ": > truncation", command: ": > README.md" },
  { name: "redirection over a file", command: "echo gone > src/app.ts" },
  { name: "truncate", command: "truncate -s 0 a.txt" },
  { name: "cp /dev/null", command: "cp /dev/null README.md" },
  { name: "mv over a file", command: "mv b2.txt a.txt" },
  { name: "tar extracted over files", command: "tar xf fixtures/over.tar" },
  { name: "unzip over files", command: "unzip -oq fixtures/over.zip" },
  { name: "python code that deletes", command: "python3 -c 'import shutil; shutil.rmtree(\"src\")'" },
  { name: "node code that deletes", command: "node -e 'require(\"fs\").rmSync(\"data\", { recursive: true })'" },
  { name: "a script file lanes cannot read", command: "python3 tools/clean.py" },
  { name: "a heredoc piped to bash", command: "cat <<'EOF' | bash\nrm -rf src data\nrm -f a.txt\nEOF" },
  { name: "bash -c", command: "bash -c 'rm -rf src b2.txt'" },
];

describe("every destructive-in-project form lanes lets through can be undone", () => {
  test.each(DESTRUCTIVE)("$name: `$command`", ({ command }) => {
    project = workProject();
    const p = project;
    const before = tree(p);
    const { input, run } = pre(p, command);
    // no objection: the call runs; the model is told a snapshot was kept
    expect(run.json?.["hookSpecificOutput"]).not.toHaveProperty("permissionDecision");
    expect(context(run.json)).toContain("lanes undo");
    spawnSync("bash", ["-c", command], { cwd: p.dir });
    expect(tree(p)).not.toEqual(before);
    post(p, input);
    const undo = lanes(p, "undo");
    expect(undo.stderr).toBe("");
    expect(undo.status).toBe(0);
    // node_modules is ignored output: never kept, never touched
    expect(tree(p)).toEqual(before);
    // undone once: a second undo has nothing left
    expect(lanes(p, "undo").status).toBe(1);
  });
});

describe("what pays nothing, and what a snapshot never changes", () => {
  test.each([
    ["ls -la src", "reads"],
    ["git status", "git reads"],
    ["echo hi > /tmp/lanes-undo-outside.txt", "writes outside the project"],
    ["cat a.txt | wc -l", "a pipeline of reads"],
    ["cp src/app.ts build/ && cat README.md", "a copy to a path that does not exist yet"],
    ["echo hi > src/fresh.txt && mkdir -p out && cp a.txt out/a.txt", "new files in the project, by name"],
  ])("`%s` (%s): no answer, no git process, no snapshot", (command) => {
    project = workProject();
    const p = project;
    // a `git` that leaves a mark: the hook must not start one
    const bin = join(p.dir, "..", "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "git"), `#!/bin/sh\necho called >> ${join(p.dir, "..", "git-called")}\nexit 1\n`);
    chmodSync(join(bin, "git"), 0o755);
    const { run } = pre(p, command, {}, { PATH: `${bin}:${process.env["PATH"]}` });
    expect(run.stdout).toBe("");
    expect(existsSync(join(p.dir, "..", "git-called"))).toBe(false);
    expect(existsSync(p.path(".claude/lanes/state/snapshots/index.json"))).toBe(false);
  });

  test.each([
    ["git reset --hard", "git.reset-hard"],
    ["git clean -fdx", "git.clean-force"],
    ["git checkout -- a.txt", "git.checkout-discard"],
  ])("`%s` keeps its decision and takes no snapshot [%s]", (command, rule) => {
    project = workProject();
    const { run } = pre(project, command);
    const out = run.json?.["hookSpecificOutput"] as Record<string, unknown>;
    expect(String(out["permissionDecisionReason"])).toContain(rule);
    if (out["permissionDecision"] === "deny")
      expect(existsSync(project.path(".claude/lanes/state/snapshots/index.json"))).toBe(false);
  });

  test("a subagent's delete in another lane's files stays a lane violation, with no snapshot", () => {
    project = workProject();
    const { run } = pre(project, "rm -rf src", { agent_id: "a1234567890abcdef", agent_type: "docs" });
    const out = run.json?.["hookSpecificOutput"] as Record<string, unknown>;
    expect(out["permissionDecision"]).toBe("deny");
    expect(String(out["permissionDecisionReason"])).toContain("lane.write-outside-owned");
    expect(existsSync(project.path(".claude/lanes/state/snapshots/index.json"))).toBe(false);
  });

  test("a clean tree: nothing git could not give back, no snapshot, no answer", () => {
    project = installedProject({ "src/app.ts": "x\n", ".gitignore": ".claude/\n" });
    sh(project, "git add -A && git -c user.name=t -c user.email=t@t commit -qm base");
    // a `git` that logs its subcommands: the status finds nothing to keep, so no tree is built
    const bin = join(project.dir, "..", "bin");
    const log = join(project.dir, "..", "git-log");
    const real = spawnSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim();
    mkdirSync(bin);
    writeFileSync(join(bin, "git"), `#!/bin/sh\necho "$*" >> ${log}\nexec ${real} "$@"\n`);
    chmodSync(join(bin, "git"), 0o755);
    const { run } = pre(project, "rm -rf src", {}, { PATH: `${bin}:${process.env["PATH"]}` });
    expect(run.stdout).toBe("");
    const calls = readFileSync(log, "utf8");
    expect(calls).toContain("status");
    expect(calls).not.toMatch(/read-tree|write-tree|hash-object/);
  });
});

describe("a snapshot that cannot be taken is never silent", () => {
  test.each([
    [undefined, "ask"],
    ["a1234567890abcdef", "deny"],
  ])("too large (agent %s): %s with the reason [undo.snapshot-failed]", (agentId, decision) => {
    project = workProject();
    const fields = agentId === undefined ? {} : { agent_id: agentId, agent_type: "general-purpose" };
    const { run } = pre(project, "rm -rf src data", fields, { LANES_SNAPSHOT_MAX_BYTES: "10" });
    const out = run.json?.["hookSpecificOutput"] as Record<string, unknown>;
    expect(out["permissionDecision"]).toBe(decision);
    expect(String(out["permissionDecisionReason"])).toContain("[undo.snapshot-failed]");
    expect(String(out["permissionDecisionReason"])).toContain("more than the 1 KiB a snapshot may hold");
  });
});

describe("lanes undo", () => {
  test("files changed since the snapshot are kept without --force, and named", () => {
    project = workProject();
    const p = project;
    const before = tree(p);
    const { input } = pre(p, "rm -rf src");
    sh(p, "rm -rf src");
    post(p, input);
    // the user (or the model) writes src/app.ts again after the call
    p.write("src/app.ts", "rewritten after the call\n");
    const dry = lanes(p, "undo", "--dry-run");
    expect(dry.status).toBe(1);
    expect(dry.stdout).toContain("would restore 4 files");
    expect(dry.stderr).toContain("`src/app.ts`");
    expect(existsSync(p.path("src/notes.md"))).toBe(false);
    const undo = lanes(p, "undo");
    expect(undo.status).toBe(1);
    expect(undo.stderr).toContain("changed since the snapshot and were kept: `src/app.ts`");
    expect(p.read("src/app.ts")).toBe("rewritten after the call\n");
    expect(p.read("src/notes.md")).toBe("untracked notes\n");
    const forced = lanes(p, "undo", "--force");
    expect(forced.status).toBe(0);
    expect(tree(p)).toEqual(before);
  });

  test("a file made since where a deleted folder was is not removed without --force", () => {
    project = workProject();
    const p = project;
    const before = tree(p);
    const { input } = pre(p, "rm -rf data/raw");
    sh(p, "rm -rf data/raw");
    post(p, input);
    p.write("data/raw", "a file made after the call\n");
    const undo = lanes(p, "undo");
    expect(undo.status).toBe(1);
    expect(undo.stderr).toContain("`data/raw/blob.bin`, `data/raw/input.json`");
    expect(p.read("data/raw")).toBe("a file made after the call\n");
    expect(lanes(p, "undo", "--force").status).toBe(0);
    expect(tree(p)).toEqual(before);
  });

  test("--list shows time, agent, command, files and size; an id picks an older snapshot", () => {
    project = workProject();
    const p = project;
    const first = pre(p, "rm -rf data/raw");
    sh(p, "rm -rf data/raw");
    post(p, first.input);
    const second = pre(p, ": > a.txt", { agent_id: "a1234567890abcdef", agent_type: "general-purpose" });
    sh(p, ": > a.txt");
    post(p, second.input);
    const list = lanes(p, "undo", "--list");
    const lines = list.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^[0-9a-f]{10} {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}main {2}2 files {2}26 B {2}rm -rf data\/raw$/,
    );
    expect(lines[1]).toContain("general-purpose  1 file");
    const id = lines[0]!.split(" ")[0]!;
    expect(lanes(p, "undo", id).status).toBe(0);
    expect(p.read("data/raw/input.json")).toBe('{"rows": [1, 2, 3]}\n');
    expect(p.read("a.txt")).toBe("");
    const audit = p.read(".claude/lanes/state/audit.jsonl");
    expect(audit).toContain('"event":"snapshot"');
    expect(audit).toContain('"event":"undo"');
  });

  test("the statusline offers the last snapshot of the session until it is undone", () => {
    project = workProject();
    const p = project;
    const { input } = pre(p, "rm -rf src");
    sh(p, "rm -rf src");
    post(p, input);
    const status = () =>
      spawnSync(process.execPath, [CLI, "statusline"], {
        cwd: p.dir,
        env: { PATH: process.env["PATH"], HOME: p.home },
        input: JSON.stringify({ session_id: input["session_id"], cwd: p.dir }),
        encoding: "utf8",
      }).stdout;
    expect(status()).toMatch(/ · snapshot [0-9a-f]{10} \d+s ago: `lanes undo` restores it\n$/);
    expect(lanes(p, "undo").status).toBe(0);
    expect(status()).not.toContain("snapshot");
  });

  test("without a repository, lanes' own store keeps and restores the files", () => {
    project = workProject();
    const p = project;
    sh(p, "rm -rf .git");
    const before = tree(p);
    const { input, run } = pre(p, "rm -rf src data");
    expect(context(run.json)).toContain("lanes undo");
    sh(p, "rm -rf src data");
    post(p, input);
    expect(lanes(p, "undo").status).toBe(0);
    expect(tree(p)).toEqual(before);
  });

  test("a snapshot changes nothing of git's: index, HEAD, branches, stash", () => {
    project = workProject();
    const p = project;
    // the copy changed every mtime: let git refresh its index once, then read it without writing
    sh(p, "git update-index -q --refresh || true");
    const state = () => [
      createHash("sha256")
        .update(readFileSync(p.path(".git/index")))
        .digest("hex"),
      sh(p, "git --no-optional-locks status --porcelain=v1 -uall"),
      sh(p, "git for-each-ref --format='%(refname) %(objectname)' refs/heads refs/tags refs/stash"),
      sh(p, "git rev-parse HEAD"),
    ];
    const was = state();
    pre(p, "rm -rf src data");
    expect(state()).toEqual(was);
    expect(sh(p, "git for-each-ref --format='%(refname)' refs/lanes")).toMatch(
      /^refs\/lanes\/snapshots\/[0-9a-f]{10}\n$/,
    );
  });
});

/**
 * An install a team can trust, with the real client: a teammate's clone of a repository whose
 * `.gitignore` has `dist/` has a working guard; a policy edited mid-session is enforced on the next
 * call without wedging the session; the model's write to lanes' configuration is asked; lanes
 * installed both as a plugin and in the project decides and logs each call once.
 */
import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import {
  explain,
  makeRepo,
  REPO_ROOT,
  runClaude,
  startMockApi,
  text,
  toolUse,
  type MockApi,
  type TempRepo,
  type Turn,
} from "./harness/index.ts";
import { installLanes } from "./install.ts";

let repos: TempRepo[] = [];
let api: MockApi | undefined;
afterEach(async () => {
  await api?.close();
  for (const r of repos) r.cleanup();
  repos = [];
  api = undefined;
});

const TEAM_FILES = {
  "README.md": "# shop\n",
  ".gitignore": "node_modules/\ndist/\nbuild/\n*.log\n.env\n",
  ".claude/settings.json": '{\n  "permissions": {\n    "deny": ["Bash(curl:*)"]\n  }\n}\n',
};

const git = (dir: string, ...args: string[]) => {
  const run = spawnSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.com", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: process.env["PATH"] ?? "" },
  });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
};

interface AuditEntry {
  event: string;
  tool?: string;
  subject?: string;
  decision?: string;
  rules?: string[];
}
const auditOf = (repo: TempRepo): AuditEntry[] =>
  (repo.read(".claude/lanes/state/audit.jsonl") ?? "")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as AuditEntry);

describe("a team install with the real client", () => {
  it("a clone of a repository that ignores dist/ has a working guard, with nothing installed", async () => {
    const origin = makeRepo(TEAM_FILES);
    const clone = makeRepo({});
    repos.push(origin, clone);
    installLanes(origin);
    git(origin.dir, "add", "-A");
    git(origin.dir, "commit", "-qm", "lanes");
    git(clone.dir, "pull", "-q", origin.dir, "main");
    expect(clone.read(".claude/lanes/dist/pre-tool-use.cjs")).toBeDefined();
    expect(clone.read(".claude/lanes/state/policy.json")).toBeUndefined();

    api = await startMockApi({
      main: [
        [toolUse("Read", { file_path: clone.path("README.md") })],
        [toolUse("Bash", { command: "rm -rf ~", description: "clean" })],
        [toolUse("Bash", { command: "git status", description: "status" })],
        [text("done")],
      ],
    });
    const run = await runClaude({ repo: clone, api, prompt: "go", args: ["--allowedTools", "Bash"] });
    const [read, rm, status] = api.toolResults("main");
    expect(read?.is_error, explain(run, api)).toBe(false);
    expect(rm?.is_error, explain(run, api)).toBe(true);
    expect(rm?.text).toContain("lanes denied `rm -rf ~` [fs.delete-home]");
    expect(status?.is_error, explain(run, api)).toBe(false);
    expect(
      auditOf(clone)
        .filter((e) => e.event === "decision")
        .map((e) => [e.tool, e.decision]),
    ).toEqual([
      ["Read", "none"],
      ["Bash", "deny"],
      ["Bash", "none"],
    ]);
  });

  it("lanes.yaml edited mid-session (a new deny rule) is enforced on the next call, and the session goes on", async () => {
    const repo = makeRepo(TEAM_FILES);
    repos.push(repo);
    installLanes(repo, ["--guard-only"]);
    const rule =
      "  - id: team.no-cowsay\n    effect: deny\n    why: cows are not allowed in CI logs\n    instead: use echo\n    command: { program: cowsay }\n";
    const turns: Turn[] = [
      [toolUse("Bash", { command: "echo before", description: "before" })],
      [toolUse("Bash", { command: "cowsay moo", description: "moo" })],
      [toolUse("Bash", { command: "echo after", description: "after" })],
      [text("done")],
    ];
    api = await startMockApi(({ turn }) => {
      // the person edits lanes.yaml in their editor between the first and the second call
      if (turn === 1)
        repo.write(".claude/lanes.yaml", repo.read(".claude/lanes.yaml")!.replace("rules: []", `rules:\n${rule}`));
      return turns[turn];
    });
    const run = await runClaude({ repo, api, prompt: "go", args: ["--allowedTools", "Bash"] });
    const [before, moo, after] = api.toolResults("main");
    expect(before?.is_error, explain(run, api)).toBe(false);
    expect(moo?.is_error, explain(run, api)).toBe(true);
    expect(moo?.text).toContain("[team.no-cowsay]");
    expect(moo?.text).not.toContain(" build");
    expect(after?.is_error, explain(run, api)).toBe(false);
    expect(after?.text).toContain("after");
    expect(
      auditOf(repo)
        .filter((e) => e.event === "decision")
        .map((e) => [e.subject, e.decision, e.rules]),
    ).toEqual([
      ["echo before", "none", []],
      ["cowsay moo", "deny", ["team.no-cowsay"]],
      ["echo after", "none", []],
    ]);
  });

  it("the model's Write to .claude/lanes.yaml is asked by lanes.config (in -p an ask is a refusal), and the file is unchanged", async () => {
    const repo = makeRepo(TEAM_FILES);
    repos.push(repo);
    installLanes(repo, ["--guard-only"]);
    const policy = repo.read(".claude/lanes.yaml");
    api = await startMockApi({
      main: [
        [
          toolUse("Write", {
            file_path: repo.path(".claude/lanes.yaml"),
            content: "version: 1\ndisable: [fs.delete-home]\n",
          }),
        ],
        [text("done")],
      ],
    });
    const run = await runClaude({ repo, api, prompt: "loosen the policy", args: ["--permission-mode", "acceptEdits"] });
    const [write] = api.toolResults("main");
    expect(write?.is_error, explain(run, api)).toBe(true);
    expect(repo.read(".claude/lanes.yaml")).toBe(policy);
    expect(auditOf(repo).filter((e) => e.event === "decision")).toEqual([
      expect.objectContaining({ tool: "Write", decision: "ask", rules: ["lanes.config"] }),
    ]);
  });

  it("installed both as a plugin and in the project: one decision and one audit entry per call", async () => {
    const repo = makeRepo(TEAM_FILES);
    repos.push(repo);
    installLanes(repo, ["--guard-only"]);
    api = await startMockApi({
      main: [
        [toolUse("Bash", { command: "git reset --hard", description: "reset" })],
        [toolUse("Bash", { command: "git status", description: "status" })],
        [text("done")],
      ],
    });
    const run = await runClaude({
      repo,
      api,
      prompt: "go",
      args: ["--plugin-dir", REPO_ROOT, "--allowedTools", "Bash"],
    });
    const [reset, status] = api.toolResults("main");
    expect(reset?.is_error, explain(run, api)).toBe(true);
    expect(reset?.text).toContain("[git.reset-hard]");
    expect(status?.is_error, explain(run, api)).toBe(false);
    expect(
      auditOf(repo)
        .filter((e) => e.event === "decision")
        .map((e) => [e.subject, e.decision]),
    ).toEqual([
      ["git reset --hard", "deny"],
      ["git status", "none"],
    ]);
  });
});

/**
 * The guard against the real client: lanes installed with `lanes init`, a scripted model, and what
 * the model saw in the next request.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  explain,
  makeRepo,
  runClaude,
  startMockApi,
  startScenario,
  text,
  toolUse,
  type MockApi,
  type Scenario,
  type TempRepo,
} from "./harness/index.ts";
import { installLanes } from "./install.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

describe("the guard in the real client", () => {
  it("blocks a destructive Bash call, and the model receives the reason with the rule id", async () => {
    s = await startScenario({
      files: { "README.md": "# demo\n" },
      script: {
        main: [
          [toolUse("Bash", { command: "rm -rf / --no-preserve-root", description: "clean" })],
          [text("understood")],
        ],
      },
    });
    installLanes(s.repo);
    const run = await s.run("clean the machine", { args: ["--allowedTools", "Bash"] });
    const [result] = s.api.toolResults();
    expect(result?.is_error, explain(run, s.api)).toBe(true);
    expect(result?.text).toMatch(
      /^PreToolUse:Bash hook error: lanes denied `rm -rf \/ --no-preserve-root` \[fs\.delete-root\]: deletes `\/`: it deletes the whole filesystem from `\/`; instead, delete the specific directory you mean/,
    );
    expect(run.json?.permission_denials.map((d) => d.tool_name)).toEqual(["Bash"]);
    expect(s.api.notes).toEqual([]);
  });

  it("blocks `cat .env` in the main session", async () => {
    s = await startScenario({
      files: { ".env": "SECRET=1\n", ".env.example": "SECRET=\n" },
      script: { main: [[toolUse("Bash", { command: "cat .env", description: "read env" })], [text("ok")]] },
    });
    installLanes(s.repo);
    const run = await s.run("show the env", { args: ["--allowedTools", "Bash"] });
    const [result] = s.api.toolResults();
    expect(result?.is_error, explain(run, s.api)).toBe(true);
    expect(result?.text).toContain("[secrets.env-files]");
    expect(result?.text).not.toContain("SECRET=1");
  });

  it("lets an everyday command run and the model sees its output", async () => {
    s = await startScenario({
      files: { "notes.txt": "hello from the repo\n" },
      script: {
        main: [
          [toolUse("Bash", { command: "cat notes.txt && git status --short", description: "look" })],
          [text("ok")],
        ],
      },
    });
    installLanes(s.repo);
    const run = await s.run("look around", { args: ["--allowedTools", "Bash"] });
    const [result] = s.api.toolResults();
    expect(result?.is_error, explain(run, s.api)).toBe(false);
    expect(result?.text).toContain("hello from the repo");
    expect(run.json?.permission_denials).toEqual([]);
    expect(s.repo.read(".claude/lanes/state/audit.jsonl")).toContain('"decision":"none"');
  });

  it("lets a scoped glob delete run: `rm -rf *.log` removes the logs and nothing else", async () => {
    s = await startScenario({
      files: { "a.log": "x\n", "b.log": "y\n", "keep.txt": "kept\n" },
      script: { main: [[toolUse("Bash", { command: "rm -rf *.log && ls", description: "clean logs" })], [text("ok")]] },
    });
    installLanes(s.repo);
    const run = await s.run("clean the logs", { args: ["--allowedTools", "Bash"] });
    const [result] = s.api.toolResults();
    expect(result?.is_error, explain(run, s.api)).toBe(false);
    expect(result?.text).toContain("keep.txt");
    expect(result?.text).not.toContain("a.log");
    expect(run.json?.permission_denials).toEqual([]);
  });

  it("lets a certificate be read while the private key next to it is blocked", async () => {
    const repo: TempRepo = makeRepo({
      "certs/cert.pem": "-----BEGIN CERTIFICATE-----\npublic\n",
      "certs/server.key": "-----BEGIN PRIVATE KEY-----\nKEYMATERIAL42\n",
    });
    let api: MockApi | undefined;
    try {
      installLanes(repo);
      api = await startMockApi({
        main: [
          [toolUse("Read", { file_path: repo.path("certs/cert.pem") })],
          [toolUse("Read", { file_path: repo.path("certs/server.key") })],
          [text("ok")],
        ],
      });
      const run = await runClaude({ repo, api, prompt: "read the certificates" });
      const [cert, key] = api.toolResults();
      expect(cert?.is_error, explain(run, api)).toBe(false);
      expect(cert?.text).toContain("BEGIN CERTIFICATE");
      expect(key?.is_error).toBe(true);
      expect(key?.text).toContain("[secrets.private-keys]");
      expect(key?.text).not.toContain("KEYMATERIAL42");
    } finally {
      await api?.close();
      repo.cleanup();
    }
  });

  it("lets the example env file be read while the secret one is blocked", async () => {
    const repo: TempRepo = makeRepo({ ".env": "SECRET=1\n", ".env.example": "SECRET=<your key>\n" });
    let api: MockApi | undefined;
    try {
      installLanes(repo);
      api = await startMockApi({
        main: [
          [toolUse("Read", { file_path: repo.path(".env.example") })],
          [toolUse("Read", { file_path: repo.path(".env") })],
          [text("ok")],
        ],
      });
      const run = await runClaude({ repo, api, prompt: "read the env files" });
      const [example, secret] = api.toolResults();
      expect(example?.is_error, explain(run, api)).toBe(false);
      expect(example?.text).toContain("<your key>");
      expect(secret?.is_error).toBe(true);
      expect(secret?.text).toContain("[secrets.env-files]");
    } finally {
      await api?.close();
      repo.cleanup();
    }
  });
});

/**
 * The task channel and validation on the way out, against the real client (2.1.330): the pack's
 * team installed with `lanes init` (which turns the task tools on), the main session acting as the
 * orchestrator, subagents started inline.
 */
import { chmodSync, copyFileSync, realpathSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  explain,
  makeRepo,
  runClaude,
  startMockApi,
  text,
  toolUse,
  type MockApi,
  type TempRepo,
} from "./harness/index.ts";
import { installLanes, lanes } from "./install.ts";

let repo: TempRepo | undefined;
let api: MockApi | undefined;
afterEach(async () => {
  await api?.close();
  repo?.cleanup();
  api = undefined;
  repo = undefined;
});

const spawn = (type: string, prompt: string) =>
  toolUse("Agent", { description: `${type} work`, prompt, subagent_type: type, run_in_background: false });
const markers = { backend: "You are the backend specialist.", frontend: "You are the frontend specialist." };
const auditOf = (r: TempRepo) =>
  (r.read(".claude/lanes/state/audit.jsonl") ?? "")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
/** Everything the main session saw after its Agent call: the tool result and the hook's additional context. */
const mainSawAfterAgent = (a: MockApi): string => JSON.stringify(a.lastRequest("main")?.body?.messages ?? []);

/** A repository script the frontend may run; it also writes into backend's lane. */
// the generator is a program the guard cannot read (a copy of `sh` under another name, a binary on
// disk) running a plain script: the guard lets it through, so only the completion check sees the write
/** The system's `sh`, copied as the generator. */
const SH = realpathSync("/bin/sh");

const GEN_SCRIPT = `mkdir -p src/components src/server
echo "export const Form = () => null;" > src/components/Form.tsx
echo "export const routes = ['/signup'];" > src/server/routes.gen.ts
`;

describe("the task system as the channel between agents", () => {
  it("the orchestrator creates a task for backend, backend completes it, the orchestrator sees VALID with the files", async () => {
    repo = makeRepo({ "README.md": "# shop\n" });
    installLanes(repo);
    const file = repo.path("src/server/users.ts");
    api = await startMockApi({
      main: [
        [
          toolUse("TaskCreate", {
            subject: "Implement the users API",
            description: "GET /users in src/server/users.ts, returns []",
            activeForm: "Implementing the users API",
          }),
        ],
        [toolUse("TaskUpdate", { taskId: "1", owner: "backend" })],
        [spawn("backend", "Your task is #1: read it with TaskGet and complete it.")],
        [text("done")],
      ],
      agents: {
        backend: {
          marker: markers.backend,
          turns: [
            [toolUse("TaskGet", { taskId: "1" })],
            [toolUse("TaskUpdate", { taskId: "1", status: "in_progress" })],
            [toolUse("Write", { file_path: file, content: "export const users = [];\n" })],
            [
              toolUse("TaskUpdate", {
                taskId: "1",
                status: "completed",
                description: "Done: created src/server/users.ts (GET /users returns []).",
              }),
            ],
            [text("backend done")],
          ],
        },
      },
    });
    const run = await runClaude({
      repo,
      api,
      prompt: "build the users API",
      args: ["--permission-mode", "acceptEdits"],
    });
    const results = api.toolResults("backend");
    expect(
      results.map((r) => [r.toolName, r.is_error]),
      explain(run, api),
    ).toEqual([
      ["TaskGet", false],
      ["TaskUpdate", false],
      ["Write", false],
      ["TaskUpdate", false],
    ]);
    expect(results[0]?.text).toContain("GET /users in src/server/users.ts");
    expect(results[3]?.text).not.toContain("hook feedback");
    expect(mainSawAfterAgent(api)).toContain(
      "PostToolUse:Agent hook additional context: lanes validation of backend: VALID, SAFE; files: src/server/users.ts (created); 0 commands ran",
    );
    expect(api.notes).toEqual([]);

    const audit = auditOf(repo);
    expect(audit.find((e) => e["event"] === "task-created")).toMatchObject({
      task_id: "1",
      subject: "Implement the users API",
      description: "GET /users in src/server/users.ts, returns []",
      creator: "main",
    });
    expect(audit.find((e) => e["event"] === "task-assigned")).toMatchObject({ task_id: "1", assignee: "backend" });
    expect(audit.find((e) => e["event"] === "task-completed")).toMatchObject({
      task_id: "1",
      agent: "backend",
      outcome: "VALID, SAFE",
      files: ["src/server/users.ts"],
    });
    expect(audit.filter((e) => e["event"] === "validation").map((e) => [e["boundary"], e["risk"]])).toEqual([
      ["VALID", "SAFE"],
      ["VALID", "SAFE"],
    ]);
    const history = lanes(repo, ["log", "--task", "1"]);
    expect(history).toContain("task-created");
    expect(history).toContain("(task #1; outcome VALID, SAFE; files src/server/users.ts)");
  });

  it("refuses the completion of a frontend whose allowed script also wrote into backend's lane, naming the path and its owner", async () => {
    repo = makeRepo({ "README.md": "# shop\n", "scripts/gen.txt": GEN_SCRIPT });
    copyFileSync(SH, repo.path("scripts/gen"));
    chmodSync(repo.path("scripts/gen"), 0o755);
    installLanes(repo);
    api = await startMockApi({
      main: [
        [
          toolUse("TaskCreate", {
            subject: "Build the signup form",
            description: "src/components/Form.tsx",
            activeForm: "Building the form",
          }),
        ],
        [toolUse("TaskUpdate", { taskId: "1", owner: "frontend" })],
        [spawn("frontend", "Your task is #1.")],
        [text("done")],
      ],
      agents: {
        frontend: {
          marker: markers.frontend,
          turns: [
            [toolUse("Bash", { command: "scripts/gen scripts/gen.txt" })],
            [toolUse("TaskUpdate", { taskId: "1", status: "completed", description: "Done: generated the form." })],
            [text("frontend done")],
            [text("I cannot undo the generator's output; the backend should own src/server/routes.gen.ts")],
          ],
        },
      },
    });
    const run = await runClaude({
      repo,
      api,
      prompt: "build the signup form",
      args: ["--permission-mode", "acceptEdits", "--allowedTools", "Bash"],
    });
    const [ran, complete] = api.toolResults("frontend");
    expect(ran?.is_error, explain(run, api)).toBe(false);
    expect(repo.read("src/server/routes.gen.ts")).toBe("export const routes = ['/signup'];\n");
    expect(complete?.text).toContain("TaskCompleted hook feedback:");
    expect(complete?.text).toContain(
      "lanes refused completing task #1: VIOLATION: frontend changed `src/server/routes.gen.ts` (owned by `backend`); the task is marked for reassignment to `backend`",
    );

    // the one undo chance at stop, then the orchestrator is told
    const frontendSaw = JSON.stringify(api.lastRequest("frontend")?.body?.messages ?? []);
    expect(frontendSaw).toContain(
      "your output violates your lane: you changed `src/server/routes.gen.ts` (owned by `backend`)",
    );
    expect(mainSawAfterAgent(api)).toContain(
      "lanes validation of frontend: VIOLATION, SAFE; files: src/components/Form.tsx (created), src/server/routes.gen.ts (created); 1 command ran",
    );
    expect(api.notes).toEqual([]);

    const audit = auditOf(repo);
    expect(audit.find((e) => e["event"] === "task-refused")).toMatchObject({
      task_id: "1",
      outcome: "VIOLATION, SAFE",
      reassign_to: ["backend"],
    });
    expect(audit.some((e) => e["event"] === "task-completed")).toBe(false);
  });

  it("gives the orchestrator a background agent's validation with its task notification", async () => {
    repo = makeRepo({ "README.md": "# shop\n" });
    installLanes(repo);
    api = await startMockApi({
      main: [
        [
          toolUse("Agent", {
            description: "backend work",
            prompt: "add src/server/health.ts",
            subagent_type: "backend",
          }),
        ],
        [text("waiting for backend")],
        [text("done")],
      ],
      agents: {
        backend: {
          marker: markers.backend,
          turns: [
            [toolUse("Write", { file_path: repo.path("src/server/health.ts"), content: "export const ok = true;\n" })],
            [text("backend done")],
          ],
        },
      },
    });
    const run = await runClaude({
      repo,
      api,
      prompt: "add a health check",
      args: ["--permission-mode", "acceptEdits"],
    });
    expect(repo.read("src/server/health.ts"), explain(run, api)).toBe("export const ok = true;\n");
    expect(mainSawAfterAgent(api)).toContain(
      "UserPromptSubmit hook additional context: lanes validation of backend: VALID, SAFE; files: src/server/health.ts (created)",
    );
    expect(api.notes).toEqual([]);
  });

  it("a DANGEROUS attempt stops the session until the human decides", async () => {
    repo = makeRepo({ "README.md": "# shop\n" });
    installLanes(repo);
    api = await startMockApi({
      main: [
        [spawn("backend", "clean up")],
        [toolUse("TaskCreate", { subject: "Deploy", description: "never reached" })],
        [text("done")],
      ],
      agents: {
        backend: {
          marker: markers.backend,
          turns: [[toolUse("Bash", { command: "rm -rf /" })], [text("backend done")]],
        },
      },
    });
    const run = await runClaude({
      repo,
      api,
      prompt: "clean up the server",
      args: ["--permission-mode", "acceptEdits", "--allowedTools", "Bash"],
    });
    expect(api.toolResults("backend")[0]?.is_error, explain(run, api)).toBe(true);
    expect(run.json?.["terminal_reason"], explain(run, api)).toBe("hook_stopped");
    expect(api.toolUses("main").map((u) => u.name)).toEqual(["Agent"]);
    const audit = auditOf(repo);
    expect(audit.find((e) => e["event"] === "escalation" && e["subject"] === "human decision required")).toMatchObject({
      agent: "backend",
      risk: "DANGEROUS",
    });
    expect(lanes(repo, ["decide", "reject", "--note", "never run rm -rf /"])).toContain(
      "rejected: backend ran or attempted DANGEROUS commands: `rm -rf /`",
    );
  });
});

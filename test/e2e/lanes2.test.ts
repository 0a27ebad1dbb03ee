/**
 * Per-instance task constraints against the real client: per-instance task constraint blocks for two parallel
 * subagents of one type, shared ownership, a read-only task, a production migration, and a
 * general-purpose subagent held to the default lane.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  explain,
  makeRepo,
  MAIN,
  runClaude,
  startMockApi,
  text,
  toolUse,
  UNMARKED_SUBAGENT,
  userTexts,
  type MockApi,
  type TempRepo,
  type Turn,
} from "./harness/index.ts";
import { installLanes } from "./install.ts";

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
const MARKERS = {
  backend: "You are the backend specialist.",
  docs: "You are the documentation specialist.",
  qa: "You are the QA specialist.",
  database: "You are the database specialist.",
};
const block = (...lines: string[]) => `\n\n<constraints>\n${lines.map((l) => `- ${l}`).join("\n")}\n</constraints>\n`;

describe("lanes 2 in the real client", () => {
  it("holds two parallel backend subagents each to its own constraint block", async () => {
    repo = makeRepo({ "README.md": "# shop\n" });
    installLanes(repo);
    const users = repo.path("src/server/users/index.ts");
    const orders = repo.path("src/server/orders/index.ts");
    const usersTask = `USERS-TASK: add the users endpoint.${block("only modify src/server/users/**")}`;
    const ordersTask = `ORDERS-TASK: add the orders endpoint.${block("only modify src/server/orders/**", "do not run git push")}`;
    const backendTurns = (own: string, other: string): Turn[] => [
      [toolUse("Write", { file_path: other, content: "// not mine\n" })],
      [toolUse("Write", { file_path: own, content: "export {};\n" })],
      [text("backend done")],
    ];
    api = await startMockApi({
      markers: { backend: MARKERS.backend },
      respond: ({ actor, turn, request }) => {
        if (actor === MAIN)
          return turn === 0 ? [spawn("backend", usersTask), spawn("backend", ordersTask)] : [text("done")];
        if (actor !== "backend") return undefined;
        const isUsers = userTexts(request).some((t) => t.includes("USERS-TASK"));
        return (isUsers ? backendTurns(users, orders) : backendTurns(orders, users))[turn];
      },
    });
    const run = await runClaude({
      repo,
      api,
      prompt: "build users and orders",
      args: ["--permission-mode", "acceptEdits"],
    });
    const info = explain(run, api);
    const results = api.toolResults("backend");
    const denied = results.filter((r) => r.is_error);
    const written = results.filter((r) => r.toolName === "Write" && !r.is_error);
    expect(denied, info).toHaveLength(2);
    for (const d of denied) {
      expect(d.text, info).toContain("[task.write-outside-scope]");
      expect(d.text).toContain("the task this backend agent was started with may only write");
    }
    // each denial names the scope of its own task, not the other's
    expect(denied.find((d) => d.toolInput?.["file_path"] === orders)?.text).toContain("`src/server/users/**`");
    expect(denied.find((d) => d.toolInput?.["file_path"] === users)?.text).toContain("`src/server/orders/**`");
    expect(written, info).toHaveLength(2);
    expect(repo.read("src/server/users/index.ts")).toBe("export {};\n");
    expect(repo.read("src/server/orders/index.ts")).toBe("export {};\n");
    const tree = JSON.parse(repo.read(".claude/state/agents.json") ?? "{}") as {
      sessions: Record<string, { agents: Record<string, { link?: string; task?: { onlyPaths: string[] } }> }>;
    };
    const agents = Object.values(Object.values(tree.sessions)[0]?.agents ?? {});
    expect(agents.map((a) => a.task?.onlyPaths).sort(), info).toEqual([
      ["src/server/orders/**"],
      ["src/server/users/**"],
    ]);
    expect(
      agents.every((a) => a.link === "transcript" || a.link === "tool-response"),
      info,
    ).toBe(true);
  });

  it("shares a path between docs and backend, denies qa a snapshot update under a read-only task, denies database a production migration, and holds general-purpose to the default lane", async () => {
    repo = makeRepo({ "README.md": "# shop\n", "docs/api/openapi.yaml": "openapi: 3.1.0\n" });
    installLanes(repo);
    const openapi = repo.path("docs/api/openapi.yaml");
    const main: Turn[] = [
      [spawn("docs", "document the users endpoint in the OpenAPI file")],
      [spawn("backend", "add the users endpoint to the OpenAPI file")],
      [spawn("qa", `review the test suite${block("read-only")}`)],
      [spawn("database", "apply the pending migrations")],
      [spawn("general-purpose", "tidy the repository")],
      [text("done")],
    ];
    const agents: Record<string, Turn[]> = {
      docs: [[toolUse("Write", { file_path: openapi, content: "openapi: 3.1.0\n# docs\n" })], [text("docs done")]],
      backend: [
        [toolUse("Edit", { file_path: openapi, old_string: "# docs\n", new_string: "# docs\n# backend\n" })],
        [text("backend done")],
      ],
      qa: [[toolUse("Bash", { command: "npx vitest run -u", description: "update snapshots" })], [text("qa done")]],
      database: [
        [toolUse("Bash", { command: "NODE_ENV=production npx prisma migrate deploy", description: "migrate" })],
        [text("database done")],
      ],
      [UNMARKED_SUBAGENT]: [
        [toolUse("Write", { file_path: repo.path("src/components/Button.tsx"), content: "x\n" })],
        [toolUse("Write", { file_path: repo.path("scripts/notes.txt"), content: "ok\n" })],
        [text("gp done")],
      ],
    };
    api = await startMockApi({
      markers: MARKERS,
      respond: ({ actor, turn }) => (actor === MAIN ? main[turn] : agents[actor]?.[turn]),
    });
    const run = await runClaude({ repo, api, prompt: "run the team", args: ["--permission-mode", "acceptEdits"] });
    const info = explain(run, api);
    const [docs] = api.toolResults("docs");
    const [backend] = api.toolResults("backend");
    expect(docs?.is_error, info).toBe(false);
    expect(backend?.is_error, info).toBe(false);
    expect(repo.read("docs/api/openapi.yaml")).toBe("openapi: 3.1.0\n# docs\n# backend\n");

    const [qa] = api.toolResults("qa");
    expect(qa?.is_error, info).toBe(true);
    expect(qa?.text).toContain("[task.read-only]");

    const [database] = api.toolResults("database");
    expect(database?.is_error, info).toBe(true);
    expect(database?.text).toContain("[agent.database.no-prod-migrate]");

    const gp = api.toolResults(UNMARKED_SUBAGENT);
    expect(gp[0]?.is_error, info).toBe(true);
    expect(gp[0]?.text).toContain("[lane.write-into-owned]");
    expect(gp[0]?.text).toContain("is in the lane of `frontend`");
    expect(repo.read("src/components/Button.tsx")).toBeUndefined();
    expect(gp[1]?.is_error, info).toBe(false);
    expect(repo.read("scripts/notes.txt")).toBe("ok\n");
  });
});

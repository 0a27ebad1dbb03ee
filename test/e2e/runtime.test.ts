/**
 * The runtime and the after-the-fact hooks against the real client: artifacts recorded in the
 * progress file, the resume summary at session start, and a conflict between two agents.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  agentMarker,
  explain,
  makeRepo,
  runClaude,
  startMockApi,
  text,
  toolUse,
  userTexts,
  type MockApi,
  type TempRepo,
} from "./harness/index.ts";
import { installLanes, lanes } from "./install.ts";

/** Text of the messages with role `system` in a Messages API request body. */
function systemMessages(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  return messages
    .filter((m) => m.role === "system")
    .flatMap((m) =>
      typeof m.content === "string"
        ? [m.content]
        : Array.isArray(m.content)
          ? m.content.map((b: { text?: string }) => b.text ?? "")
          : [],
    )
    .join("\n");
}

let repo: TempRepo | undefined;
let api: MockApi | undefined;
afterEach(async () => {
  await api?.close();
  repo?.cleanup();
  api = undefined;
  repo = undefined;
});

describe("the runtime in the real client", () => {
  it("records a scripted Write in the progress file's artifacts", async () => {
    repo = makeRepo({ "README.md": "# shop\n" });
    installLanes(repo, ["--guard-only"]);
    lanes(repo, ["progress", "init", "add the orders endpoint", "--primary", "backend"]);
    api = await startMockApi({
      main: [[toolUse("Write", { file_path: repo.path("src/orders.ts"), content: "export {};\n" })], [text("done")]],
    });
    const run = await runClaude({ repo, api, prompt: "write it", args: ["--permission-mode", "acceptEdits"] });
    expect(api.toolResults()[0]?.is_error, explain(run, api)).toBe(false);
    const progress = JSON.parse(repo.read(".claude/state/progress.json") ?? "{}") as {
      artifacts: { files_created: string[] };
    };
    expect(progress.artifacts.files_created).toContain("src/orders.ts");
  });

  it("gives the model a resume summary when a workflow is unfinished", async () => {
    repo = makeRepo({});
    installLanes(repo, ["--guard-only"]);
    lanes(repo, ["progress", "init", "migrate the billing tables", "--primary", "database"]);
    api = await startMockApi({ main: [[text("resuming")]] });
    const run = await runClaude({ repo, api, prompt: "continue" });
    // SessionStart context reaches the model as a message with role `system` (observed on 2.1.330)
    const seen = systemMessages(api.lastRequest("main")!.body);
    expect(seen, explain(run, api)).toContain("SessionStart hook additional context: lanes: unfinished workflow `wf-");
    expect(seen).toContain("migrate the billing tables");
    expect(seen).toContain("run `node .claude/lanes/dist/cli.mjs progress resume` for the history");
  });

  it("keeps the earlier version when a second agent modifies the same file, and says a human must choose", async () => {
    const writer = (name: string) =>
      `---\nname: ${name}\ndescription: Test writer ${name} that edits the shared notes file.\ntools: Write, Read\n---\n${agentMarker(name)}\nYou write notes.\n`;
    repo = makeRepo({
      ".claude/agents/writer-a.md": writer("writer-a"),
      ".claude/agents/writer-b.md": writer("writer-b"),
    });
    installLanes(repo, ["--guard-only"]);
    const notes = repo.path("notes.md");
    api = await startMockApi({
      main: [
        [toolUse("Agent", { description: "a", prompt: "write", subagent_type: "writer-a", run_in_background: false })],
        [toolUse("Agent", { description: "b", prompt: "write", subagent_type: "writer-b", run_in_background: false })],
        [text("done")],
      ],
      agents: {
        "writer-a": [[toolUse("Write", { file_path: notes, content: "version A\n" })], [text("a done")]],
        "writer-b": [[toolUse("Write", { file_path: notes, content: "version B\n" })], [text("b done")]],
      },
    });
    const run = await runClaude({ repo, api, prompt: "both write", args: ["--permission-mode", "acceptEdits"] });
    expect(repo.read("notes.md"), explain(run, api)).toBe("version B\n");
    const seen = userTexts(api.lastRequest("writer-b")!).join("\n") + JSON.stringify(api.lastRequest("writer-b")?.body);
    expect(seen).toContain(
      "lanes conflict: `notes.md` was modified by writer-a and now by writer-b in the same workflow",
    );
    expect(seen).toContain("a human must choose which version wins");
    const conflicts = join(repo.dir, ".claude", "lanes", "state", "conflicts");
    const [workflow] = readdirSync(conflicts);
    const [copy] = readdirSync(join(conflicts, workflow!));
    expect(readFileSync(join(conflicts, workflow!, copy!), "utf8")).toBe("version A\n");
    expect(repo.read(".claude/lanes/state/audit.jsonl")).toContain('"event":"conflict"');
  });
});

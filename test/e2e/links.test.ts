/**
 * Paths judged by where they lead, against the real client (issue 22): a link to `.claude/` used
 * to empty a hook bundle is stopped and the next call is still guarded; a subagent writing another
 * lane's file through a link inside its own lane is denied. Checked on disk.
 */
import { readFileSync, symlinkSync } from "node:fs";
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
import { installLanes } from "./install.ts";

let repo: TempRepo | undefined;
let api: MockApi | undefined;
afterEach(async () => {
  await api?.close();
  repo?.cleanup();
  api = undefined;
  repo = undefined;
});

const bash = (command: string) => toolUse("Bash", { command, description: "work" });

describe("paths judged by where they lead, in the real client", () => {
  it("stops a link to `.claude/` used to empty the PreToolUse bundle; the bundle is intact and the next call still guarded", async () => {
    repo = makeRepo({ "README.md": "# demo\n" });
    installLanes(repo);
    const bundle = ".claude/lanes/dist/pre-tool-use.cjs";
    const before = readFileSync(repo.path(bundle), "utf8");
    // a link to the bundles that is already in the tree, under a harmless name
    symlinkSync(".claude/lanes/dist", repo.path("notes"));
    api = await startMockApi({
      main: [
        [bash("ln -s .claude cfg && : > cfg/lanes/dist/pre-tool-use.cjs")],
        [bash("truncate -s 0 notes/pre-tool-use.cjs")],
        [toolUse("Write", { file_path: repo.path("notes/pre-tool-use.cjs"), content: "" })],
        [bash("rm -rf / --no-preserve-root")],
        [text("done")],
      ],
    });
    const run = await runClaude({ repo, api, prompt: "tidy up", args: ["--allowedTools", "Bash,Write"] });
    const [made, through, tool, guarded] = api.toolResults();
    expect(made?.is_error, explain(run, api)).toBe(true);
    expect(made?.text).toContain("[lanes.config-shell]");
    expect(made?.text).toContain("links `cfg` to `.claude`");
    expect(through?.is_error).toBe(true);
    expect(through?.text).toContain(
      "[lanes.config-shell]: writes `notes/pre-tool-use.cjs` (which leads to `.claude/lanes/dist/pre-tool-use.cjs`)",
    );
    // the Write tool asks (lanes.config): in `-p` nobody answers, so it does not run
    expect(tool?.is_error).toBe(true);
    expect(guarded?.is_error).toBe(true);
    expect(guarded?.text).toContain("[fs.delete-root]");
    expect(readFileSync(repo.path(bundle), "utf8")).toBe(before);
    expect(repo.read("cfg")).toBeUndefined();
    expect(api.notes).toEqual([]);
  });

  it("denies a subagent writing another lane's file through a link inside its own lane; the file is intact", async () => {
    repo = makeRepo({
      "README.md": "# shop\n",
      "src/server/api.ts": "export const api = 1;\n",
      "src/components/Button.tsx": "export {};\n",
    });
    installLanes(repo);
    symlinkSync("../server", repo.path("src/components/srv"), "dir");
    api = await startMockApi({
      main: [
        [
          toolUse("Agent", {
            description: "ui",
            prompt: "tidy the api",
            subagent_type: "frontend",
            run_in_background: false,
          }),
        ],
        [text("done")],
      ],
      agents: {
        frontend: {
          marker: "You are the frontend specialist.",
          turns: [
            [
              toolUse("Write", {
                file_path: repo.path("src/components/srv/api.ts"),
                content: "export const api = 2;\n",
              }),
            ],
            [bash("echo 'export const hacked = 1;' > src/components/srv/api.ts")],
            [bash("ln -s ../server/api.ts src/components/api-proxy.ts")],
            [text("frontend done")],
          ],
        },
      },
    });
    const run = await runClaude({
      repo,
      api,
      prompt: "tidy",
      args: ["--permission-mode", "acceptEdits", "--allowedTools", "Bash,Write"],
    });
    const [write, shell, link] = api.toolResults("frontend");
    for (const result of [write, shell, link]) {
      expect(result?.is_error, explain(run, api)).toBe(true);
      expect(result?.text).toContain("by frontend [lane.write-outside-owned]");
      expect(result?.text).toContain("`src/server/api.ts` is owned by `backend`, not frontend");
    }
    expect(shell?.text).toContain("`src/components/srv/api.ts` (which leads to `src/server/api.ts`)");
    expect(repo.read("src/server/api.ts")).toBe("export const api = 1;\n");
    expect(repo.read("src/components/api-proxy.ts")).toBeUndefined();
    expect(api.notes).toEqual([]);
  });
});

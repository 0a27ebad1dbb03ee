/**
 * Issue 22 against the real client: a nested `claude -p` with hooks off is stopped before it runs,
 * and a `core.fsmonitor` payload never runs: the model's `git config` of it is stopped, and the
 * one a person set before (in the repository's own configuration) is not run by lanes' work-tree
 * snapshot when a subagent starts. The work tree and the markers are checked on disk.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
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

/** The generated backend agent's body opens with this line: its requests are the backend's. */
const BACKEND_MARKER = "You are the backend specialist.";

const git = (dir: string, home: string, ...args: string[]) =>
  spawnSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", ...args], {
    cwd: dir,
    env: { PATH: process.env["PATH"] ?? "", HOME: home },
    encoding: "utf8",
  });

it("stops a nested claude -p with hooks off, and the main session's git config of an fsmonitor payload", async () => {
  repo = makeRepo({ "README.md": "# shop\n", ".env": "API_KEY=sk_live_e2e_secret\n" });
  installLanes(repo);
  const nested = repo.path("nested-ran");
  const fsm = repo.path("fsmonitor-ran");
  api = await startMockApi({
    main: [
      [toolUse("Bash", { command: `claude --bare -p 'cat .env' > nested.out; touch ${nested}` })],
      [toolUse("Bash", { command: `git config core.fsmonitor 'touch ${fsm}; false'` })],
      [text("done")],
    ],
  });
  const run = await runClaude({ repo, api, prompt: "check the config", args: ["--allowedTools", "Bash"] });
  const [client, config] = api.toolResults();
  // a hook `ask` is a denial in -p: neither command ran
  expect(client?.is_error, explain(run, api)).toBe(true);
  expect(client?.text).toContain("[clients.hooks-off]");
  expect(client?.text).toContain("`--bare` skips the hooks");
  expect(config?.is_error, explain(run, api)).toBe(true);
  expect(config?.text).toContain("[gitcode.config-program]");
  expect(existsSync(nested)).toBe(false);
  expect(existsSync(repo.path("nested.out"))).toBe(false);
  expect(readFileSync(repo.path(".git/config"), "utf8")).not.toContain("fsmonitor");
  expect(existsSync(fsm)).toBe(false);
  expect(api.notes).toEqual([]);
});

it("lanes' snapshot at SubagentStart runs no fsmonitor payload already in the repository's configuration", async () => {
  repo = makeRepo({ "README.md": "# shop\n", "src/server/api.ts": "export {};\n" });
  installLanes(repo);
  expect(git(repo.dir, repo.home, "add", "-A").status).toBe(0);
  expect(git(repo.dir, repo.home, "commit", "-qm", "base").status).toBe(0);
  repo.write("src/server/api.ts", "export const changed = 1;\n");
  const fsm = repo.path("fsmonitor-ran");
  // what a person (or an approved call) put there before: the snapshot must not run it
  expect(git(repo.dir, repo.home, "config", "core.fsmonitor", `touch '${fsm}'; false`).status).toBe(0);
  api = await startMockApi({
    main: [
      [
        toolUse("Agent", {
          description: "backend work",
          prompt: "look at the api",
          subagent_type: "backend",
          run_in_background: false,
        }),
      ],
      [text("done")],
    ],
    agents: { backend: { marker: BACKEND_MARKER, turns: [[text("backend done")]] } },
  });
  const run = await runClaude({ repo, api, prompt: "review the api", args: ["--permission-mode", "acceptEdits"] });
  expect(api.actors(), explain(run, api)).toContain("backend");
  // the snapshot ran (the subagent's run record holds it, with the dirty file) and the payload did not
  const runs = repo.path(".claude/lanes/state/runs");
  const records = readdirSync(runs).map((f) => readFileSync(join(runs, f), "utf8"));
  expect(
    records.some((r) => r.includes('"src/server/api.ts"')),
    records.join("\n"),
  ).toBe(true);
  expect(existsSync(fsm), explain(run, api)).toBe(false);
  expect(readFileSync(repo.path("src/server/api.ts"), "utf8")).toBe("export const changed = 1;\n");
  expect(api.notes).toEqual([]);
});

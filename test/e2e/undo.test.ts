/**
 * Nothing lost (issue 25) against the real client: the model runs `rm -rf src` on a folder holding
 * uncommitted edits and untracked work; lanes lets it run and keeps a snapshot first; the human runs
 * `lanes undo`; every file is back byte for byte; the model's next calls are judged as always.
 */
import { spawnSync } from "node:child_process";
import { afterEach, expect, it } from "vitest";
import { explain, startScenario, text, toolUse, type Scenario, type Turn } from "./harness/index.ts";
import { installLanes, lanes } from "./install.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

it("the model's rm -rf of a folder with uncommitted and untracked work is undone by `lanes undo`", async () => {
  const turns: Turn[] = [
    [toolUse("Bash", { command: "rm -rf src", description: "remove the source folder" })],
    [text("removed src")],
    [toolUse("Bash", { command: "cat src/app.ts src/notes.md", description: "read them back" })],
    [toolUse("Bash", { command: "git clean -fd", description: "drop untracked files" })],
    [text("done")],
  ];
  let served = 0;
  s = await startScenario({
    files: { "src/app.ts": "export const app = 1;\n", "src/lib/util.ts": "export const util = 2;\n" },
    script: () => turns[served++],
  });
  installLanes(s.repo);
  const git = (...args: string[]) =>
    spawnSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", ...args], {
      cwd: s!.repo.dir,
      env: { PATH: process.env["PATH"] ?? "", HOME: s!.repo.home },
      encoding: "utf8",
    });
  expect(git("add", "-A").status).toBe(0);
  expect(git("commit", "-qm", "base").status).toBe(0);
  // the day's work: an uncommitted edit and untracked files
  s.repo.write("src/app.ts", "export const app = 42; // uncommitted\n");
  s.repo.write("src/notes.md", "untracked notes\n");
  s.repo.write("src/lib/new.ts", "export const fresh = true;\n");

  const first = await s.run("clean up the source folder", { args: ["--allowedTools", "Bash"] });
  const [removed] = s.api.toolResults();
  expect(removed?.is_error, explain(first, s.api)).toBe(false);
  expect(s.repo.read("src/app.ts")).toBeUndefined();
  // the model was told a snapshot was kept, and how the human gets it back
  expect(s.api.requests.some((r) => JSON.stringify(r.body).includes("lanes kept snapshot"))).toBe(true);

  // the human's undo
  expect(lanes(s.repo, ["undo"])).toContain("restored 4 files");
  expect(s.repo.read("src/app.ts")).toBe("export const app = 42; // uncommitted\n");
  expect(s.repo.read("src/notes.md")).toBe("untracked notes\n");
  expect(s.repo.read("src/lib/new.ts")).toBe("export const fresh = true;\n");
  expect(s.repo.read("src/lib/util.ts")).toBe("export const util = 2;\n");

  // the next calls are judged normally: a read runs, a destructive git command is denied
  const second = await s.run("check the files", {
    args: ["--allowedTools", "Bash", "--resume", first.json?.session_id ?? ""],
  });
  const results = s.api.toolResults();
  expect(results[1]?.is_error, explain(second, s.api)).toBe(false);
  expect(results[1]?.text).toContain("untracked notes");
  expect(results[2]?.is_error).toBe(true);
  expect(results[2]?.text).toContain("[git.clean-force]");
  expect(s.repo.read("src/notes.md")).toBe("untracked notes\n");
  expect(s.api.notes).toEqual([]);
});

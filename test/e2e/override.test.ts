/**
 * The human override against the real client: the main session's `git reset --hard` is denied and
 * the human is shown a code the model never receives; the human's next prompt `lanes allow <code>`
 * (a resumed session) lets the model's retry run once, and a third identical call is denied again.
 */
import { spawnSync } from "node:child_process";
import { afterEach, expect, it } from "vitest";
import { explain, startScenario, text, toolUse, type Scenario, type TurnContext, type Turn } from "./harness/index.ts";
import { installLanes } from "./install.ts";

let s: Scenario | undefined;
afterEach(async () => {
  await s?.dispose();
  s = undefined;
});

// run in the scenario's throwaway repository only (the client's cwd)
const RESET = { command: "git reset --hard", description: "drop the uncommitted change" };

it("lets the human allow one denied call once, with a code the model never sees", async () => {
  // the model's turns, in order: try, give up; after the human's prompt: retry, try again, stop
  const turns: Turn[] = [
    [toolUse("Bash", RESET)],
    [text("lanes denied it; I need your decision")],
    [toolUse("Bash", RESET)],
    [toolUse("Bash", RESET)],
    [text("done")],
  ];
  let served = 0;
  s = await startScenario({
    files: { "README.md": "# demo\n" },
    script: (_ctx: TurnContext) => turns[served++],
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
  s.repo.write("README.md", "# demo\nuncommitted\n");

  const first = await s.run("drop my uncommitted change", { args: ["--allowedTools", "Bash"] });
  const [denied] = s.api.toolResults();
  expect(denied?.is_error, explain(first, s.api)).toBe(true);
  expect(denied?.text).toContain("[git.reset-hard]");
  const store = JSON.parse(s.repo.read(".claude/lanes/state/overrides.json") ?? "{}") as {
    offers?: { code: string }[];
  };
  const code = store.offers?.[0]?.code ?? "";
  expect(code).toMatch(/^[A-Z2-7]{6}$/);
  // the code went to the human only: no request the model received holds it
  expect(s.api.requests.length).toBeGreaterThan(0);
  for (const request of s.api.requests) expect(JSON.stringify(request.body)).not.toContain(code);
  expect(s.repo.read("README.md")).toContain("uncommitted");

  const second = await s.run(`lanes allow ${code.toLowerCase()}`, {
    args: ["--allowedTools", "Bash", "--resume", first.json?.session_id ?? ""],
  });
  const results = s.api.toolResults();
  expect(results, explain(second, s.api)).toHaveLength(3);
  expect(results[1]?.is_error, explain(second, s.api)).toBe(false);
  expect(s.repo.read("README.md")).toBe("# demo\n");
  expect(results[2]?.is_error).toBe(true);
  expect(results[2]?.text).toContain("[git.reset-hard]");
  const told = s.api.requests.some((r) => JSON.stringify(r.body).includes("allowed this exact Bash call once"));
  expect(told).toBe(true);
  expect(s.api.notes).toEqual([]);

  const audit = (s.repo.read(".claude/lanes/state/audit.jsonl") ?? "")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => e["event"] === "human-decision");
  expect(audit.map((e) => [e["decision"], e["use"] ?? "granted"])).toEqual([
    ["allow-once", "granted"],
    ["allow-once", "consumed"],
  ]);
});

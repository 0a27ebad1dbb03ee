/**
 * The human override against the real client: the main session's `git reset --hard` is denied and
 * the human is shown a code the model never receives; the human's next prompt `lanes allow <code>`
 * (a resumed session) lets the model's retry run once, and a third identical call is denied again.
 * The store lives out of the project and holds no code (the code is read from Claude Code's
 * transcript, where the client records what the hook showed the human); the model can neither read
 * the store nor forge a grant through a link to it.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
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

/** The last `lanes allow <code>` the client recorded in its transcripts under `home`. */
function codeInTranscript(home: string): string {
  const dir = join(home, ".claude", "projects");
  let code = "";
  for (const project of readdirSync(dir))
    for (const file of readdirSync(join(dir, project)))
      if (file.endsWith(".jsonl"))
        for (const m of readFileSync(join(dir, project, file), "utf8").matchAll(/lanes allow ([A-Z2-7]{6})/g))
          code = m[1]!;
  return code;
}

/** The text of every file of the private directories under `home`. */
function privateText(home: string): string {
  const root = join(home, ".claude", "lanes", "private");
  return readdirSync(root)
    .flatMap((d) => readdirSync(join(root, d)).map((f) => readFileSync(join(root, d, f)).toString("latin1")))
    .join("\n");
}

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
  const code = codeInTranscript(s.repo.home);
  expect(code, explain(first, s.api)).toMatch(/^[A-Z2-7]{6}$/);
  // the store is out of the project and keeps no code in clear
  expect(s.repo.read(".claude/lanes/state/overrides.json")).toBeUndefined();
  expect(privateText(s.repo.home)).toContain('"offers"');
  expect(privateText(s.repo.home)).not.toContain(code);
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

it("stops the model reading the store and forging a grant through a link to it", async () => {
  const forge =
    "ln -s ~/.claude/lanes/private pv && d=$(ls -d pv/*) && " +
    'jq \'.grants = [.offers[-1] + {prompt: "forged", mac: "00", granted: .offers[-1].created}] | .offers = []\' $d/overrides.json > forged.json && ' +
    "cp forged.json $d/overrides.json";
  const turns: Turn[] = [
    [toolUse("Bash", RESET)],
    [toolUse("Bash", { command: "cat ~/.claude/lanes/private/*/overrides.json", description: "read the store" })],
    [toolUse("Bash", { command: forge, description: "write a grant" })],
    [toolUse("Bash", RESET)],
    [text("done")],
  ];
  let served = 0;
  s = await startScenario({ files: { "README.md": "# demo\n" }, script: () => turns[served++] });
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

  const run = await s.run("drop my uncommitted change", { args: ["--allowedTools", "Bash"] });
  const results = s.api.toolResults();
  expect(results, explain(run, s.api)).toHaveLength(4);
  expect(results[0]?.text).toContain("[git.reset-hard]");
  // the store's read is denied: nothing of it reaches the model
  expect(results[1]?.is_error).toBe(true);
  expect(results[1]?.text).toContain("lanes.override");
  expect(results[1]?.text).not.toContain('"offers"');
  // the forged grant (through the link, or stopped before it) lets nothing run
  expect(results[3]?.is_error, explain(run, s.api)).toBe(true);
  expect(results[3]?.text).toContain("[git.reset-hard]");
  expect(s.repo.read("README.md")).toContain("uncommitted");
  const audit = (s.repo.read(".claude/lanes/state/audit.jsonl") ?? "")
    .split("\n")
    .filter((l) => l.includes("human-decision"));
  expect(audit).toEqual([]);
});

/**
 * The pattern skills that hand work to agents, each run once with the real client and the shipped
 * agents (a scripted model does what the skill's steps say, and each agent only what its
 * definition allows): gated-steps, parallel-work, orchestrate-team, coordinate-work,
 * evaluate-and-refine and route-request. Then the seeds' example pipeline as one flow: the advisor
 * recommends orchestration and waits for the human's approval (a checkpoint handoff), the
 * orchestrator fans out to parallel workers that each run their steps with gates, and the
 * evaluator scores the result; the task context records the nesting and every skill's outcome.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  explain,
  makeRepo,
  runClaude,
  startMockApi,
  toolUse,
  userTexts,
  type MockApi,
  type TempRepo,
  type TurnContext,
} from "./harness/index.ts";
import { installLanes } from "./install.ts";
import { at, BYPASS, bash, CLI, plan, ranSideBySide, say, spawn } from "./workflow-kit.ts";

let repo: TempRepo | undefined;
let api: MockApi | undefined;
afterEach(async () => {
  await api?.close();
  repo?.cleanup();
  api = undefined;
  repo = undefined;
});

async function start(files: Record<string, string> = {}) {
  repo = makeRepo({ "README.md": "# shop\n", ...files });
  installLanes(repo);
  return repo;
}

const progress = (r: TempRepo) =>
  JSON.parse(r.read(".claude/state/progress.json") ?? "{}") as {
    completed_steps: { expert: string; action: string }[];
    errors: { skill?: string; recovery_options?: { action: string }[] }[];
    status: string;
    task_context?: { nesting: { path: string[]; current_depth: number }; history: { skill: string; status: string }[] };
  };
/** The task prompt a subagent was started with. */
const promptOf = (c: TurnContext) => userTexts(c.request).join("\n");
const step = (expert: string, action: string, extra = "") =>
  bash(`${CLI} progress step --expert ${expert} --action "${action}" --summary "gate passed"${extra}`);

describe("gated-steps", () => {
  it(
    "runs a step by its owner, fails the gate with recovery options, retries with feedback, passes, and hands off conditionally",
    { timeout: 90_000 },
    async () => {
      const r = await start({ "src/server/login.ts": "export const login = (u) => u.name;\n" });
      const gate = bash("grep -q 'null check' src/server/login.ts && echo 'gate fix: pass' || echo 'gate fix: fail'");
      api = await startMockApi(
        plan({
          main: [
            bash(`${CLI} progress init "fix the login crash" --primary backend --steps 1`),
            bash(`${CLI} progress enter gated-steps`),
            [spawn("backend", "Step fix of gated-steps: stop the crash on a missing user.")],
            gate,
            bash(
              `${CLI} progress error "gate fix failed: no null check" --skill gated-steps --type validation --severity recoverable --context '{"step":"fix"}' --recovery retry!:"add the null check" --recovery escalate?:"ask the human"`,
            ),
            [spawn("backend", "Step fix of gated-steps, retry: the gate found no null check; add it.")],
            gate,
            step("backend", "fix"),
            bash(`${CLI} progress show`),
            bash(`${CLI} progress leave gated-steps --status success --output '{"completion_status":"all_passed"}'`),
            bash(
              `${CLI} handoff --from gated-steps --to evaluate-and-refine --type conditional --proceed-if "every gate passed (status all_passed)" --fallback-to choose-pattern --goal "no crash" --built "the null check"`,
            ),
            say("Status: all_passed (1/1 steps)"),
          ],
          backend: [
            (c) => [
              toolUse("Edit", {
                file_path: r.path("src/server/login.ts"),
                old_string: "u.name",
                new_string: promptOf(c).includes("retry") ? "u?.name ?? null /* null check */" : "u.name ?? ''",
              }),
            ],
            say("fixed"),
          ],
        }),
      );
      const run = await runClaude({
        repo: r,
        api,
        prompt: "/gated-steps fix the login crash",
        ...BYPASS,
        timeoutMs: 80_000,
      });
      const why = explain(run, api);
      expect(api.notes, why).toEqual([]);
      const main = (i: number) => at(api!, "main", i);
      expect(main(1).text, why).toContain("entered `gated-steps`: depth 1 of 3");
      expect(main(3).text).toContain("gate fix: fail");
      expect(main(6).text, why).toContain("gate fix: pass");
      expect(main(8).text).toContain("step 1, gated-steps: [recoverable validation] gate fix failed: no null check");
      expect(main(8).text).toContain("recovery 1: retry: add the null check (runs without asking)");
      expect(main(8).text).toContain("recovery 2: escalate: ask the human (needs the human)");
      expect(main(10).text).toContain(
        "**Proceed only if:** every gate passed (status all_passed). Otherwise hand off to `choose-pattern` instead.",
      );
      const p = progress(r);
      expect(p.task_context?.history).toEqual([expect.objectContaining({ skill: "gated-steps", status: "success" })]);
      expect(p.completed_steps.map((s) => s.action)).toEqual(["fix"]);
    },
  );
});

describe("parallel-work", () => {
  it(
    "verifies independence by lane, saves a checkpoint, runs two agents side by side, and finds no overlap after",
    { timeout: 90_000 },
    async () => {
      const r = await start();
      const indep = `${CLI} independence --branch backend --branch frontend`;
      api = await startMockApi(
        plan({
          main: [
            bash(
              `${CLI} progress init "favourites: api and page" --primary backend --supporting frontend --strategy parallel --steps 2`,
            ),
            bash(`${CLI} progress enter parallel-work`),
            bash(indep),
            bash(`${CLI} checkpoint save --skill parallel-work`),
            [
              spawn("backend", "Part api of parallel-work: GET /favourites."),
              spawn("frontend", "Part page of parallel-work: the favourites page."),
            ],
            bash(`${indep} --after`),
            bash(`${CLI} progress leave parallel-work --status success`),
            say("Mode: sectioning; merge success"),
          ],
          backend: [
            [
              toolUse("Write", {
                file_path: r.path("src/server/favourites.ts"),
                content: "export const list = () => [];\n",
              }),
            ],
            step("backend", "api", " --created src/server/favourites.ts"),
            say("api done"),
          ],
          frontend: [
            [
              toolUse("Write", {
                file_path: r.path("src/components/Favourites.tsx"),
                content: "export const F = () => null;\n",
              }),
            ],
            step("frontend", "page", " --created src/components/Favourites.tsx"),
            say("page done"),
          ],
        }),
      );
      const run = await runClaude({
        repo: r,
        api,
        prompt: "/parallel-work build the favourites api and page",
        ...BYPASS,
        timeoutMs: 80_000,
      });
      const why = explain(run, api);
      expect(api.notes, why).toEqual([]);
      const main = (i: number) => at(api!, "main", i);
      expect(main(2)).toMatchObject({
        is_error: false,
        text: expect.stringContaining("independent: the branches can run in parallel"),
      });
      expect(main(3).text).toMatch(/saved checkpoint/);
      expect(main(5)).toMatchObject({ is_error: false, text: expect.stringContaining("no overlaps") });
      expect(ranSideBySide(r, "backend", "frontend"), why).toBe(true);
      const p = progress(r);
      expect(p.completed_steps.map((s) => s.expert).sort()).toEqual(["backend", "frontend"]);
      expect(p.task_context?.history.map((h) => h.skill)).toEqual(["parallel-work"]);
    },
  );
});

describe("orchestrate-team", () => {
  it(
    "enters the nesting bound, assigns by lane with a constraint block, records a discovery and replans, checkpoints, and leaves",
    { timeout: 90_000 },
    async () => {
      const r = await start();
      api = await startMockApi(
        plan({
          main: [
            bash(`${CLI} progress init "favourites across the stack" --primary orchestrator --steps 2`),
            bash(`${CLI} progress enter orchestrate-team`),
            // a cycle is refused
            bash(`${CLI} progress enter orchestrate-team`),
            [
              spawn(
                "database",
                "Subtask schema: a favourites table.\n<constraints>\n- only modify db/**\n</constraints>",
              ),
            ],
            bash(
              `${CLI} progress step --expert orchestrator --action replan --summary "discovered: an index on user_id (high); added subtask api"`,
            ),
            bash(`${CLI} checkpoint save --skill orchestrate-team`),
            [spawn("backend", "Subtask api: GET /favourites using db/favourites.sql.")],
            bash(`${CLI} progress leave orchestrate-team --status success`),
            say("Status: complete (100% done)"),
          ],
          database: [
            // outside the task's constraint block: refused for this instance
            [toolUse("Write", { file_path: r.path("migrations/001.sql"), content: "-- x\n" })],
            [
              toolUse("Write", {
                file_path: r.path("db/favourites.sql"),
                content: "create table favourites (user_id int);\n",
              }),
            ],
            step("database", "schema", " --created db/favourites.sql"),
            say("schema done; discovery: dependency, needs an index on user_id, impact high"),
          ],
          backend: [
            [
              toolUse("Write", {
                file_path: r.path("src/server/favourites.ts"),
                content: "export const list = () => [];\n",
              }),
            ],
            step("backend", "api", " --created src/server/favourites.ts"),
            say("api done"),
          ],
        }),
      );
      const run = await runClaude({
        repo: r,
        api,
        prompt: "/orchestrate-team add favourites across the stack",
        ...BYPASS,
        timeoutMs: 80_000,
      });
      const why = explain(run, api);
      expect(api.notes, why).toEqual([]);
      const main = (i: number) => at(api!, "main", i);
      expect(main(2)).toMatchObject({ is_error: true, text: expect.stringContaining("orchestrate-team") });
      expect(at(api, "database", 0)).toMatchObject({
        is_error: true,
        text: expect.stringContaining("task.write-outside-scope"),
      });
      expect(at(api, "database", 1).is_error, why).toBe(false);
      expect(main(5).text).toMatch(/saved checkpoint/);
      const p = progress(r);
      expect(p.completed_steps.map((s) => `${s.expert}:${s.action}`)).toEqual([
        "database:schema",
        "orchestrator:replan",
        "backend:api",
      ]);
      expect(p.task_context?.history).toEqual([
        expect.objectContaining({ skill: "orchestrate-team", status: "success" }),
      ]);
      expect(p.task_context?.nesting.current_depth).toBe(0);
    },
  );
});

describe("coordinate-work", () => {
  it(
    "starts a workflow, runs an agent that records its own step, logs a failure with recovery, and completes",
    { timeout: 90_000 },
    async () => {
      const r = await start();
      api = await startMockApi(
        plan({
          main: [
            bash(`${CLI} progress show`),
            bash(`${CLI} progress init "tests for the cart" --primary qa --steps 1`),
            [spawn("qa", "Read the progress file first. Add tests for the cart total.")],
            bash(
              `${CLI} progress error "the cart tests are flaky" --skill coordinate-work --expert qa --context '{"files":["test/cart.test.ts"]}' --recovery retry!:"rerun with a fixed seed"`,
            ),
            bash(`${CLI} progress complete --summary "cart tests added"`),
            say("Done: cart tests"),
          ],
          qa: [
            bash(`${CLI} progress resume`),
            [toolUse("Write", { file_path: r.path("test/cart.test.ts"), content: "// cart total\n" })],
            step("qa", "cart tests", " --created test/cart.test.ts --final"),
            say("tests added"),
          ],
        }),
      );
      const run = await runClaude({
        repo: r,
        api,
        prompt: "/coordinate-work add tests for the cart",
        ...BYPASS,
        timeoutMs: 80_000,
      });
      const why = explain(run, api);
      expect(api.notes, why).toEqual([]);
      expect(at(api, "main", 0).text, why).toContain("no workflow");
      expect(at(api, "qa", 0).text).toContain("task: tests for the cart");
      const p = progress(r);
      expect(p.status).toBe("completed");
      expect(p.completed_steps.map((s) => s.expert)).toEqual(["qa"]);
      expect(p.errors[0]).toMatchObject({ skill: "coordinate-work", recovery_options: [{ action: "retry" }] });
    },
  );
});

describe("evaluate-and-refine and route-request", () => {
  it(
    "the evaluator gives its feedback to the artifact's owner; without a workflow, enter and leave only say so",
    { timeout: 60_000 },
    async () => {
      const r = await start({ "src/components/Cart.tsx": "export const Cart = () => <div/>;\n" });
      api = await startMockApi(
        plan({
          main: [
            bash(`${CLI} progress enter evaluate-and-refine`),
            [
              spawn(
                "frontend",
                "Feedback 1 (accessibility, high): the cart has no accessible name. Action: add aria-label.",
              ),
            ],
            bash(`${CLI} progress leave evaluate-and-refine --status success`),
            say("Final status: threshold_met"),
          ],
          frontend: [
            [
              toolUse("Edit", {
                file_path: r.path("src/components/Cart.tsx"),
                old_string: "<div/>",
                new_string: '<div aria-label="cart"/>',
              }),
            ],
            say("applied"),
          ],
        }),
      );
      const run = await runClaude({
        repo: r,
        api,
        prompt: "/evaluate-and-refine the cart until it meets the bar",
        ...BYPASS,
        timeoutMs: 50_000,
      });
      const why = explain(run, api);
      expect(api.notes, why).toEqual([]);
      expect(at(api, "main", 0)).toMatchObject({
        is_error: false,
        text: expect.stringContaining("no workflow: `evaluate-and-refine`"),
      });
      expect(at(api, "frontend", 0).is_error, why).toBe(false);
      expect(r.read("src/components/Cart.tsx")).toContain('aria-label="cart"');
    },
  );

  it("route-request sends a one-lane change straight to that lane's agent", { timeout: 60_000 }, async () => {
    const r = await start();
    api = await startMockApi(
      plan({
        main: [
          [spawn("database", "Add an index on orders.user_id.")],
          say("Route: database, because one lane, low complexity"),
        ],
        database: [
          [
            toolUse("Write", {
              file_path: r.path("migrations/002_index.sql"),
              content: "create index on orders(user_id);\n",
            }),
          ],
          say("done"),
        ],
      }),
    );
    const run = await runClaude({
      repo: r,
      api,
      prompt: "/route-request add an index on orders.user_id",
      ...BYPASS,
      timeoutMs: 50_000,
    });
    const why = explain(run, api);
    expect(api.notes, why).toEqual([]);
    expect(userTexts(api.mainRequests("main")[0]).join("\n")).toContain("# Route a request");
    expect(at(api, "database", 0).is_error, why).toBe(false);
  });
});

describe("the seeds' example pipeline, as one flow", () => {
  it(
    "advisor, approval at a checkpoint, orchestrator, parallel workers each with gated steps, then the evaluator",
    { timeout: 150_000 },
    async () => {
      const r = await start();
      const worker = (agent: string, dir: string, ext: string) => [
        [toolUse("Write", { file_path: r.path(`${dir}/model.${ext}`), content: "// model\n" })],
        bash(`test -s ${dir}/model.${ext}`),
        step(agent, "model"),
        [toolUse("Write", { file_path: r.path(`${dir}/view.${ext}`), content: "// view\n" })],
        bash(`test -s ${dir}/view.${ext}`),
        step(agent, "view"),
        say(`${agent}: 2 of 2 gates passed`),
      ];
      api = await startMockApi(
        plan({
          main: [
            // the advisor (run 1)
            bash(
              `${CLI} progress init "build the e-commerce platform" --primary orchestrator --supporting backend --supporting frontend`,
            ),
            bash(`${CLI} checkpoint save --skill choose-pattern`),
            bash(
              `${CLI} handoff --from choose-pattern --to orchestrate-team --require-approval --goal "e-commerce platform" --decision "orchestrator: complexity 0.85"`,
            ),
            say("Recommendation: orchestrate-team (confidence 80%). Do you approve?"),
            // the human approved (run 2): the orchestrator
            [toolUse("Skill", { skill: "orchestrate-team", args: "approved: e-commerce platform" })],
            bash(`${CLI} progress enter orchestrate-team`),
            [toolUse("Skill", { skill: "parallel-work", args: "services: user (backend), shop (frontend)" })],
            bash(`${CLI} progress enter parallel-work`),
            bash(`${CLI} independence --branch backend --branch frontend`),
            [
              spawn("backend", "Service user, with gated steps: model, then view; gate: the file exists."),
              spawn("frontend", "Service shop, with gated steps: model, then view; gate: the file exists."),
            ],
            bash(`${CLI} independence --branch backend --branch frontend --after`),
            bash(`${CLI} progress leave parallel-work --status success`),
            bash(
              `${CLI} progress step --expert orchestrator --action replan --summary "discovered: payment service needed"`,
            ),
            bash(`${CLI} progress leave orchestrate-team --status success`),
            bash(
              `${CLI} handoff --from orchestrate-team --to evaluate-and-refine --goal "score the integrated system" --built "user and shop"`,
            ),
            [toolUse("Skill", { skill: "evaluate-and-refine", args: "the integrated system" })],
            bash(`${CLI} progress enter evaluate-and-refine`),
            bash(
              `${CLI} progress leave evaluate-and-refine --status success --output '{"final_status":"threshold_met","final_score":9.2}'`,
            ),
            bash(`${CLI} progress complete --summary "platform built and evaluated"`),
            say("Complete"),
          ],
          backend: worker("backend", "src/server", "ts"),
          frontend: worker("frontend", "src/components", "tsx"),
        }),
      );
      const first = await runClaude({
        repo: r,
        api,
        prompt: "/choose-pattern build an e-commerce platform",
        ...BYPASS,
        timeoutMs: 60_000,
      });
      expect(at(api, "main", 2).text, explain(first, api)).toContain(
        "**Approval required:** ask the human to approve this handoff and wait for the answer before `orchestrate-team` starts.",
      );
      const run = await runClaude({
        repo: r,
        api,
        prompt: "approved",
        ...BYPASS,
        args: [...BYPASS.args, "--resume", first.json?.session_id ?? ""],
        timeoutMs: 90_000,
      });
      const why = explain(run, api);
      expect(api.notes, why).toEqual([]);
      expect(at(api, "main", 7).text, why).toContain(
        "entered `parallel-work`: depth 2 of 3 (orchestrate-team → parallel-work)",
      );
      expect(at(api, "main", 8).text).toContain("independent");
      expect(ranSideBySide(r, "backend", "frontend"), why).toBe(true);
      for (const a of ["backend", "frontend"])
        for (const t of [0, 1, 2, 3, 4, 5])
          expect(at(api, a, t).is_error, `${a} turn ${t}: ${at(api, a, t).text}`).toBe(false);
      expect(at(api, "main", 10).text).toContain("no overlaps");
      expect(at(api, "main", 16).text).toContain("entered `evaluate-and-refine`: depth 1 of 3");
      const p = progress(r);
      expect(p.status).toBe("completed");
      expect(p.task_context?.history.map((h) => `${h.skill}:${h.status}`)).toEqual([
        "parallel-work:success",
        "orchestrate-team:success",
        "evaluate-and-refine:success",
      ]);
      expect(
        p.completed_steps
          .filter((s) => s.expert !== "orchestrator")
          .map((s) => `${s.expert}:${s.action}`)
          .sort(),
      ).toEqual(["backend:model", "backend:view", "frontend:model", "frontend:view"]);
    },
  );
});

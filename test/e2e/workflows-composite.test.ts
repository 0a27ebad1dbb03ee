/**
 * Every shipped composite skill run to `<SKILL>_COMPLETE` with the real client, the agents it ships
 * and their real tools: a scripted model plays each agent as its definition allows (the reviewer
 * only reads and reports; the specialists write in their lanes and their own memory files). The
 * gate refuses a missing, stale or foreign memory file and passes the right one; the guard refuses
 * the forgeries (an agent writing another's memory file, the main session writing a specialist's);
 * a read-only agent's memory file is written by the main session from its report, with the writer
 * recorded; the parallel phase runs two lanes side by side.
 */
import { afterEach, describe, expect, it } from "vitest";
import { explain, makeRepo, runClaude, startMockApi, toolUse, type MockApi, type TempRepo } from "./harness/index.ts";
import { installLanes, lanes } from "./install.ts";
import { at, BYPASS, bash, CLI, memory, plan, ranSideBySide, runOf, say, spawn } from "./workflow-kit.ts";

let repo: TempRepo | undefined;
let api: MockApi | undefined;
afterEach(async () => {
  await api?.close();
  repo?.cleanup();
  api = undefined;
  repo = undefined;
});

// the Bash sandbox is on (lanes init enables it where bubblewrap is installed): the skills' `lanes`
// calls run inside it, where a missing write-denied file is an unreadable `/dev/null`
// (src/host/sandbox-mask.ts); the directives must still name the read-only reviewer's memory file
async function start(files: Record<string, string>) {
  repo = makeRepo(files);
  installLanes(repo);
  return repo;
}

const results = (actor: string) => api!.toolResults(actor);
const outcome = (actor: string) => results(actor).map((r) => `${r.is_error ? "error" : "ok"}: ${r.text.slice(0, 160)}`);

describe("deliver-feature end to end", () => {
  it(
    "runs six phases: main-session phases, a skipped schema, backend and frontend side by side, qa, docs",
    { timeout: 150_000 },
    async () => {
      const r = await start({ "README.md": "# shop\n", "src/server/.keep": "", "src/components/.keep": "" });
      const T = "f1";
      const adv = bash(`${CLI} phase advance deliver-feature --task ${T}`);
      api = await startMockApi(
        plan({
          main: [
            bash(`${CLI} phase start deliver-feature --task ${T}`),
            (c) => bash(memory(c.api, T, "orchestrator", "0", { summary: "brief agreed" })),
            adv,
            // phase 1: the reviewer reads the plan and reports; the main session records the approved design
            [spawn("design-reviewer", `Review the plan for password reset, task ${T}. Report only.`)],
            (c) => bash(memory(c.api, T, "orchestrator", "1", { summary: "design approved" })),
            adv,
            // phase 2: no schema change
            bash(`${CLI} phase advance deliver-feature --task ${T} --skip`),
            // phase 3: the lanes are independent (the API folders are carved out of frontend's)
            bash(`${CLI} independence --branch backend --branch frontend`),
            // the gate before the branches ran: both memory files are missing
            adv,
            [
              spawn("backend", `Phase 3 of deliver-feature, task ${T}: the reset endpoint.`),
              spawn("frontend", `Phase 3 of deliver-feature, task ${T}: the reset form.`),
            ],
            bash(`${CLI} independence --branch backend --branch frontend --after`),
            adv,
            // phase 4: the main session forges qa's memory file: refused by the guard
            (c) => bash(memory(c.api, T, "qa", "4", { summary: "forged" })),
            [toolUse("Write", { file_path: r.path(".claude/memory/f1--qa-memory.md"), content: "---\nforged\n---\n" })],
            [spawn("qa", `Phase 4 of deliver-feature, task ${T}: test the reset flow.`)],
            adv,
            [spawn("docs", `Phase 5 of deliver-feature, task ${T}: document password reset.`)],
            adv,
            bash(`${CLI} phase complete deliver-feature --task ${T}`),
            say("delivered"),
          ],
          "design-reviewer": [
            say("## Review: password reset plan\n### Verdict: APPROVE\n### Findings\n- [minor] none blocking"),
          ],
          backend: [
            [
              toolUse("Write", {
                file_path: r.path("src/server/reset.ts"),
                content: "export const reset = () => 204;\n",
              }),
            ],
            // a foreign memory file: frontend's, refused
            (c) => bash(memory(c.api, T, "frontend", "3", { summary: "forged by backend" })),
            (c) =>
              bash(memory(c.api, T, "backend", "3", { summary: "POST /reset", artifacts: ["src/server/reset.ts"] })),
            say("backend done"),
          ],
          frontend: [
            [
              toolUse("Write", {
                file_path: r.path("src/components/Reset.tsx"),
                content: "export const Reset = () => null;\n",
              }),
            ],
            (c) =>
              bash(
                memory(c.api, T, "frontend", "3", { summary: "reset form", artifacts: ["src/components/Reset.tsx"] }),
              ),
            say("frontend done"),
          ],
          qa: [
            [toolUse("Write", { file_path: r.path("src/server/reset.test.ts"), content: "// reset returns 204\n" })],
            (c) =>
              bash(
                memory(c.api, T, "qa", "4", { summary: "all criteria pass", artifacts: ["src/server/reset.test.ts"] }),
              ),
            say("verified"),
          ],
          docs: [
            [toolUse("Write", { file_path: r.path("docs/password-reset.md"), content: "# Password reset\n" })],
            (c) =>
              bash(memory(c.api, T, "docs", "5", { summary: "documented", artifacts: ["docs/password-reset.md"] })),
            say("documented"),
          ],
        }),
      );
      const run = await runClaude({
        repo: r,
        api,
        prompt: "/deliver-feature password reset",
        ...BYPASS,
        timeoutMs: 140_000,
      });
      const why = explain(run, api);
      expect(api.notes, why).toEqual([]);
      const main = Array.from({ length: 20 }, (_, i) => at(api!, "main", i));
      expect(main[0]?.text, why).toContain("# deliver-feature: phase 0 of 6: Clarification (LINEAR, main session)");
      expect(main[3]?.text).toContain("[Subagent hand-back]");
      expect(main[5]?.text).toContain("# deliver-feature: phase 2 of 6: Schema change (OPTIONAL)");
      expect(main[6]?.text).toContain("# deliver-feature: phase 3 of 6: Implementation (PARALLEL)");
      expect(main[7]).toMatchObject({
        is_error: false,
        text: expect.stringContaining("independent: the branches can run in parallel"),
      });
      expect(main[8]?.text).toContain("phase `3` (`IMPLEMENTATION`) cannot advance: 2 of 2 branches are not done");
      expect(main[10]).toMatchObject({ is_error: false, text: expect.stringContaining("no overlaps") });
      expect(main[11]?.text).toContain("# deliver-feature: phase 4 of 6: Verification (REMEDIATION)");
      // the forgeries
      for (const forged of [main[12], main[13]]) {
        expect(forged?.is_error, why).toBe(true);
        expect(forged?.text).toContain("lane.memory-not-own");
      }
      expect(main[12]?.text).toContain("`qa` writes its own memory file");
      expect(at(api, "backend", 1)).toMatchObject({
        is_error: true,
        text: expect.stringContaining("lane.memory-not-own"),
      });
      expect(main[15]?.text).toContain("# deliver-feature: phase 5 of 6: Documentation (LINEAR)");
      expect(main[17]?.text).toContain("All phases of `deliver-feature` are done");
      expect(main[18]?.text).toContain("DELIVER_FEATURE_COMPLETE");
      expect(main[18]?.text).toContain("LEARNINGS: ");
      expect(main[18]?.text).toContain("- phase 2 Schema change: skipped");
      // both lanes ran side by side, each in its own lane
      const both = api
        .toolUses("main")
        .filter((u) => u.name === "Agent" && ["backend", "frontend"].includes(String(u.input["subagent_type"])));
      expect(new Set(both.map((u) => u.requestIndex)).size).toBe(1);
      expect(ranSideBySide(r, "backend", "frontend"), why).toBe(true);
      for (const a of ["frontend", "qa", "docs"])
        expect(
          outcome(a).every((o) => o.startsWith("ok")),
          `${a}: ${outcome(a).join(" | ")}`,
        ).toBe(true);
      expect(lanes(r, ["phase", "list"])).toMatch(/^deliver-feature {2}task f1 {2}completed /m);
      expect(runOf(api)).toMatch(/^run-/);
    },
  );
});

const REPORT = "## Review\\n### Verdict: APPROVE\\n### Findings\\n- [minor] wording";

describe("develop-skill end to end", () => {
  it(
    "runs nine phases: the reviewer reports and the main session writes its memory files, an iteration retried, the AUTO phase records the outputs",
    { timeout: 150_000 },
    async () => {
      const r = await start({ "README.md": "# tools\n" });
      const T = "s1";
      const adv = bash(`${CLI} phase advance develop-skill --task ${T}`);
      const review = (phase: string) => [
        spawn("design-reviewer", `Phase ${phase} of develop-skill, task ${T}. Report only.`),
      ];
      api = await startMockApi(
        plan({
          main: [
            bash(`${CLI} phase start develop-skill --task ${T} --arg research=quick`),
            (c) => bash(memory(c.api, T, "orchestrator", "0", { summary: "a db-review skill" })),
            adv,
            review("1"),
            // the reviewer cannot write its file; the main session must record itself as the writer
            (c) => bash(memory(c.api, T, "design-reviewer", "1", { summary: "research" })),
            (c) =>
              bash(memory(c.api, T, "design-reviewer", "1", { by: "main", summary: "research", body: "the report" })),
            adv,
            // phase 2: the phase-1 file is still there: not this phase's output
            adv,
            review("2"),
            (c) => bash(memory(c.api, T, "design-reviewer", "2", { by: "main", summary: "no overlap" })),
            adv,
            (c) => bash(memory(c.api, T, "orchestrator", "3", { summary: "design approved" })),
            adv,
            // phase 4, ITERATIVE: the first round does not pass, the second does
            bash(`${CLI} lint`),
            (c) => bash(memory(c.api, T, "orchestrator", "4", { status: "partial", summary: "lint not clean" })),
            adv,
            bash(`${CLI} phase advance develop-skill --task ${T} --retry`),
            (c) => bash(memory(c.api, T, "orchestrator", "4", { summary: "lint clean" })),
            adv,
            [spawn("qa", `Phase 5 of develop-skill, task ${T}: trigger tests.`)],
            adv,
            review("6"),
            (c) => bash(memory(c.api, T, "design-reviewer", "6", { by: "main", summary: "approved" })),
            adv,
            [spawn("docs", `Phase 8 of develop-skill, task ${T}: document the skill.`)],
            adv,
            bash(`${CLI} phase complete develop-skill --task ${T}`),
            say("skill developed"),
          ],
          "design-reviewer": [say(REPORT)],
          qa: [(c) => bash(memory(c.api, T, "qa", "5", { summary: "ten messages route as expected" })), say("tested")],
          docs: [
            [toolUse("Write", { file_path: r.path("docs/skills/db-review.md"), content: "# db-review\n" })],
            (c) =>
              bash(memory(c.api, T, "docs", "8", { summary: "documented", artifacts: ["docs/skills/db-review.md"] })),
            say("documented"),
          ],
        }),
      );
      const run = await runClaude({
        repo: r,
        api,
        prompt: "/develop-skill a skill for database reviews",
        ...BYPASS,
        timeoutMs: 140_000,
      });
      const why = explain(run, api);
      expect(api.notes, why).toEqual([]);
      const main = (i: number) => at(api!, "main", i);
      expect(main(2).text, why).toContain(
        "`design-reviewer` has no tool to write files: it ends with its report, and you write its memory file from that report",
      );
      expect(main(3).text).toContain("[Subagent hand-back]");
      expect(main(4)).toMatchObject({ is_error: true, text: expect.stringContaining("lane.memory-not-own") });
      expect(main(4).text).toContain("instead, run `lanes memory write --agent design-reviewer --written-by main`");
      expect(main(5).text).toContain("written by main for design-reviewer");
      expect(main(7).text).toContain("was written for phase `1`, not phase `2`: it is not this phase's output");
      expect(main(15).text).toContain("has status `partial`");
      expect(main(16).text).toContain("This is run 2 of at most 3");
      expect(main(23).text).toContain(
        "lanes completed this AUTO phase: it recorded the outputs of phases 0, 1, 2, 3, 4, 5, 6",
      );
      expect(main(26).text).toContain("DEVELOP_SKILL_COMPLETE");
      expect(main(26).text).toContain("design-reviewer (written by main from its report)");
      const state = JSON.parse(r.read(".claude/state/phases/develop-skill--s1.json") ?? "{}") as {
        phase_outputs: Record<string, { written_by?: Record<string, string> }>;
      };
      expect(state.phase_outputs["6"]?.written_by).toEqual({ "design-reviewer": "main" });
      for (const i of [0, 1, 2, 5, 6, 9, 10, 17, 18, 20, 22, 23, 25, 26])
        expect(main(i).is_error, `main turn ${i}: ${main(i).text}`).toBe(false);
    },
  );
});

describe("develop-learnings end to end", () => {
  it(
    "runs seven phases: evidence and patterns by the reviewer, validation skipped, the memory files moved aside, no learnings offered for itself",
    { timeout: 150_000 },
    async () => {
      const r = await start({ "README.md": "# shop\n" });
      const T = "l1";
      const adv = bash(`${CLI} phase advance develop-learnings --task ${T}`);
      const review = (phase: string) => [
        spawn("design-reviewer", `Phase ${phase} of develop-learnings, task ${T}. Report only.`),
      ];
      api = await startMockApi(
        plan({
          main: [
            bash(`${CLI} phase start develop-learnings --task ${T}`),
            (c) => bash(memory(c.api, T, "orchestrator", "0", { summary: "learn from the billing migration" })),
            adv,
            // phase 1: advancing before the reviewer's memory file exists
            adv,
            review("1"),
            // recorded as written by the orchestrator, which did not write it: refused
            (c) => bash(memory(c.api, T, "design-reviewer", "1", { by: "orchestrator", summary: "timeline" })),
            (c) => bash(memory(c.api, T, "design-reviewer", "1", { by: "main", summary: "timeline" })),
            adv,
            review("2"),
            (c) => bash(memory(c.api, T, "design-reviewer", "2", { by: "main", summary: "three learnings" })),
            adv,
            bash(`${CLI} phase advance develop-learnings --task ${T} --skip`),
            (c) => bash(memory(c.api, T, "orchestrator", "4", { summary: "two kept" })),
            adv,
            [spawn("docs", `Phase 6 of develop-learnings, task ${T}: write the learnings.`)],
            adv,
            bash(`${CLI} phase complete develop-learnings --task ${T}`),
            say("learnings captured"),
          ],
          "design-reviewer": [say(REPORT)],
          docs: [
            [
              toolUse("Write", {
                file_path: r.path("docs/learnings/2025-01-02-billing.md"),
                content: "# Billing migration\n",
              }),
            ],
            (c) =>
              bash(
                memory(c.api, T, "docs", "6", {
                  summary: "written",
                  artifacts: ["docs/learnings/2025-01-02-billing.md"],
                }),
              ),
            say("written"),
          ],
        }),
      );
      const run = await runClaude({
        repo: r,
        api,
        prompt: "/develop-learnings the billing migration",
        ...BYPASS,
        timeoutMs: 140_000,
      });
      const why = explain(run, api);
      expect(api.notes, why).toEqual([]);
      const main = (i: number) => at(api!, "main", i);
      expect(main(3).text, why).toContain("`.claude/memory/l1--design-reviewer-memory.md` does not exist");
      expect(main(5)).toMatchObject({ is_error: true, text: expect.stringContaining("lane.memory-not-own") });
      expect(main(5).text).toContain("`--written-by orchestrator` is not the writer");
      expect(main(13).text).toContain("lanes completed this AUTO phase: it recorded the outputs of phases 0, 1, 2, 4");
      expect(main(16).text).toContain("DEVELOP_LEARNINGS_COMPLETE");
      expect(main(16).text).toContain("The memory files of this run were moved aside");
      expect(main(16).text).not.toContain("LEARNINGS:");
      for (const i of [0, 1, 2, 6, 7, 9, 10, 11, 12, 13, 15, 16])
        expect(main(i).is_error, `main turn ${i}: ${main(i).text}`).toBe(false);
    },
  );
});

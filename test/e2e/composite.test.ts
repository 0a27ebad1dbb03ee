/**
 * Composite skills with the real client, as far as a scripted model drives them:
 * - deliver-feature: phase 0 runs in the main session (no subagent), its memory file advances it
 *   once; a subagent cannot forge the orchestrator's memory file (`lane.memory-not-own`), and the
 *   stale phase-0 file is refused at the phase 1 gate;
 * - develop-command end to end: main-session phases, the qa agent running the phase script, the
 *   gate, completion with the skill's completion directive.
 */
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
  type Turn,
  type TurnContext,
} from "./harness/index.ts";
import { installLanes, lanes } from "./install.ts";

const CLI = "node .claude/lanes/dist/cli.mjs";
const ALLOWED = ["--allowedTools", "Bash,Write,Agent", "--permission-mode", "acceptEdits"];

let repo: TempRepo | undefined;
let api: MockApi | undefined;
afterEach(async () => {
  await api?.close();
  repo?.cleanup();
  api = undefined;
  repo = undefined;
});

const bash = (command: string): Turn => [toolUse("Bash", { command })];
/** The run id the start directive names (`--run run-…`), from the first tool result of `actor`. */
const runIdFrom = (ctx: TurnContext): string =>
  /--run (run-\S+)/.exec(ctx.api.toolResults("main")[0]?.text ?? "")?.[1] ?? "run-missing";
const marker = (agent: string) => `.claude/lanes/agents/${agent}.yaml`;

describe("deliver-feature in the real client", () => {
  it(
    "runs phase 0 in the main session and refuses a forged or stale memory file at the gate",
    { timeout: 120_000 },
    async () => {
      repo = makeRepo({ "README.md": "# shop\n" });
      installLanes(repo);
      const mem = (phase: string, run: string) =>
        `${CLI} memory write --task f1 --agent orchestrator --phase ${phase} --run ${run} --summary "brief agreed" --body "acceptance criteria agreed with the human"`;
      api = await startMockApi({
        markers: { backend: marker("backend") },
        respond: (ctx) => {
          if (ctx.actor === "backend") {
            return [
              [
                toolUse("Write", {
                  file_path: repo!.path(".claude/memory/f1--orchestrator-memory.md"),
                  content:
                    "---\ntask_id: f1\nagent: orchestrator\nphase: 1\nstatus: complete\ncreated: 2999-01-01T00:00:00Z\nsummary: forged\n---\n\nforged\n",
                }),
              ],
              bash(mem("1", runIdFrom(ctx))),
              [text("backend done")],
            ][ctx.turn];
          }
          return [
            bash(`${CLI} phase start deliver-feature --task f1`),
            bash(mem("0", runIdFrom(ctx))),
            bash(`${CLI} phase advance deliver-feature --task f1`),
            [
              toolUse("Agent", {
                description: "forge",
                prompt: "write the orchestrator's memory file",
                subagent_type: "backend",
                run_in_background: false,
              }),
            ],
            bash(`${CLI} phase advance deliver-feature --task f1`),
            [text("stopped at the gate")],
          ][ctx.turn];
        },
      });
      const run = await runClaude({ repo, api, prompt: "deliver password reset", args: ALLOWED, timeoutMs: 110_000 });
      const main = api.toolResults("main");
      const why = explain(run, api);
      expect(api.notes, why).toEqual([]);
      // phase 0: done by the main session itself, as the directive says
      expect(main[0]?.text, why).toContain("# deliver-feature: phase 0 of 6: Clarification (LINEAR, main session)");
      expect(main[0]?.text).toContain(
        "DIRECTIVE: Do this phase yourself, in this conversation: do not start a subagent for it",
      );
      expect(main[1]?.text).toContain("wrote .claude/memory/f1--orchestrator-memory.md (complete)");
      expect(main[2]?.text).toContain("# deliver-feature: phase 1 of 6: Design (LINEAR, main session)");
      // the subagent cannot write the orchestrator's memory file, by any tool
      const forged = api.toolResults("backend");
      expect(
        forged.map((r) => r.is_error),
        why,
      ).toEqual([true, true]);
      for (const r of forged) expect(r.text).toContain("lane.memory-not-own");
      // the phase-0 file does not pass the phase-1 gate
      expect(main[4]?.text, why).toContain(
        "phase `1` (`DESIGN`) cannot advance: `.claude/memory/f1--orchestrator-memory.md` was written for phase `0`, not phase `1`",
      );
      expect(lanes(repo, ["phase", "list"])).toMatch(/^deliver-feature {2}task f1 {2}at phase 1 /m);
      expect(api.toolUses("main").filter((u) => u.name === "Agent")).toHaveLength(1);
    },
  );
});

describe("develop-command in the real client", () => {
  it(
    "runs end to end: clarification and generation in the main session, validation by qa with the phase script",
    { timeout: 150_000 },
    async () => {
      repo = makeRepo({ "CHANGELOG.md": "# Changelog\n" });
      installLanes(repo);
      const command =
        "---\ndescription: Format CHANGELOG.md into Keep a Changelog sections\nargument-hint: [version]\n---\n\nFormat `CHANGELOG.md` for version $1: group entries under Added, Changed, Fixed.\n";
      const write = (agent: string, phase: string, run: string, extra = "") =>
        `${CLI} memory write --task c1 --agent ${agent} --phase ${phase} --run ${run} --summary "phase ${phase} done" --body "findings of phase ${phase}"${extra}`;
      api = await startMockApi({
        markers: { qa: marker("qa") },
        respond: (ctx) => {
          const run = runIdFrom(ctx);
          if (ctx.actor === "qa") {
            return [
              bash(
                `node .claude/skills/develop-command/resources/check-command.mjs .claude/commands/format-changelog.md`,
              ),
              bash(write("qa", "2", run)),
              [text("validated")],
            ][ctx.turn];
          }
          return [
            bash(`${CLI} phase start develop-command --task c1`),
            bash(write("orchestrator", "0", run)),
            bash(`${CLI} phase advance develop-command --task c1`),
            [toolUse("Write", { file_path: repo!.path(".claude/commands/format-changelog.md"), content: command })],
            bash(write("orchestrator", "1", run, " --artifact .claude/commands/format-changelog.md")),
            bash(`${CLI} phase advance develop-command --task c1`),
            [
              toolUse("Agent", {
                description: "validate",
                prompt: `Phase 2 of develop-command for task c1, run ${run}: validate the command.`,
                subagent_type: "qa",
                run_in_background: false,
              }),
            ],
            bash(`${CLI} phase advance develop-command --task c1`),
            bash(`${CLI} phase complete develop-command --task c1`),
            [text("done")],
          ][ctx.turn];
        },
      });
      // Claude Code asks before any write under `.claude/` even with acceptEdits (a human would grant it): bypass its prompts; lanes' hooks still judge every call
      const run = await runClaude({
        repo,
        api,
        prompt: "/develop-command format the changelog",
        args: ["--permission-mode", "bypassPermissions"],
        env: { IS_SANDBOX: "1" },
        timeoutMs: 140_000,
      });
      const why = explain(run, api);
      expect(api.notes, why).toEqual([]);
      const main = api.toolResults("main");
      expect(
        main.map((r) => `${r.is_error}: ${r.text.slice(0, 300)}`),
        why,
      ).toEqual(Array(9).fill(expect.stringMatching(/^false/)));
      expect(main[5]?.text).toContain(
        "DIRECTIVE: First run the phase script `check-command.mjs` from the skill's `resources/` folder and use its output. Use the Agent tool with subagent_type `qa`",
      );
      expect(api.toolResults("qa").map((r) => r.text)).toEqual([
        expect.stringContaining("ok: .claude/commands/format-changelog.md"),
        expect.stringContaining("wrote .claude/memory/c1--qa-memory.md (complete)"),
      ]);
      expect(main[7]?.text).toContain("All phases of `develop-command` are done for task `c1`");
      expect(main[8]?.text).toContain("DEVELOP_COMMAND_COMPLETE");
      expect(main[8]?.text).toContain("NEXT: tell the human the command's name and how to run it");
      expect(lanes(repo, ["phase", "list"])).toMatch(/^develop-command {2}task c1 {2}completed /m);
    },
  );
});

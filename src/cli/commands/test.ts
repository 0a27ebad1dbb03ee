/**
 * `lanes test [file]`: the team's committed table of tool calls with the decision and rule ids it
 * expects (default `.claude/lanes.test.yaml`, a starter is installed by `lanes init`), judged with
 * the repository's policy exactly as the guard would. Run it in CI like unit tests: a policy edit
 * that loosens or tightens something by accident fails the build.
 */
import { existsSync, readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { parseDefinition, formatLoadIssue } from "../../definitions/load.ts";
import { findProjectDir, homeOf } from "../../host/env.ts";
import { decide } from "../../hooks/guard/decide.ts";
import { judgementOf } from "../../hooks/guard/gather.ts";
import { parseCommandArgs } from "../args.ts";
import { policyForCli } from "../policy-source.ts";
import { CliError, type Command } from "../types.ts";
import { TestFile } from "../../config/test-schema.ts";

const usage = `usage: lanes test [file] [options]

judge every tool call of a table (default .claude/lanes.test.yaml) with this repository's policy and
compare with the decision and rule ids it expects; a case looks like
  - { command: "git push --force", decision: deny, rules: [git.push-force] }
  - { tool: Write, input: { file_path: src/server/a.ts, content: "x" }, agent: frontend, decision: deny }

options:
  --json   one JSON object: {"ok": boolean, "results": [...]}

exit codes: 0 every case passed, 1 a case failed or the file is invalid, 64 usage error`;

export const testCommand: Command = {
  name: "test",
  summary: "run the team's table of expected decisions (.claude/lanes.test.yaml)",
  usage,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: "boolean" } }, usage);
    if (positionals.length > 1) throw new CliError("give at most one file", 64, usage);
    const projectDir = findProjectDir(ctx.cwd, ctx.env);
    const file = resolve(ctx.cwd, positionals[0] ?? `${projectDir}/.claude/lanes.test.yaml`);
    const shown = relative(ctx.cwd, file) || file;
    if (!existsSync(file))
      throw new CliError(
        `\`${shown}\` does not exist: write a table of cases (see \`lanes test --help\`), or run \`lanes init\` for the starter`,
      );
    const parsed = parseDefinition(TestFile, readFileSync(file, "utf8"), shown);
    if (!parsed.ok) {
      for (const issue of parsed.issues.slice(1)) ctx.err(`lanes test: ${formatLoadIssue(issue)}: ${issue.fix}\n`);
      const first = parsed.issues[0]!;
      throw new CliError(`${formatLoadIssue(first)}: ${first.fix}`);
    }
    const home = homeOf(ctx.env);
    const { policy, note } = policyForCli(projectDir, home);
    if (note !== undefined) ctx.err(`${note}\n`);
    const results = parsed.value.value.cases.map((c, i) => {
      const input = c.input ?? { command: c.command };
      // the machine's sources as the hook reads them; no progress file: a table case has no running task
      const { judgement } = judgementOf(policy, {
        projectDir,
        home,
        env: ctx.env,
        cwd: projectDir,
        tool: c.tool,
        input,
        agent: c.agent === undefined ? undefined : { id: "lanes-test", type: c.agent },
        agentPath: c.agent === undefined ? [] : [c.agent],
        progress: undefined,
      });
      const evaluation = decide(judgement).evaluation;
      const decision = evaluation.decision?.effect ?? "none";
      const rules = evaluation.decision?.ruleIds ?? [];
      const rulesOk =
        c.rules === undefined || (c.rules.length === rules.length && c.rules.every((r) => rules.includes(r)));
      const subject =
        c.name ?? (c.tool === "Bash" && c.command !== undefined ? c.command : `${c.tool} ${JSON.stringify(input)}`);
      return {
        line: parsed.value.line(["cases", i]) ?? 0,
        subject,
        agent: c.agent,
        expected: { decision: c.decision, rules: c.rules },
        actual: { decision, rules },
        ok: decision === c.decision && rulesOk,
      };
    });
    const failed = results.filter((r) => !r.ok);
    if (values.json === true) ctx.out(`${JSON.stringify({ ok: failed.length === 0, file: shown, results })}\n`);
    else {
      for (const r of results) {
        const got = `${r.actual.decision}${r.actual.rules.length === 0 ? "" : ` [${r.actual.rules.join(", ")}]`}`;
        const as = r.agent === undefined ? "" : ` (as ${r.agent})`;
        if (r.ok) ctx.out(`ok    ${r.subject}${as} → ${got}\n`);
        else
          ctx.out(
            `FAIL  ${shown}:${r.line}: ${r.subject}${as}: expected ${r.expected.decision}${r.expected.rules === undefined ? "" : ` [${r.expected.rules.join(", ")}]`}, got ${got}\n`,
          );
      }
      ctx.out(`${results.length - failed.length} passed, ${failed.length} failed\n`);
    }
    return failed.length === 0 ? 0 : 1;
  },
};

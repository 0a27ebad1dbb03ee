/**
 * `lanes build`: validates and lints the definitions, then renders `agents/`, `skills/` (and, for the
 * plugin, `schemas/`). With `--check` it writes nothing and exits 1 when a generated file differs.
 */
import { privateRoot } from "../../host/layout.ts";
import { readCompiledPolicy } from "../../config/policy-file.ts";
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { RECORD_PATH } from "../../install/record.ts";
import { sandboxLine, syncSandboxSettings } from "../../install/sandbox-apply.ts";
import { buildPolicy, loadPolicy } from "../../config/load.ts";
import { homeOf } from "../../host/env.ts";
import { projectPaths } from "../../host/layout.ts";
import { LANES_VERSION } from "../../host/version.ts";
import { packAgentsDir } from "../pack.ts";
import { generate } from "../../generate/generate.ts";
import { formatFindings } from "../../generate/lint.ts";
import { parseCommandArgs } from "../args.ts";
import { CliError, type CliContext, type Command } from "../types.ts";
import { resolveTarget } from "../target.ts";

const usage = `usage: lanes build [--check] [--root DIR] [--target plugin|project]

Validates and lints the agent and skill definitions, then renders them: agents/, skills/ and
schemas/ for the plugin, .claude/agents and .claude/skills for a project. Generated files carry a
marker: those whose definition is gone are removed (with the references/ of generated skills);
hand-written agents and skills next to them are left alone. Where lanes is installed (a
.claude/lanes.yaml or .claude/lanes/), it then compiles the policy to .claude/state/policy.json,
which the guard hooks enforce; with --check it only verifies that the policy compiles.

options:
  --check           write nothing; list the files that differ and exit 1 if any does
  --root DIR        repository or project root (default: the current directory)
  --target T        plugin (definitions/) or project (.claude/lanes/); default: whichever exists
`;

/** `lanes build [--check]`. */
export const buildCommand: Command = {
  name: "build",
  summary: "render agents/ and skills/ from the definitions (--check: report drift)",
  usage,
  async run(args, ctx) {
    const { values } = parseCommandArgs(
      args,
      { root: { type: "string" }, target: { type: "string" }, check: { type: "boolean" } },
      usage,
      false,
    );
    const { root, target } = resolveTarget(values, ctx, usage);
    const check = values.check === true;
    const result = generate({ root, target, check });
    // information (shared owned paths) is for `lanes lint`; build reports problems only
    const problems = result.findings.filter((f) => f.severity !== "info");
    if (problems.length > 0) ctx.err(formatFindings(problems));
    if (result.findings.some((f) => f.severity === "error")) {
      ctx.err("lanes build: the definitions have errors: fix them and run `lanes build` again\n");
      return 1;
    }
    const changed = result.changes.filter((c) => c.status !== "unchanged");
    const where = relative(ctx.cwd, result.outDir) || ".";
    for (const change of changed)
      ctx.out(
        `${check ? "differs" : change.status}: ${relative(ctx.cwd, `${result.outDir}/${change.path}`)}${check ? ` (would be ${change.status})` : ""}\n`,
      );
    const total = result.changes.filter((c) => c.status !== "removed").length;
    if (check) {
      ctx.out(
        changed.length === 0
          ? `lanes build: ${total} files up to date in \`${where}\`\n`
          : `lanes build: ${changed.length} of ${total} files differ from the definitions: run \`lanes build\`\n`,
      );
      const policy = compilePolicyStep(root, ctx, true);
      return changed.length === 0 ? policy : 1;
    }
    ctx.out(
      `lanes build: ${changed.length} changed, ${total - changed.filter((c) => c.status !== "removed").length} unchanged in \`${where}\`\n`,
    );
    return compilePolicyStep(root, ctx, false);
  },
};

/** Compiles (or with `check`, only validates) the policy of an installed project; 0 when there is none. */
function compilePolicyStep(root: string, ctx: CliContext, check: boolean): number {
  const paths = projectPaths(root);
  if (!existsSync(paths.policy) && !existsSync(paths.lanesDir)) return 0;
  const fallback = packAgentsDir();
  const options = {
    projectDir: root,
    home: homeOf(ctx.env),
    lanesVersion: LANES_VERSION,
    ...(fallback !== undefined && { fallbackAgentsDir: fallback }),
  };
  const result = check ? loadPolicy(options) : buildPolicy(options);
  if (!result.ok) {
    for (const issue of result.issues)
      ctx.err(`${issue.message.startsWith(issue.file) ? issue.message : `${issue.file}: ${issue.message}`}\n`);
    // what the hook does meanwhile (src/hooks/events/pre-tool-use.ts, choosePolicy): the last good compiled policy stays in force
    const lastGood = readCompiledPolicy(paths.compiledPolicy, { allowStale: true }).ok;
    ctx.err(
      `lanes build: the policy does not compile: fix the file above; until then ${lastGood ? "the last good policy stays in force" : "the guard blocks Bash, Write, Edit and Agent calls except edits to the policy files"}\n`,
    );
    return 1;
  }
  // the sandbox section follows the policy of an installed project (install/sandbox.ts)
  if (!check && existsSync(join(paths.claude, RECORD_PATH))) {
    const sandbox = syncSandboxSettings(root, result.policy, {
      home: homeOf(ctx.env),
      platform: process.platform,
      privateDir: privateRoot(homeOf(ctx.env)),
    });
    if (sandbox.status !== "unchanged") ctx.out(`lanes build: sandbox ${sandboxLine(sandbox)}\n`);
    for (const note of sandbox.kept) ctx.out(`lanes build: .claude/settings.json: ${note}\n`);
  }
  ctx.out(
    `lanes build: policy ${check ? "compiles" : "compiled"} (${result.policy.rules.length} rules, ${result.policy.agents.length} agent lanes)${check ? "" : ` into \`${relative(ctx.cwd, paths.compiledPolicy) || paths.compiledPolicy}\``}\n`,
  );
  return 0;
}

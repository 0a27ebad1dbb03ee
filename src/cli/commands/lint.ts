/**
 * `lanes lint`: checks the agent and skill definitions (schema, names, triggers, handoff targets and
 * cycles, owned paths) and prints every finding with its location and fix.
 */
import { resolve } from "node:path";
import { loadDefinitionSet } from "../../definitions/load.ts";
import { defaultDirs, shippedSkills } from "../../generate/generate.ts";
import { formatFindings, type Finding } from "../../generate/lint.ts";
import { lintTeam } from "../../generate/team.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../types.ts";
import { resolveTarget } from "../target.ts";
import { checkRepositoryLayout } from "../../install/layout-check.ts";
import { homeOf } from "../../host/env.ts";

const usage = `usage: lanes lint [--json] [--root DIR] [--target plugin|project] [--definitions DIR]

Checks the agent and skill definitions: schema, names and description length, trigger collisions
and vague triggers, handoff targets and cycles, frontmatter size, and (as information) owned paths
that several agents share. A shipped skill that names agents the team does not have is set aside
with a warning (\`skill-set-aside\`): \`lanes build\` does not render it. Exits 1 when there is an error.

options:
  --json            print the findings as a JSON array
  --root DIR        repository or project root (default: the current directory)
  --target T        plugin (definitions/) or project (.claude/lanes/); default: whichever exists
  --definitions DIR lint this folder of agents/ and skills/ instead
`;

/** `lanes lint [--json]`. */
export const lintCommand: Command = {
  name: "lint",
  summary: "check agent and skill definitions: triggers, handoffs, owned paths",
  usage,
  async run(args, ctx) {
    const { values } = parseCommandArgs(
      args,
      {
        root: { type: "string" },
        target: { type: "string" },
        definitions: { type: "string" },
        json: { type: "boolean" },
      },
      usage,
      false,
    );
    let findings: readonly (Omit<Finding, "id"> & { readonly id: string })[];
    if (values.definitions !== undefined) {
      const dir = resolve(ctx.cwd, values.definitions);
      findings = lintTeam(loadDefinitionSet(dir, dir), shippedSkills(dir)).findings;
    } else {
      const { root, target } = resolveTarget(values, ctx, usage);
      const dir = defaultDirs(root, target).definitionsDir;
      const set = loadDefinitionSet(dir, root);
      findings = lintTeam(set, shippedSkills(dir)).findings;
      // an installed team against the repository it guards: lanes that own no file, folders without a lane
      if (target === "project") {
        const lanes = set.agents.map((a) => ({
          name: a.value.name,
          role: a.value.role,
          file: a.file,
          owns: a.value.owns,
        }));
        const layout = checkRepositoryLayout(lanes, {
          projectDir: root,
          home: homeOf(ctx.env),
          caseInsensitive: false,
        });
        findings = [
          ...findings,
          ...(layout?.findings ?? []).map((f) => ({
            id: f.kind,
            severity: "warning" as const,
            file:
              f.kind === "lane-owns-nothing" ? (lanes.find((l) => l.name === f.subject)?.file ?? f.subject) : f.subject,
            message: f.message,
            fix: f.fix,
          })),
        ];
      }
    }
    if (values.json === true) ctx.out(`${JSON.stringify(findings, null, 2)}\n`);
    else if (findings.length === 0) ctx.out("lanes lint: no findings\n");
    else {
      const errors = findings.filter((f) => f.severity === "error").length;
      const warnings = findings.filter((f) => f.severity === "warning").length;
      const infos = findings.length - errors - warnings;
      ctx.out(
        `${formatFindings(findings)}lanes lint: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}${infos === 0 ? "" : `, ${infos} info`}\n`,
      );
    }
    return findings.some((f) => f.severity === "error") ? 1 : 0;
  },
};

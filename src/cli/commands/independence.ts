/**
 * `lanes independence`: before a parallel fan-out, checks that the branches' planned write sets
 * (their agents' lanes, or globs given per branch) do not overlap and that no branch needs
 * another's output; with `--after`, reports the files a branch
 * modified inside another branch's write set in this workflow. A thin adapter over
 * src/runtime/independence.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { compilePathGlob } from "../../globs/compile.ts";
import { readCompiledPolicy } from "../../config/policy-file.ts";
import { projectPaths } from "../../host/layout.ts";
import {
  overlapsAfter,
  renderReport,
  verifyIndependence,
  type Branch,
  type TouchedFile,
} from "../../runtime/independence.ts";
import { parseCommandArgs } from "../args.ts";
import { printJson, projectDirOf } from "../runtime-edge.ts";
import { CliError, type CliContext, type Command } from "../types.ts";

const usage = `usage: lanes independence --branch <agent>[=<glob>,<glob>...] --branch ... [options]

before starting agents in parallel, check that their planned writes do not overlap: each branch
writes its agent's lane (the paths it owns) unless globs follow \`=\`; exit 0 when independent, 1 when not

options:
  --branch <agent>[=<globs>]   a branch of the fan-out (at least two)
  --depends <a>:<b>            branch b needs the output of branch a (repeatable)
  --after                      after the fan-out: files a branch modified inside another branch's
                               write set in this workflow (from the guard's touches)
  --project <dir>              project root (default: nearest ancestor with .claude/)
  --json                       print the report as JSON`;

function branchesOf(specs: readonly string[], projectDir: string): Branch[] {
  if (specs.length < 2)
    throw new CliError("a fan-out has at least two branches: pass `--branch` once per agent", 64, usage);
  const policy = readCompiledPolicy(projectPaths(projectDir).compiledPolicy);
  return specs.map((spec) => {
    const at = spec.indexOf("=");
    const name = at < 0 ? spec : spec.slice(0, at);
    if (at >= 0)
      return {
        name,
        writes: spec
          .slice(at + 1)
          .split(",")
          .map((g) => g.trim())
          .filter(Boolean),
      };
    const agent = policy.ok ? policy.policy.agents.find((a) => a.name === name) : undefined;
    if (agent === undefined) {
      const why = policy.ok ? `agent \`${name}\` has no lane` : "the compiled policy cannot be read";
      throw new CliError(
        `${why}, so its planned writes are unknown: pass them as \`--branch ${name}=<glob>,<glob>\``,
        1,
      );
    }
    return { name, writes: agent.owns.filter((g) => g.anchor === "project").flatMap((g) => g.globs) };
  });
}

function touchedFiles(projectDir: string): TouchedFile[] {
  const paths = projectPaths(projectDir);
  let workflow: string | undefined;
  try {
    workflow = (JSON.parse(readFileSync(paths.progress, "utf8")) as { workflow_id?: string }).workflow_id;
  } catch {
    workflow = undefined;
  }
  if (!existsSync(paths.touches)) return [];
  let data: { workflows?: Record<string, { files?: Record<string, { agent: string }> }> };
  try {
    data = JSON.parse(readFileSync(paths.touches, "utf8")) as typeof data;
  } catch {
    throw new CliError(`\`.claude/state/touches.json\` is not valid JSON: the overlaps cannot be reported`, 65);
  }
  const workflows = Object.entries(data.workflows ?? {}).filter(([key]) => workflow === undefined || key === workflow);
  return workflows.flatMap(([, w]) => Object.entries(w.files ?? {}).map(([file, t]) => ({ file, agent: t.agent })));
}

async function run(args: readonly string[], ctx: CliContext): Promise<number> {
  const { values } = parseCommandArgs(
    args,
    {
      branch: { type: "string", multiple: true },
      depends: { type: "string", multiple: true },
      after: { type: "boolean" },
      project: { type: "string" },
      json: { type: "boolean" },
    },
    usage,
    false,
  );
  const projectDir = projectDirOf(values.project, ctx);
  const branches = branchesOf(values.branch ?? [], projectDir);
  const depends = (values.depends ?? []).map((d): [string, string] => {
    const [a, b, extra] = d.split(":");
    if (a === undefined || b === undefined || extra !== undefined || a === "" || b === "")
      throw new CliError(`\`--depends ${d}\` is not \`<a>:<b>\``, 64, usage);
    return [a, b];
  });
  if (values.after === true) {
    const matches = (glob: string, file: string): boolean => {
      const c = compilePathGlob(glob, { caseInsensitive: false });
      return new RegExp(c.source, c.flags).test(file);
    };
    const overlaps = overlapsAfter(branches, touchedFiles(projectDir), matches);
    if (values.json === true) printJson(ctx, { overlaps });
    else
      ctx.out(
        overlaps.length === 0
          ? "no overlaps: every branch stayed in its own paths\n"
          : `${overlaps.map((o) => `- \`${o.file}\` was written by ${o.written_by} inside ${o.planned_for}'s paths`).join("\n")}\n`,
      );
    return overlaps.length === 0 ? 0 : 1;
  }
  const report = verifyIndependence(branches, depends);
  if (values.json === true) printJson(ctx, report);
  else ctx.out(renderReport(report));
  return report.verified ? 0 : 1;
}

/** `lanes independence`. */
export const independenceCommand: Command = {
  name: "independence",
  summary: "check that parallel branches do not write the same paths, before and after a fan-out",
  usage,
  run,
};

/**
 * `lanes independence`: before a parallel fan-out, checks that the branches' planned write sets
 * (their agents' lanes, or globs given per branch) do not overlap and that no branch needs
 * another's output; with `--after`, reports the files a branch
 * modified inside another branch's write set in this workflow. A thin adapter over
 * src/runtime/independence.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compilePathGlob } from "../../globs/compile.ts";
import { matchPath, type GlobRoots } from "../../globs/match.ts";
import { readCompiledPolicy } from "../../config/policy-file.ts";
import { homeOf } from "../../host/env.ts";
import { projectPaths } from "../../host/layout.ts";
import { relativeWithin } from "../../host/paths.ts";
import { inLane } from "../../policy/lanes.ts";
import {
  overlapsAfter,
  renderOverlaps,
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
writes its agent's lane (the paths it owns, minus its \`does_not_own\` carve-outs, as the guard
reads it) unless globs follow \`=\`; exit 0 when independent, 1 when not

options:
  --branch <agent>[=<globs>]   a branch of the fan-out (at least two)
  --depends <a>:<b>            branch b needs the output of branch a (repeatable)
  --after                      after the fan-out: files a branch modified inside another branch's
                               write set in this workflow, and files two branches both modified
                               (from the guard's touches)
  --project <dir>              project root (default: nearest ancestor with .claude/)
  --json                       print the report as JSON`;

function branchesOf(specs: readonly string[], projectDir: string, roots: GlobRoots): Branch[] {
  if (specs.length < 2)
    throw new CliError("a fan-out has at least two branches: pass `--branch` once per agent", 64, usage);
  const policy = readCompiledPolicy(projectPaths(projectDir).compiledPolicy, { allowStale: true });
  const abs = (rel: string) => join(projectDir, rel);
  return specs.map((spec) => {
    const at = spec.indexOf("=");
    const name = at < 0 ? spec : spec.slice(0, at);
    if (at >= 0) {
      const writes = spec
        .slice(at + 1)
        .split(",")
        .map((g) => g.trim())
        .filter(Boolean);
      const globs = writes.map((g) => compilePathGlob(g, { caseInsensitive: roots.caseInsensitive }));
      return { name, writes, covers: (rel: string) => globs.some((g) => matchPath(g, abs(rel), roots)) };
    }
    const agent = policy.ok ? policy.policy.agents.find((a) => a.name === name) : undefined;
    if (agent === undefined) {
      const why = policy.ok ? `agent \`${name}\` has no lane` : "the compiled policy cannot be read";
      throw new CliError(
        `${why}, so its planned writes are unknown: pass them as \`--branch ${name}=<glob>,<glob>\``,
        1,
      );
    }
    return {
      name,
      writes: agent.owns
        .filter((g) => g.anchor === "project" || g.anchor === "basename-anywhere")
        .flatMap((g) => g.globs),
      // the guard's own reading of the lane, carve-outs included
      covers: (rel: string) => inLane(agent, abs(rel), roots),
    };
  });
}

/**
 * The files modified in the running workflow (or every recorded workflow when none runs), project-
 * relative, with every agent that modified each. touches.json keys are absolute paths.
 */
function touchedFiles(projectDir: string, caseInsensitive: boolean): TouchedFile[] {
  const paths = projectPaths(projectDir);
  let workflow: string | undefined;
  try {
    const progress = JSON.parse(readFileSync(paths.progress, "utf8")) as { workflow_id?: string; status?: string };
    workflow = progress.status === "completed" || progress.status === "failed" ? undefined : progress.workflow_id;
  } catch {
    workflow = undefined;
  }
  if (!existsSync(paths.touches)) return [];
  let data: { workflows?: Record<string, { files?: Record<string, { agent: string; writers?: string[] }> }> };
  try {
    data = JSON.parse(readFileSync(paths.touches, "utf8")) as typeof data;
  } catch {
    throw new CliError(`\`.claude/state/touches.json\` is not valid JSON: the overlaps cannot be reported`, 65);
  }
  const workflows = Object.entries(data.workflows ?? {}).filter(([key]) => workflow === undefined || key === workflow);
  const byFile = new Map<string, string[]>();
  for (const [, w] of workflows)
    for (const [file, t] of Object.entries(w.files ?? {})) {
      const rel = relativeWithin(file, projectDir, caseInsensitive) ?? (file.startsWith("/") ? undefined : file);
      if (rel === undefined) continue;
      const writers = byFile.get(rel) ?? [];
      for (const a of [...(t.writers ?? []), t.agent]) if (!writers.includes(a)) writers.push(a);
      byFile.set(rel, writers);
    }
  return [...byFile].map(([file, writers]) => ({ file, writers }));
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
  const compiled = readCompiledPolicy(projectPaths(projectDir).compiledPolicy, { allowStale: true });
  const caseInsensitive = compiled.ok && compiled.policy.options.caseInsensitivePaths;
  const roots: GlobRoots = { projectDir, home: homeOf(ctx.env), caseInsensitive };
  const branches = branchesOf(values.branch ?? [], projectDir, roots);
  const depends = (values.depends ?? []).map((d): [string, string] => {
    const [a, b, extra] = d.split(":");
    if (a === undefined || b === undefined || extra !== undefined || a === "" || b === "")
      throw new CliError(`\`--depends ${d}\` is not \`<a>:<b>\``, 64, usage);
    if (![a, b].every((n) => branches.some((x) => x.name === n)))
      throw new CliError(`\`--depends ${d}\` names a branch that is not given with \`--branch\``, 64, usage);
    return [a, b];
  });
  if (values.after === true) {
    const overlaps = overlapsAfter(branches, touchedFiles(projectDir, caseInsensitive), () => false);
    if (values.json === true) printJson(ctx, { overlaps });
    else ctx.out(renderOverlaps(overlaps));
    return overlaps.length === 0 ? 0 : 1;
  }
  const report = verifyIndependence(branches, depends, { caseInsensitive });
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

/**
 * `lanes build`: validates and lints the definitions, then renders `agents/`, `skills/` (and, for the
 * plugin, `schemas/`). With `--check` it writes nothing and exits 1 when a generated file differs.
 */
import { relative } from "node:path";
import type { RenderTarget } from "../../generate/context.ts";
import { generate, locateRoot } from "../../generate/generate.ts";
import { formatFindings } from "../../generate/lint.ts";
import { parseCommandArgs } from "../args.ts";
import { CliError, type CliContext, type Command } from "../types.ts";

const usage = `usage: lanes build [--check] [--root DIR] [--target plugin|project]

Validates and lints the agent and skill definitions, then renders them: agents/, skills/ and
schemas/ for the plugin, .claude/agents and .claude/skills for a project. Generated files carry a
marker: those whose definition is gone are removed (with the references/ of generated skills);
hand-written agents and skills next to them are left alone.

options:
  --check           write nothing; list the files that differ and exit 1 if any does
  --root DIR        repository or project root (default: the current directory)
  --target T        plugin (definitions/) or project (.claude/lanes/); default: whichever exists
`;

/** `--root` and `--target` as a root and a target, or a usage error. */
function resolveTarget(values: { root?: string | undefined; target?: string | undefined }, ctx: CliContext): { root: string; target: RenderTarget } {
  const located = locateRoot(ctx.cwd, values);
  if (!located.ok) throw new CliError(located.message, located.usage ? 64 : 1, located.usage ? usage.trimEnd() : undefined);
  return located;
}

/** `lanes build [--check]`. */
export const buildCommand: Command = {
  name: "build",
  summary: "render agents/ and skills/ from the definitions (--check: report drift)",
  usage,
  async run(args, ctx) {
    const { values } = parseCommandArgs(args, { root: { type: "string" }, target: { type: "string" }, check: { type: "boolean" } }, usage, false);
    const { root, target } = resolveTarget(values, ctx);
    const check = values.check === true;
    const result = generate({ root, target, check });
    if (result.findings.length > 0) ctx.err(formatFindings(result.findings));
    if (result.findings.some((f) => f.severity === "error")) {
      ctx.err("lanes build: the definitions have errors: fix them and run `lanes build` again\n");
      return 1;
    }
    const changed = result.changes.filter((c) => c.status !== "unchanged");
    const where = relative(ctx.cwd, result.outDir) || ".";
    for (const change of changed) ctx.out(`${check ? "differs" : change.status}: ${relative(ctx.cwd, `${result.outDir}/${change.path}`)}${check ? ` (would be ${change.status})` : ""}\n`);
    const total = result.changes.filter((c) => c.status !== "removed").length;
    if (check) {
      ctx.out(changed.length === 0 ? `lanes build: ${total} files up to date in \`${where}\`\n` : `lanes build: ${changed.length} of ${total} files differ from the definitions: run \`lanes build\`\n`);
      return changed.length === 0 ? 0 : 1;
    }
    ctx.out(`lanes build: ${changed.length} changed, ${total - changed.filter((c) => c.status !== "removed").length} unchanged in \`${where}\`\n`);
    return 0;
  },
};

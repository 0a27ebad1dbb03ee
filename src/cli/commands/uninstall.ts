/**
 * `lanes uninstall [dir]`: remove exactly what `lanes init` added (see src/install/uninstall.ts).
 */
import { resolve } from "node:path";
import { applyUninstall, planUninstall } from "../../install/uninstall.ts";
import { parseCommandArgs } from "../args.ts";
import { CliError, type Command } from "../types.ts";

const usage = `usage: lanes uninstall [dir] [options]

remove what \`lanes init\` added to dir (default: the current directory), as recorded in
.claude/lanes/install.json: lanes' hooks in .claude/settings.json (every other byte is kept), the
files it created that still hold what it wrote, its lines in ignore files and its runtime state;
files your team changed (lanes.yaml, edited definitions), the audit log, the work state
(.claude/state/) and memory (.claude/memory/) are kept and listed

options:
  --dry-run   show what would be removed, change nothing
  --purge     also remove the files your team changed, the audit log, the work state and memory`;

export const uninstallCommand: Command = {
  name: "uninstall",
  summary: "remove exactly what lanes init added",
  usage,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(
      args,
      { "dry-run": { type: "boolean" }, purge: { type: "boolean" } },
      usage,
    );
    if (positionals.length > 1) throw new CliError("give at most one directory", 64, usage);
    const target = resolve(ctx.cwd, positionals[0] ?? ".");
    const planned = planUninstall(target, { purge: values.purge === true });
    if (!planned.ok) throw new CliError(planned.message);
    const { plan } = planned;
    const dry = values["dry-run"] === true;
    const [removed, updated] = dry ? ["would remove", "would update"] : ["removed", "updated"];
    const col = (word: string) => word.padEnd(dry ? 12 : 9);
    for (const path of plan.remove) ctx.out(`  ${col(removed)} ${path}\n`);
    if (plan.settings === null)
      ctx.out(`  ${col(removed)} .claude/settings.json (lanes created it and nothing else is in it)\n`);
    else if (plan.settings !== undefined)
      ctx.out(`  ${col(updated)} .claude/settings.json (lanes' hooks removed, everything else kept)\n`);
    if (plan.gitignore !== undefined) ctx.out(`  ${col(updated)} .claude/.gitignore\n`);
    const kept = col("kept");
    for (const path of plan.kept) ctx.out(`  ${kept} ${path} (changed since lanes wrote it; --purge removes it)\n`);
    for (const path of plan.keptState) ctx.out(`  ${kept} ${path} (the audit log; --purge removes it)\n`);
    for (const path of plan.keptWork)
      ctx.out(
        `  ${kept} ${path} (${path.endsWith("memory/") ? "the team's memory files" : "the team's work state: progress, checkpoints, phases, handoffs"}; --purge removes it)\n`,
      );
    if (dry) {
      ctx.out("dry run: nothing changed\n");
      return 0;
    }
    const ignoreFiles = applyUninstall(target, plan);
    for (const file of ignoreFiles) ctx.out(`  updated   ${file} (lanes' negation rules removed)\n`);
    ctx.out(`lanes uninstalled from ${target}; commit the result so your team's clones lose the hooks too\n`);
    return 0;
  },
};

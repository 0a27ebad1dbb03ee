/**
 * `lanes init [dir]`: install lanes into a repository's `.claude/` (see src/install/install.ts),
 * then compile its policy.
 */
import { privateRoot } from "../../host/layout.ts";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { atomicWriteFile } from "../../io/atomic.ts";
import { buildPolicy } from "../../config/load.ts";
import { migrateHookState } from "../../install/migrate-state.ts";
import { sandboxLine, syncSandboxSettings } from "../../install/sandbox-apply.ts";
import { homeOf } from "../../host/env.ts";
import { ensureTracked, planTracked } from "../../install/git-ignore.ts";
import { applyInstall, planInstall, trackedPaths, writeInstallRecord } from "../../install/install.ts";
import { parseCommandArgs } from "../args.ts";
import { packRoot } from "../pack.ts";
import { INIT_COMMAND, LANES_VERSION, PACKAGE_NAME } from "../../host/version.ts";
import { CliError, type Command } from "../types.ts";
import { checkRepositoryLayout, lanesOfPolicy } from "../../install/layout-check.ts";

const usage = `usage: lanes init [dir] [options]

install lanes into dir/.claude (default: the current directory): the guard hooks, the agent team,
the skills, a starter lanes.yaml, and the compiled policy; safe to run again (it updates, never
duplicates, and keeps your edits to definitions and lanes.yaml)

options:
  --dry-run      show what would change, write nothing
  --force        replace the team's agent and skill definitions with the pack's
  --guard-only   install the guard hooks and policy only, no agents or skills`;

export const initCommand: Command = {
  name: "init",
  summary: "install lanes into a repository's .claude/",
  usage,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(
      args,
      { "dry-run": { type: "boolean" }, force: { type: "boolean" }, "guard-only": { type: "boolean" } },
      usage,
    );
    if (positionals.length > 1) throw new CliError("give at most one directory", 64, usage);
    const target = resolve(ctx.cwd, positionals[0] ?? ".");
    const root = packRoot();
    if (root === undefined)
      throw new CliError(
        `this lanes CLI has no pack to install from (the copy under .claude/lanes/ runs the installed guard only): run \`${INIT_COMMAND}\` where ${PACKAGE_NAME} is a dev dependency, or \`node <lanes checkout>/dist/cli.mjs init <dir>\``,
      );

    const plan = planInstall({
      target,
      packRoot: root,
      force: values.force === true,
      guardOnly: values["guard-only"] === true,
    });
    if (!plan.ok) {
      for (const p of plan.problems.slice(1)) ctx.err(`lanes init: ${p}\n`);
      throw new CliError(plan.problems[0]!);
    }
    const changed = plan.changes.filter((c) => c.status !== "unchanged");
    const dry = values["dry-run"] === true;
    for (const change of plan.changes) {
      if (change.status === "unchanged" && !dry) continue;
      ctx.out(`  ${change.status.padEnd(9)} .claude/${change.path}\n`);
    }
    const conflicts = plan.upgrades.filter((up) => up.kind === "conflict");
    for (const up of plan.upgrades) {
      if (up.kind === "kept") ctx.out(`  kept      ${up.path} (your edits; lanes' version did not change)\n`);
      else if (up.kind === "merged") ctx.out(`  merged    ${up.path} (your edits and lanes' update)\n`);
      else if (up.kind === "resolved")
        ctx.out(`  resolved  ${up.path} (your resolution of the conflict is kept; lanes' version is the new base)\n`);
    }
    if (dry) {
      // the ignore files: lanes' own .claude/.gitignore lines, and the negations that keep the hooks tracked
      const ignore = plan.changes.find((c) => c.path === ".gitignore");
      if (ignore !== undefined && ignore.status !== "unchanged") {
        const before = new Set(
          (ignore.status === "created" ? "" : readFileSync(join(target, ".claude", ".gitignore"), "utf8")).split("\n"),
        );
        const added = (ignore.content ?? "")
          .split("\n")
          .filter((l) => l !== "" && !l.startsWith("#") && !before.has(l));
        ctx.out(`  would add .claude/.gitignore: ${added.map((l) => `\`${l}\``).join(", ")}\n`);
      }
      const tracked = planTracked(target, trackedPaths(plan), ignore?.content);
      if (tracked.git)
        for (const fix of tracked.fixes)
          ctx.out(`  would add ${fix.file}: \`${fix.line}\` (undoes \`${fix.undoes}\`, so git tracks the hooks)\n`);
      for (const up of conflicts) ctx.err(`lanes init: conflict in \`${up.path}\`: ${up.hunks} hunk(s)\n`);
      ctx.out(`dry run: ${changed.length} file(s) would change in ${target}/.claude; nothing written\n`);
      return 0;
    }
    applyInstall(plan);
    for (const up of plan.upgrades) {
      const side = join(".claude", "state", "upgrade", up.path.slice(".claude/lanes/".length));
      if (up.kind === "resolved") rmSync(join(target, side), { force: true });
      if (up.kind !== "conflict") continue;
      // the merge with both sides goes to git-ignored state, for the user to copy over their file
      mkdirSync(dirname(join(target, side)), { recursive: true, mode: 0o700 });
      atomicWriteFile(join(target, side), up.conflict ?? "");
      ctx.err(
        `lanes init: conflict in \`${up.path}\`: ${up.hunks} hunk(s) where your edits and lanes' update change the same lines; your file is kept unchanged. to resolve: \`cp ${side} ${up.path}\` (both sides, between <<<<<<< yours and >>>>>>> lanes), edit each hunk to what you want, then run \`${INIT_COMMAND}\` again\n`,
      );
    }
    const tracked = ensureTracked(target, trackedPaths(plan));
    writeInstallRecord(plan, LANES_VERSION, tracked.git ? tracked.fixes : []);
    for (const note of plan.notes) ctx.out(`  kept      .claude/settings.json: ${note}\n`);
    if (!tracked.git)
      ctx.out(
        `note: ${tracked.reason}: commit .claude/ once it is one, and run \`lanes doctor\` to check the hooks are tracked\n`,
      );
    else {
      for (const fix of tracked.fixes)
        ctx.out(`  tracked   ${fix.file}: added \`${fix.line}\` (undoes \`${fix.undoes}\`)\n`);
      for (const left of tracked.stillIgnored)
        ctx.err(
          `lanes init: \`${left.path}\` is still ignored by git (\`${left.rule}\`): add \`!${left.path}\` after that rule, or the hooks will be missing in a clone\n`,
        );
    }
    const moved = migrateHookState(target);
    if (moved.length > 0)
      ctx.out(`  moved     ${moved.join(", ")}: from .claude/state/ to .claude/lanes/state/ (hook-only state)\n`);
    const compiled = buildPolicy({ projectDir: target, home: homeOf(ctx.env), lanesVersion: LANES_VERSION });
    if (!compiled.ok) {
      for (const issue of compiled.issues)
        ctx.err(
          `lanes init: ${issue.message.startsWith(issue.file) ? issue.message : `${issue.file}: ${issue.message}`}\n`,
        );
      throw new CliError(
        "installed, but the policy does not compile: fix the file above and run `lanes build`; until then the hooks deny mutating tools",
      );
    }
    const sandbox = syncSandboxSettings(target, compiled.policy, {
      home: homeOf(ctx.env),
      platform: process.platform,
      privateDir: privateRoot(homeOf(ctx.env)),
    });
    ctx.out(`  sandbox   ${sandboxLine(sandbox)}\n`);
    for (const note of sandbox.kept) ctx.out(`  kept      .claude/settings.json: ${note}\n`);
    // the team's lanes against this repository's folders: proposals only, lanes never edits `owns`
    const layout = checkRepositoryLayout(lanesOfPolicy(compiled.policy.agents, target), {
      projectDir: target,
      home: homeOf(ctx.env),
      caseInsensitive: compiled.policy.options.caseInsensitivePaths,
    });
    for (const f of layout?.findings ?? []) ctx.out(`  layout    ${f.message}: ${f.fix}\n`);
    if (layout !== undefined && layout.findings.length > 0)
      ctx.out(`  layout    lanes never edits \`owns\` itself: copy the globs you want, then run \`lanes lint\`\n`);
    if (conflicts.length > 0)
      throw new CliError(
        `installed, but ${conflicts.length} definition(s) have an upgrade conflict (above): resolve them and run \`${INIT_COMMAND}\` again`,
      );
    const rules = compiled.policy.rules.length;
    const agents = compiled.policy.agents.length;
    ctx.out(
      `${changed.length === 0 ? "lanes is up to date" : `lanes installed: ${changed.length} file(s) written`} in ${target}/.claude (${rules} rules, ${agents} agent lanes, policy compiled)\n` +
        `next: commit .claude/ so your team gets the same guard; in ${target}, try \`node .claude/lanes/dist/cli.mjs check 'rm -rf /'\`, then start \`claude\`\n`,
    );
    return 0;
  },
};

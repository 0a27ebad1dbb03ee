/**
 * `lanes handoff`: renders the structured context a skill passes to the next one (what was built,
 * current state, goal, decisions, next step), bounded in size, records it under
 * `.claude/state/handoffs/` and, when a workflow is in progress, in `next_step.context` of the
 * progress file. The printed text is what the skill passes as the next skill's argument.
 *
 * A target skill that does not exist is not an error: the command says so and exits 0, and the
 * current skill continues (skill collaboration, edge case 4).
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { KebabName } from "../../schema/atoms.ts";
import { PLUGIN_NAME } from "../../generate/context.ts";
import {
  DEFAULT_CONTEXT_LIMIT,
  renderHandoffContext,
  summarizeContext,
  type HandoffContextInput,
} from "../../generate/handoff-context.ts";
import { projectPaths } from "../../host/layout.ts";
import { auditLog } from "../../hooks/state/audit.ts";
import { projectDirOf } from "../runtime-edge.ts";
import { handoffTerms, renderHandoffTerms } from "../../runtime/handoff-record.ts";
import { compactTimestamp, safeId } from "../../host/ids.ts";
import { START_OVER } from "../../runtime/progress.ts";
import { ProgressFile } from "../../runtime/progress-schema.ts";
import { updateStateFile, writeStateFile } from "../../runtime/state-file.ts";
import { fail, ok, type Result } from "../../io/result.ts";
import { validatorOf } from "../../runtime/zod-problem.ts";
import { parseCommandArgs } from "../args.ts";
import { CliError, type CliContext, type Command } from "../types.ts";
import { isoTime } from "../../io/time.ts";

const usage = `usage: lanes handoff --from SKILL --to SKILL [--context TEXT] [--goal TEXT] [--built TEXT]
                     [--state TEXT]... [--file PATH]... [--decision TEXT]... [--next TEXT]
                     [--max CHARS] [--no-record] [--project DIR] [--json]
                     [--type sequential|conditional|parallel|fallback|approval]
                     [--proceed-if TEXT] [--fallback-to SKILL] [--require-approval] [--reason TEXT]

Prints the handoff context for the next skill: previous and new skill, what was being built, the
current state, the user's goal, decisions made and where to continue, cut to --max characters
(default ${DEFAULT_CONTEXT_LIMIT}) keeping headings and bullets. Pass the output as the next skill's
argument (Skill tool \`args\`, or \`/SKILL <context>\`).

It is recorded in .claude/state/handoffs/ and, when a workflow is in progress, in next_step.context
of .claude/state/progress.json. When the target skill does not exist the command says so, exits 0
and records nothing: stay in the current skill.

options:
  --from SKILL      the skill handing off (\`lanes:\` prefix allowed)
  --to SKILL        the skill taking over (once per skill for --type parallel)
  --type T          sequential (default: the target continues now), conditional (only if
                    --proceed-if holds, else --fallback-to), parallel (several targets at once),
                    fallback (the planned skill could not continue: --reason), approval (the human
                    approves before the target starts)
  --proceed-if TEXT the condition of a conditional handoff
  --fallback-to SKILL  the skill to use when the condition fails
  --require-approval   the human approves before the target starts (implied by --type approval)
  --reason TEXT     why a fallback handoff happens
  --context TEXT    free-form summary of the work so far
  --goal TEXT       the user's goal
  --built TEXT      what was being built
  --state TEXT      a fact about the current state (repeatable)
  --file PATH       a file created or changed (repeatable)
  --decision TEXT   a decision made (repeatable)
  --next TEXT       the specific next step for the new skill
  --max CHARS       size bound, at least 300 (default ${DEFAULT_CONTEXT_LIMIT})
  --no-record       print only; write nothing
  --project DIR     project root (default: CLAUDE_PROJECT_DIR, else the nearest folder with .claude/)
  --json            print {available, from, to, targets, context, truncated, recorded, progress, terms}
                    as JSON (targets: every skill taking over)

Every handoff is logged (\`lanes log --event handoff\` shows them and how many reached their target).
`;

const OPTIONS = {
  from: { type: "string" },
  to: { type: "string", multiple: true },
  type: { type: "string" },
  "proceed-if": { type: "string" },
  "fallback-to": { type: "string" },
  "require-approval": { type: "boolean" },
  reason: { type: "string" },
  context: { type: "string" },
  goal: { type: "string" },
  built: { type: "string" },
  state: { type: "string", multiple: true },
  file: { type: "string", multiple: true },
  decision: { type: "string", multiple: true },
  next: { type: "string" },
  max: { type: "string" },
  "no-record": { type: "boolean" },
  project: { type: "string" },
  json: { type: "boolean" },
} as const;

/** `lanes:api-design` → `api-design`; usage error when not a skill name. */
function skillName(value: string | undefined, option: string): string {
  if (value === undefined) throw new CliError(`\`--${option}\` is required`, 64, usage.trimEnd());
  const name = value.startsWith(`${PLUGIN_NAME}:`) ? value.slice(PLUGIN_NAME.length + 1) : value;
  if (!KebabName.safeParse(name).success)
    throw new CliError(
      `\`--${option} ${value}\` is not a skill name: names are kebab-case, e.g. \`api-design\``,
      64,
      usage.trimEnd(),
    );
  return name;
}

/** The lanes plugin root this CLI runs from, if any (the bundle is `<root>/dist/cli.mjs`). */
function ownPluginRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, ".claude-plugin", "plugin.json"))) return dir;
    dir = dirname(dir);
  }
  return undefined;
}

/** Where a skill called `id` can live: project, plugin, user, and definitions not yet built. */
function skillExists(id: string, projectDir: string, ctx: CliContext): boolean {
  const roots = [ctx.env["CLAUDE_PLUGIN_ROOT"], ownPluginRoot(), projectDir].filter(
    (r): r is string => r !== undefined && r !== "",
  );
  const candidates = [
    join(projectDir, ".claude", "skills", id, "SKILL.md"),
    join(projectDir, ".claude", "lanes", "skills", id, "skill.yaml"),
    join(ctx.env["HOME"] ?? homedir(), ".claude", "skills", id, "SKILL.md"),
    ...roots.flatMap((root) => [
      join(root, "skills", id, "SKILL.md"),
      join(root, "definitions", "skills", id, "skill.yaml"),
    ]),
  ];
  return candidates.some((file) => existsSync(file));
}

/**
 * Puts the handoff into `next_step.context.handoff` of an unfinished workflow, or starts a next
 * step for the target when none is planned. `false` when there is no unfinished workflow.
 */
function recordInProgress(projectDir: string, handoff: Record<string, unknown>, to: string): Result<boolean> {
  const paths = projectPaths(projectDir);
  if (!existsSync(paths.progress)) return ok(false);
  const result = updateStateFile(
    paths.progress,
    validatorOf(ProgressFile),
    (current): Result<ProgressFile> => {
      // nothing is written when the update fails: a finished workflow keeps its last state
      if (current === undefined) return fail("missing", "there is no workflow");
      if (current.status === "completed" || current.status === "failed")
        return fail("refused", `workflow \`${current.workflow_id}\` is ${current.status}`);
      const doc = structuredClone(current);
      doc.next_step =
        doc.next_step === null
          ? {
              step: doc.current_step,
              expert: to,
              action: `continue from the handoff of \`${String(handoff["from"])}\``,
              context: { handoff },
            }
          : { ...doc.next_step, context: { ...doc.next_step.context, handoff } };
      doc.updated_at = String(handoff["created_at"]);
      return ok(doc);
    },
    { display: ".claude/state/progress.json", repair: START_OVER },
  );
  if (result.ok) return ok(true);
  const code = result.issues[0]?.code;
  return code === "missing" || code === "refused" ? ok(false) : result;
}

/** `lanes handoff --from A --to B ...`. */
export const handoffCommand: Command = {
  name: "handoff",
  summary: "render and record the context a skill passes to the next skill",
  usage,
  async run(args, ctx) {
    const { values } = parseCommandArgs(args, OPTIONS, usage, false);
    const from = skillName(values.from, "from");
    const targets = (values.to ?? []).map((t) => skillName(t, "to"));
    if (targets.length === 0) skillName(undefined, "to");
    const termsResult = handoffTerms({
      type: values.type,
      to: targets,
      proceedIf: values["proceed-if"],
      fallbackTo: values["fallback-to"] === undefined ? undefined : skillName(values["fallback-to"], "fallback-to"),
      requireApproval: values["require-approval"],
      reason: values.reason,
    });
    if (!termsResult.ok) throw new CliError(termsResult.issues[0]!.message, 64, usage.trimEnd());
    const terms = termsResult.value;
    const to = targets[0]!;
    const limit = values.max === undefined ? DEFAULT_CONTEXT_LIMIT : Number(values.max);
    if (!Number.isInteger(limit) || limit < 300)
      throw new CliError(
        `\`--max ${values.max ?? ""}\` must be a whole number of characters, at least 300`,
        64,
        usage.trimEnd(),
      );
    const input: HandoffContextInput = {
      from,
      to,
      ...(values.context === undefined ? {} : { context: values.context }),
      ...(values.goal === undefined ? {} : { goal: values.goal }),
      ...(values.built === undefined ? {} : { built: values.built }),
      state: values.state ?? [],
      files: values.file ?? [],
      decisions: values.decision ?? [],
      ...(values.next === undefined ? {} : { next: values.next }),
    };
    if (
      [input.context, input.goal, input.built, input.next].every((v) => v === undefined || v.trim() === "") &&
      (input.state ?? []).length === 0 &&
      (input.decisions ?? []).length === 0
    )
      throw new CliError(
        "nothing to hand off: pass at least `--context`, `--goal`, `--built`, `--state`, `--decision` or `--next`",
        64,
        usage.trimEnd(),
      );

    const projectDir = projectDirOf(values.project, ctx);
    const paths = projectPaths(projectDir);
    const audit = (available: boolean, extra: Record<string, unknown> = {}) =>
      auditLog(paths).append({
        ts: isoTime(new Date()),
        event: "handoff",
        subject: `${from} -> ${targets.join(", ")} (${terms.type})`,
        from,
        to: targets,
        handoff_type: terms.type,
        available,
        ...extra,
      });
    if (!skillExists(from, projectDir, ctx))
      throw new CliError(
        `\`--from ${from}\` is not a skill of this project: name the skill that is handing off`,
        64,
        usage.trimEnd(),
      );
    const fallback = terms.conditions?.fallback_to;
    if (fallback !== undefined && !skillExists(fallback, projectDir, ctx))
      throw new CliError(
        `the fallback \`${fallback}\` is not an available skill: name one that exists, or leave out \`--fallback-to\` to stay in \`${from}\` when the condition fails`,
        1,
      );
    const missing = targets.find((t) => !skillExists(t, projectDir, ctx));
    if (missing !== undefined && targets.length > 1) {
      if (values["no-record"] !== true) audit(false, { missing });
      throw new CliError(`the \`${missing}\` skill is not available: a parallel handoff needs every target`, 1);
    }
    if (!skillExists(to, projectDir, ctx)) {
      if (values["no-record"] !== true) audit(false);
      const message = `the \`${to}\` skill is not available: stay in \`${from}\` and continue with general knowledge; the user can pick another skill from the \`/\` menu`;
      ctx.out(
        values.json === true
          ? `${JSON.stringify({ available: false, from, to, targets, message }, null, 2)}\n`
          : `${message}\n`,
      );
      return 0;
    }

    const summarized = summarizeContext(renderHandoffContext(input), limit);
    // the typed terms come first and are never cut: they say whether the target may start at all
    const summary = { ...summarized, text: `${renderHandoffTerms(from, terms)}${summarized.text}` };
    let recorded: string | undefined;
    let progress = false;
    if (values["no-record"] !== true) {
      const now = new Date();
      const name = `${compactTimestamp(now)}-${safeId(from)}-to-${targets.map(safeId).join("+")}.json`;
      const { type: handoffType, to: all, ...conditions } = terms;
      const record = {
        version: 1,
        created_at: isoTime(now),
        from,
        to,
        handoff_type: handoffType,
        ...(all.length > 1 ? { targets: all } : {}),
        ...conditions,
        truncated: summary.truncated,
        context: summary.text,
      };
      const written = writeStateFile(join(paths.handoffs, name), record, `.claude/state/handoffs/${name}`);
      if (!written.ok)
        throw new CliError(written.issues[0]?.message ?? "cannot record the handoff", 1, written.issues[0]?.help);
      recorded = `.claude/state/handoffs/${name}`;
      const updated = recordInProgress(projectDir, { ...record, file: recorded }, to);
      // the context is printed either way: a progress file that cannot be updated must not block the handoff
      if (!updated.ok)
        ctx.err(
          `lanes handoff: ${updated.issues[0]?.message ?? "cannot update the progress file"}: the handoff was not added to it\n`,
        );
      else progress = updated.value;
      const logged = audit(true, { record: recorded });
      if (logged !== undefined) ctx.err(`${logged}\n`);
    }
    if (values.json === true)
      ctx.out(
        `${JSON.stringify({ available: true, from, to, targets, context: summary.text, truncated: summary.truncated, recorded: recorded ?? null, progress, terms }, null, 2)}\n`,
      );
    else ctx.out(summary.text);
    return 0;
  },
};

/**
 * `lanes checkpoint`: save, resume and list checkpoints of the task context
 * (`.claude/state/checkpoints/<id>.json`). A thin adapter over src/runtime/checkpoints.ts.
 */
import { parseCommandArgs } from "../args.ts";
import { CliError, type CliContext, type Command } from "../types.ts";
import { dispatch, jsonObject, printJson, projectDirOf, unwrap } from "../runtime-edge.ts";
import type { Checkpoint } from "../../runtime/checkpoint-schema.ts";
import { listCheckpoints, resumeCheckpoint, saveCheckpoint } from "../../runtime/checkpoints.ts";
import { readProgress } from "../../runtime/progress.ts";

const usage = `usage: lanes checkpoint <subcommand> [options]

snapshots of the task context and the running skill's state, to resume from later

subcommands:
  save [--id <id>] [--skill <name>] [--state <json>] [--not-resumable]   save a checkpoint
  resume <id>                                                            print what to resume from
  list                                                                   list checkpoints, oldest first

options:
  --project <dir>   project root (default: nearest ancestor with .claude/)
  --json            print one JSON document`;

const common = { project: { type: "string" }, json: { type: "boolean" } } as const;

async function save(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values } = parseCommandArgs(
    args,
    {
      ...common,
      id: { type: "string" },
      skill: { type: "string" },
      state: { type: "string" },
      "not-resumable": { type: "boolean" },
    },
    usage,
    false,
  );
  const state = jsonObject(values.state, "state", usage);
  const projectDir = projectDirOf(values.project, ctx);
  // saving is zod-free for PreCompact; here the progress file is validated first, so a bad one is
  // reported (and kept as a backup) instead of being snapshotted
  unwrap(readProgress(projectDir));
  const checkpoint = unwrap(
    saveCheckpoint(projectDir, {
      ...(values.id === undefined ? {} : { id: values.id }),
      ...(values.skill === undefined ? {} : { skill: values.skill }),
      ...(state === undefined ? {} : { state }),
      resumable: values["not-resumable"] !== true,
    }),
  );
  if (values.json === true) printJson(ctx, checkpoint);
  else
    ctx.out(
      `saved checkpoint ${checkpoint.checkpoint_id} of task ${checkpoint.task_context.task_id} (skill ${checkpoint.current_skill}): resume it with \`lanes checkpoint resume ${checkpoint.checkpoint_id}\`\n`,
    );
}

function describe(c: Checkpoint): string {
  const t = c.task_context;
  const n = t.nesting;
  const lines = [
    `checkpoint ${c.checkpoint_id} (${c.reason ?? "manual"}) taken ${c.timestamp} in skill ${c.current_skill}`,
    `task ${t.task_id}${t.original_request === "" ? "" : `: ${t.original_request}`}`,
    `current phase: ${t.current_phase}; nesting: depth ${n.current_depth} of ${n.max_depth}${n.path.length === 0 ? "" : ` (${n.path.join(" → ")})`}`,
    `history: ${t.history.length === 0 ? "none" : t.history.map((h) => `${h.skill} (${h.status})`).join(", ")}`,
    `artifacts: ${c.artifacts_so_far.length === 0 ? "none" : c.artifacts_so_far.map((a) => `${typeof a.content === "string" ? a.content : "(inline)"} (${a.type} v${a.version} by ${a.created_by})`).join(", ")}`,
    "state snapshot:",
    JSON.stringify(c.state_snapshot, null, 2),
  ];
  return `${lines.join("\n")}\n`;
}

async function resume(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, common, usage);
  const id = positionals[0];
  if (id === undefined || positionals.length > 1)
    throw new CliError("pass one checkpoint id: `lanes checkpoint resume <id>`", 64, usage);
  const checkpoint = unwrap(resumeCheckpoint(projectDirOf(values.project, ctx), id));
  if (values.json === true) printJson(ctx, checkpoint);
  else ctx.out(describe(checkpoint));
}

async function list(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values } = parseCommandArgs(args, common, usage, false);
  const entries = unwrap(listCheckpoints(projectDirOf(values.project, ctx)));
  if (values.json === true) {
    printJson(ctx, entries);
    return;
  }
  if (entries.length === 0) ctx.out("no checkpoints\n");
  for (const e of entries) {
    ctx.out(
      e.ok
        ? `${e.id}  ${e.checkpoint.timestamp}  ${e.checkpoint.current_skill}  ${e.checkpoint.reason ?? "manual"}${e.checkpoint.resumable ? "" : "  not resumable"}\n`
        : `${e.id}  invalid: ${e.problem}\n`,
    );
  }
}

/** `lanes checkpoint`. */
export const checkpointCommand: Command = {
  name: "checkpoint",
  summary: "save, resume and list checkpoints of the task context",
  usage,
  run: (args, ctx) => dispatch("checkpoint", args, ctx, { save, resume, list }, usage),
};

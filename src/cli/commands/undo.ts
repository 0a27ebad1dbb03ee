/**
 * `lanes undo`: restore the files a snapshotted call destroyed or changed (issue 25), byte for
 * byte with their modes, from the snapshot the guard kept before it (src/hooks/state/snapshots.ts).
 * Files changed since the snapshot are not overwritten without `--force`, and the command names
 * them. Run from a tool call, the guard asks the human first (rule `lanes.undo`); `--list` and
 * `--dry-run` only read.
 */
import { auditLog } from "../../hooks/state/audit.ts";
import {
  applyUndo,
  markUndone,
  planUndo,
  readSnapshots,
  SnapshotProblem,
  type SnapshotEntry,
} from "../../hooks/state/snapshots.ts";
import { projectPaths } from "../../host/layout.ts";
import { isoTime } from "../../io/time.ts";
import { parseCommandArgs } from "../args.ts";
import { printJson, projectDirOf } from "../runtime-edge.ts";
import { CliError, type Command } from "../types.ts";

const usage = `usage: lanes undo [<id>] [options]

restore the files the last snapshotted call destroyed or changed (or snapshot <id>'s), byte for
byte with their modes; lanes keeps a snapshot before a Bash call that deletes, truncates,
overwrites or moves files in the project

options:
  --list            list the snapshots (time, agent, command, files, size), newest last
  --dry-run         say what would be restored, change nothing
  --force           also overwrite files changed since the snapshot (named otherwise, and kept)
  --project <dir>   project root (default: nearest ancestor with .claude/)
  --json            print one JSON document`;

const size = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${(bytes / 1048576).toFixed(1)} MiB`;

/** The first line of a snapshot's command, for one-line listings. */
const firstLine = (text: string): string => (text.includes("\n") ? text.slice(0, text.indexOf("\n")) : text);

const who = (e: SnapshotEntry): string => e.agent ?? "main";

function listing(entries: readonly SnapshotEntry[]): string {
  if (entries.length === 0)
    return "no snapshots: lanes keeps one before a Bash call that may destroy work in the project\n";
  const rows = entries.map((e) =>
    [
      e.id,
      e.ts.slice(0, 19).replace("T", " "),
      who(e),
      `${e.files} file${e.files === 1 ? "" : "s"}`,
      size(e.bytes),
      `${e.undone === undefined ? "" : "(undone) "}${firstLine(e.command).slice(0, 80)}`,
    ].join("  "),
  );
  return `${rows.join("\n")}\n`;
}

export const undoCommand: Command = {
  name: "undo",
  summary: "restore the files a snapshotted call destroyed or changed",
  usage,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        list: { type: "boolean" },
        "dry-run": { type: "boolean" },
        force: { type: "boolean" },
        project: { type: "string" },
        json: { type: "boolean" },
      },
      usage,
    );
    if (positionals.length > 1) throw new CliError("pass at most one snapshot id: `lanes undo <id>`", 64, usage);
    const projectDir = projectDirOf(values.project, ctx);
    const paths = projectPaths(projectDir);
    const entries = readSnapshots(paths.state);
    if (values.list === true) {
      if (values.json === true) printJson(ctx, entries);
      else ctx.out(listing(entries));
      return 0;
    }
    const wanted = positionals[0];
    const entry =
      wanted === undefined
        ? entries.filter((e) => e.undone === undefined).at(-1)
        : entries.find((e) => e.id === wanted || e.id.startsWith(wanted));
    if (entry === undefined)
      throw new CliError(
        wanted === undefined
          ? "no snapshot to undo: every snapshot was undone already, or none was taken; `lanes undo --list` shows them"
          : `no snapshot \`${wanted}\`: \`lanes undo --list\` shows the snapshots`,
      );
    const dry = values["dry-run"] === true;
    const force = values.force === true;
    let plan;
    let written: string[] = [];
    try {
      plan = planUndo(entry, paths.state);
      if (!dry) written = applyUndo(plan, paths.state, force);
    } catch (error) {
      if (error instanceof SnapshotProblem || error instanceof Error)
        throw new CliError(`snapshot \`${entry.id}\` could not be restored: ${error.message}`);
      throw error;
    }
    const restore = plan.files.filter((f) => f.action === "restore" || force).map((f) => f.path);
    const held = force ? [] : plan.files.filter((f) => f.action === "changed").map((f) => f.path);
    const now = new Date();
    if (!dry) {
      auditLog(paths).append({
        ts: isoTime(now),
        event: "undo",
        subject: entry.command,
        id: entry.id,
        files: written,
        ...(held.length > 0 && { kept: held }),
        ...(force && { force: true }),
      });
      if (held.length === 0) markUndone(paths.state, entry.id, now);
    }
    if (values.json === true) {
      printJson(ctx, {
        id: entry.id,
        dryRun: dry,
        restored: dry ? [] : written,
        wouldRestore: dry ? restore : [],
        changedSince: held,
        unchanged: plan.unchanged,
      });
      return held.length > 0 ? 1 : 0;
    }
    const head = `snapshot ${entry.id} (${entry.ts.slice(0, 19).replace("T", " ")}, ${entry.agent === undefined ? "the main session" : entry.agent}, before \`${firstLine(entry.command).slice(0, 120)}\`)`;
    const lines = [
      restore.length === 0
        ? `${head}: nothing to restore${held.length === 0 ? `, its ${plan.unchanged} files are as they were` : ""}`
        : `${head}: ${dry ? "would restore" : "restored"} ${restore.length} file${restore.length === 1 ? "" : "s"}`,
      ...restore.map((p) => `  ${p}`),
    ];
    ctx.out(`${lines.join("\n")}\n`);
    if (held.length > 0) {
      ctx.err(
        `lanes undo: ${held.length} file${held.length === 1 ? " was" : "s were"} changed since the snapshot and ${dry ? "would be" : "were"} kept: ${held.map((p) => `\`${p}\``).join(", ")}; run \`lanes undo ${entry.id} --force\` to overwrite ${held.length === 1 ? "it" : "them"} with the snapshot\n`,
      );
      return 1;
    }
    return 0;
  },
};

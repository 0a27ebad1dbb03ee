/**
 * `lanes memory`: the memory files agents leave in `.claude/memory/{task_id}-{agent}-memory.md`.
 * `verify` is the phase gate composite skills call. A thin adapter over src/runtime/memory.ts.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseCommandArgs } from "../args.ts";
import { CliError, type CliContext, type Command } from "../types.ts";
import { dispatch, oneOf, printJson, projectDirOf, required, unwrap } from "../runtime-edge.ts";
import { listMemory, readMemory, verifyMemory, writeMemory } from "../../runtime/memory.ts";
import { describeError } from "../../io/result.ts";

const usage = `usage: lanes memory <subcommand> [options]

the memory files agents write when they finish: .claude/memory/<task>-<agent>-memory.md

subcommands:
  write --task <id> --agent <name> --summary <text>   write (or replace) a memory file
        (--body <markdown> | --body-file <file> | --body-file -)
        [--status complete|partial|failed] [--phase <id>] [--run <run id>] [--artifact <file>]...
        [--written-by main|<agent>]                   when you write it for an agent without a tool to
                                                      write files, from its report (the gate checks it)
  read --task <id> --agent <name>                     print a memory file
  list [--task <id>]                                  list memory files
  verify --task <id> --agent <name>                   the phase gate: exit 0 when the file exists, is
        [--phase <id>] [--run <run id>]               valid, matches (phase and run too, when given),
                                                      is complete and has a body

options:
  --project <dir>   project root (default: nearest ancestor with .claude/)
  --json            print one JSON document`;

const common = { project: { type: "string" }, json: { type: "boolean" } } as const;
const who = { task: { type: "string" }, agent: { type: "string" } } as const;

async function bodyOf(values: { body?: string; "body-file"?: string }, ctx: CliContext): Promise<string> {
  if (values.body !== undefined && values["body-file"] !== undefined)
    throw new CliError("pass either `--body` or `--body-file`, not both", 64, usage);
  if (values.body !== undefined) return values.body;
  const file = values["body-file"];
  if (file === undefined)
    throw new CliError(
      "the findings are required: pass `--body <markdown>`, `--body-file <file>` or `--body-file -` for stdin",
      64,
      usage,
    );
  if (file === "-") return ctx.stdin();
  try {
    return readFileSync(resolve(ctx.cwd, file), "utf8");
  } catch (error) {
    throw new CliError(`cannot read \`${file}\`: ${describeError(error)}`, 66);
  }
}

async function write(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values } = parseCommandArgs(
    args,
    {
      ...common,
      ...who,
      summary: { type: "string" },
      status: { type: "string" },
      phase: { type: "string" },
      run: { type: "string" },
      "written-by": { type: "string" },
      artifact: { type: "string", multiple: true },
      body: { type: "string" },
      "body-file": { type: "string" },
    },
    usage,
    false,
  );
  const status = oneOf(values.status, "status", ["complete", "partial", "failed"] as const, usage);
  const input = {
    taskId: required(values.task, "task", usage),
    agent: required(values.agent, "agent", usage),
    summary: required(values.summary, "summary", usage),
    ...(values.phase === undefined ? {} : { phase: values.phase }),
    ...(values.run === undefined ? {} : { run: values.run }),
    ...(values["written-by"] === undefined ? {} : { writtenBy: values["written-by"] }),
    ...(status === undefined ? {} : { status }),
    artifacts: values.artifact ?? [],
    body: await bodyOf(values, ctx),
  };
  const file = unwrap(writeMemory(projectDirOf(values.project, ctx), input));
  if (values.json === true) printJson(ctx, { path: file.display, frontmatter: file.frontmatter });
  else
    ctx.out(
      `wrote ${file.display} (${file.frontmatter.status}${file.frontmatter.written_by === undefined ? "" : `, written by ${file.frontmatter.written_by} for ${file.frontmatter.agent}`})\n`,
    );
}

async function read(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values } = parseCommandArgs(args, { ...common, ...who }, usage, false);
  const file = unwrap(
    readMemory(
      projectDirOf(values.project, ctx),
      required(values.task, "task", usage),
      required(values.agent, "agent", usage),
    ),
  );
  if (values.json === true) printJson(ctx, { path: file.display, frontmatter: file.frontmatter, body: file.body });
  else ctx.out(readFileSync(file.path, "utf8"));
}

async function list(args: readonly string[], ctx: CliContext): Promise<void> {
  const { values } = parseCommandArgs(args, { ...common, task: { type: "string" } }, usage, false);
  const entries = unwrap(
    listMemory(projectDirOf(values.project, ctx), values.task === undefined ? {} : { taskId: values.task }),
  );
  if (values.json === true) {
    printJson(ctx, entries);
    return;
  }
  if (entries.length === 0) {
    ctx.out(values.task === undefined ? "no memory files\n" : `no memory files for task \`${values.task}\`\n`);
    return;
  }
  for (const e of entries) {
    ctx.out(
      e.ok ? `${e.file}  ${e.frontmatter.status}  ${e.frontmatter.summary}\n` : `${e.file}  invalid: ${e.problem}\n`,
    );
  }
}

async function verify(args: readonly string[], ctx: CliContext): Promise<number> {
  const { values } = parseCommandArgs(
    args,
    { ...common, ...who, phase: { type: "string" }, run: { type: "string" } },
    usage,
    false,
  );
  const taskId = required(values.task, "task", usage);
  const agent = required(values.agent, "agent", usage);
  const expect = {
    ...(values.phase === undefined ? {} : { phase: values.phase }),
    ...(values.run === undefined ? {} : { run: values.run }),
  };
  const result = verifyMemory(projectDirOf(values.project, ctx), taskId, agent, expect);
  if (values.json === true) {
    printJson(
      ctx,
      result.ok
        ? { ok: true, path: result.value.display, summary: result.value.frontmatter.summary }
        : { ok: false, reason: result.issues[0]?.message },
    );
    return result.ok ? 0 : 1;
  }
  const file = unwrap(result);
  ctx.out(`ok: ${file.display} is complete: ${file.frontmatter.summary}\n`);
  return 0;
}

/** `lanes memory`. */
export const memoryCommand: Command = {
  name: "memory",
  summary: "write, read, list and verify the memory files agents leave for the next phase",
  usage,
  run: (args, ctx) => dispatch("memory", args, ctx, { write, read, list, verify }, usage),
};

/**
 * Running the built hooks as Claude Code does: a project installed with the built CLI, the hook
 * process spawned with JSON on stdin, stdout and stderr captured. Hook inputs and outputs are
 * checked against JSON Schemas generated from the Agent SDK's hook types.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createGenerator } from "ts-json-schema-generator";
import { z } from "zod";

export const ROOT = join(import.meta.dirname, "..", "..");
const SDK = join(ROOT, "node_modules", "@anthropic-ai", "claude-agent-sdk", "sdk.d.ts");

/** JSON Schemas of the SDK hook types, as zod schemas (generated once per test file). */
export function sdkSchemas<T extends string>(types: readonly T[]): Record<T, z.ZodType> {
  const generator = createGenerator({
    path: SDK,
    skipTypeCheck: true,
    expose: "none",
    topRef: false,
    additionalProperties: false,
  });
  return Object.fromEntries(types.map((t) => [t, z.fromJSONSchema(generator.createSchema(t) as never)])) as Record<
    T,
    z.ZodType
  >;
}

export interface Project {
  readonly dir: string;
  readonly home: string;
  path(rel: string): string;
  write(rel: string, content: string): void;
  read(rel: string): string;
  cleanup(): void;
}

/** A temp project (git repo) with lanes installed by the built CLI, and a temp HOME. */
export function installedProject(files: Record<string, string> = {}): Project {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "lanes-hooks-")));
  const dir = join(base, "project");
  const home = join(base, "home");
  mkdirSync(dir, { recursive: true });
  mkdirSync(home, { recursive: true });
  spawnSync("git", ["init", "-q"], { cwd: dir });
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  const init = spawnSync(process.execPath, [join(ROOT, "dist", "cli.mjs"), "init", dir], {
    env: { PATH: process.env["PATH"], HOME: home },
    encoding: "utf8",
  });
  if (init.status !== 0) throw new Error(`lanes init failed: ${init.stderr}`);
  return {
    dir,
    home,
    path: (rel) => join(dir, rel),
    write: (rel, content) => {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), content);
    },
    read: (rel) => readFileSync(join(dir, rel), "utf8"),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

export interface HookRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed, when it is not empty. */
  readonly json: Record<string, unknown> | undefined;
}

/** Runs an installed hook entry (`pre-tool-use.cjs`, ...) with `input` on stdin. */
export function runHook(project: Project, entry: string, input: unknown, env: Record<string, string> = {}): HookRun {
  const result = spawnSync(process.execPath, [project.path(`.claude/lanes/dist/${entry}`)], {
    input: typeof input === "string" ? input : JSON.stringify(input),
    cwd: project.dir,
    env: { PATH: process.env["PATH"], HOME: project.home, CLAUDE_PROJECT_DIR: project.dir, ...env },
    encoding: "utf8",
    timeout: 20_000,
  });
  const stdout = result.stdout ?? "";
  return {
    status: result.status,
    stdout,
    stderr: result.stderr ?? "",
    json: stdout === "" ? undefined : (JSON.parse(stdout) as Record<string, unknown>),
  };
}

/** A realistic hook input for `event`, as Claude Code 2.1.330 sends it. */
/** Each tool call gets its own id, as in the client (lanes claims calls by id). */
let toolUseSeq = 0;

export function hookInput(project: Project, event: string, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    session_id: "9e59050b-377d-4726-aa64-e18d3d71bc2e",
    transcript_path: join(project.home, ".claude", "projects", "p", "9e59050b-377d-4726-aa64-e18d3d71bc2e.jsonl"),
    cwd: project.dir,
    hook_event_name: event,
    // the prompt's id is in UserPromptSubmit and in every tool event of its turn (observed, 2.1.330)
    ...(["PreToolUse", "PostToolUse", "UserPromptSubmit"].includes(event) && {
      permission_mode: "default",
      prompt_id: "57cf6aaa-b7f0-4089-85ef-5e9a9e7f2922",
    }),
    ...(["PreToolUse", "PostToolUse"].includes(event) && {
      tool_use_id: `toolu_01${String(++toolUseSeq).padStart(4, "0")}`,
    }),
    ...fields,
  };
}

/**
 * PostToolUse: after a file tool or a Bash command ran, record what it created or modified — in
 * the progress file's artifacts (when a workflow is running), in the per-workflow touches (for
 * conflicts between agents), and in the audit log; after a Bash call lanes kept a snapshot before,
 * the state it left (for `lanes undo`). Audit-only: it never blocks; a conflict is
 * reported to the model (`additionalContext`) and to the human (`systemMessage`).
 */
import { isAbsolute, resolve } from "node:path";
import { projectPaths } from "../../host/layout.ts";
import { baseAgentName } from "../../policy/lanes.ts";
import { normalizePath, relativeWithin, shownPath } from "../../host/paths.ts";
import { toolSpec } from "../../host/tools.ts";
import { parseTaskBlock } from "../../policy/task-block.ts";
import { fnv1a64 } from "../../io/hash.ts";
import { progressForHooks, recordArtifacts } from "../../runtime/progress-hot.ts";
import { recordSpawnResult } from "../state/agent-tree.ts";
import { HOOK_LOCK } from "../../io/lock.ts";
import { analyzeShell, fileEffects } from "../../shell/index.ts";
import { auditLog } from "../state/audit.ts";
import { recordAfter } from "../state/snapshots.ts";
import { claimCall } from "../state/claim.ts";
import { findProjectDir, homeOf } from "../../host/env.ts";
import { readHookInput, type ToolHookInput } from "../protocol/hook-input.ts";
import { quiet, respond, type HookDeps, type HookOutcome } from "../protocol/response.ts";
import { recordTouches, workflowKey, type PendingConflict } from "../state/touches.ts";
import { isoTime } from "../../io/time.ts";

/** Files the call created and modified, as absolute paths. */
export function changedFiles(input: ToolHookInput, home: string): { created: string[]; modified: string[] } {
  const spec = toolSpec(input.tool_name);
  if (spec?.recordsChanges !== true) return { created: [], modified: [] };
  const key = spec.writes?.[0];
  if (key !== undefined) {
    const raw = input.tool_input[key];
    if (typeof raw !== "string" || raw === "") return { created: [], modified: [] };
    const path = isAbsolute(raw) ? resolve(raw) : resolve(input.cwd, raw);
    const response = input.tool_response as { type?: unknown } | undefined;
    return response?.type === "create" ? { created: [path], modified: [] } : { created: [], modified: [path] };
  }
  const command = spec.command === undefined ? undefined : input.tool_input[spec.command];
  if (typeof command === "string") {
    const analysis = analyzeShell(command, { home, cwd: input.cwd });
    const modified = new Set<string>();
    for (const effect of fileEffects(analysis)) {
      if (effect.access !== "write" || effect.path.value === undefined || effect.path.glob) continue;
      const cwd = analysis.commands[effect.command]?.cwd;
      if (cwd === undefined && !effect.path.value.startsWith("/")) continue;
      modified.add(normalizePath(effect.path.value, { cwd: cwd ?? input.cwd, home }));
    }
    return { created: [], modified: [...modified] };
  }
  return { created: [], modified: [] };
}

function conflictMessage(c: PendingConflict, projectDir: string): string {
  const rel = shownPath(c.file, projectDir);
  const kept =
    c.copy === undefined ? "" : `; ${c.earlier.agent}'s version is kept at \`${shownPath(c.copy, projectDir)}\``;
  return `lanes conflict: \`${rel}\` was modified by ${c.earlier.agent} and now by ${c.later} in the same workflow${kept}; a human must choose which version wins — report it to the orchestrator and do not overwrite it again`;
}

/**
 * The Agent call's PostToolUse links the agent it started exactly: `tool_response.agentId` is
 * the new agent, the hook input's `agent_id` its parent, `prompt` its task (reference C.4).
 */
function recordSpawn(input: ToolHookInput, paths: ReturnType<typeof projectPaths>, now: Date, stderr: string[]): void {
  const response = (
    typeof input.tool_response === "object" && input.tool_response !== null ? input.tool_response : {}
  ) as Record<string, unknown>;
  const agentId = response["agentId"];
  if (typeof agentId !== "string" || agentId === "") return;
  const prompt =
    typeof response["prompt"] === "string"
      ? response["prompt"]
      : typeof input.tool_input["prompt"] === "string"
        ? input.tool_input["prompt"]
        : undefined;
  const type =
    typeof input.tool_input["subagent_type"] === "string" && input.tool_input["subagent_type"] !== ""
      ? input.tool_input["subagent_type"]
      : "general-purpose";
  const description =
    typeof input.tool_input["description"] === "string" ? input.tool_input["description"].slice(0, 200) : undefined;
  const problem = recordSpawnResult(
    paths.agentTree,
    paths.state,
    input.session_id,
    {
      agentId,
      parent: input.agent_id,
      type,
      prompt: prompt === undefined ? undefined : fnv1a64(prompt),
      task: prompt === undefined ? null : (parseTaskBlock(prompt) ?? null),
      description,
    },
    now,
  );
  if (problem !== undefined) stderr.push(`lanes: could not record the started agent: ${problem}`);
}

export function runPostToolUse(raw: string, deps: HookDeps): HookOutcome {
  const parsed = readHookInput(raw);
  if (!parsed.ok) return quiet([`lanes post-tool-use: could not read the hook input: ${parsed.message}`]);
  const input = parsed.input;
  const stderr: string[] = [];
  try {
    const home = homeOf(deps.env);
    const projectDir = findProjectDir(input.cwd, deps.env);
    const paths = projectPaths(projectDir);
    const now = deps.now();
    // the state the call left, for the snapshot taken before it (one failed read when there is none)
    if (toolSpec(input.tool_name)?.command !== undefined) {
      const problem = recordAfter(paths.state, input.tool_use_id);
      if (problem !== undefined) stderr.push(problem);
    }
    if (input.tool_name === "Agent" || input.tool_name === "Task") {
      recordSpawn(input, paths, now, stderr);
      return quiet(stderr);
    }
    const { created, modified } = changedFiles(input, home);
    if (created.length + modified.length === 0) return quiet(stderr);
    // lanes installed twice (plugin and project): only the first hook to claim the call records it
    if (!claimCall(paths.state, "post", input.session_id, input.tool_use_id, now)) return quiet(stderr);

    const agent = input.agent_type === undefined ? undefined : baseAgentName(input.agent_type);
    const inProject = (f: string) => relativeWithin(f, projectDir) !== undefined;
    const recorded = recordArtifacts(
      projectDir,
      { created: created.filter(inProject), modified: modified.filter(inProject) },
      agent,
      { lock: HOOK_LOCK },
    );
    if (!recorded.ok)
      stderr.push(...recorded.issues.map((i) => `lanes: progress artifacts not recorded: ${i.message}`));

    const files = [...created, ...modified];
    const log = auditLog(paths);
    log.append({
      ts: isoTime(now),
      event: "file-touched",
      session: input.session_id,
      ...(input.agent_id !== undefined && { agent_id: input.agent_id }),
      ...(agent !== undefined && { agent }),
      tool: input.tool_name,
      subject: files.join(" "),
      files,
    });

    if (agent === undefined) return quiet(stderr);
    const workflow = workflowKey(progressForHooks(projectDir), input.session_id);
    const conflicts = recordTouches(
      { touches: paths.touches, state: paths.state, conflicts: paths.conflicts },
      workflow,
      { agent, agent_id: input.agent_id, tool: input.tool_name, at: isoTime(now) },
      files,
      now,
    );
    if (conflicts.length === 0) return quiet(stderr);
    const messages = conflicts.map((c) => conflictMessage(c, projectDir));
    for (const c of conflicts) {
      log.append({
        ts: isoTime(now),
        event: "conflict",
        session: input.session_id,
        agent,
        tool: input.tool_name,
        subject: c.file,
        earlier: c.earlier.agent,
        later: c.later,
        copy: c.copy,
        workflow,
      });
    }
    return {
      stdout: respond("PostToolUse", { message: messages.join("\n"), context: messages.join("\n") }),
      stderr,
    };
  } catch (error) {
    return quiet([...stderr, `lanes post-tool-use: ${error instanceof Error ? error.message : String(error)}`]);
  }
}

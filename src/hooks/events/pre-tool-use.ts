/**
 * The PreToolUse guard: hook input in, exactly one JSON object (or nothing) out. Everything that
 * can fail is caught here and turned into the answer the failure posture prescribes:
 *
 * | failure                                  | answer                                                        |
 * |------------------------------------------|---------------------------------------------------------------|
 * | hook input unreadable / not JSON / wrong shape | deny, with a message                                    |
 * | compiled policy stale or missing while lanes config exists | recompiled on the spot (recompile.ts); the call is judged by the new policy |
 * | the edited config does not compile, a last good policy exists | judged by the last good policy; the user and the model are told once which line to fix |
 * | the config does not compile, no good policy | deny mutating tools (Write, Edit, MultiEdit, NotebookEdit, Bash, Agent, MCP) naming the file:line to fix, except edits to the policy files; other tools are judged by the built-in defaults |
 * | internal error                           | deny, with a message                                          |
 * | shell not analysable / budget exceeded   | ask (rule `shell.unanalysable`)                               |
 * | a subagent's task block unreadable while its type was started with one this session | deny its writes and commands (`task.constraints-unreadable`) |
 * | `LANES_FAILURE_MODE=open`                | the deny-on-failure rows become no opinion (stderr still says why) |
 *
 * The guard runs in four steps (src/hooks/guard/): gather (reads only), decide (pure), record
 * (writes: the human's one-use grant first, then audit, counters, touches, offers, spawn intents)
 * and respond (below). Side effects after the decision never change it, except the human's grant
 * and a snapshot that cannot be taken (guard/snapshot.ts: ask in the main session, deny in a subagent).
 */
import { OVERRIDE_TTL_MS } from "../state/override.ts";
import { decide } from "../guard/decide.ts";
import { gather, type GatheredCall } from "../guard/gather.ts";
import { record, recordPolicyError, spendGrant, type Granted, type Recorded } from "../guard/record.ts";
import { keepSnapshot, undoOffer, type SnapshotOutcome } from "../guard/snapshot.ts";
import { readHookInput, type ToolHookInput } from "../protocol/hook-input.ts";
import { NO_OPINION, respond, type HookDeps, type HookOutcome } from "../protocol/response.ts";

/** A failure: deny with `message`, unless the team opted into failing open. */
function failure(message: string, deps: HookDeps, stderr: readonly string[] = []): HookOutcome {
  if (deps.env["LANES_FAILURE_MODE"] === "open")
    return { stdout: NO_OPINION, stderr: [...stderr, `${message} (LANES_FAILURE_MODE=open: no objection)`] };
  return {
    stdout: respond("PreToolUse", { permission: { decision: "deny", reason: message } }),
    stderr: [...stderr, message],
  };
}

/** The kind of call, for the loader's code cache: which tool, who called, whether lanes answered. */
function callProfile(input: ToolHookInput, outcome: HookOutcome): string {
  const tool = input.tool_name.startsWith("mcp__") ? "mcp" : input.tool_name.replace(/[^A-Za-z0-9_]/g, "");
  return `pre:${tool}:${input.agent_id === undefined ? "main" : "agent"}:${outcome.stdout === "" ? "quiet" : "answer"}`;
}

/** Runs the guard on one raw hook input. Never throws. */
export function runPreToolUse(raw: string, deps: HookDeps): HookOutcome {
  const parsed = readHookInput(raw);
  if (!parsed.ok)
    return failure(
      `lanes could not read the hook input: ${parsed.message}; the call is blocked because the guard cannot judge it`,
      deps,
    );
  const input = parsed.input;
  try {
    const outcome = guard(input, deps);
    return { ...outcome, profile: callProfile(input, outcome) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failure(
      `lanes internal error while judging this ${input.tool_name} call: ${message}; the call is blocked; report it with \`lanes log\` output`,
      deps,
    );
  }
}

/** The guard, top to bottom: gather (reads), decide (pure), the human's grant, record (writes), respond. */
function guard(input: ToolHookInput, deps: HookDeps): HookOutcome {
  const gathered = gather(input, deps);
  if (!gathered.ok) {
    if (gathered.policyError) recordPolicyError(gathered.paths, input, deps.now(), gathered.message);
    return failure(gathered.message, deps, gathered.stderr);
  }
  const call = gathered.call;
  const now = deps.now();
  // a call lanes lets run that may destroy work in the project: keep a snapshot first (or ask/deny why not)
  const { verdict, snapshot } = keepSnapshot(call, spendGrant(call, decide(call.judgement), now), deps.env, now);
  const recorded = record(call, verdict, now, snapshot);
  return { stdout: answer(call, verdict, recorded, snapshot), stderr: call.stderr };
}

/**
 * Respond: deny or ask with the reason the model reads, or nothing. The notice of a policy that does
 * not compile goes to the user and the model, from the installation that recorded the call; the
 * override code only to the user (`systemMessage`, never sent to the model).
 */
function answer(
  call: GatheredCall,
  verdict: Granted,
  recorded: Recorded,
  snapshot: SnapshotOutcome | undefined,
): string {
  const notice = recorded.recorder ? call.notice : undefined;
  const kept = snapshot?.kind === "kept" ? undoOffer(snapshot.entry) : undefined;
  if (verdict.decision === undefined || recorded.reason === undefined) {
    const context = [notice, kept].filter((m) => m !== undefined).join("\n");
    return context === "" ? NO_OPINION : respond("PreToolUse", { message: notice, context });
  }
  const offer =
    recorded.offer === undefined
      ? undefined
      : `lanes: to let this exact call run once, send \`lanes allow ${recorded.offer}\` as your next message to Claude, in Claude Code's prompt, not the shell (valid ${OVERRIDE_TTL_MS / 60_000} minutes)`;
  return respond("PreToolUse", {
    permission: {
      decision: verdict.decision.effect,
      reason: kept === undefined ? recorded.reason : `${recorded.reason}; ${kept}`,
    },
    message: [notice, offer].filter((m) => m !== undefined).join("\n"),
    ...(notice !== undefined && { context: notice }),
  });
}

/**
 * The snapshot before a destructive call (issue 25), between decide and record: a Bash call that
 * lanes lets run (no objection, or an ask the human may answer yes) and that deletes, truncates,
 * overwrites, moves over or extracts into files of the project first has what git could not give
 * back kept (src/hooks/state/snapshots.ts), so `lanes undo` can restore it.
 *
 * The scope comes from the facts the evaluator computed (src/policy/snapshot-scope.ts): a call
 * that destroys nothing spawns no git and walks no tree. A snapshot never loosens a rule: denied
 * calls are not snapshotted, and a snapshot that cannot be taken turns the answer into ask (main
 * session) or deny (subagent), rule `undo.snapshot-failed`, with the reason.
 */
import { lstatSync } from "node:fs";
import { describeCall } from "../../policy/render.ts";
import type { Decision, Match } from "../../policy/types.ts";
import { snapshotScope } from "../../policy/snapshot-scope.ts";
import { claimCall } from "../state/claim.ts";
import { snapshotLimits, takeSnapshot, type SnapshotEntry } from "../state/snapshots.ts";
import type { GatheredCall } from "./gather.ts";
import type { Granted } from "./record.ts";

/** The rule id of a call asked or denied because its snapshot could not be taken. */
export const SNAPSHOT_FAILED = "undo.snapshot-failed";

/** What the snapshot step did. */
export type SnapshotOutcome =
  { readonly kind: "kept"; readonly entry: SnapshotEntry } | { readonly kind: "failed"; readonly problem: string };

/**
 * Takes the snapshot `verdict` calls for, if any; returns the verdict (changed only when the
 * snapshot failed) and what was done. `undefined` outcome: nothing to keep, or another
 * installation of lanes keeps it.
 */
export function keepSnapshot(
  call: GatheredCall,
  verdict: Granted,
  env: Readonly<Record<string, string | undefined>>,
  now: Date,
): { verdict: Granted; snapshot: SnapshotOutcome | undefined } {
  if (verdict.decision?.effect === "deny" || env["LANES_SNAPSHOTS"] === "off") return { verdict, snapshot: undefined };
  const { request, policy } = call.judgement;
  const scope = snapshotScope(
    verdict.evaluation.facts,
    request.projectDir,
    call.paths.state,
    policy.options.caseInsensitivePaths,
  );
  if (scope === undefined || !scope.paths.some(present)) return { verdict, snapshot: undefined };
  const { input } = call;
  if (!claimCall(call.paths.state, "snapshot", input.session_id, input.tool_use_id, now))
    return { verdict, snapshot: undefined };
  const command = typeof input.tool_input["command"] === "string" ? input.tool_input["command"] : "";
  const taken = takeSnapshot(
    request.projectDir,
    call.paths.state,
    { session: input.session_id, agent: call.agentName, toolUseId: input.tool_use_id, command, scope: scope.paths },
    now,
    snapshotLimits(env),
  );
  if (taken.ok)
    return { verdict, snapshot: taken.entry === undefined ? undefined : { kind: "kept", entry: taken.entry } };
  return {
    verdict: { ...verdict, decision: failed(call, verdict.decision, taken.problem), overridable: false },
    snapshot: { kind: "failed", problem: taken.problem },
  };
}

/**
 * Whether `path` is in the work tree now (a symbolic link counts, dangling or not). A call that
 * only writes paths none of which exists yet destroys nothing: git would find nothing under them to
 * keep, so no git process is started. A path that cannot be looked at counts as present.
 */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code !== "ENOENT" && code !== "ENOTDIR";
  }
}

/** The decision when the snapshot failed: ask in the main session, deny in a subagent; an ask already made keeps its rules too. */
function failed(call: GatheredCall, decision: Decision | undefined, problem: string): Decision {
  const main = call.judgement.main;
  const match: Match = {
    ruleId: SNAPSHOT_FAILED,
    layer: "builtin",
    effect: main ? "ask" : "deny",
    why: `lanes could not keep a snapshot of the files it changes (${problem}), so \`lanes undo\` could not bring them back`,
    instead: main
      ? "commit or copy the work it may destroy first, or narrow the command to fewer files"
      : "narrow the command to fewer files, or report to the agent that started you that the work must be committed first",
    subject: describeCall(call.input.tool_name, call.input.tool_input),
    source: "lanes built-in",
    scope: "call",
  };
  const matches = [match, ...(decision?.matches ?? [])];
  return {
    effect: match.effect === "deny" ? "deny" : "ask",
    ruleIds: [SNAPSHOT_FAILED, ...(decision?.ruleIds ?? []).filter((id) => id !== SNAPSHOT_FAILED)],
    layer: "builtin",
    matches,
    trace: decision?.trace ?? [],
    alternative: match.instead,
  };
}

/** The line that offers the undo of a snapshot (context of an allowed call, end of an ask's reason). */
export function undoOffer(entry: SnapshotEntry): string {
  const files = entry.files === 1 ? "1 file" : `${entry.files} files`;
  return `lanes kept snapshot \`${entry.id}\` (${files}) before this call; if it destroys work, the user can restore it with \`lanes undo\` (\`lanes undo --list\` shows the snapshots)`;
}

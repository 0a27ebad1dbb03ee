/**
 * SessionStart: compile the policy when it is missing or stale (so a fresh clone or an edited
 * `lanes.yaml` is enforced without anyone running `lanes build`), and give the model a short
 * resume summary when a workflow is unfinished. This is the only hook that parses YAML and runs
 * zod: once per session, never per tool call.
 */
import { buildPolicy } from "../../config/load.ts";
import { projectPaths } from "../../host/layout.ts";
import { hasPolicySources } from "../guard/policy.ts";
import { resumeSummary } from "../../runtime/progress-hot.ts";
import { auditLog } from "../state/audit.ts";
import { findProjectDir, homeOf } from "../../host/env.ts";
import { readBaseInput } from "../protocol/hook-input.ts";
import { readCompiledPolicy } from "../../config/policy-file.ts";
import { quiet, respond, type HookDeps, type HookOutcome } from "../protocol/response.ts";
import { isoTime } from "../../io/time.ts";

export interface SessionStartDeps extends HookDeps {
  readonly lanesVersion: string;
  /** How to run the lanes CLI of this install, e.g. `node .claude/lanes/dist/cli.mjs` (see cliCommandFor). */
  readonly cli: string;
  /** The pack's agent definitions, for projects without their own (plugin installs). */
  readonly fallbackAgentsDir: string | undefined;
}

export function runSessionStart(raw: string, deps: SessionStartDeps): HookOutcome {
  const parsed = readBaseInput(raw);
  if (!parsed.ok) return quiet([`lanes session-start: could not read the hook input: ${parsed.message}`]);
  const input = parsed.input;
  const stderr: string[] = [];
  const context: string[] = [];
  const notices: string[] = [];
  try {
    const home = homeOf(deps.env);
    const projectDir = findProjectDir(input.cwd, deps.env);
    const paths = projectPaths(projectDir);
    const ts = isoTime(deps.now());
    const hasSources = hasPolicySources(projectDir, home);
    const compiled = readCompiledPolicy(paths.compiledPolicy);
    if (hasSources && !compiled.ok) {
      const built = buildPolicy({
        projectDir,
        home,
        lanesVersion: deps.lanesVersion,
        ...(deps.fallbackAgentsDir !== undefined && { fallbackAgentsDir: deps.fallbackAgentsDir }),
      });
      if (built.ok) {
        auditLog(paths, built.policy.options.auditMaxBytes).append({
          ts,
          event: "policy-compiled",
          session: input.session_id,
          subject: compiled.kind === "missing" ? "first compile" : `${compiled.file}: ${compiled.message}`,
          kind: compiled.kind,
          file: compiled.file,
        });
      } else {
        const first = built.issues[0]!;
        const where = first.message.startsWith(first.file) ? first.message : `${first.file}: ${first.message}`;
        const message = `lanes policy does not compile: ${where}${built.issues.length > 1 ? ` (and ${built.issues.length - 1} more)` : ""}; fix that line: the guard recompiles on the next tool call, and until then ${readCompiledPolicy(paths.compiledPolicy, { allowStale: true }).ok ? "the last good policy stays in force" : "it blocks Bash, Write, Edit and Agent calls except edits to the policy files"}`;
        notices.push(message);
        context.push(message);
        auditLog(paths).append({
          ts,
          event: "policy-error",
          session: input.session_id,
          kind: "invalid-source",
          file: first.file,
          // one line: a YAML error quotes the source lines after its first
          reason: message.split("\n", 1)[0],
        });
      }
    }
    const summary = resumeSummary(projectDir, deps.cli);
    if (summary.ok && summary.value !== undefined) context.push(summary.value);
    if (!summary.ok) stderr.push(...summary.issues.map((i) => `lanes: ${i.message}`));
  } catch (error) {
    stderr.push(`lanes session-start: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (context.length === 0 && notices.length === 0) return quiet(stderr);
  return {
    stdout: respond("SessionStart", { message: notices.join("\n"), context: context.join("\n\n") }),
    stderr,
  };
}

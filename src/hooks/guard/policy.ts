/**
 * The policy a hook judges with, and what to do when there is none (the failure posture's policy
 * rows, see events/pre-tool-use.ts): a stale or missing compiled policy is recompiled on the spot
 * (recompile.ts); when the edited files do not compile, the last good policy stays in force and the
 * message names the file and line to fix. Without any good policy, mutating tools are blocked
 * except edits to the policy files themselves, which the built-in defaults judge.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { readCompiledPolicy } from "../../config/policy-file.ts";
import { projectPaths, userPaths } from "../../host/layout.ts";
import { isPresent } from "../../host/sandbox-mask.ts";
import { isMutatingTool } from "../../host/tools.ts";
import { LANES_VERSION } from "../../host/version.ts";
import type { CompiledPolicy } from "../../policy/compiled.ts";
import type { ToolHookInput } from "../protocol/hook-input.ts";
import type { HookDeps } from "../protocol/response.ts";
import { recompilePolicy } from "./recompile.ts";

/** The policy in force, with what to tell about it; or why the call cannot be judged. */
export type PolicyChoice =
  | {
      readonly policy: CompiledPolicy;
      /** Why the policy in force is not the one the files describe (for stderr). */
      readonly problem?: string;
      /** The same, told once to the user and the model. */
      readonly notice?: string;
    }
  | { readonly error: string };

/** True when lanes configuration exists that must be compiled before it can be enforced. */
export function hasPolicySources(projectDir: string, home: string): boolean {
  const p = projectPaths(projectDir);
  return [p.policy, p.policyLocal, p.agentDefinitions, userPaths(home).policy].some(
    (f) => existsSync(f) && isPresent(f),
  );
}

/** The policy source files: while none compiles, edits to them stay possible (that is how the model fixes them). */
function writesOnlyPolicySources(input: ToolHookInput, projectDir: string, home: string): boolean {
  if (!["Write", "Edit", "MultiEdit"].includes(input.tool_name)) return false;
  const file = input.tool_input["file_path"];
  if (typeof file !== "string" || file === "") return false;
  const p = projectPaths(projectDir);
  const abs = resolve(input.cwd, file);
  return (
    abs === p.policy || abs === p.policyLocal || abs === userPaths(home).policy || dirname(abs) === p.agentDefinitions
  );
}

/** The policy to judge `input` with (see the module comment). */
export function choosePolicy(input: ToolHookInput, projectDir: string, home: string, deps: HookDeps): PolicyChoice {
  const compiledPath = projectPaths(projectDir).compiledPolicy;
  const compiled = readCompiledPolicy(compiledPath);
  if (compiled.ok) return { policy: compiled.policy };
  const fallback = readCompiledPolicy(deps.defaultPolicyPath);
  if (compiled.kind === "missing" && !hasPolicySources(projectDir, home)) {
    return fallback.ok
      ? { policy: fallback.policy }
      : {
          error: `lanes is not installed correctly: the default policy \`${deps.defaultPolicyPath}\` cannot be read; reinstall with \`lanes init\` from the lanes package`,
        };
  }
  const packAgents = deps.distDir === undefined ? undefined : join(deps.distDir, "..", "definitions", "agents");
  const rebuilt = recompilePolicy({
    projectDir,
    home,
    lanesVersion: LANES_VERSION,
    session: input.session_id,
    now: deps.now(),
    ...(packAgents !== undefined && existsSync(packAgents) && { fallbackAgentsDir: packAgents }),
  });
  if (rebuilt.ok) return { policy: rebuilt.policy };
  const lastGood = readCompiledPolicy(compiledPath, { allowStale: true });
  if (lastGood.ok) {
    const problem = `lanes policy does not compile: ${rebuilt.message}; fix that line: until then the last good policy stays in force`;
    return { policy: lastGood.policy, problem, ...(rebuilt.fresh && { notice: problem }) };
  }
  const problem = `lanes policy does not compile: ${rebuilt.message}; fix that line: until then lanes blocks Bash, Write, Edit and Agent calls except edits to the policy files, while Read, Grep and Glob still work`;
  if (isMutatingTool(input.tool_name) && !writesOnlyPolicySources(input, projectDir, home)) return { error: problem };
  return fallback.ok
    ? { policy: fallback.policy, problem, ...(rebuilt.fresh && { notice: problem }) }
    : { error: problem };
}

/**
 * What the evaluator is given besides the call, read from the machine: the Claude Code settings
 * rules of every settings file, the temp directories, the task constraints of the progress file and
 * glob expansion. The hook and `lanes check` read them here and assemble the context with
 * `evaluationContext` (src/policy/evaluate.ts), as the tests do with their own sources.
 */
import type { TaskConstraints } from "../../policy/lanes.ts";
import { existsSync, readFileSync } from "node:fs";
import { expandGlob } from "../../globs/expand.ts";
import { settingsFiles, tempDirsOf, type Env } from "../../host/env.ts";
import { gitHooksDirs } from "../../host/git-layout.ts";
import type { CompiledPolicy } from "../../policy/compiled.ts";
import type { EvaluationSources } from "../../policy/evaluate.ts";
import { readSettingsRules, type SettingsRule } from "../../policy/settings.ts";
import type { RawProgress } from "../../runtime/progress-hot.ts";
import { taskConstraintsOf } from "./task-constraints.ts";

const readText = (path: string): string | undefined => {
  try {
    // most settings files do not exist; an exception for each costs more than the check
    return existsSync(path) ? readFileSync(path, "utf8") : undefined;
  } catch {
    return undefined;
  }
};

/** The deny and ask rules of every settings file. */
export function loadSettingsRules(
  projectDir: string,
  home: string,
  env: Env,
): { rules: SettingsRule[]; problems: string[] } {
  return readSettingsRules(settingsFiles(projectDir, home, env), readText);
}

/** Where a call is judged, and what of the machine to read for it. */
export interface SourceRequest {
  readonly projectDir: string;
  readonly home: string;
  readonly env: Env;
  /** Agent types from the first subagent down to the caller. */
  readonly agentPath: readonly string[];
  /** The progress file (progressForHooks), for its task constraints; undefined when they do not apply (the main session). */
  readonly progress: RawProgress | undefined;
  /** Further task constraints of the caller (its own task block). */
  readonly tasks?: readonly TaskConstraints[];
}

/** The evaluation sources of a call, and problems met reading them (for stderr). */
export function readEvaluationSources(
  policy: CompiledPolicy,
  where: SourceRequest,
): { sources: EvaluationSources; problems: string[] } {
  const settings = loadSettingsRules(where.projectDir, where.home, where.env);
  return {
    sources: {
      settingsRules: settings.rules,
      tempDirs: tempDirsOf(where.env, where.home),
      agentPath: where.agentPath,
      tasks: [taskConstraintsOf(where.progress, policy.options.caseInsensitivePaths), ...(where.tasks ?? [])].filter(
        (t) => t !== undefined,
      ),
      expandGlob,
      gitHooksDirs: gitHooksDirs(where.projectDir, where.home, where.env),
      ...(where.env["CLAUDE_CONFIG_DIR"] !== undefined &&
        where.env["CLAUDE_CONFIG_DIR"] !== "" && { claudeConfigDir: where.env["CLAUDE_CONFIG_DIR"] }),
    },
    problems: settings.problems,
  };
}

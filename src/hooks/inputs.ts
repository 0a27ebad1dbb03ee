/**
 * What the evaluator is given besides the call: the Claude Code settings rules of every settings
 * file. I/O at the edge: reads the settings files.
 */
import { readFileSync } from "node:fs";
import { settingsFiles, type Env } from "../host/env.ts";
import { readSettingsRules, type SettingsRule } from "../policy/settings.ts";

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

/** The deny and ask rules of every settings file. */
export function loadSettingsRules(projectDir: string, home: string, env: Env): { rules: SettingsRule[]; problems: string[] } {
  return readSettingsRules(settingsFiles(projectDir, home, env), readText);
}

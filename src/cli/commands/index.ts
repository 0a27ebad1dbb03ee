/**
 * The command table. Each command lives in its own module; add one line here per command.
 */
import type { Command } from "../types.ts";
import { agentsCommand } from "./agents.ts";
import { buildCommand } from "./build.ts";
import { checkCommand } from "./check.ts";
import { decideCommand } from "./decide.ts";
import { handoffCommand } from "./handoff.ts";
import { initCommand } from "./init.ts";
import { lintCommand } from "./lint.ts";
import { logCommand } from "./log.ts";
import { rulesCommand } from "./rules.ts";
import { progressCommand } from "./progress.ts";
import { memoryCommand } from "./memory.ts";
import { checkpointCommand } from "./checkpoint.ts";
import { phaseCommand } from "./phase.ts";
import { independenceCommand } from "./independence.ts";
import { uninstallCommand } from "./uninstall.ts";
import { doctorCommand } from "./doctor.ts";
import { testCommand } from "./test.ts";
import { statuslineCommand } from "./statusline.ts";
import { undoCommand } from "./undo.ts";

export const commands: readonly Command[] = [
  initCommand,
  checkCommand,
  rulesCommand,
  agentsCommand,
  logCommand,
  buildCommand,
  handoffCommand,
  lintCommand,
  progressCommand,
  memoryCommand,
  checkpointCommand,
  phaseCommand,
  decideCommand,
  independenceCommand,
  uninstallCommand,
  doctorCommand,
  testCommand,
  statuslineCommand,
  undoCommand,
];

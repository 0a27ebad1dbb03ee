/**
 * The command table. Each command lives in its own module; add one line here per command.
 */
import type { Command } from "../types.ts";

export const commands: readonly Command[] = [];

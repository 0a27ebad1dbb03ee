/** What the shell analysis could not see through. */
import type { RuleSpec } from "./types.ts";

export const shellRules: readonly RuleSpec[] = [
  {
    id: "shell.unanalysable",
    effect: "ask",
    unrepresentable: true,
    why: "lanes cannot tell what this command would run",
    instead: "write the command out without building the program name at run time, or ask the user",
  },
];

/**
 * Code parked where git runs it later (issue 22, "no code hidden where the repository runs it
 * later"): a configuration key that names a program (`core.fsmonitor`, `core.hooksPath`,
 * `diff.<driver>.textconv`, ...: src/host/git-programs.ts) set by `git config`, given by `-c` or
 * `GIT_CONFIG_*`, or written into a git configuration file; an attributes file that points files
 * at a driver; a hook written into a hooks directory. The next harmless-looking git command (the
 * user's commit, lanes' own snapshot) would run it. The main session asks the person; a subagent
 * is denied. A value that only names a pager, an editor or git's own helper (`core.pager=less`,
 * `core.editor="code --wait"`) parks nothing (src/shell/tables/git-programs.ts).
 */
import type { RuleSpec } from "./types.ts";

const instead = "run the program yourself when it is needed, or show the user the setting and let them add it";

export const gitCodeRules: readonly RuleSpec[] = [
  {
    id: "gitcode.config-program",
    effect: "ask",
    subagentEffect: "deny",
    deferred: { kinds: ["git-config"] },
    why: "it sets a git configuration key that names a program, which later git commands (the user's, and lanes' own) run without anyone seeing it",
    instead,
  },
  {
    id: "gitcode.option-program",
    effect: "ask",
    subagentEffect: "deny",
    deferred: { kinds: ["git-option"] },
    why: "it gives git a configuration key that names a program, hidden behind an ordinary git command",
    instead: "run the program as a command of its own, where it can be judged",
  },
  {
    id: "gitcode.config-file",
    effect: "ask",
    subagentEffect: "deny",
    guardWrite: { format: "git-config" },
    why: "it writes a git configuration key that names a program into a git configuration file, which later git commands run",
    instead,
  },
  {
    id: "gitcode.attributes-driver",
    effect: "ask",
    subagentEffect: "deny",
    guardWrite: { format: "git-attributes" },
    why: "it points files at a filter, diff or merge driver, whose configured program git runs on them at the next status, diff, add or checkout",
    instead: "leave the attributes to the user, or use git's own drivers (`diff=python`, `merge=union`, `filter=lfs`)",
  },
  {
    id: "gitcode.hooks-write",
    effect: "ask",
    subagentEffect: "deny",
    fileEffect: { access: ["write", "chmod"], targets: ["git-hooks"] },
    why: "it writes a git hook, code the next commit, checkout or push runs without review",
    instead: "put the check in a script the project runs on purpose (`npm test`), or show the user the hook",
  },
];

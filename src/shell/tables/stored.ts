/**
 * The files that hold code a tool runs later (`Makefile`, `package.json`, a justfile, a
 * Taskfile, a git hook), by name: writing one stores code (`handlers/stored.ts`). Small on
 * purpose: the evaluator reads it for every Write and Edit, before the shell analysis is loaded
 * (`stored-kind.ts`). Data only.
 */

/** Every hook name git runs from the client side (the files of a hooks directory that matter). */
export const GIT_HOOK_NAMES: readonly string[] = [
  "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit", "prepare-commit-msg",
  "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge", "pre-push", "post-rewrite",
  "reference-transaction", "pre-auto-gc", "post-index-change", "push-to-checkout", "sendemail-validate",
  "fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit",
  "pre-receive", "update", "proc-receive", "post-receive", "post-update",
];

/** What a file that holds code a tool runs later is, by its name (`Makefile`, `package.json`). */
export type StoredKind = "make" | "package" | "deno" | "just" | "task" | "hook";

// prettier-ignore
/** Files by name whose code a runner runs later: writing one stores that code. */
export const STORED_FILES: Readonly<Record<string, StoredKind>> = {
  Makefile: "make", makefile: "make", GNUmakefile: "make",
  "package.json": "package", "deno.json": "deno", "deno.jsonc": "deno",
  justfile: "just", Justfile: "just", ".justfile": "just", JUSTFILE: "just",
  "Taskfile.yml": "task", "taskfile.yml": "task", "Taskfile.yaml": "task", "taskfile.yaml": "task",
  "Taskfile.dist.yml": "task", "taskfile.dist.yml": "task", "Taskfile.dist.yaml": "task", "taskfile.dist.yaml": "task",
};

/** Files by extension that a runner includes (`include mk/release.mk`, `import 'ci.just'`). */
export const STORED_EXTENSIONS: Readonly<Record<string, StoredKind>> = { ".mk": "make", ".make": "make", ".just": "just" };

/** Directories whose files named after a git hook are hooks git runs (`.git/hooks/pre-commit`, husky's `.husky/pre-push`). */
export const HOOK_DIRS: readonly string[] = [".git/hooks", ".husky", ".husky/_", ".githooks"];

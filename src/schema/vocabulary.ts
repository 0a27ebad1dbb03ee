/**
 * The plain vocabulary shared by the zod schemas and the hot path: lists of names as `as const`
 * arrays and their types. No zod here, so the hooks can import it.
 */

/** Classes of paths that rules can name instead of globs. */
export const PATH_CLASSES = [
  "root",
  "home",
  "project-root",
  "parent",
  "system",
  "served",
  "device",
  "broad-glob",
  "outside-project",
  "claude-config",
  "claude-settings",
  "git-config",
  "git-attributes",
  "git-hooks",
  "home-data",
  "home-file",
  "other-home",
] as const;
/** See `PathClass` in src/schema/atoms.ts for the meaning of each class. */
export type PathClass = (typeof PATH_CLASSES)[number];

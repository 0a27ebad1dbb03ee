/**
 * What a compiled glob is: the regular expression source the compiler stores in the compiled
 * policy, and what it is matched against.
 */

/** A glob compiled to a regular expression, with what it is matched against. */
export interface CompiledGlob {
  /** The globs as written, for messages: one, or several when alternatives of one anchor were merged. */
  readonly globs: readonly string[];
  readonly source: string;
  readonly flags: string;
  /**
   * `project`: matched against the project-relative path; `absolute`: against the absolute path;
   * `home`: against the path relative to the home directory;
   * `basename-anywhere`: a bare name (`.env`) matched against every path's last segments
   * anywhere on disk (gitignore semantics).
   */
  readonly anchor: "project" | "absolute" | "home" | "basename-anywhere";
  /**
   * Literal pieces of the glob, lowercased when `flags` has `i`: a path the glob matches contains
   * one of them, so a path that contains none is not matched without building the expression.
   * Absent when some alternative has no such piece (compile.ts `hintOf`).
   */
  readonly hints?: readonly string[];
}

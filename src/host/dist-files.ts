/** The files of `dist/`: what an install copies, and the guard's bundles the policy guards by name (src/policy/paths.ts). */
import { bundleFile, HOOK_BUNDLES, HOOK_EVENTS } from "./events.ts";

/** Entry files the hook wiring points at. */
const ENTRIES: readonly string[] = [...new Set(HOOK_EVENTS.map((row) => bundleFile(row.bundle)))];

/** Every file of `dist/` an install copies. */
export const DIST_FILES: readonly string[] = [
  ...ENTRIES,
  ...HOOK_BUNDLES.map((h) => `${h}.impl.cjs`),
  "shell.impl.cjs",
  "shell.tables",
  "code.impl.cjs",
  "python.impl.cjs",
  "python.lrtables",
  "javascript.impl.cjs",
  "javascript.lrtables",
  "globs.impl.cjs",
  "yaml.impl.cjs",
  "formats.impl.cjs",
  "compile.impl.cjs",
  "cli.mjs",
  "statusline.cjs",
  "policy.default.json",
];

/**
 * What the build checks of the bundles that run on every tool call (PreToolUse, PostToolUse): no
 * zod, YAML or gray-matter; the shell analysis and glob compilation only through their lazily
 * loaded bundles; no costly built-in loaded eagerly; ASCII only. The build fails on any of them.
 */
import { basename } from "node:path";
import { readFileSync } from "node:fs";
import type { Metafile } from "esbuild";

/** Modules no hot bundle may contain (nor the lazily loaded shell and glob bundles). */
export const FORBIDDEN_ON_HOT_PATH = [
  "node_modules/zod/",
  "node_modules/yaml/",
  "node_modules/gray-matter/",
  "node_modules/js-yaml/",
  "src/config/load.ts",
  "src/config/compile.ts",
];
/**
 * The readers of runner files (Makefiles, justfiles, Taskfiles, Rakefiles, mise tasks) are loaded
 * lazily by the shell bundle (src/hooks/lazy/formats-proxy.ts, yaml-proxy.ts); neither it nor a hot
 * bundle contains them.
 */
export const FORMATS_ONLY = [
  "src/shell/formats/makefile.ts",
  "src/shell/formats/justfile.ts",
  "src/shell/formats/taskfile.ts",
];
/** The interpreter code analysis is loaded lazily by the shell bundle; neither it nor a hot bundle contains it. */
export const CODE_ONLY = ["node_modules/@lezer/", "src/shell/code/interpret.ts", "src/shell/code/tokens.ts"];
/** The shell analysis (Bash calls only), glob compilation, YAML and interpreter code are loaded lazily; a hot bundle must not contain them. */
const LAZY_ON_HOT_PATH = [
  "src/shell/formats/yaml.ts",
  "node_modules/unbash/",
  "src/shell/analyze.ts",
  "node_modules/picomatch/",
  "src/globs/compile.ts",
  ...CODE_ONLY,
];

/**
 * Built-in modules a hot bundle may load only inside a function, when a call needs them: `node:crypto`
 * costs 3-4 ms to load in a hook process (`node -e` preloads it, so timing it there misleads),
 * `node:os` a fifth of a millisecond.
 */
const LAZY_BUILTINS = ["node:crypto", "crypto", "node:os", "os", "node:child_process", "child_process"];

/** Inputs of a lazily loaded bundle that no bundle of the hooks may hold (and `also`, that this one may not). */
export const forbiddenInputs = (name: string, metafile: Metafile, also: readonly string[] = []): string[] =>
  Object.keys(metafile.inputs)
    .filter((i) => [...FORBIDDEN_ON_HOT_PATH, ...also].some((f) => i.includes(f)))
    .map((i) => `${name}: imports \`${i}\``);

/** What a hot bundle imports that it must not. */
export function hotPathViolations(name: string, metafile: Metafile): string[] {
  const eager = Object.values(metafile.inputs).flatMap((input) =>
    input.imports
      .filter((i) => i.kind === "import-statement" && LAZY_BUILTINS.includes(i.path))
      .map(
        (i) =>
          `${name}: the hot-path bundle imports \`${i.path}\` at load time; require it inside the function that needs it (see src/hooks/state/override.ts)`,
      ),
  );
  return [
    ...eager,
    ...Object.keys(metafile.inputs)
      .filter((input) => [...FORBIDDEN_ON_HOT_PATH, ...LAZY_ON_HOT_PATH].some((f) => input.includes(f)))
      .map(
        (input) =>
          `${name}: the hot-path bundle imports \`${input}\`; move that import off the PreToolUse/PostToolUse path (the shell analysis is loaded through src/hooks/lazy/shell-proxy.ts, glob compilation through src/hooks/lazy/glob-proxy.ts)`,
      ),
  ];
}

/**
 * A hot bundle must be ASCII: V8 keeps a source with one character beyond Latin-1 as two bytes per
 * character, doubling what every hook process allocates for it. esbuild escapes strings, not regex
 * literals: spell such characters `\\uXXXX` in the source.
 */
export function nonAscii(file: string): string[] {
  const text = readFileSync(file, "latin1");
  const at = text.search(/[^\x00-\x7f]/);
  return at === -1
    ? []
    : [
        `${basename(file)}: a non-ASCII character near \`${text.slice(Math.max(0, at - 40), at + 10)}\`; write it as \\uXXXX in the source`,
      ];
}

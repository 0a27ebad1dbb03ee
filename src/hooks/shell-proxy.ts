/**
 * In the hot hook bundles, the shell analysis (unbash and src/shell, most of the code) is a
 * separate bundle, `shell.impl.cjs`, loaded on first use: only Bash calls pay for it. The build
 * swaps imports of `src/shell/index.ts` for this proxy; source and tests import the module itself.
 * The generated hook loader provides `__lanesLoad`, which runs a bundle with a V8 code cache.
 */
import { join } from "node:path";
import type * as Shell from "../shell/index.ts";

declare const __lanesLoad: ((name: string) => unknown) | undefined;

let loaded: typeof Shell | undefined;
const shell = (): typeof Shell =>
  (loaded ??= (
    typeof __lanesLoad === "function" ? __lanesLoad("shell") : require(join(__dirname, "shell.impl.cjs"))
  ) as typeof Shell);

export const analyzeShell: typeof Shell.analyzeShell = (source, options) => shell().analyzeShell(source, options);
export const argView: typeof Shell.argView = (command) => shell().argView(command);
export const fileEffects: typeof Shell.fileEffects = (analysis) => shell().fileEffects(analysis);

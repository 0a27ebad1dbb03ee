/**
 * In the hot hook bundles, glob compilation (picomatch and src/globs/compile.ts) is a separate
 * bundle, `globs.impl.cjs`, loaded on first use: only calls that compile a glob at run time (a
 * settings path rule, task constraints, a glob to expand) pay for it; the compiled policy's globs
 * are plain regular expressions. The build swaps imports of `src/globs/compile.ts` for this proxy;
 * source and tests import the module itself. See shell-proxy.ts for `__lanesLoad`.
 */
import { loadBundle } from "./loader.ts";
import { span } from "../../io/profile.ts";
import type * as Compile from "../../globs/compile.ts";

let loaded: typeof Compile | undefined;
const compile = (): typeof Compile => (loaded ??= span("load globs", () => loadBundle("globs") as typeof Compile));

export const compilePathGlob: typeof Compile.compilePathGlob = (glob, options) =>
  compile().compilePathGlob(glob, options);
export const compileNameGlob: typeof Compile.compileNameGlob = (glob) => compile().compileNameGlob(glob);
export const compilePathGlobs: typeof Compile.compilePathGlobs = (globs, options) =>
  compile().compilePathGlobs(globs, options);

/**
 * In the hot hook bundles, the shell analysis (unbash and src/shell, most of the code) is a
 * separate bundle, `shell.impl.cjs`, loaded on first use: only Bash calls pay for it. The build
 * swaps imports of `src/shell/index.ts` for this proxy; source and tests import the module itself.
 * The generated hook loader runs the bundle with a V8 code cache (loader.ts).
 */
import { loadBundle } from "./loader.ts";
import { span } from "../../io/profile.ts";
import type * as Shell from "../../shell/index.ts";

let loaded: typeof Shell | undefined;
const shell = (): typeof Shell => (loaded ??= span("load shell", () => loadBundle("shell") as typeof Shell));

export const analyzeShell: typeof Shell.analyzeShell = (source, options) =>
  span("parse", () => shell().analyzeShell(source, options));
export const analyzeStored: typeof Shell.analyzeStored = (change, options) =>
  span("parse", () => shell().analyzeStored(change, options));
export const argView: typeof Shell.argView = (command) => shell().argView(command);
export const fileEffects: typeof Shell.fileEffects = (analysis) => shell().fileEffects(analysis);
export const flagWrites: typeof Shell.flagWrites = (analysis) => shell().flagWrites(analysis);
export const linkEffects: typeof Shell.linkEffects = (analysis) => shell().linkEffects(analysis);
export const linkCopies: typeof Shell.linkCopies = (analysis) => shell().linkCopies(analysis);
export const networkSends: typeof Shell.networkSends = (analysis) => shell().networkSends(analysis);
export const statementTexts: typeof Shell.statementTexts = (...a) => shell().statementTexts(...a);

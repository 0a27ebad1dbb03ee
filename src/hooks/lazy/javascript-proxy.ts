/**
 * In the interpreter code bundle, the JavaScript/TypeScript parser (Lezer and the reader of its tree,
 * src/shell/code/javascript.ts) is a bundle of its own, `javascript.impl.cjs`, loaded on first use: a call
 * with JavaScript code does not load the other language's grammar. The build swaps the code
 * bundle's imports of `src/shell/code/javascript.ts` for this proxy; source and tests import the module
 * itself. See shell-proxy.ts for `__lanesLoad`.
 */
import { loadBundle } from "./loader.ts";
import { span } from "../../io/profile.ts";
import type * as Parser from "../../shell/code/javascript.ts";

let loaded: typeof Parser | undefined;
const parser = (): typeof Parser =>
  (loaded ??= span("load javascript", () => loadBundle("javascript") as typeof Parser));

export const parseJavaScript: typeof Parser.parseJavaScript = (code) => parser().parseJavaScript(code);

/**
 * In the interpreter code bundle, the Python parser (Lezer and the reader of its tree,
 * src/shell/code/python.ts) is a bundle of its own, `python.impl.cjs`, loaded on first use: a call
 * with Python code does not load the other language's grammar. The build swaps the code
 * bundle's imports of `src/shell/code/python.ts` for this proxy; source and tests import the module
 * itself. See shell-proxy.ts for `__lanesLoad`.
 */
import { loadBundle } from "./loader.ts";
import { span } from "../../io/profile.ts";
import type * as Parser from "../../shell/code/python.ts";

let loaded: typeof Parser | undefined;
const parser = (): typeof Parser => (loaded ??= span("load python", () => loadBundle("python") as typeof Parser));

export const parsePython: typeof Parser.parsePython = (code) => parser().parsePython(code);

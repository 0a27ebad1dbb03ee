/**
 * In the shell analysis bundle, the interpreter code analysis (src/shell/code: the Lezer parsers
 * of Python and JavaScript, the code's evaluator and library tables) is a separate bundle,
 * `code.impl.cjs`, loaded on first use: only Bash calls that hand code to an interpreter pay for
 * it. The build swaps the shell's imports of `src/shell/code/index.ts` for this proxy; source and
 * tests import the module itself. See shell-proxy.ts for `__lanesLoad`.
 */
import { loadBundle } from "./loader.ts";
import { span } from "../../io/profile.ts";
import type * as Code from "../../shell/code/index.ts";

let loaded: typeof Code | undefined;
const code = (): typeof Code => (loaded ??= span("load code", () => loadBundle("code") as typeof Code));

export const findCalls: typeof Code.findCalls = (...a) => code().findCalls(...a);
export const environmentSends: typeof Code.environmentSends = (...a) => code().environmentSends(...a);

/**
 * Interpreter code (python, node, perl, ruby, php one-liners and scripts) read for what it does,
 * never as shell text. Python and JavaScript/TypeScript are parsed (`python.ts`, `javascript.ts`:
 * Lezer, into the code model of `ast.ts`) and read with their values (`interpret.ts`: assignments,
 * function arguments, f-strings and templates, path joins, the home and working directory, loops
 * over listings); `library.ts` says what their library calls do (`tables/apis.ts`,
 * `tables/libraries.ts`). Perl, Ruby and PHP are read by their tokens (`tokens.ts`, `values.ts`,
 * `home.ts`, `calls.ts`, `env.ts`). Outside this folder, import this index only: the hot hooks load
 * it as a bundle of its own, on the first call with interpreter code.
 */
export { findCalls } from "./analysis.ts";
export { environmentSends } from "./env.ts";
export type { CodeSend, CodeWord, FoundCall, FoundExec, PathDetail } from "./library.ts";
export type { CodeEnv } from "./interpret.ts";
export type { CodeTokenLanguage } from "../types.ts";

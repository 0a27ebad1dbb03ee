/**
 * Interpreter code (python, node, perl, ruby, php one-liners and scripts) read for what it does,
 * never as shell text: `tokens.ts` splits it into tokens, `values.ts` and `home.ts` rewrite the
 * values known before it runs (the home and working directory, joins, variables assigned once),
 * `calls.ts` finds the calls of the APIs in `tables/apis.ts`, and `env.ts` finds code that sends
 * the whole environment to a network peer. Outside this folder, import this index only: the
 * tokenizer behind it is an implementation detail (a real parser per language may replace it).
 */
export { findCalls, type FoundCall, type FoundExec } from "./calls.ts";
export { environmentSend, type CodeSend } from "./env.ts";
export type { CodeEnv } from "./values.ts";
export type { CodeTokenLanguage } from "../types.ts";

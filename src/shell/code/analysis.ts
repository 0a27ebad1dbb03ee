/**
 * Interpreter code read for what it does: Python and JavaScript/TypeScript are parsed
 * (`python.ts`, `javascript.ts`, Lezer) and read with their values (`interpret.ts`), then judged
 * by what their library calls do (`library.ts`); Perl, Ruby and PHP are read by their tokens
 * (`calls.ts`). One reading of a piece of code serves its calls and its network sends.
 */
import type { Program } from "./ast.ts";
import { findTokenCalls } from "./calls.ts";
import { interpret, type CodeEnv, type CodeEvent } from "./interpret.ts";
import { parseJavaScript } from "./javascript.ts";
import { libraryCalls, librarySends, type CodeSend, type FoundCall } from "./library.ts";
import { parsePython } from "./python.ts";
import { tokenizeCode } from "./tokens.ts";
import { LANGUAGE_APIS } from "../tables/apis.ts";
import { VALUE_CALLS } from "../tables/code-values.ts";
import type { CodeTokenLanguage } from "../types.ts";

interface Reading {
  readonly events: readonly CodeEvent[];
  /** Syntax nodes and evaluation steps, for the analysis budget. */
  readonly cost: number;
  /** The parser recovered from errors and the code does not even tokenize (an unterminated string). */
  readonly broken: boolean;
}

/** Readings of the last pieces of code, by language, code and environment. */
const READINGS = new Map<string, Reading>();

function known(language: "python" | "node"): (name: string) => boolean {
  return (name) => Object.hasOwn(LANGUAGE_APIS[language].apis, name) || Object.hasOwn(VALUE_CALLS[language], name);
}

function read(code: string, language: "python" | "node", env: CodeEnv): Reading {
  const key = `${language}\0${env.home ?? ""}\0${env.cwd ?? ""}\0${(env.argv ?? []).join("\0")}\0${code}`;
  const cached = READINGS.get(key);
  if (cached !== undefined) return cached;
  const program: Program = language === "python" ? parsePython(code) : parseJavaScript(code);
  const { events, steps } = interpret(program, language, code, env, known(language));
  // a snippet the parser had to repair and that does not even tokenize is not code that runs as read
  const broken = program.errors > 0 && tokenizeCode(code, language) === undefined;
  const reading = { events, cost: program.nodes + steps, broken };
  if (READINGS.size >= 16) READINGS.delete(READINGS.keys().next().value as string);
  READINGS.set(key, reading);
  return reading;
}

/**
 * Every API call of the tables found in `code`, or `undefined` when the code cannot be read.
 * `charge` is called with the work done (it may throw to stop the analysis).
 */
export function findCalls(
  code: string,
  language: CodeTokenLanguage,
  charge: (units: number) => void,
  env?: CodeEnv,
): FoundCall[] | undefined {
  if (language !== "python" && language !== "node") return findTokenCalls(code, language, charge, env);
  const reading = read(code, language, env ?? { home: undefined, cwd: undefined });
  charge(reading.cost);
  if (reading.broken) return undefined;
  return libraryCalls(reading.events, language);
}

/** What the network requests of Python or JavaScript code send (other languages: `env.ts`). */
export function codeSends(code: string, language: "python" | "node", env?: CodeEnv): CodeSend[] {
  return librarySends(read(code, language, env ?? { home: undefined, cwd: undefined }).events, language);
}

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
import { LIBRARIES } from "../tables/libraries.ts";
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
/** The last reading of each piece of code, whatever its environment (what it sends does not depend on it). */
const LATEST = new Map<string, Reading>();

function known(language: "python" | "node"): (name: string) => boolean {
  return (name) => Object.hasOwn(LANGUAGE_APIS[language].apis, name) || Object.hasOwn(VALUE_CALLS[language], name);
}

const TRIGGERS = new Map<string, Set<string>>();

/** The first word of each name the tables know (`os` of `os.remove`, `aws` of `@aws-sdk/client-*`), bare names and methods. */
function triggers(language: "python" | "node"): Set<string> {
  let out = TRIGGERS.get(language);
  if (out !== undefined) return out;
  out = new Set(["require", "import", "__import__", "importlib"]);
  const apis = LANGUAGE_APIS[language];
  const lib = LIBRARIES[language];
  const names = [
    ...Object.keys(apis.apis),
    ...Object.keys(apis.bare ?? {}),
    ...Object.keys(apis.methods ?? {}),
    ...[...lib.commands, ...lib.sdks, ...lib.sql, ...lib.network, ...lib.sockets].map((r) => r.call),
    ...lib.dup,
  ];
  for (const name of names) {
    // `{requests,httpx}.get`: each alternative
    const first = name.startsWith("{") ? name.slice(1, name.indexOf("}")).split(",") : [name];
    for (const f of first) {
      const word = /[A-Za-z0-9_$]+/.exec(f)?.[0];
      if (word !== undefined) out.add(word);
    }
  }
  TRIGGERS.set(language, out);
  return out;
}

/** Whether the code names anything the tables know: code that names none calls none of them. */
function mayCall(code: string, language: "python" | "node"): boolean {
  const words = triggers(language);
  for (const m of code.matchAll(/[A-Za-z0-9_$]+/g)) if (words.has(m[0])) return true;
  return false;
}

function read(code: string, language: "python" | "node", env: CodeEnv): Reading {
  const key = `${language}\0${env.home ?? ""}\0${env.cwd ?? ""}\0${env.script ?? ""}\0${(env.argv ?? []).join("\0")}\0${code}`;
  const cached = READINGS.get(key);
  if (cached !== undefined) return cached;
  const program: Program = language === "python" ? parsePython(code) : parseJavaScript(code);
  const { events, steps, complete } = interpret(program, language, code, env, known(language));
  // a snippet the parser had to repair and that does not even tokenize is not code that runs as read;
  // code too long to read to its end is not known either
  const broken = !complete || (program.errors > 0 && tokenizeCode(code, language) === undefined);
  const reading = { events, cost: program.nodes + steps, broken };
  if (READINGS.size >= 16) READINGS.delete(READINGS.keys().next().value as string);
  READINGS.set(key, reading);
  if (LATEST.size >= 16) LATEST.delete(LATEST.keys().next().value as string);
  LATEST.set(`${language}\0${code}`, reading);
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
  if (!mayCall(code, language)) return tokenizeCode(code, language) === undefined ? undefined : [];
  const reading = read(code, language, env ?? { home: undefined, cwd: undefined });
  charge(reading.cost);
  if (reading.broken) return undefined;
  return libraryCalls(reading.events, language);
}

/** What the network requests of Python or JavaScript code send (other languages: `env.ts`). */
export function codeSends(code: string, language: "python" | "node", env?: CodeEnv): CodeSend[] {
  if (!mayCall(code, language)) return [];
  const reading =
    (env === undefined ? LATEST.get(`${language}\0${code}`) : undefined) ??
    read(code, language, env ?? { home: undefined, cwd: undefined });
  return librarySends(reading.events, language);
}

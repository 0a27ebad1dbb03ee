/**
 * Reads a shell's or interpreter's argv with the tables in `tables/interpreters.ts`: where its code
 * comes from (an option, the first operand, a script file, stdin) and which words are arguments.
 * Shared by the walk (code executions) and `effects.ts` (the script file is run: `exec`).
 */
import { scanOptions } from "./option-scanner.ts";
import { INTERPRETERS, type InterpreterSpec } from "./tables/interpreters.ts";
import type { ShellWord } from "./types.ts";

/** Where an interpreter command takes its code from; indices are into the command's `args`. */
export type InterpreterInput =
  /**
   * `-c CODE`, `-e CODE`, `bash -c STR`, `deno eval CODE`: the code words (joined for perl `-e a -e b`).
   * No words when the code option has no argument: under `xargs` it arrives at run time.
   */
  | { readonly kind: "code"; readonly words: readonly number[]; readonly argsFrom: number; readonly separator?: string }
  /** A script operand (a file, or `<(...)`); its arguments start at `argsFrom`. */
  | { readonly kind: "script"; readonly index: number; readonly argsFrom: number }
  /** Code comes from stdin (`bash`, `bash -s`, `python3 -`); arguments start at `argsFrom`. */
  | { readonly kind: "stdin"; readonly argsFrom: number }
  /** No code runs (`python -m http.server`, `node --version`, `bun install`). */
  | { readonly kind: "none" };

/** A recognised interpreter invocation. */
export interface InterpreterRead {
  /** The table key the program matched (`python3.12` → `python3`). */
  readonly name: string;
  readonly spec: InterpreterSpec;
  readonly input: InterpreterInput;
}

/** The interpreter table key for a program name, stripping version suffixes (`python3.12`, `perl5.36`). */
export function interpreterName(program: string | undefined): string | undefined {
  if (program === undefined) return undefined;
  if (Object.hasOwn(INTERPRETERS, program)) return program;
  // Windows names are case-insensitive (`PowerShell.exe`, `POWERSHELL`)
  if (program !== program.toLowerCase()) return interpreterName(program.toLowerCase());
  let base = program;
  while (
    base.length > 0 &&
    ((base.at(-1) as string) === "." || ((base.at(-1) as string) >= "0" && (base.at(-1) as string) <= "9"))
  ) {
    base = base.slice(0, -1);
    if (Object.hasOwn(INTERPRETERS, base)) return base;
  }
  return undefined;
}

/** Reads where `program args...` takes its code from, or `undefined` when it is not an interpreter. */
export function readInterpreter(program: string | undefined, args: readonly ShellWord[]): InterpreterRead | undefined {
  const name = interpreterName(program);
  if (name === undefined) return undefined;
  const spec = INTERPRETERS[name] as InterpreterSpec;
  return { name, spec, input: inputOf(spec, args) };
}

function inputOf(spec: InterpreterSpec, written: readonly ShellWord[]): InterpreterInput {
  const spellings = spec.spellings;
  const folded =
    spec.foldCase === true
      ? written.map((w) => (w.value?.startsWith("-") === true ? { ...w, value: w.value.toLowerCase() } : w))
      : written;
  const args =
    spellings === undefined
      ? folded
      : folded.map((w) =>
          w.value !== undefined && Object.hasOwn(spellings, w.value) ? { ...w, value: spellings[w.value] } : w,
        );
  if (spec.evalSubcommand !== undefined) {
    if (args[0]?.value !== spec.evalSubcommand) return { kind: "none" };
    const scan = scanOptions(args, spec.grammar, 1);
    return scan.next < args.length ? { kind: "code", words: [scan.next], argsFrom: scan.next + 1 } : { kind: "none" };
  }
  const scan = scanOptions(args, spec.grammar);
  const seen = new Set<string>();
  const codeWords: number[] = [];
  let codeOption = false;
  for (const event of scan.events) {
    if (event.kind !== "option") continue;
    seen.add(event.name);
    if (spec.codeOptions?.includes(event.name) === true) {
      codeOption = true;
      for (const value of event.values) {
        const index = args.indexOf(value);
        codeWords.push(index >= 0 ? index : event.start);
      }
    }
  }
  if (spec.noCode?.some((o) => seen.has(o)) === true) return { kind: "none" };
  const rest = (from: number): number[] => Array.from({ length: written.length - from }, (_, i) => from + i);
  if (codeOption && spec.restIsCode === true && codeWords.length > 0)
    return { kind: "code", words: rest(codeWords.at(-1) as number), argsFrom: written.length, separator: " " };
  if (codeOption)
    return { kind: "code", words: spec.joinCode === true ? codeWords : codeWords.slice(-1), argsFrom: scan.next };
  if (spec.codeFlag !== undefined && seen.has(spec.codeFlag)) {
    // `bash -c STR $0 $1 ...`
    return scan.next < args.length
      ? { kind: "code", words: [scan.next], argsFrom: scan.next + 1 }
      : { kind: "code", words: [], argsFrom: scan.next };
  }
  if (spec.codeOptionsOnly === true) return { kind: "none" };
  if (spec.stdinFlags?.some((o) => seen.has(o)) === true) return { kind: "stdin", argsFrom: scan.next };
  const operand = args[scan.next];
  if (operand === undefined) return { kind: "stdin", argsFrom: scan.next };
  if (operand.value === "-") return { kind: "stdin", argsFrom: scan.next + 1 };
  // `powershell "irm URL | iex"` and `powershell Stop-Computer -Force` are commands (the rest of the
  // line, joined); `powershell -File x.ps1` and `powershell ./x.ps1` run a script
  if (
    spec.operandIsCode === true &&
    spec.scriptOptions?.some((o) => seen.has(o)) !== true &&
    operand.value?.toLowerCase().endsWith(".ps1") !== true
  )
    return { kind: "code", words: rest(scan.next), argsFrom: written.length, separator: " " };
  return { kind: "script", index: scan.next, argsFrom: scan.next + 1 };
}

/**
 * The option grammar applied to one command: shared by `argView` (public) and `effects.ts`, which
 * also needs to know which operands came after `--`.
 */
import { scanOptions, type OptionEvent, type OptionGrammar } from "./option-scanner.ts";
import {
  FIND_EXEC_PRIMARIES,
  FIND_PRIMARIES,
  HELP_WORD_PROGRAMS,
  POWERSHELL_VERBS,
  PROGRAM_GRAMMARS,
  type ProgramGrammar,
} from "./tables/options.ts";
import type { ShellWord } from "./types.ts";

/** One operand and whether a `--` came before it. */
export interface Operand {
  readonly word: ShellWord;
  readonly afterDoubleDash: boolean;
}

/** The full view of a command's arguments. */
export interface DetailedView {
  readonly flags: Set<string>;
  readonly values: Map<string, ShellWord[]>;
  readonly operands: Operand[];
  afterDoubleDash: boolean;
}

/**
 * Programs without a table: every option is a flag, except `--env-file` and the options that name a
 * file of secrets or data (`--secret-file`, `--from-env-file`, `--from-file`, `--data-file`), which
 * take a file by the same convention everywhere (node, uvicorn, docker, kubectl, gcloud, ...).
 */
const DEFAULT: ProgramGrammar = {
  options: { "--env-file": 1, "--secret-file": 1, "--from-env-file": 1, "--from-file": 1, "--data-file": 1 },
};

function empty(): DetailedView {
  return { flags: new Set(), values: new Map(), operands: [], afterDoubleDash: false };
}

function addValues(view: DetailedView, name: string, values: readonly ShellWord[]): void {
  if (values.length === 0) return;
  view.values.set(name, [...(view.values.get(name) ?? []), ...values]);
}

/** PowerShell cmdlets (`Verb-Noun`): parameters are whole words (`-Force` is not `-F -o -r -c -e`). */
const CMDLET: ProgramGrammar = { options: {}, singleDashLong: true };

/** True for a `Verb-Noun` name with a standard PowerShell verb (`Restart-Computer`, `clear-disk`). */
function isCmdlet(program: string): boolean {
  const dash = program.indexOf("-");
  return dash > 0 && dash < program.length - 1 && POWERSHELL_VERBS.includes(program.slice(0, dash).toLowerCase());
}

/** The grammar `argView` uses for a program. */
export function grammarOf(program: string | undefined): ProgramGrammar {
  if (program === undefined) return DEFAULT;
  if (Object.hasOwn(PROGRAM_GRAMMARS, program)) return PROGRAM_GRAMMARS[program] as ProgramGrammar;
  return isCmdlet(program) ? CMDLET : DEFAULT;
}

function applyEvents(view: DetailedView, events: readonly OptionEvent[], grammar: ProgramGrammar): void {
  for (const event of events) {
    if (event.kind === "double-dash") {
      view.afterDoubleDash = true;
      continue;
    }
    if (event.kind === "operand") {
      const v = event.word.value;
      const eq = v?.indexOf("=") ?? -1;
      if (grammar.keyValueOperands === true && v !== undefined && eq > 0) {
        addValues(view, v.slice(0, eq), [
          {
            text: event.word.text === v ? v.slice(eq + 1) : event.word.text,
            value: v.slice(eq + 1),
            glob: event.word.glob,
          },
        ]);
        continue;
      }
      // `of=/dev/sd$X`: the key is written out, the value only partly
      const head = event.word.known?.head;
      const at = head?.indexOf("=") ?? -1;
      if (grammar.keyValueOperands === true && v === undefined && head !== undefined && at > 0) {
        const rest = head.slice(at + 1);
        const tail = event.word.known?.tail ?? "";
        addValues(view, head.slice(0, at), [
          {
            text: event.word.text,
            value: undefined,
            glob: event.word.glob,
            ...((rest !== "" || tail !== "") && { known: { head: rest, tail } }),
          },
        ]);
        continue;
      }
      view.operands.push({ word: event.word, afterDoubleDash: view.afterDoubleDash });
      continue;
    }
    view.flags.add(event.name);
    addValues(view, event.name, event.values);
  }
}

/** Scans with `stopAfterOperands`: after that many operands, everything left is an operand. */
function scanBody(view: DetailedView, args: readonly ShellWord[], from: number, grammar: ProgramGrammar): void {
  const limit = grammar.stopAfterOperands;
  if (limit === undefined) {
    const scan = scanOptions(args, grammar, from);
    applyEvents(view, scan.events, grammar);
    // a grammar that stops at the first operand (`redis-cli -h x FLUSHALL -1`): the rest are operands
    for (let i = scan.next; i < args.length; i++)
      view.operands.push({ word: args[i] as ShellWord, afterDoubleDash: view.afterDoubleDash });
    return;
  }
  const stopping: OptionGrammar = { ...grammar, permute: false };
  let i = from;
  let count = 0;
  while (i < args.length) {
    const scan = scanOptions(args, stopping, i);
    applyEvents(view, scan.events, grammar);
    i = scan.next;
    if (i >= args.length) return;
    if (scan.events.at(-1)?.kind === "double-dash") break;
    view.operands.push({ word: args[i] as ShellWord, afterDoubleDash: view.afterDoubleDash });
    i++;
    if (++count >= limit) break;
  }
  for (; i < args.length; i++)
    view.operands.push({ word: args[i] as ShellWord, afterDoubleDash: view.afterDoubleDash });
}

/** `tar xzf a.tgz dir`: the first word's letters are options, value letters take the next words in order. */
function oldStyle(view: DetailedView, args: readonly ShellWord[], grammar: ProgramGrammar): number {
  const first = args[0]?.value;
  if (
    first === undefined ||
    first.startsWith("-") ||
    first.length === 0 ||
    ![...first].every((c) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z"))
  )
    return 0;
  let next = 1;
  for (const letter of first) {
    const name = `-${letter}`;
    view.flags.add(name);
    const arity = grammar.options[name];
    if (arity === 1 && next < args.length) addValues(view, name, [args[next++] as ShellWord]);
  }
  return next;
}

function findView(args: readonly ShellWord[]): DetailedView {
  const view = empty();
  let i = 0;
  while (i < args.length) {
    const v = args[i]?.value;
    if (v === "-H" || v === "-L" || v === "-P" || v?.startsWith("-O") === true) {
      view.flags.add(v);
      i++;
    } else if (v === "-D") {
      view.flags.add(v);
      addValues(view, v, args.slice(i + 1, i + 2));
      i += 2;
    } else break;
  }
  while (i < args.length) {
    const v = args[i]?.value;
    if (v !== undefined && (v.startsWith("-") || v === "(" || v === "!" || v === ")" || v === ",")) break;
    view.operands.push({ word: args[i] as ShellWord, afterDoubleDash: false });
    i++;
  }
  while (i < args.length) {
    const v = args[i]?.value;
    i++;
    if (v === undefined || !v.startsWith("-")) continue;
    view.flags.add(v);
    if (FIND_EXEC_PRIMARIES.includes(v)) {
      const command: ShellWord[] = [];
      for (; i < args.length; i++) {
        const w = args[i]?.value;
        if (w === ";" || (w === "+" && args[i - 1]?.value === "{}")) break;
        command.push(args[i] as ShellWord);
      }
      i++;
      addValues(view, v, command);
      continue;
    }
    const arity = FIND_PRIMARIES[v] ?? (v.startsWith("-newer") ? 1 : 0);
    addValues(view, v, args.slice(i, i + arity));
    i += arity;
  }
  return view;
}

/** Splits a command's arguments by its program's grammar. */
export function detailedView(program: string | undefined, args: readonly ShellWord[]): DetailedView {
  if (program === "find") return findView(args);
  const view = empty();
  viewWith(grammarOf(program), args, view);
  if (
    program !== undefined &&
    HELP_WORD_PROGRAMS.includes(program) &&
    view.operands.some((o) => o.word.value === "help")
  )
    view.flags.add("--help");
  return view;
}

/** Fills `view` from `args` by `grammar`; a subcommand with its own global options nests (`docker compose -f x rm -f`). */
function viewWith(grammar: ProgramGrammar, args: readonly ShellWord[], view: ReturnType<typeof empty>): void {
  let from = 0;
  let body = grammar;
  if (grammar.global !== undefined) {
    const scan = scanOptions(args, grammar.global, 0);
    for (const event of scan.events) {
      if (event.kind === "option") addValues(view, event.name, event.values);
      if (event.kind === "double-dash") view.afterDoubleDash = true;
    }
    from = scan.next;
    const sub = args[from];
    if (sub === undefined) return;
    view.operands.push({ word: sub, afterDoubleDash: view.afterDoubleDash });
    from++;
    const subGrammar = sub.value === undefined ? undefined : grammar.subcommands?.[sub.value];
    if (subGrammar?.global !== undefined) {
      viewWith(subGrammar, args.slice(from), view);
      return;
    }
    body = subGrammar ?? { options: grammar.options };
  } else if (grammar.oldStyle === true) from = oldStyle(view, args, grammar);
  scanBody(view, args, from, body);
}

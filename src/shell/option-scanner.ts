/**
 * One generic command-line option scanner, driven by per-program grammars (data in `tables/`).
 * It works on resolved {@link ShellWord}s, never on shell text: the parser already split the words.
 */
import type { ShellWord } from "./types.ts";

/**
 * How many values an option takes: `0` a flag; `1`/`2` that many (attached `-mmsg`/`--x=y` or
 * the next words); `"optional"` only an attached value (`-i.bak`, `--color=auto`); `"digits"` an
 * attached run of digits only (perl `-l0`, `-0777`).
 */
export type Arity = 0 | 1 | 2 | "optional" | "digits";

/** A program's option grammar. */
export interface OptionGrammar {
  /** Known options and their arity; unknown ones are flags without a value. */
  readonly options: Readonly<Record<string, Arity>>;
  /** Short options cluster (`-rf` = `-r -f`). Default true. */
  readonly cluster?: boolean;
  /** Options may follow operands (GNU getopt). Default true; wrappers and interpreters stop at the first operand. */
  readonly permute?: boolean;
  /** `-name value` style: single-dash options are whole words (`-auto-approve`, `-KILL`); `-x=y` splits at `=`. */
  readonly singleDashLong?: boolean;
  /** A single-dash word whose first letter is not a known option is an operand (chmod `-w`). */
  readonly strictShort?: boolean;
  /** `+o name`, `+x`: options that start with a plus (shells). */
  readonly plusOptions?: boolean;
  /** Options after which scanning stops: the rest are arguments (python `-c CODE`, `-m MOD`). */
  readonly terminators?: readonly string[];
  /** Expand unambiguous long-option prefixes (`--recur` → `--recursive`), as getopt_long does. Default true. */
  readonly abbreviations?: boolean;
}

/** One thing the scanner found. `start`/`end` are word indices (end exclusive). */
export type OptionEvent =
  | {
      readonly kind: "option";
      readonly name: string;
      readonly values: readonly ShellWord[];
      readonly start: number;
      readonly end: number;
    }
  | { readonly kind: "operand"; readonly word: ShellWord; readonly index: number }
  | { readonly kind: "double-dash"; readonly index: number };

/** The scan result; `next` is the first word not consumed (the command of a wrapper). */
export interface OptionScan {
  readonly events: readonly OptionEvent[];
  readonly next: number;
}

/** The part of a word after `offset` characters of its value, as a word of its own. */
export function subWord(word: ShellWord, offset: number): ShellWord {
  const value = word.value?.slice(offset);
  const text = word.text === word.value ? word.text.slice(offset) : word.text;
  // the option's name holds no expansion: the variables are the value's
  return word.env === undefined ? { text, value, glob: word.glob } : { text, value, glob: word.glob, env: word.env };
}

const isDigits = (s: string): boolean => s.length > 0 && [...s].every((c) => c >= "0" && c <= "9");

/** The canonical long option for `name`: itself when known, else the one known option it abbreviates. */
function canonicalLong(name: string, grammar: OptionGrammar): string {
  if (name in grammar.options || grammar.abbreviations === false) return name;
  const matches = Object.keys(grammar.options).filter((o) => o.startsWith("--") && o.startsWith(name));
  return matches.length === 1 ? (matches[0] as string) : name;
}

/** Whether `word` is an option word under `grammar`. */
export function isOptionWord(word: ShellWord, grammar: OptionGrammar): boolean {
  const v = word.value;
  if (v === undefined || v.length < 2) return false;
  if (v.startsWith("-")) return true;
  return grammar.plusOptions === true && v.startsWith("+");
}

/** Characters of a long option's name. */
const isNameChar = (c: string): boolean =>
  (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c === "-" || c === "_";

/**
 * The known long option a word with a run-time value is written as, `--name=...` with the name
 * literal (`--post-data="k=$X"`); `undefined` otherwise.
 */
function dynamicLong(word: ShellWord, grammar: OptionGrammar): string | undefined {
  const text = word.text;
  const eq = text.indexOf("=");
  if (!text.startsWith("--") || eq < 3 || ![...text.slice(2, eq)].every(isNameChar)) return undefined;
  const name = canonicalLong(text.slice(0, eq), grammar);
  const arity = grammar.options[name];
  return arity === 1 || arity === 2 || arity === "optional" ? name : undefined;
}

/**
 * Scans `words` from `from`. With `permute` false (wrappers, interpreters) it stops at the first
 * operand; otherwise operands are reported and scanning continues. `--` ends the options.
 */
export function scanOptions(words: readonly ShellWord[], grammar: OptionGrammar, from = 0): OptionScan {
  const events: OptionEvent[] = [];
  const permute = grammar.permute ?? true;
  const cluster = grammar.cluster ?? true;
  let i = from;
  const take = (count: number): ShellWord[] => {
    const out = words.slice(i + 1, i + 1 + count);
    i += out.length;
    return out;
  };
  while (i < words.length) {
    const word = words[i] as ShellWord;
    const v = word.value;
    const start = i;
    if (v === "--") {
      events.push({ kind: "double-dash", index: i });
      i++;
      if (!permute) return { events, next: i };
      for (; i < words.length; i++) events.push({ kind: "operand", word: words[i] as ShellWord, index: i });
      return { events, next: i };
    }
    // `--header="Authorization: Bearer $TOKEN"`: a known option whose value is a run-time one;
    // `--force-with-lease=main:$SHA`: any option written out, its value only partly
    const head = v === undefined ? word.known?.head : undefined;
    const eq = head?.indexOf("=") ?? -1;
    const dynamic = v === undefined ? dynamicLong(word, grammar) : undefined;
    const written =
      dynamic ??
      (head !== undefined && head.startsWith("--") && eq > 2 ? canonicalLong(head.slice(0, eq), grammar) : undefined);
    if (written !== undefined) {
      const rest = head !== undefined && eq >= 0 ? head.slice(eq + 1) : "";
      const tail = word.known?.tail ?? "";
      const { known: _whole, ...plain } = word;
      const value: ShellWord = {
        ...plain,
        text: dynamic !== undefined ? word.text.slice(dynamic.length + 1) : word.text,
        ...((rest !== "" || tail !== "") && { known: { head: rest, tail } }),
      };
      events.push({ kind: "option", name: written, values: [value], start, end: i + 1 });
      i++;
      continue;
    }
    if (v === undefined || !isOptionWord(word, grammar)) {
      if (!permute) return { events, next: i };
      events.push({ kind: "operand", word, index: i });
      i++;
      continue;
    }
    const sign = v[0] as string;
    let name: string | undefined;
    if (
      v.startsWith("--") ||
      (grammar.singleDashLong === true && sign === "-") ||
      (sign === "-" && isDigits(v.slice(1)))
    ) {
      // a long option (or `-name`, or a number like `-20`): the whole word up to `=`
      const eq = v.indexOf("=");
      const raw = eq < 0 ? v : v.slice(0, eq);
      name = raw.startsWith("--") ? canonicalLong(raw, grammar) : raw;
      const arity = grammar.options[name] ?? 0;
      let values: ShellWord[] = [];
      if (eq >= 0) values = [subWord(word, eq + 1)];
      else if (arity === 1 || arity === 2) values = take(arity);
      events.push({ kind: "option", name, values, start, end: i + 1 });
    } else if (!cluster) {
      name = v;
      const arity = grammar.options[name] ?? 0;
      const values = arity === 1 || arity === 2 ? take(arity) : [];
      events.push({ kind: "option", name, values, start, end: i + 1 });
    } else {
      const first = `${sign}${v[1] as string}`;
      if (grammar.strictShort === true && !(first in grammar.options)) {
        if (!permute) return { events, next: i };
        events.push({ kind: "operand", word, index: i });
        i++;
        continue;
      }
      for (let c = 1; c < v.length; c++) {
        name = `${sign}${v[c] as string}`;
        const arity = grammar.options[name] ?? 0;
        const rest = v.slice(c + 1);
        if (arity === 0) {
          events.push({ kind: "option", name, values: [], start, end: i + 1 });
          continue;
        }
        if (arity === "digits") {
          let n = 0;
          while (n < rest.length && isDigits(rest[n] as string)) n++;
          const digits = rest.slice(0, n);
          events.push({
            kind: "option",
            name,
            values: n > 0 ? [{ text: digits, value: digits, glob: false }] : [],
            start,
            end: i + 1,
          });
          c += n;
          continue;
        }
        if (arity === "optional") {
          events.push({
            kind: "option",
            name,
            values: rest.length > 0 ? [subWord(word, c + 1)] : [],
            start,
            end: i + 1,
          });
          break;
        }
        const values = rest.length > 0 ? [subWord(word, c + 1), ...(arity === 2 ? take(1) : [])] : take(arity);
        events.push({ kind: "option", name, values, start, end: i + 1 });
        break;
      }
    }
    i++;
    if (name !== undefined && grammar.terminators?.includes(name) === true) return { events, next: i };
  }
  return { events, next: i };
}

/** The option events of a scan, by name (for quick lookups). */
export function optionsOf(scan: OptionScan): Map<string, ShellWord[]> {
  const out = new Map<string, ShellWord[]>();
  for (const e of scan.events) {
    if (e.kind !== "option") continue;
    out.set(e.name, [...(out.get(e.name) ?? []), ...e.values]);
  }
  return out;
}

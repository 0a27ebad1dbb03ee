/**
 * Programs whose own language runs shell commands: awk (`system("...")`, `"cmd" | getline`,
 * `print | "cmd"`) and sed (the `e` command and the `e` flag of `s///e`). Literal command text is
 * analysed as a shell string; text built at run time is `dynamic-code`.
 */
import { scanOptions } from "../option-scanner.ts";
import { AWK_GRAMMAR, SED_GRAMMAR } from "../tables/programs.ts";
import { plain, type Invocation } from "../walk/context.ts";
import type { Walk } from "./contract.ts";
import { hostCtx, shellString } from "./code.ts";

/** A piece of a program: a string literal or anything else. */
type Piece = { readonly kind: "string"; readonly value: string } | { readonly kind: "other"; readonly text: string };

/** Splits awk code into string literals and the text between them (with `#` comments dropped). */
function awkPieces(code: string): Piece[] {
  const out: Piece[] = [];
  let other = "";
  for (let i = 0; i < code.length; i++) {
    const c = code[i] as string;
    if (c === '"') {
      let value = "";
      let j = i + 1;
      for (; j < code.length && code[j] !== '"'; j++) {
        if (code[j] === "\\" && j + 1 < code.length) {
          const n = code[++j] as string;
          value += n === "n" ? "\n" : n === "t" ? "\t" : n;
        } else value += code[j] as string;
      }
      out.push({ kind: "other", text: other }, { kind: "string", value });
      other = "";
      i = j;
    } else if (c === "#") {
      while (i < code.length && code[i] !== "\n") i++;
    } else other += c;
  }
  out.push({ kind: "other", text: other });
  return out;
}

/** Quotes text as one shell word. */
const shellQuote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/** The lines of a static text (`undefined` stays unknown). */
const textLines = (text: string | undefined): string[] | undefined =>
  text === undefined ? undefined : text.split("\n").filter((l, i, all) => l.length > 0 || i < all.length - 1);

/** The string literals assigned to each awk variable (`cmd = "..."`, `-v cmd=...`). */
function awkVariables(pieces: readonly Piece[]): Map<string, string[]> {
  const vars = new Map<string, string[]>();
  pieces.forEach((piece, i) => {
    const next = pieces[i + 1];
    if (piece.kind !== "other" || next?.kind !== "string") return;
    const m = /(?:^|[^A-Za-z0-9_$])([A-Za-z_][A-Za-z0-9_]*)\s*=\s*$/.exec(piece.text);
    if (m === null) return;
    const name = m[1] as string;
    vars.set(name, [...(vars.get(name) ?? []), next.value]);
  });
  return vars;
}

/**
 * What an awk expression at the start of `text` names as command text: a string literal (given
 * as `literal`), a variable assigned string literals, or `$0`, every line of the known input.
 * `undefined` when it is built at run time.
 */
function awkOperand(
  text: string,
  literal: string | undefined,
  vars: ReadonlyMap<string, readonly string[]>,
  input: readonly string[] | undefined,
): readonly string[] | undefined {
  if (text.trim() === "" && literal !== undefined) return [literal];
  const m = /^\s*(\$0|[A-Za-z_][A-Za-z0-9_]*)\s*(?:\)|$)/.exec(text);
  if (m === null) return undefined;
  if (m[1] === "$0") return input;
  return vars.get(m[1] as string);
}

/**
 * awk: `system(...)`, `... | getline`, `print ... | "cmd"` (what is printed is the command's
 * stdin). The command may be a string literal, a variable assigned one, or `$0` when awk's input
 * is known (`echo 'cmd' | awk '{system($0)}'`).
 */
export function awk(w: Walk, inv: Invocation): void {
  const { words, base, ctx } = inv;
  const host = w.emit(words, base, ctx);
  const scan = scanOptions(
    words.map((x) => x.word),
    AWK_GRAMMAR,
    1,
  );
  const options = scan.events.filter((e) => e.kind === "option");
  const sources = options
    .filter((e) => e.name === "-e" || e.name === "--source")
    .flatMap((e) => (e.kind === "option" ? e.values : []));
  const fromFile = options.some((e) => e.name === "-f" || e.name === "--file");
  const programWord = sources.length > 0 || fromFile ? undefined : words[scan.next]?.word;
  const codes = [...sources, ...(programWord === undefined ? [] : [programWord])];
  // the input is the known stdin when no input file follows the program (`var=value` operands are not files)
  const operands = words.slice(scan.next + (programWord === undefined ? 0 : 1));
  const input = operands.every((o) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(o.word.value ?? ""))
    ? textLines(w.command(host)?.stdin)
    : undefined;
  const run = (text: string): void =>
    shellString(w, {
      word: plain({ text, value: text, glob: false }),
      interpreter: inv.program,
      host,
      base,
      ctx: hostCtx(ctx, { host }),
      via: "shell-string",
    });
  for (const word of codes) {
    if (word.value === undefined) {
      w.report("dynamic-code", base.text);
      continue;
    }
    const pieces = awkPieces(word.value);
    const vars = awkVariables(pieces);
    for (const e of options) {
      if (e.name !== "-v" && e.name !== "--assign") continue;
      const v = e.values[0]?.value;
      const eq = v?.indexOf("=") ?? -1;
      if (v !== undefined && eq > 0) vars.set(v.slice(0, eq), [v.slice(eq + 1)]);
    }
    pieces.forEach((piece, i) => {
      if (piece.kind !== "other") return;
      const next = pieces[i + 1];
      const after = pieces[i + 2];
      const literal = next?.kind === "string" ? next.value : undefined;
      const closes = after?.kind === "other" && after.text.trimStart().startsWith(")");
      const calls = /\bsystem\s*\(/g;
      for (let m = calls.exec(piece.text); m !== null; m = calls.exec(piece.text)) {
        const rest = piece.text.slice(m.index + m[0].length);
        const commands = awkOperand(rest, closes ? literal : undefined, vars, input);
        if (commands === undefined) w.report("dynamic-code", base.text);
        else for (const c of commands) run(c);
      }
      // `"cmd" | getline`, `cmd | getline`
      if (literal !== undefined && after?.kind === "other" && /^\s*\|&?\s*getline/.test(after.text)) run(literal);
      const getline = /([A-Za-z_][A-Za-z0-9_]*)\s*\|&?\s*getline/g;
      for (let m = getline.exec(piece.text); m !== null; m = getline.exec(piece.text)) {
        const known = vars.get(m[1] as string);
        if (known !== undefined) for (const c of known) run(c);
      }
      // `print X | "cmd"`, `print X | cmd`: cmd runs with what is printed on its stdin
      const pipe = /(^|[^|])\|&?\s*$/.test(piece.text)
        ? literal === undefined
          ? undefined
          : [literal]
        : (() => {
            const m = /(?:^|[^|])\|&?\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:[;}\n]|$)/.exec(piece.text);
            return m === null || m[1] === "getline" ? undefined : vars.get(m[1] as string);
          })();
      if (pipe === undefined) return;
      const before = pieces[i - 1];
      const printed =
        before?.kind === "string" && /^\s*$/.test(piece.text.slice(0, piece.text.lastIndexOf("|")))
          ? before.value
          : undefined;
      const printer = pieces[i - 2];
      const prints = printer?.kind === "other" && /\bprintf?\s*\(?\s*$/.test(printer.text);
      for (const target of pipe) {
        if (printed !== undefined && prints) run(`printf '%s\\n' ${shellQuote(printed)} | ${target}`);
        else run(target);
      }
    });
  }
}

/** sed: `e command`, `e` (runs the pattern space), and `s/x/y/e` (runs the result). */
export function sed(w: Walk, inv: Invocation): void {
  const { words, base, ctx } = inv;
  const host = w.emit(words, base, ctx);
  const scan = scanOptions(
    words.map((x) => x.word),
    SED_GRAMMAR,
    1,
  );
  const scripts = scan.events
    .filter((e) => e.kind === "option" && (e.name === "-e" || e.name === "--expression"))
    .flatMap((e) => (e.kind === "option" ? e.values : []));
  const fromFile = scan.events.some((e) => e.kind === "option" && (e.name === "-f" || e.name === "--file"));
  const operand = scan.events.find((e) => e.kind === "operand");
  const script = scripts.length > 0 || fromFile ? scripts : operand?.kind === "operand" ? [operand.word] : [];
  // the pattern space is each line of the known stdin when no input file is named
  const files = scan.events.filter((e) => e.kind === "operand").length - (scripts.length > 0 || fromFile ? 0 : 1);
  const input = files === 0 ? textLines(w.command(host)?.stdin) : undefined;
  for (const word of script) {
    const text = word.value;
    if (text === undefined) {
      if (word.text.includes("e")) w.report("dynamic-code", base.text);
      continue;
    }
    for (const command of sedCommands(text)) {
      if (command.kind === "exec") {
        const lines = command.text === undefined ? (command.patternSpace ? input : undefined) : [command.text];
        if (lines === undefined) w.report("dynamic-code", base.text);
        else
          for (const line of lines)
            shellString(w, {
              word: plain({ text: line, value: line, glob: false }),
              interpreter: inv.program,
              host,
              base,
              ctx: hostCtx(ctx, { host }),
              via: "shell-string",
            });
      }
    }
  }
}

/** The `e` commands of a sed script: `e CMD` (literal), `e` or `s///e` (run-time text). */
function sedCommands(script: string): { kind: "exec"; text: string | undefined; patternSpace: boolean }[] {
  const out: { kind: "exec"; text: string | undefined; patternSpace: boolean }[] = [];
  let i = 0;
  const skipAddress = (): void => {
    while (i < script.length && /[0-9,$~!+ \t]/.test(script[i] as string)) i++;
    if (script[i] === "/" || script[i] === "\\") {
      const delim = script[i] === "\\" ? script[++i] : "/";
      i++;
      while (i < script.length && script[i] !== delim) i += script[i] === "\\" ? 2 : 1;
      i++;
      skipAddress();
    }
  };
  while (i < script.length) {
    while (i < script.length && /[\s;{}]/.test(script[i] as string)) i++;
    skipAddress();
    const c = script[i];
    if (c === undefined) break;
    if (c === "e") {
      const end = script.indexOf("\n", i);
      const text = script.slice(i + 1, end < 0 ? script.length : end).trim();
      out.push({ kind: "exec", text: text.length === 0 ? undefined : text, patternSpace: text.length === 0 });
      i = end < 0 ? script.length : end;
    } else if (c === "s" || c === "y") {
      const delim = script[i + 1] as string;
      let parts = 0;
      let j = i + 2;
      let replacement = "";
      while (j < script.length && parts < 2) {
        if (script[j] === "\\") {
          if (parts === 1) replacement += script[j + 1] === delim ? delim : `\\${script[j + 1] ?? ""}`;
          j += 2;
          continue;
        }
        if (script[j] === delim) parts++;
        else if (parts === 1) replacement += script[j] as string;
        j++;
      }
      let flags = "";
      while (j < script.length && /[a-zA-Z0-9]/.test(script[j] as string)) flags += script[j++] as string;
      if (c === "s" && flags.includes("e"))
        out.push({ kind: "exec", text: /[&\\]/.test(replacement) ? undefined : replacement, patternSpace: false });
      i = j;
    } else if (
      c === "a" ||
      c === "i" ||
      c === "c" ||
      c === "r" ||
      c === "w" ||
      c === "R" ||
      c === "W" ||
      c === ":" ||
      c === "b" ||
      c === "t" ||
      c === "T"
    ) {
      const end = script.indexOf("\n", i);
      i = end < 0 ? script.length : end;
    } else i++;
  }
  return out;
}

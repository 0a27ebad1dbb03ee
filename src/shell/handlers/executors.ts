/**
 * Programs whose own language runs shell commands: awk (`system("...")`, `"cmd" | getline`,
 * `print | "cmd"`) and sed (the `e` command and the `e` flag of `s///e`). Literal command text is
 * analysed as a shell string; text built at run time is `dynamic-code`.
 */
import { scanOptions } from "../_options.ts";
import { AWK_GRAMMAR, SED_GRAMMAR } from "../tables/programs.ts";
import { plain, type Invocation } from "../walk/context.ts";
import type { Walker } from "../walk/traverse.ts";
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

/** awk: `system(...)`, `... | getline`, `print ... | "cmd"`. */
export function awk(w: Walker, inv: Invocation): void {
  const { words, base, ctx } = inv;
  const host = w.emit(words, base, ctx);
  const scan = scanOptions(
    words.map((x) => x.word),
    AWK_GRAMMAR,
    1,
  );
  const sources = scan.events
    .filter((e) => e.kind === "option" && (e.name === "-e" || e.name === "--source"))
    .flatMap((e) => (e.kind === "option" ? e.values : []));
  const fromFile = scan.events.some((e) => e.kind === "option" && (e.name === "-f" || e.name === "--file"));
  const programWord = sources.length > 0 || fromFile ? undefined : words[scan.next]?.word;
  const codes = [...sources, ...(programWord === undefined ? [] : [programWord])];
  for (const word of codes) {
    if (word.value === undefined) {
      w.report("dynamic-code", base.text);
      continue;
    }
    const pieces = awkPieces(word.value);
    pieces.forEach((piece, i) => {
      if (piece.kind !== "other") return;
      const next = pieces[i + 1];
      const after = pieces[i + 2];
      const literal = next?.kind === "string" ? next.value : undefined;
      const run = (text: string): void =>
        shellString(w, {
          word: plain({ text, value: text, glob: false }),
          interpreter: inv.program,
          host,
          base,
          ctx: hostCtx(ctx, { host }),
          via: "shell-string",
        });
      const calls = /\bsystem\s*\(/g;
      for (let m = calls.exec(piece.text); m !== null; m = calls.exec(piece.text)) {
        const rest = piece.text.slice(m.index + m[0].length);
        if (
          rest.trim() === "" &&
          literal !== undefined &&
          after?.kind === "other" &&
          after.text.trimStart().startsWith(")")
        )
          run(literal);
        else w.report("dynamic-code", base.text);
      }
      if (
        literal !== undefined &&
        (/(^|[^|])\|&?\s*$/.test(piece.text) || (after?.kind === "other" && /^\s*\|&?\s*getline/.test(after.text)))
      )
        run(literal);
    });
  }
}

/** sed: `e command`, `e` (runs the pattern space), and `s/x/y/e` (runs the result). */
export function sed(w: Walker, inv: Invocation): void {
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
  for (const word of script) {
    const text = word.value;
    if (text === undefined) {
      if (word.text.includes("e")) w.report("dynamic-code", base.text);
      continue;
    }
    for (const command of sedCommands(text)) {
      if (command.kind === "exec") {
        if (command.text === undefined) w.report("dynamic-code", base.text);
        else
          shellString(w, {
            word: plain({ text: command.text, value: command.text, glob: false }),
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
function sedCommands(script: string): { kind: "exec"; text: string | undefined }[] {
  const out: { kind: "exec"; text: string | undefined }[] = [];
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
      out.push({ kind: "exec", text: text.length === 0 ? undefined : text });
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
        out.push({ kind: "exec", text: /[&\\]/.test(replacement) ? undefined : replacement });
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

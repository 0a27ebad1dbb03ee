/**
 * `xargs` and GNU `parallel`: the command they run gets its arguments from stdin or `:::` lists.
 * Static input (`printf '%s\n' /srv | xargs rm -r`, `echo reset --hard | xargs git`,
 * `parallel rm ::: a b`) becomes the arguments; a directory listing (`ls -1 | xargs rm -r`)
 * stands for every entry of the directory (a glob); anything else is a run-time argument.
 */
import type { ShellWord } from "../types.ts";
import { LISTERS } from "../tables/programs.ts";
import { PARALLEL_SEPARATORS, type WrapperSpec } from "../tables/wrappers.ts";
import { joinWords, plain, type ArgWord, type Base, type Ctx, type Invocation } from "../walk/context.ts";
import type { Walker } from "../walk/traverse.ts";
import { hostCtx, shellString } from "./code.ts";
import { detailedView } from "../_argview.ts";
import { scanOptions } from "../_options.ts";
import { syntheticWord } from "../_words.ts";

/** The arguments xargs reads, when known: static words, or a listing as a glob. */
export function xargsInput(
  w: Walker,
  o: { words: readonly ArgWord[]; options: ReadonlyMap<string, readonly ShellWord[]>; base: Base; ctx: Ctx },
): { words: ArgWord[]; runtime: boolean; searchRoots?: readonly ShellWord[] } | undefined {
  const { options, base, ctx } = o;
  if (options.has("-a") || options.has("--arg-file")) return undefined;
  const replace = options.has("-I") || options.has("-i") || options.has("--replace");
  const text = w.stdinText(base, ctx);
  if (text !== undefined && !replace) {
    const delimiter =
      options.has("-0") || options.has("--null")
        ? "\0"
        : (options.get("-d") ?? options.get("--delimiter"))?.at(-1)?.value;
    const items =
      delimiter === undefined
        ? splitBlank(text)
        : text.split(delimiter === "\\n" ? "\n" : delimiter).filter((s) => s.length > 0);
    return { words: items.map((v) => plain({ text: v, value: v, glob: false })), runtime: false };
  }
  const producers = ctx.stdin?.immediate ?? [];
  if (producers.length !== 1) return undefined;
  const lister = w.commands[producers[0] as number];
  if (lister?.program === "find") {
    // `find ROOTS EXPR | xargs cmd`: cmd gets what find selects under its roots, like `-exec cmd {} +`
    const roots = detailedView("find", lister.args).operands.map((o) => o.word);
    return {
      words: replace ? [] : [plain({ text: "{}", value: "{}", glob: false })],
      runtime: true,
      searchRoots: roots.length > 0 ? roots : [syntheticWord(".")],
    };
  }
  if (replace) return undefined;
  if (lister?.program === "echo" || lister?.program === "printf") {
    // `echo *.bak | xargs rm`: a glob's matches, printed (the static words were handled above)
    const args = lister.args.slice(lister.program === "printf" ? 1 : 0);
    const format = lister.program === "printf" ? lister.args[0]?.value : undefined;
    if (lister.program === "printf" && format !== "%s\\n" && format !== "%s\\0" && format !== "%s ") return undefined;
    if (args.length === 0 || args.some((a) => a.value === undefined || (!a.glob && a.value.startsWith("-"))))
      return undefined;
    return { words: args.map((a) => plain(a)), runtime: false };
  }
  if (lister?.program === undefined || !LISTERS.includes(lister.program)) return undefined;
  const operands = lister.args.filter((a) => a.value === undefined || !a.value.startsWith("-"));
  if (operands.some((d) => d.value === undefined)) return undefined;
  // `ls -d */`, `ls *.log`: the matches of each glob (a glob at least as broad as what ls prints)
  const entries = lister.args.some((a) => a.value !== undefined && /^-[A-Za-z]*d/.test(a.value));
  const words = (operands.length === 0 ? [undefined] : operands).map((d) => {
    if (d !== undefined && d.glob) return plain(d);
    const dir = d?.value;
    if (entries && dir !== undefined) return plain(d as ShellWord);
    const value = dir === undefined || dir === "." ? "*" : `${dir.replace(/\/+$/, "")}/*`;
    return plain({ text: `<entries of ${dir ?? "."}>`, value, glob: true });
  });
  return { words, runtime: false };
}

/**
 * `xargs -I R cmd ... R ...` with static input: one command per input line, `R` replaced.
 * Returns the argv of each command, or `undefined` when the input or the replace string is unknown.
 */
export function xargsReplace(
  w: Walker,
  o: { command: readonly ArgWord[]; options: ReadonlyMap<string, readonly ShellWord[]>; base: Base; ctx: Ctx },
): ArgWord[][] | undefined {
  const { options } = o;
  if (options.has("-a") || options.has("--arg-file")) return undefined;
  const explicit = (options.get("-I") ?? []).at(-1) ?? (options.get("-i") ?? options.get("--replace"))?.at(-1);
  const token = explicit?.value ?? (options.has("-i") || options.has("--replace") ? "{}" : undefined);
  const text = w.stdinText(o.base, o.ctx);
  if (token === undefined || token.length === 0) return undefined;
  if (text === undefined) {
    // `ls ~ | xargs -I{} rm -rf ~/{}`: each printed name, as a glob
    const names = listedNames(w, o.ctx);
    return names?.map((name) =>
      o.command.map((a) => {
        const v = a.word.value;
        return v === undefined || !v.includes(token)
          ? a
          : plain({ text: a.word.text, value: v.replaceAll(token, name), glob: true });
      }),
    );
  }
  const inputs = text.split(options.has("-0") || options.has("--null") ? "\0" : "\n").filter((l) => l.length > 0);
  if (inputs.length > 16) return undefined;
  return inputs.map((input) =>
    o.command.map((a) => {
      const v = a.word.value;
      return v === undefined || !v.includes(token)
        ? a
        : plain({ text: a.word.text, value: v.replaceAll(token, input), glob: false });
    }),
  );
}

/**
 * What a listing piped in prints, as glob patterns: `ls DIR` prints the names in DIR (`*`), `ls
 * *.log` the matches of its globs. `undefined` when stdin is not one such listing.
 */
function listedNames(w: Walker, ctx: Ctx): string[] | undefined {
  const producers = ctx.stdin?.immediate ?? [];
  const lister = producers.length === 1 ? w.commands[producers[0] as number] : undefined;
  if (lister?.program === undefined || !LISTERS.includes(lister.program)) return undefined;
  const operands = lister.args.filter((a) => a.value === undefined || !a.value.startsWith("-"));
  if (operands.some((d) => d.value === undefined)) return undefined;
  const entries = lister.args.some((a) => a.value !== undefined && /^-[A-Za-z]*d/.test(a.value));
  if (operands.length === 0) return ["*"];
  return operands.map((d) => (d.glob || entries ? (d.value as string) : "*"));
}

/** Splits xargs input on blanks and newlines, honouring simple quotes. */
function splitBlank(text: string): string[] {
  const out: string[] = [];
  let current = "";
  let quote: string | undefined;
  let any = false;
  for (const c of text) {
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      any = true;
    } else if (c === " " || c === "\t" || c === "\n") {
      if (current.length > 0 || any) out.push(current);
      current = "";
      any = false;
    } else current += c;
  }
  if (current.length > 0 || any) out.push(current);
  return out;
}

/** A parallel input as one shell word: parallel quotes what it puts in the command line. */
const quoted = (value: string): string =>
  /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;

/**
 * GNU parallel runs its command line through a shell once per input: `parallel rm ::: a b` runs
 * `rm a` and `rm b`; `{}` is replaced by the input; without a command the inputs are the command
 * lines. Inputs are quoted as parallel does (`parallel sh -c ::: 'a b'` runs `sh -c 'a b'`). Without
 * `:::` inputs the arguments come from stdin (run-time arguments).
 */
export function parallel(w: Walker, inv: Invocation, spec: WrapperSpec): void {
  const { program, words, base, ctx } = inv;
  const scan = scanOptions(
    words.map((x) => x.word),
    spec.grammar,
    1,
  );
  const rest = words.slice(scan.next);
  const sep = rest.findIndex((x) => PARALLEL_SEPARATORS.includes(x.word.value ?? ""));
  const command = sep < 0 ? rest : rest.slice(0, sep);
  const inputs: ArgWord[] = [];
  let fromFiles = false;
  let group = "";
  for (const x of sep < 0 ? [] : rest.slice(sep)) {
    const v = x.word.value ?? "";
    if (PARALLEL_SEPARATORS.includes(v)) {
      group = v;
      fromFiles ||= v.startsWith("::::");
    } else if (!group.startsWith("::::")) inputs.push(x);
  }
  const host = w.emit(words, base, ctx);
  // static stdin lines are inputs too (`printf 'a\nb\n' | parallel rm`)
  const stdinText = inputs.length === 0 && !fromFiles ? w.commands[host]?.stdin : undefined;
  if (stdinText !== undefined)
    for (const line of stdinText.split("\n").filter((l) => l.length > 0))
      inputs.push(plain({ text: line, value: line, glob: false }));
  const inner: Ctx = {
    ...hostCtx(ctx, { wrapper: program, host }),
    runtimeArgs: ctx.runtimeArgs || inputs.length === 0 || fromFiles,
  };
  const run = (word: ArgWord): void =>
    shellString(w, { word, interpreter: program, host, base, ctx: inner, via: "shell-string" });
  if (command.length === 0) {
    for (const line of inputs) run(line);
    return;
  }
  const line = joinWords(command);
  if (inputs.length === 0) {
    run(line);
    return;
  }
  for (const input of inputs) {
    const template = line.word.value;
    const value =
      template === undefined || input.word.value === undefined
        ? undefined
        : template.includes("{}")
          ? template.replaceAll("{}", quoted(input.word.value))
          : `${template} ${quoted(input.word.value)}`;
    run({
      word: { text: `${line.word.text} ${input.word.text}`, value, glob: false },
      producers: [...line.producers, ...input.producers],
      substitution: undefined,
    });
  }
}

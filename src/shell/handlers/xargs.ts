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
import type { Walk } from "./contract.ts";
import { hostCtx, shellString } from "./code.ts";
import { fileTextAt } from "./file-text.ts";
import { detailedView } from "../detailed-view.ts";
import { optionsOf, scanOptions } from "../option-scanner.ts";
import { syntheticWord } from "../words.ts";

/** The arguments xargs reads, when known: static words, or a listing as a glob. */
export function xargsInput(
  w: Walk,
  o: { words: readonly ArgWord[]; options: ReadonlyMap<string, readonly ShellWord[]>; base: Base; ctx: Ctx },
): { words: ArgWord[]; runtime: boolean; searchRoots?: readonly ShellWord[] } | undefined {
  const { options, base, ctx } = o;
  const file = argFile(options);
  if (file !== undefined && argFileText(w, argWordOf(o.words, file), ctx) === undefined) return undefined;
  const replace = options.has("-I") || options.has("-i") || options.has("--replace");
  const text = file !== undefined ? argFileText(w, argWordOf(o.words, file), ctx) : w.stdinText(base, ctx);
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
  const lister = w.command(producers[0] as number);
  const roots = listedRoots(w, ctx);
  if (roots !== undefined)
    return {
      words: replace ? [] : [plain({ text: "{}", value: "{}", glob: false })],
      runtime: true,
      searchRoots: roots,
    };
  if (replace) return undefined;
  // `ls DIR | grep PATTERN | xargs cmd`: some entries of DIR, selected like `find DIR -name` selects
  // (`grep -v`, `grep .`: as many as the listing itself)
  if (lister?.program !== undefined && NAME_FILTERS.includes(lister.program)) {
    const feeders = w.pipedInto(producers[0] as number).map((from) => w.command(from));
    const listed = feeders.length === 1 ? listing(feeders[0]) : undefined;
    if (listed === undefined) return undefined;
    if (inverts(lister.args))
      return {
        words: [plain({ text: `<entries of ${listed.shown}>`, value: listed.value, glob: true })],
        runtime: false,
      };
    if (listed.glob) return undefined;
    return {
      words: [plain({ text: "{}", value: "{}", glob: false })],
      runtime: true,
      searchRoots: [syntheticWord(listed.shown)],
    };
  }
  // `echo *.bak | xargs rm`, `printf '%s\n' *.tmp | xargs rm`: the words the glob expands to
  const printed =
    lister?.program === "printf" && ["%s\\n", "%s\\0", "%s "].includes(lister.args[0]?.value ?? "")
      ? lister.args.slice(1)
      : lister?.program === "echo"
        ? lister.args
        : [];
  if (printed.length > 0 && printed.every((a) => a.value !== undefined && !a.value.startsWith("-")))
    return { words: printed.map((a) => plain(a)), runtime: false };
  const listed = listing(lister);
  if (listed === undefined) return undefined;
  return { words: [plain({ text: `<entries of ${listed.shown}>`, value: listed.value, glob: true })], runtime: false };
}

/**
 * The search roots of the lister piped into a command's stdin, when it lists files: `find ROOTS
 * EXPR | xargs cmd` gets what find selects under its roots, like `-exec cmd {} +`; `git ls-files
 * [PATHSPEC] | xargs cmd` the files under its pathspecs, as find over them would.
 */
export function listedRoots(w: Walk, ctx: Ctx): readonly ShellWord[] | undefined {
  const producers = ctx.stdin?.immediate ?? [];
  if (producers.length !== 1) return undefined;
  const lister = w.command(producers[0] as number);
  if (lister?.program === "git") return gitListedFiles(lister.args);
  if (lister?.program !== "find") return undefined;
  const roots = detailedView("find", lister.args).operands.map((o) => o.word);
  return roots.length > 0 ? roots : [syntheticWord(".")];
}

/** The last `-a FILE`/`--arg-file FILE` of xargs or parallel. */
const argFile = (options: ReadonlyMap<string, readonly ShellWord[]>): ShellWord | undefined =>
  (options.get("-a") ?? options.get("--arg-file"))?.at(-1) ??
  (options.has("-a") || options.has("--arg-file") ? { text: "", value: undefined, glob: false } : undefined);

/** The argument `word` was resolved from (for a process substitution's output), else the word alone. */
const argWordOf = (words: readonly ArgWord[], word: ShellWord): ArgWord =>
  words.find((x) => x.word === word) ?? plain(word);

/**
 * The text of an argument file (`xargs -a F`, `parallel :::: F`, `parallel -a F`) when it is known
 * before the line runs: a process substitution with static output (`<(echo /)`), else the file's
 * (`file-text.ts`); `undefined` otherwise.
 */
function argFileText(w: Walk, word: ArgWord, ctx: Ctx): string | undefined {
  if (word.substitution === "process") return word.output;
  const path = word.word.value;
  return path === undefined || word.word.glob ? undefined : fileTextAt(w, path, ctx);
}

/**
 * `git ls-files [PATHSPEC]`: the files git lists under its pathspecs (tracked, modified or untracked
 * alike), the roots a `find` would search to give the same; undefined for other git commands and
 * for options that make it print something else.
 */
function gitListedFiles(args: readonly ShellWord[]): readonly ShellWord[] | undefined {
  const operands = detailedView("git", args)
    .operands.map((o) => o.word)
    .filter((w) => w.value !== "--");
  if (operands[0]?.value !== "ls-files") return undefined;
  const own = args.slice(args.findIndex((a) => a.value === "ls-files") + 1);
  if (own.some((a) => a.value?.startsWith("-") === true && !LS_FILES_PATHS.includes(a.value))) return undefined;
  const specs = operands.slice(1);
  // no pathspec lists every file; one with magic (`:!src`, `:(exclude)x`, `:/`) may list any of them
  return specs.length === 0 || specs.some((w) => w.value?.startsWith(":") === true) ? [syntheticWord(".")] : specs;
}

/**
 * `git ls-files` options under which it prints paths of files that exist (`--deleted` lists files
 * gone from the work tree, `-s`/`-u`/`--format` print more than paths: not a listing of files).
 */
const LS_FILES_PATHS: readonly string[] = [
  "--",
  "-z",
  "-c",
  "--cached",
  "-o",
  "--others",
  "-m",
  "--modified",
  "--exclude-standard",
  "--full-name",
  "--recurse-submodules",
  "-i",
  "--ignored",
];

/** Programs that pass on the input lines that match a pattern (`-v` inverts: not a narrowing). */
const NAME_FILTERS: readonly string[] = ["grep", "egrep", "fgrep", "rg"];

/** `-v`, a pattern only known at run time, or one that every line matches (`.`, `^`, `''`): no narrowing. */
const inverts = (args: readonly ShellWord[]): boolean =>
  args.some(
    (a) =>
      a.value === undefined ||
      a.value === "--invert-match" ||
      (a.value.startsWith("-") && !a.value.startsWith("--") && a.value.includes("v")),
  ) || MATCH_ALL.includes(args.find((a) => !(a.value ?? "").startsWith("-"))?.value ?? "");

const MATCH_ALL: readonly string[] = ["", ".", "^", "$", ".*", "^.*", ".*$", "^.*$", ".+", "^.", "*"];

/**
 * What a lister prints, as a glob: `ls` → `*`, `ls dir` → `dir/*`, `ls *.log` → `*.log` (the names
 * the glob matches). `value` of a directory listing without the `/*` is in `dir`.
 */
function listing(
  lister: { readonly program: string | undefined; readonly args: readonly ShellWord[] } | undefined,
): { value: string; shown: string; glob: boolean } | undefined {
  if (lister?.program === undefined || !LISTERS.includes(lister.program)) return undefined;
  const dirs = lister.args.filter((a) => a.value === undefined || !a.value.startsWith("-"));
  if (dirs.length > 1 || dirs.some((d) => d.value === undefined)) return undefined;
  const only = dirs[0];
  if (only?.glob === true) return { value: only.value as string, shown: only.value as string, glob: true };
  const dir = only?.value;
  const value = dir === undefined || dir === "." ? "*" : `${dir.replace(/\/+$/, "")}/*`;
  return { value, shown: dir ?? ".", glob: false };
}

/** The replace string of `-I R`, `-i[R]` or `--replace[=R]` (`{}` by default), if xargs replaces. */
export function replaceToken(options: ReadonlyMap<string, readonly ShellWord[]>): string | undefined {
  const explicit = (options.get("-I") ?? []).at(-1) ?? (options.get("-i") ?? options.get("--replace"))?.at(-1);
  return explicit?.value ?? (options.has("-i") || options.has("--replace") ? "{}" : undefined);
}

/**
 * The command xargs runs once per listed file with its replace string written as `{}`, the
 * placeholder the effects give the listed files (`xargs -I % cp /dev/null %`): xargs replaces the
 * string wherever it occurs in an argument, in code handed to `sh -c` too.
 */
export function asPlaceholder(command: readonly ArgWord[], token: string): ArgWord[] {
  if (token === "{}") return [...command];
  return command.map((a) => {
    const v = a.word.value;
    return v === undefined || !v.includes(token)
      ? a
      : plain({ text: a.word.text, value: v.replaceAll(token, "{}"), glob: a.word.glob });
  });
}

/**
 * `xargs -I R cmd ... R ...` with static input: one command per input line, `R` replaced.
 * Returns the argv of each command, or `undefined` when the input or the replace string is unknown.
 */
export function xargsReplace(
  w: Walk,
  o: {
    command: readonly ArgWord[];
    /** The whole xargs argv (for the argument behind `-a`). */
    words: readonly ArgWord[];
    options: ReadonlyMap<string, readonly ShellWord[]>;
    base: Base;
    ctx: Ctx;
  },
): ArgWord[][] | undefined {
  const { options } = o;
  const file = argFile(options);
  const token = replaceToken(options);
  const text = file !== undefined ? argFileText(w, argWordOf(o.words, file), o.ctx) : w.stdinText(o.base, o.ctx);
  if (file !== undefined && text === undefined) return undefined;
  if (token === undefined || token.length === 0) return undefined;
  if (text === undefined) {
    // `ls dist | xargs -I{} rm -rf dist/{}`: `{}` is each listed name, `*` (or the glob `ls` was given)
    const producers = o.ctx.stdin?.immediate ?? [];
    const listed = producers.length === 1 ? listing(w.command(producers[0] as number)) : undefined;
    if (listed === undefined) return undefined;
    const names = listed.glob ? listed.value : "*";
    return [
      o.command.map((a) => {
        const v = a.word.value;
        return v === undefined || !v.includes(token)
          ? a
          : plain({ text: a.word.text, value: v.replaceAll(token, names), glob: true });
      }),
    ];
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
export function parallel(w: Walk, inv: Invocation, spec: WrapperSpec): void {
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
  /** The lines of an argument file as inputs; a file whose text is not known is a run-time input. */
  const fromFile = (x: ArgWord): void => {
    const text = argFileText(w, x, ctx);
    if (text === undefined) fromFiles = true;
    else
      for (const line of text.split("\n").filter((l) => l.length > 0))
        inputs.push(plain({ text: line, value: line, glob: false }));
  };
  const options = optionsOf(scan);
  const file = argFile(options);
  if (file !== undefined) fromFile(argWordOf(words, file));
  for (const x of sep < 0 ? [] : rest.slice(sep)) {
    const v = x.word.value ?? "";
    if (PARALLEL_SEPARATORS.includes(v)) group = v;
    else if (group.startsWith("::::")) fromFile(x);
    else inputs.push(x);
  }
  const host = w.emit(words, base, ctx);
  // static stdin lines are inputs too (`printf 'a\nb\n' | parallel rm`)
  const stdinText = inputs.length === 0 && !fromFiles && file === undefined ? w.command(host)?.stdin : undefined;
  if (stdinText !== undefined)
    for (const line of stdinText.split("\n").filter((l) => l.length > 0))
      inputs.push(plain({ text: line, value: line, glob: false }));
  // `find . -name x | parallel cmd`: cmd gets each listed file, as `xargs cmd` does
  const roots = inputs.length === 0 && !fromFiles && file === undefined ? listedRoots(w, ctx) : undefined;
  const inner: Ctx = {
    ...hostCtx(ctx, { wrapper: program, host }),
    runtimeArgs: ctx.runtimeArgs || inputs.length === 0 || fromFiles,
    ...(roots !== undefined && { searchRoots: roots }),
  };
  const run = (word: ArgWord): void =>
    shellString(w, { word, interpreter: program, host, base, ctx: inner, via: "shell-string" });
  if (command.length === 0) {
    for (const line of inputs) run(line);
    return;
  }
  const line = joinWords(command);
  if (inputs.length === 0) {
    const template = line.word.value;
    // without `{}` parallel appends the input to the command
    const value =
      roots === undefined || template === undefined || template.includes("{}") ? template : `${template} {}`;
    run({ ...line, word: { ...line.word, value } });
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

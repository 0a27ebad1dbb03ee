/**
 * Code that downloads code and evaluates it in one go, which no pipeline shows. The walk reads
 * PowerShell with the POSIX parser, which sees `irm URL | iex` but not PowerShell's own expressions
 * (`iex (New-Object Net.WebClient).DownloadString(URL)`, `& ([scriptblock]::Create((irm URL)))`),
 * and interpreter code is read for its calls, not for where evaluated text comes from
 * (`exec(urlopen(URL).read())`, `fetch(URL).then(r => r.text()).then(eval)`). Code that names both
 * a download and an evaluator of its language is recorded as the evaluator running what a
 * downloader fetched, which is remote code.
 */
import { REMOTE_CODE_WORDS } from "../tables/interpreters.ts";
import type { CodeLanguage } from "../types.ts";
import { emptyBase, plain, type Ctx } from "../walk/context.ts";
import type { Slot, Walk } from "./contract.ts";

const isWordChar = (c: string): boolean => (c >= "a" && c <= "z") || (c >= "0" && c <= "9") || c === "-" || c === "_";

/** A word of code, lower-cased, and whether it follows a `.` (a member: `model.eval()`). */
interface CodeWord {
  readonly word: string;
  readonly member: boolean;
}

/** The words of code: runs of letters, digits, `-` and `_`. */
function words(text: string): CodeWord[] {
  const out: CodeWord[] = [];
  let current = "";
  let member = false;
  let previous = "";
  for (const c of text.toLowerCase()) {
    if (isWordChar(c)) {
      if (current === "") member = previous === ".";
      current += c;
    } else if (current !== "") {
      out.push({ word: current, member });
      current = "";
    }
    previous = c;
  }
  if (current !== "") out.push({ word: current, member });
  return out;
}

/** `eval`/`exec` as a method of some object (`model.eval()`, `cursor.execute`) evaluate no code. */
const METHOD_LOOKALIKES: readonly string[] = ["eval", "exec"];

/** The first URL of the text (`https://...` up to a quote, space or bracket). */
function firstUrl(text: string): string | undefined {
  const at = text.search(/[a-z][a-z0-9+.-]*:\/\//i);
  if (at < 0) return undefined;
  const end = text.slice(at).search(/["'`\s()]/);
  return end < 0 ? text.slice(at) : text.slice(at, at + end);
}

/** Code already scanned for download-and-evaluate expressions on this line, by language and text. */
const SCANNED: Slot<Set<string>> = { create: () => new Set() };

/**
 * Records remote code when `code` (code of `language`, or a line the POSIX parser could not read,
 * as PowerShell) both downloads and evaluates. `host` is the command that runs the code, when there
 * is one (`powershell -c`, `python3 -c`); otherwise the evaluator itself is recorded as the command.
 */
export function remoteCodeIn(
  w: Walk,
  o: { language: CodeLanguage; code: string; ctx: Ctx; host: number | undefined },
): void {
  const table = REMOTE_CODE_WORDS[o.language];
  const key = `${o.language}\n${o.code}`;
  const scanned = w.memo(SCANNED);
  if (table === undefined || scanned.has(key)) return;
  scanned.add(key);
  const coded = words(o.code);
  const found = coded.map((x) => x.word);
  const download = found.find((x) => Object.hasOwn(table.downloads, x));
  if (download === undefined) return;
  const evaluator =
    coded.find((x) => table.evaluators.includes(x.word) && !(x.member && METHOD_LOOKALIKES.includes(x.word)))?.word ??
    (table.evaluatorPairs ?? [])
      .filter(([a, b]) => found.some((x, i) => x === a && found[i + 1] === b))
      .map(([a, b]) => `${a} ${b}`)[0];
  if (evaluator === undefined) return;
  const base = emptyBase(o.code);
  const url = firstUrl(o.code);
  const fetcher = w.emit(
    [table.downloads[download] as string, ...(url === undefined ? [] : [url])].map((value) =>
      plain({ text: value, value, glob: false }),
    ),
    base,
    o.ctx,
  );
  const runner = o.host ?? w.emit([plain({ text: evaluator, value: evaluator, glob: false })], base, o.ctx);
  w.addCode({
    language: o.language,
    interpreter: evaluator,
    command: runner,
    source: "command-substitution",
    producers: [fetcher],
  });
}

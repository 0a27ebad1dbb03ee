/**
 * PowerShell expressions that download code and evaluate it in one go. The walk reads PowerShell
 * code with the POSIX parser, which sees pipelines (`irm URL | iex`) but not PowerShell's own
 * expressions: `iex (New-Object Net.WebClient).DownloadString(URL)`, `iex (irm URL)`,
 * `& ([scriptblock]::Create((irm URL)))`. Code that names both a download and an evaluator is
 * recorded as the evaluator running what a downloader fetched, which is remote code.
 */
import { POWERSHELL_REMOTE } from "../tables/interpreters.ts";
import { emptyBase, plain, type Ctx } from "../walk/context.ts";
import type { Walker } from "../walk/traverse.ts";

const isWordChar = (c: string): boolean => (c >= "a" && c <= "z") || (c >= "0" && c <= "9") || c === "-" || c === "_";

/** The words of PowerShell text, lower-cased: runs of letters, digits, `-` and `_`. */
function words(text: string): string[] {
  const out: string[] = [];
  let current = "";
  for (const c of text.toLowerCase()) {
    if (isWordChar(c)) current += c;
    else if (current !== "") {
      out.push(current);
      current = "";
    }
  }
  if (current !== "") out.push(current);
  return out;
}

/** The first URL-looking word of the text (`https://...` up to a quote, space or parenthesis). */
function firstUrl(text: string): string | undefined {
  const at = text.search(/[a-z][a-z0-9+.-]*:\/\//i);
  if (at < 0) return undefined;
  const end = text.slice(at).search(/["'`\s()]/);
  return end < 0 ? text.slice(at) : text.slice(at, at + end);
}

/**
 * Records remote code when `code` (PowerShell text, or a line the POSIX parser could not read)
 * both downloads and evaluates. `host` is the command that runs the code, when there is one (the
 * `powershell -c` command); otherwise the evaluator itself is recorded as the command.
 */
export function powershellRemoteCode(w: Walker, code: string, ctx: Ctx, host: number | undefined): void {
  if (w.powershellScanned.has(code)) return;
  w.powershellScanned.add(code);
  const found = words(code);
  const download = found.find((x) => Object.hasOwn(POWERSHELL_REMOTE.downloads, x));
  if (download === undefined) return;
  const fetcherName = POWERSHELL_REMOTE.downloads[download] as string;
  const evaluator =
    found.find((x) => (POWERSHELL_REMOTE.evaluators as readonly string[]).includes(x)) ??
    POWERSHELL_REMOTE.evaluatorPairs
      .filter(([a, b]) => found.some((x, i) => x === a && found[i + 1] === b))
      .map(([a, b]) => `[${a}]::${b}`)[0];
  if (evaluator === undefined) return;
  const base = emptyBase(code);
  const url = firstUrl(code);
  const fetcherWords = [fetcherName, ...(url === undefined ? [] : [url])].map((value) =>
    plain({ text: value, value, glob: false }),
  );
  const fetcher = w.emit(fetcherWords, base, ctx);
  const runner = host ?? w.emit([plain({ text: evaluator, value: evaluator, glob: false })], base, ctx);
  w.addCode({
    language: "powershell",
    interpreter: evaluator,
    command: runner,
    source: "command-substitution",
    producers: [fetcher],
  });
}

/**
 * `statementTexts`: the text a database or console client receives as statements, for the SQL and
 * console matchers of the policy: what it reads on stdin (heredocs, herestrings, static text piped
 * in, files with known text), the code run through it, text piped in by `echo`/`printf` or built
 * from other producers' string literals, the values of statement options (`tables/options.ts`
 * `STATEMENT_OPTIONS`: `psql -c`, `mysql -e`, `curl --data-urlencode "q=..."`) and its operands.
 */
import { detailedView } from "./detailed-view.ts";
import { LITERAL_PRODUCERS } from "./tables/interpreters.ts";
import { READ_ONLY_CLIENTS, STATEMENT_OPTIONS } from "./tables/options.ts";
import type { ShellAnalysis, ShellCommand } from "./types.ts";

/** True for a word made of letters only (a Redis command name such as `GET` or `ECHO`). */
const isBareWord = (word: string): boolean =>
  word.length > 0 && [...word].every((c) => (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || c === "_");

/** The string literals of a producer's words (`psql -tAc "select 'drop table ' || ..." | psql`: `drop table `). */
function quotedParts(word: string): string[] {
  const parts: string[] = [];
  let i = 0;
  while (i < word.length) {
    const q = word[i];
    if (q !== "'" && q !== '"') {
      i++;
      continue;
    }
    const close = word.indexOf(q, i + 1);
    if (close === -1) break;
    parts.push(word.slice(i + 1, close));
    i = close + 1;
  }
  return parts;
}

const words = (c: ShellCommand): string[] => c.argv.slice(1).map((w) => w.value ?? w.text);

/**
 * The text a command reads that is known before the line runs: heredoc and herestring bodies (else
 * the static text piped in), the known text of files its operands name, and literal code it runs.
 */
function readTexts(analysis: ShellAnalysis, command: ShellCommand): string[] {
  const texts: string[] = [];
  for (const redirect of command.redirects)
    if ((redirect.kind === "heredoc" || redirect.kind === "herestring") && redirect.target?.value !== undefined)
      texts.push(redirect.target.value);
  // static text piped in (`echo ... | base64 -d | psql`), when not already a heredoc/herestring
  if (texts.length === 0 && command.stdin !== undefined) texts.push(command.stdin);
  // files it reads whose text is known (`psql -f <(echo ...)`, `echo ... > q.sql && psql -f q.sql`)
  if (command.inputs !== undefined) texts.push(...command.inputs);
  for (const exec of analysis.code)
    if (exec.command === command.index && exec.source === "literal" && exec.code !== undefined) texts.push(exec.code);
  return texts;
}

/** Text piped into the command: the words of `echo`/`printf`, the quoted parts of other producers' words. */
function pipedTexts(analysis: ShellAnalysis, index: number): string[] {
  const texts: string[] = [];
  for (const pipe of analysis.pipes) {
    if (pipe.to !== index) continue;
    const producer = analysis.commands[pipe.from];
    if (producer === undefined) continue;
    if (producer.program !== undefined && LITERAL_PRODUCERS.includes(producer.program))
      texts.push(words(producer).join(" "));
    // a producer that prints statements built from literals (`... | awk '{print "drop table " $1}' | mysql`)
    else texts.push(...words(producer).flatMap(quotedParts));
  }
  return texts;
}

/**
 * Statement text the command at `index` receives. A client with no option table leaves `-e "DROP
 * ..."` as an operand; `sqlite3 db "DROP ..."` and `redis-cli FLUSHALL` take statements as
 * operands. With `after`, only the words after the first operand that is one of `after` (and what
 * it reads): `heroku pg:psql`, `rails runner CODE`.
 */
export function statementTexts(analysis: ShellAnalysis, index: number, after?: readonly string[]): string[] {
  const command = analysis.commands[index];
  if (command === undefined) return [];
  const texts = sentTexts(analysis, command, after);
  return readOnly(command, texts) ? [] : texts;
}

/**
 * True when the client is opened read-only (`tables/options.ts` `READ_ONLY_CLIENTS`) and no
 * statement it is sent lifts that: whatever it is sent cannot change the data, and the server
 * refuses a destructive statement.
 */
function readOnly(command: ShellCommand, texts: readonly string[]): boolean {
  const spec = command.program === undefined ? undefined : READ_ONLY_CLIENTS[command.program];
  if (spec === undefined) return false;
  const words = command.args.map((w) => (w.value ?? "").toLowerCase());
  const set = (text: string): boolean => (spec.settings ?? []).some((s) => text.replaceAll(" ", "").includes(s));
  const on =
    words.some((w) => (spec.flags ?? []).includes(w) || set(w)) ||
    command.assignments.some((a) => (spec.env ?? []).includes(a.name) && set((a.value.value ?? "").toLowerCase()));
  if (!on) return false;
  const sent = texts.join("\n").toLowerCase();
  return !spec.unless.some((u) => sent.includes(u));
}

/** The statement text the command receives (see {@link statementTexts}). */
function sentTexts(analysis: ShellAnalysis, command: ShellCommand, after: readonly string[] | undefined): string[] {
  const index = command.index;
  const texts: string[] = [...readTexts(analysis, command), ...pipedTexts(analysis, index)];
  if (after !== undefined) {
    const args = command.args.map((w) => w.value ?? "");
    const at = args.findIndex((a) => after.includes(a.toLowerCase()));
    if (at === -1) return [];
    for (const arg of args.slice(at + 1)) {
      // `--execute=CODE`, `--sql=...`: the value
      const eq = arg.startsWith("-") ? arg.indexOf("=") : -1;
      texts.push(eq === -1 ? arg : arg.slice(eq + 1));
    }
    return texts;
  }
  const view = detailedView(command.program, command.args);
  for (const key of STATEMENT_OPTIONS) {
    for (const word of view.values.get(key) ?? []) {
      if (word.value === undefined) continue;
      texts.push(word.value);
      // a form field holding the statement (`--data-urlencode "q=DROP DATABASE metrics"`)
      const eq = word.value.indexOf("=");
      if (eq > 0 && isBareWord(word.value.slice(0, eq))) texts.push(word.value.slice(eq + 1));
    }
  }
  const operands = view.operands.map((o) => o.word.value ?? "");
  operands.forEach((operand, i) => {
    // a lone word is a statement only as a command name (`redis-cli -h x FLUSHALL`), not as the
    // argument of another command (`redis-cli GET flushall`, `redis-cli ECHO FLUSHDB`)
    if (operand.includes(" ") || operand.includes("\n") || i === 0 || !isBareWord(operands[i - 1]!))
      texts.push(operand);
  });
  texts.push(operands.join(" "));
  return texts;
}

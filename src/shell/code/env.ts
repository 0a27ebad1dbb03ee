/**
 * Interpreter code that sends the whole environment to a network peer
 * (`requests.post(url, data=dict(os.environ))`, `fetch(url, {body: JSON.stringify(process.env)})`),
 * read from the code's tokens with the table `ENVIRONMENT_CODE` (tables/network.ts).
 */
import { codeSends } from "./analysis.ts";
import { tokenizeCode, type CodeToken } from "./tokens.ts";
import { urlPeer } from "../url.ts";
import { CODE_HEADER_NAMES, ENVIRONMENT_CODE, type EnvironmentCode } from "../tables/network.ts";
import type { CodeLanguage, NetworkPeer } from "../types.ts";

const DOTS = new Set([".", "::", "->", "?."]);

/** A dotted name (`os.environ.get`) and the token after it. */
interface Chain {
  /** Index of the chain's first token. */
  readonly start: number;
  readonly names: readonly string[];
  readonly next: CodeToken | undefined;
  readonly after: CodeToken | undefined;
}

function chains(tokens: readonly CodeToken[]): Chain[] {
  const out: Chain[] = [];
  let i = 0;
  while (i < tokens.length) {
    if (tokens[i]!.kind !== "name") {
      i++;
      continue;
    }
    const names = [tokens[i]!.text];
    let j = i + 1;
    while (DOTS.has(tokens[j]?.text ?? "") && tokens[j]!.kind === "punct" && tokens[j + 1]?.kind === "name") {
      names.push(tokens[j + 1]!.text);
      j += 2;
    }
    out.push({ start: i, names, next: tokens[j], after: tokens[j + 1] });
    i = j;
  }
  return out;
}

const startsWith = (names: readonly string[], dotted: string): boolean => {
  const want = dotted.split(".");
  return want.length <= names.length && want.every((w, k) => w === names[k]);
};

export type { CodeSend } from "./library.ts";
import type { CodeSend } from "./library.ts";

const OPEN = new Set(["(", "[", "{"]);
const CLOSE = new Set([")", "]", "}"]);

/** A string or name token's text as a key (`"Authorization"`, `headers`), lowercased. */
const keyOf = (t: CodeToken | undefined): string | undefined =>
  t === undefined
    ? undefined
    : t.kind === "name"
      ? t.text.toLowerCase()
      : t.kind === "string"
        ? t.value?.toLowerCase()
        : undefined;

/** A header name (`Authorization`, `X-Api-Key`) or an argument that carries credentials (`headers=`, `auth=`). */
const isHeaderKey = (key: string | undefined): boolean =>
  key !== undefined && (CODE_HEADER_NAMES.includes(key) || key.includes("authorization") || key.startsWith("x-"));

/** True when the token at `at` sits in a header or auth argument, or is the value of a header entry. */
function inHeader(tokens: readonly CodeToken[], at: number): boolean {
  let depth = 0;
  let entryStart = true;
  for (let j = at - 1; j >= 0; j--) {
    const t = tokens[j]!;
    if (t.kind !== "punct") continue;
    if (CLOSE.has(t.text)) depth++;
    else if (OPEN.has(t.text)) {
      if (depth > 0) {
        depth--;
        continue;
      }
      // an enclosing bracket: `headers={...}`, `headers: {...}`, `auth=(...)`
      const before = tokens[j - 1]?.text === "=" || tokens[j - 1]?.text === ":" ? tokens[j - 2] : undefined;
      if (isHeaderKey(keyOf(before))) return true;
      entryStart = true;
    } else if (depth === 0 && entryStart && t.text === ":" && isHeaderKey(keyOf(tokens[j - 1]))) return true;
    else if (depth === 0 && t.text === ",") entryStart = false;
  }
  return false;
}

/** Variables the code reads by name, with the index of the token that reads each. */
function reads(
  tokens: readonly CodeToken[],
  found: readonly Chain[],
  table: EnvironmentCode,
): { name: string; at: number }[] {
  const out: { name: string; at: number }[] = [];
  const literal = (t: CodeToken | undefined): string | undefined =>
    t?.kind === "string" ? t.value : t?.kind === "name" ? t.text : undefined;
  tokens.forEach((t, i) => {
    if (
      t.kind === "var" &&
      table.index.includes(t.text) &&
      (tokens[i + 1]?.text === "[" || tokens[i + 1]?.text === "{")
    ) {
      const name = literal(tokens[i + 2]);
      if (name !== undefined) out.push({ name, at: i });
    }
  });
  for (const c of found) {
    const dotted = c.names.join(".");
    const key = c.after?.kind === "string" ? c.after.value : undefined;
    if (key !== undefined && c.next?.text === "[" && table.index.includes(dotted)) out.push({ name: key, at: c.start });
    else if (key !== undefined && c.next?.text === "(" && table.call.includes(dotted))
      out.push({ name: key, at: c.start });
    else
      for (const m of table.member ?? []) {
        const n = m.split(".").length;
        if (c.names.length === n + 1 && startsWith(c.names, m)) out.push({ name: c.names[n]!, at: c.start });
      }
  }
  return out;
}

/**
 * What `code` sends to network peers: for Python and JavaScript, each request's peers and the
 * variables its data carries (`analysis.ts`); for Perl, Ruby and PHP, the code's URLs when it calls
 * a network API and uses the whole environment or reads variables by name outside headers.
 */
export function environmentSends(code: string, language: CodeLanguage): CodeSend[] {
  if (language === "shell" || language === "powershell" || language === "c") return [];
  if (language === "python" || language === "node") return codeSends(code, language);
  const sent = tokenSend(code, language);
  return sent === undefined ? [] : [sent];
}

function tokenSend(code: string, language: "perl" | "ruby" | "php"): CodeSend | undefined {
  const table = ENVIRONMENT_CODE[language];
  // most code names no environment at all: skip the tokenizer then
  const names = [...table.environment, ...(table.environmentVars ?? []), ...table.index, ...table.call].map((e) =>
    e.slice(e.lastIndexOf(".") + 1),
  );
  if (!names.some((n) => code.includes(n))) return undefined;
  const tokens = tokenizeCode(code, language);
  if (tokens === undefined) return undefined;
  const found = chains(tokens);
  const network =
    found.some((c) => table.network.some((n) => startsWith(c.names, n))) ||
    tokens.some((t) => t.kind === "string" && t.value !== undefined && (table.networkModules ?? []).includes(t.value));
  if (!network) return undefined;
  const environment =
    tokens.some((t) => t.kind === "var" && (table.environmentVars ?? []).includes(t.text)) ||
    found.some((c) =>
      table.environment.some((e) => {
        if (!startsWith(c.names, e)) return false;
        const rest = c.names.slice(e.split(".").length);
        if (rest.length > 0) return table.wholeMethods.includes(rest[0]!);
        // `os.environ["X"]` and `getenv("X")` read one variable; `getenv()` returns them all
        if (c.next?.text === "[") return false;
        if (c.next?.text === "(") return c.after?.text === ")";
        return true;
      }),
    );
  const sent = [
    ...new Set(
      reads(tokens, found, table)
        .filter((r) => !inHeader(tokens, r.at))
        .map((r) => r.name),
    ),
  ];
  if (!environment && sent.length === 0) return undefined;
  const peers = tokens
    .filter((t) => t.kind === "string" && t.value !== undefined && t.value.includes("://"))
    .map((t) => urlPeer(t.value!));
  return { peers, environment, names: sent };
}

/**
 * Interpreter code that sends the whole environment to a network peer
 * (`requests.post(url, data=dict(os.environ))`, `fetch(url, {body: JSON.stringify(process.env)})`),
 * read from the code's tokens with the table `ENVIRONMENT_CODE` (tables/network.ts).
 */
import { tokenizeCode, type CodeToken } from "./_code-tokens.ts";
import { urlPeer } from "./_url.ts";
import { ENVIRONMENT_CODE } from "./tables/network.ts";
import type { CodeLanguage, NetworkPeer } from "./types.ts";

const DOTS = new Set([".", "::", "->", "?."]);

/** A dotted name (`os.environ.get`) and the token after it. */
interface Chain {
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
    out.push({ names, next: tokens[j], after: tokens[j + 1] });
    i = j;
  }
  return out;
}

const startsWith = (names: readonly string[], dotted: string): boolean => {
  const want = dotted.split(".");
  return want.length <= names.length && want.every((w, k) => w === names[k]);
};

/**
 * The peers (URL string literals; empty when none is written) when `code` uses the whole
 * environment and calls a network API; `undefined` otherwise.
 */
export function environmentSend(code: string, language: CodeLanguage): NetworkPeer[] | undefined {
  if (language === "shell" || language === "powershell" || language === "c") return undefined;
  const table = ENVIRONMENT_CODE[language];
  // most code names no environment at all: skip the tokenizer then
  const names = [...table.environment, ...(table.environmentVars ?? [])].map((e) => e.slice(e.lastIndexOf(".") + 1));
  if (!names.some((n) => code.includes(n))) return undefined;
  const tokens = tokenizeCode(code, language);
  if (tokens === undefined) return undefined;
  const found = chains(tokens);
  const network = found.some((c) => table.network.some((n) => startsWith(c.names, n)));
  if (!network) return undefined;
  const whole =
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
  if (!whole) return undefined;
  return tokens
    .filter((t) => t.kind === "string" && t.value !== undefined && t.value.includes("://"))
    .map((t) => urlPeer(t.value!));
}

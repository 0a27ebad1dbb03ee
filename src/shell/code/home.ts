/**
 * The home directory as interpreter code spells it (`os.path.expanduser("~")`, `Path.home()`,
 * `os.homedir()`, `process.env.HOME`, `$ENV{HOME}`, `Dir.home`, `ENV["HOME"]`, inside string
 * interpolation too), the working directory (`os.getcwd()`, `process.cwd()`, `Dir.pwd`: `.`), path joins of static parts (`os.path.join`, `path.join`, `File.join`,
 * pathlib's `/`) and glob calls (`glob("~/.ssh/*")` stands for its pattern): rewritten into string
 * tokens whose value starts with `~`, which the policy resolves like the shell's `~`. Used by
 * `calls.ts` on the arguments of file API calls.
 */
import { tokenizeCode, type CodeToken, type CodeTokenLanguage } from "./tokens.ts";

/**
 * A token pattern: exact token texts; `$S` any static string (its value is the result when the
 * row has no `value`), `$HOME` the string `HOME`, `$OS` the string `os` or `node:os`.
 */
interface HomeForm {
  readonly tokens: readonly string[];
  /** The value, when not the captured string. */
  readonly value?: string;
}

// prettier-ignore
const FORMS: readonly HomeForm[] = [
  // python
  { tokens: ["os", ".", "path", ".", "expanduser", "(", "$S", ")"] },
  { tokens: ["pathlib", ".", "Path", ".", "home", "(", ")"], value: "~" },
  { tokens: ["Path", ".", "home", "(", ")"], value: "~" },
  { tokens: ["pathlib", ".", "Path", "(", "$S", ")", ".", "expanduser", "(", ")"] },
  { tokens: ["Path", "(", "$S", ")", ".", "expanduser", "(", ")"] },
  { tokens: ["os", ".", "environ", "[", "$HOME", "]"], value: "~" },
  { tokens: ["os", ".", "environ", ".", "get", "(", "$HOME", ")"], value: "~" },
  { tokens: ["os", ".", "getenv", "(", "$HOME", ")"], value: "~" },
  // node, deno, bun
  { tokens: ["require", "(", "$OS", ")", ".", "homedir", "(", ")"], value: "~" },
  { tokens: ["os", ".", "homedir", "(", ")"], value: "~" },
  { tokens: ["process", ".", "env", ".", "HOME"], value: "~" },
  { tokens: ["process", ".", "env", "[", "$HOME", "]"], value: "~" },
  { tokens: ["Deno", ".", "env", ".", "get", "(", "$HOME", ")"], value: "~" },
  { tokens: ["Bun", ".", "env", ".", "HOME"], value: "~" },
  // perl
  { tokens: ["$ENV", "{", "HOME", "}"], value: "~" },
  { tokens: ["$ENV", "{", "$HOME", "}"], value: "~" },
  // ruby
  { tokens: ["Dir", ".", "home", "(", ")"], value: "~" },
  { tokens: ["Dir", ".", "home"], value: "~" },
  { tokens: ["ENV", "[", "$HOME", "]"], value: "~" },
  { tokens: ["ENV", ".", "fetch", "(", "$HOME", ")"], value: "~" },
  { tokens: ["File", ".", "expand_path", "(", "$S", ")"] },
  // the working directory (`shutil.rmtree(os.getcwd())`), and absolute forms of a static path
  { tokens: ["os", ".", "getcwd", "(", ")"], value: "." },
  { tokens: ["pathlib", ".", "Path", ".", "cwd", "(", ")"], value: "." },
  { tokens: ["Path", ".", "cwd", "(", ")"], value: "." },
  { tokens: ["process", ".", "cwd", "(", ")"], value: "." },
  { tokens: ["Deno", ".", "cwd", "(", ")"], value: "." },
  { tokens: ["Dir", ".", "pwd", "(", ")"], value: "." },
  { tokens: ["Dir", ".", "pwd"], value: "." },
  { tokens: ["Dir", ".", "getwd"], value: "." },
  { tokens: ["FileUtils", ".", "pwd"], value: "." },
  { tokens: ["Cwd", "::", "getcwd", "(", ")"], value: "." },
  { tokens: ["Cwd", "::", "cwd", "(", ")"], value: "." },
  { tokens: ["getcwd", "(", ")"], value: "." },
  { tokens: ["cwd", "(", ")"], value: "." },
  { tokens: ["os", ".", "path", ".", "abspath", "(", "$S", ")"] },
  { tokens: ["os", ".", "path", ".", "realpath", "(", "$S", ")"] },
  { tokens: ["realpath", "(", "$S", ")"] },
  // glob expansions stand for the pattern they expand (`unlink glob("~/.ssh/*")`)
  { tokens: ["glob", "(", "$S", ")"] },
  { tokens: ["glob", ".", "glob", "(", "$S", ")"] },
  { tokens: ["Dir", ".", "glob", "(", "$S", ")"] },
  { tokens: ["Dir", "[", "$S", "]"] },
  // php
  { tokens: ["getenv", "(", "$HOME", ")"], value: "~" },
  { tokens: ["$_SERVER", "[", "$HOME", "]"], value: "~" },
  { tokens: ["$_ENV", "[", "$HOME", "]"], value: "~" },
];

/** Calls that join their static string arguments into one path (`$PATH`: the string `path` or `node:path`). */
// prettier-ignore
const JOINS: readonly (readonly string[])[] = [
  ["os", ".", "path", ".", "join"],
  ["posixpath", ".", "join"],
  ["pathlib", ".", "Path"],
  ["Path"],
  ["path", ".", "join"],
  ["path", ".", "resolve"],
  ["require", "(", "$PATH", ")", ".", "join"],
  ["require", "(", "$PATH", ")", ".", "resolve"],
  ["File", ".", "join"],
  ["Pathname", ".", "new"],
];

const isString = (t: CodeToken | undefined): boolean => t !== undefined && t.kind === "string" && t.value !== undefined;

function stringToken(value: string, from: CodeToken, to: CodeToken): CodeToken {
  return { kind: "string", text: `"${value}"`, value, pos: from.pos, end: to.end };
}

/** Matches `form` at `i`: the value it stands for, and how many tokens it spans. */
function matchForm(tokens: readonly CodeToken[], i: number, form: HomeForm): string | undefined {
  let captured: string | undefined;
  for (let k = 0; k < form.tokens.length; k++) {
    const want = form.tokens[k] as string;
    const t = tokens[i + k];
    if (t === undefined) return undefined;
    if (want === "$S") {
      if (!isString(t)) return undefined;
      captured = t.value;
    } else if (want === "$HOME") {
      if (t.kind !== "string" || t.value !== "HOME") return undefined;
    } else if (want === "$OS") {
      if (t.kind !== "string" || (t.value !== "os" && t.value !== "node:os")) return undefined;
    } else if (t.text !== want || t.kind === "string") return undefined;
  }
  return form.value ?? captured;
}

/** Joins path parts as the path APIs do: an absolute part starts over. */
function joinParts(parts: readonly string[]): string {
  let out = "";
  for (const part of parts) {
    if (part.startsWith("/") || part.startsWith("~") || out === "") out = part;
    else out = out.endsWith("/") ? `${out}${part}` : `${out}/${part}`;
  }
  return out;
}

/** The body of a double-quoted, backtick or f-string literal with home holes replaced, when nothing dynamic is left. */
function interpolated(t: CodeToken, language: CodeTokenLanguage): string | undefined {
  let text = t.text;
  let fString = false;
  if (language === "python") {
    const quote = [...text].findIndex((c) => c === '"' || c === "'");
    if (quote < 0 || quote > 2 || !text.slice(0, quote).toLowerCase().includes("f")) return undefined;
    if (text.slice(0, quote).toLowerCase().includes("r")) return undefined;
    fString = true;
    text = text.slice(quote);
  }
  const open = text[0];
  if (open !== '"' && open !== "`" && !(fString && open === "'")) return undefined;
  if (text.length < 2 || text.at(-1) !== open || text.startsWith(open.repeat(3))) return undefined;
  let body = text.slice(1, -1);
  if (body.includes("\\")) return undefined;
  for (const spelling of ["$ENV{HOME}", "$ENV{'HOME'}", '$ENV{"HOME"}']) body = body.split(spelling).join("~");
  // holes: `${...}` (js, php), `#{...}` (ruby), `{...}` (python f-strings)
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    const hole = c === "{" && fString ? 1 : (c === "$" || c === "#") && body[i + 1] === "{" ? 2 : 0;
    if (hole === 0) {
      out += c;
      continue;
    }
    const close = body.indexOf("}", i + hole);
    if (close < 0) return undefined;
    const inner = tokenizeCode(body.slice(i + hole, close), language);
    if (inner === undefined) return undefined;
    const resolved = withHome(inner, language);
    if (resolved.length !== 1 || !isString(resolved[0])) return undefined;
    out += resolved[0]?.value as string;
    i = close;
  }
  const dynamic = ["$", "@", "#{", "{"].some((s) => (s === "{" ? fString : true) && out.includes(s));
  return dynamic ? undefined : out;
}

/**
 * `tokens` (one call argument) with home-directory expressions and static path joins rewritten
 * into string tokens; tokens lexed inside an interpolated string that resolves are dropped.
 */
export function withHome(tokens: readonly CodeToken[], language: CodeTokenLanguage): CodeToken[] {
  // interpolated strings first: their holes were lexed as tokens before them
  let out: CodeToken[] = [];
  for (const t of tokens) {
    if (t.kind === "string" && t.value === undefined) {
      const value = interpolated(t, language);
      if (value !== undefined) {
        while (out.length > 0 && (out.at(-1) as CodeToken).pos >= t.pos) out.pop();
        out.push({ ...t, value });
        continue;
      }
    }
    out.push(t);
  }
  // home forms
  let changed = true;
  for (let round = 0; changed && round < 8; round++) {
    changed = false;
    const next: CodeToken[] = [];
    for (let i = 0; i < out.length; i++) {
      const hit = FORMS.map((f) => ({ f, v: matchForm(out, i, f) })).find((h) => h.v !== undefined);
      if (hit !== undefined) {
        const end = out[i + hit.f.tokens.length - 1] as CodeToken;
        next.push(stringToken(hit.v as string, out[i] as CodeToken, end));
        i += hit.f.tokens.length - 1;
        changed = true;
        continue;
      }
      const joined = joinAt(out, i);
      if (joined !== undefined) {
        next.push(stringToken(joined.value, out[i] as CodeToken, out[joined.last] as CodeToken));
        i = joined.last;
        changed = true;
        continue;
      }
      // pathlib's `/` and string `+`/`.` between static parts
      const prev = next.at(-1);
      const op = out[i];
      const right = out[i + 1];
      if (
        prev !== undefined &&
        isString(prev) &&
        op?.kind === "punct" &&
        op.text === "/" &&
        language === "python" &&
        isString(right)
      ) {
        next[next.length - 1] = stringToken(
          joinParts([prev.value as string, right?.value as string]),
          prev,
          right as CodeToken,
        );
        i += 1;
        changed = true;
        continue;
      }
      next.push(out[i] as CodeToken);
    }
    out = next;
  }
  return out;
}

/** A join call of static strings at `i` (`os.path.join("~", ".ssh")`): its value and last token. */
function joinAt(tokens: readonly CodeToken[], i: number): { value: string; last: number } | undefined {
  for (const name of JOINS) {
    const fits = (text: string, t: CodeToken | undefined): boolean =>
      text === "$PATH"
        ? t?.kind === "string" && (t.value === "path" || t.value === "node:path")
        : t?.text === text && t.kind !== "string";
    if (!name.every((text, k) => fits(text, tokens[i + k]))) continue;
    let k = i + name.length;
    if (tokens[k]?.text !== "(") continue;
    const parts: string[] = [];
    k++;
    for (;;) {
      const t = tokens[k];
      if (!isString(t)) return undefined;
      parts.push(t?.value as string);
      const sep = tokens[k + 1];
      if (sep?.text === ")") return parts.length === 0 ? undefined : { value: joinParts(parts), last: k + 1 };
      if (sep?.text !== ",") return undefined;
      k += 2;
    }
  }
  return undefined;
}

/**
 * Redacting secrets from text that is about to be stored (the audit log): commands, paths and
 * reasons. Not a decision, but the logged command should still reproduce it (`lanes log` offers
 * to `lanes check` it again): only values that are secrets by name or by shape are cut, and
 * ordinary shell text (`x="a b"`, `FOO=bar make`, `let s=""`, `$(...)`) stays as it was. Kept in
 * src/shell/ because it looks at shell text, and free of the shell analysis so that the hot hook
 * bundles can use it without loading unbash.
 *
 * | what                                                      | becomes                         |
 * |-----------------------------------------------------------|---------------------------------|
 * | `NAME=value`, NAME secret by name (a part `TOKEN`, `SECRET`, `PASSWORD`, `PASS`, `KEY`, `AUTH`, `CREDENTIALS`, ...) | `NAME=[REDACTED]` |
 * | `"password": "x"` (a JSON key secret by name)              | `"password": "[REDACTED]"`      |
 * | `Authorization: Bearer x`, `-u user:pw`                    | `Authorization: Bearer [REDACTED]`, `-u [REDACTED]` |
 * | `X-Api-Key: x` (a header or field secret by name)          | `X-Api-Key: [REDACTED]`         |
 * | `Bearer x`                                                 | `Bearer [REDACTED]`             |
 * | `--password=x`, `--token x`, ...                           | `--password=[REDACTED]`         |
 * | `mysql -px`, `sshpass -p x`, `redis-cli -a x`, `gh secret set N --body x` | `mysql -p[REDACTED]`, ... |
 * | `https://user:pw@host`                                     | `https://[REDACTED]@host`       |
 * | a word of a known key shape (OpenAI/Anthropic `sk-`, GitHub `ghp_`/`github_pat_`, AWS `AKIA`, Slack `xox?-`, Google `AIza`, GitLab `glpat-`, npm `npm_`, JWTs) | `[REDACTED]` |
 * | a long high-entropy word that is not encoded text          | `[REDACTED]`                    |
 * | PEM private keys                                           | `[REDACTED PRIVATE KEY]`        |
 *
 * A value written as a variable or a substitution (`TOKEN=$(cat f)`, `TOKEN="$T"`) holds no
 * secret in the text and is kept.
 */

export const REDACTED = "[REDACTED]";

/**
 * One redaction: `pattern` replaced by `replacement`, tried only when `hint` holds. A hint is a
 * condition the pattern cannot match without (a literal it needs, lowercased for the
 * case-insensitive patterns): most logged commands hold no secret, and skipping a pattern skips
 * compiling it, which was most of what writing an audit entry cost a hook.
 */
export interface Redaction {
  readonly pattern: RegExp;
  readonly replacement: string | ((...groups: string[]) => string);
  readonly hint: (text: string, lower: () => string) => boolean;
}

const anyOf = (text: string, literals: readonly string[]): boolean => literals.some((l) => text.includes(l));

/** The parts of a name (`GITHUB_TOKEN`, `apiKey`, `db-password`), lowercased. */
function nameParts(name: string): string[] {
  const parts: string[] = [];
  let part = "";
  for (let i = 0; i < name.length; i++) {
    const ch = name[i]!;
    if (ch === "_" || ch === "-" || ch === ".") {
      if (part !== "") parts.push(part);
      part = "";
      continue;
    }
    // camelCase: a capital after a small letter starts a part
    if (ch >= "A" && ch <= "Z" && i > 0 && name[i - 1]! >= "a" && name[i - 1]! <= "z" && part !== "") {
      parts.push(part);
      part = "";
    }
    part += ch.toLowerCase();
  }
  if (part !== "") parts.push(part);
  return parts;
}

/** Parts of a name that make its value a secret (`MONKEY`, `AUTHOR`, `BYPASS`, `TOKENIZER` are none of them). */
const SECRET_PARTS = new Set([
  "token",
  "tokens",
  "secret",
  "secrets",
  "password",
  "passwd",
  "pass",
  "passphrase",
  "pw",
  "key",
  "keys",
  "apikey",
  "auth",
  "credential",
  "credentials",
  "creds",
  "cookie",
  "pat",
  "private",
  "signature",
]);

/** Whether a variable, option or field name says that its value is a secret. */
export function isSecretName(name: string): boolean {
  return nameParts(name).some((p) => SECRET_PARTS.has(p));
}

/** A value written as a variable or substitution (`$T`, `"$(cat f)"`): the text holds no secret. */
const isIndirect = (value: string): boolean => /^["']?\$/.test(value) && !value.startsWith("'");

const KEY_SHAPE =
  /\b(?:sk-(?:ant-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,}|glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{30,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g;

/** The length from which a word of mixed letters and digits may be a random secret. */
export const ENTROPY_MIN_LENGTH = 32;

/** Bits per character of `text` (Shannon entropy of its characters). */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
  return bits;
}

/** Base64 (or base64url) of printable text: `echo Z2l0...ZA== | base64 -d` is code, not a secret. */
function encodesText(word: string): boolean {
  const bytes = Buffer.from(word.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (bytes.length < (word.length * 3) / 4 - 3) return false;
  let printable = 0;
  for (const b of bytes) if ((b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x09) printable++;
  return printable >= bytes.length * 0.95;
}

/**
 * A random-looking word: long, capitals, small letters and digits mixed, a high entropy, and not
 * encoded text. Git hashes and UUIDs (no capitals) and identifiers (low entropy) are kept; paths
 * are judged by their parts ({@link redactWord}).
 */
export function isHighEntropy(word: string): boolean {
  const core = word.replace(/=+$/, "");
  if (core.length < ENTROPY_MIN_LENGTH) return false;
  let upper = 0;
  let lower = 0;
  let digit = 0;
  for (const ch of core) {
    if (ch >= "A" && ch <= "Z") upper++;
    else if (ch >= "a" && ch <= "z") lower++;
    else if (ch >= "0" && ch <= "9") digit++;
  }
  if (upper === 0 || lower === 0 || digit < 2) return false;
  return entropy(core) >= 4.4 && !encodesText(core);
}

/**
 * A path is judged by its parts: a whole path holds many different characters (its entropy passed
 * the bound for one in nine temporary directories, `/tmp/lanes-hooks-f9JP0R/project/.claude/lanes.yaml`),
 * while a token inside one (`/api/tokens/<token>`) is a part of its own. A word is a path when it
 * starts like one (`/`, `~/`, `./`, `../`) or holds a `/` and a `.` (base64 has no dot).
 */
function redactWord(word: string): string {
  const path =
    word.includes("/") &&
    (word.startsWith("/") ||
      word.startsWith("~/") ||
      word.startsWith("./") ||
      word.startsWith("../") ||
      word.includes("."));
  if (!path) return isHighEntropy(word) ? REDACTED : word;
  return word
    .split("/")
    .map((part) => (isHighEntropy(part) ? REDACTED : part))
    .join("/");
}

/** A word of the text for the shape checks: what lies between blanks, quotes, operators and separators. */
const WORD = /[A-Za-z0-9+/_.~-]{16,}={0,2}/g;

export const REDACTIONS: readonly Redaction[] = [
  {
    pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    replacement: "[REDACTED PRIVATE KEY]",
    hint: (text) => text.includes("-----BEGIN "),
  },
  {
    pattern: /\b((?:proxy-)?authorization)(\s*[:=]\s*)(?:(bearer|basic|token|digest|negotiate)\s+)?[^\s"',;]+/gi,
    replacement: (_m, name: string, sep: string, scheme: string | undefined) =>
      `${name}${sep}${scheme === undefined ? "" : `${scheme} `}${REDACTED}`,
    hint: (_text, lower) => lower().includes("authorization"),
  },
  {
    pattern: /\b(bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
    replacement: (_m, scheme: string) => `${scheme} ${REDACTED}`,
    hint: (_text, lower) => lower().includes("bearer"),
  },
  {
    pattern:
      /((?:^|\s)--?(?:password|passwd|pass|token|secret|api[-_]?key|access[-_]?key|client[-_]?secret|auth)(?:=|\s+))("[^"]*"|'[^']*'|\S+)/gi,
    replacement: (m: string, flag: string, value: string) => (isIndirect(value) ? m : `${flag}${REDACTED}`),
    hint: (text, lower) => text.includes("-") && anyOf(lower(), ["pass", "token", "secret", "key", "auth"]),
  },
  {
    // a password given by a client's short option: attached to `-p` for the MySQL family
    // (`mysql -phunter2`; `-p` alone prompts), the word after `-p` for sshpass and `-a` for redis-cli
    pattern:
      /(\b(?:mysql(?:dump|admin|import|show|check|slap|binlog)?|mariadb(?:-dump|-admin|-import|-show|-check)?)\b[^|;&\n]*?\s-p)("[^"]*"|'[^']*'|[^\s"']+)|(\b(?:sshpass\b[^|;&\n]*?\s-p|redis-cli\b[^|;&\n]*?\s-a)\s*)("[^"]*"|'[^']*'|\S+)/g,
    replacement: (
      m: string,
      mysql: string | undefined,
      a: string | undefined,
      other: string | undefined,
      b: string | undefined,
    ) => {
      const [flag, value] = mysql !== undefined ? [mysql, a as string] : [other as string, b as string];
      return isIndirect(value) ? m : `${flag}${REDACTED}`;
    },
    hint: (text) => anyOf(text, ["mysql", "mariadb", "sshpass", "redis-cli"]),
  },
  {
    // a secret's value given to the CLI that stores it (`gh secret set NAME --body VALUE`)
    pattern: /(\bsecret\s+set\b[^|;&\n]*?\s(?:--body|-b)(?:=|\s+))("[^"]*"|'[^']*'|\S+)/g,
    replacement: (m: string, flag: string, value: string) => (isIndirect(value) ? m : `${flag}${REDACTED}`),
    hint: (text) => text.includes("secret"),
  },
  {
    pattern: /((?:^|\s)(?:-u|--user)\s+)([^\s:]+:\S+)/g,
    replacement: (_m, flag: string) => `${flag}${REDACTED}`,
    hint: (text) => text.includes("-u") && text.includes(":"),
  },
  {
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi,
    replacement: (_m, scheme: string) => `${scheme}${REDACTED}@`,
    hint: (text) => text.includes("://") && text.includes("@"),
  },
  {
    // an assignment (`export`, `env`, `declare` and query strings too) whose name says it holds a secret;
    // not `==`: base64 padding (`echo Z2l0...ZA== | base64 -d`) is not an assignment
    pattern: /(^|[^A-Za-z0-9_$-])([A-Za-z_][A-Za-z0-9_]*=)(?!=)("[^"]*"|'[^']*'|[^\s;&|)`'"]+)/g,
    replacement: (m: string, before: string, head: string, value: string) =>
      isSecretName(head.slice(0, -1)) && !isIndirect(value) ? `${before}${head}${REDACTED}` : m,
    hint: (text) => text.includes("="),
  },
  {
    // a header or `name: value` field whose name says it holds a secret (`-H "X-Api-Key: abc"`)
    pattern: /(^|[\s"'{,])([A-Za-z][A-Za-z0-9_-]*)(:[ \t]*)([^\s"',;}]+)/g,
    replacement: (m: string, before: string, name: string, sep: string, value: string) =>
      isSecretName(name) && !value.startsWith("$") && !value.startsWith("//") && value !== REDACTED
        ? `${before}${name}${sep}${REDACTED}`
        : m,
    hint: (text) => text.includes(":"),
  },
  {
    // a JSON field whose name says it holds a secret (`-d '{"password":"x"}'`), its quotes escaped or not
    pattern: /(\\?"([A-Za-z_][A-Za-z0-9_-]*)\\?"\s*:\s*\\?")((?:[^"\\]|\\[^"])*)(\\?")/g,
    replacement: (m: string, head: string, name: string, value: string, close: string) =>
      isSecretName(name) && value !== "" && !value.startsWith("$") ? `${head}${REDACTED}${close}` : m,
    hint: (text) => text.includes(":") && text.includes('"'),
  },
  {
    pattern: KEY_SHAPE,
    replacement: REDACTED,
    hint: (text) => anyOf(text, ["sk-", "gh", "AKIA", "ASIA", "xox", "AIza", "glpat-", "npm_", "eyJ"]),
  },
  {
    pattern: WORD,
    replacement: (word: string) => (word.includes(REDACTED) ? word : redactWord(word)),
    hint: (text) => text.length >= ENTROPY_MIN_LENGTH,
  },
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const { pattern, replacement, hint } of REDACTIONS) {
    let lowered: string | undefined;
    if (hint(out, () => (lowered ??= out.toLowerCase()))) out = out.replace(pattern, replacement as never);
  }
  return out;
}

/**
 * Redacting secrets from text that is about to be stored (the audit log): commands, paths and
 * reasons. Not a decision: over-redacting is fine, missing a secret is not. Kept in src/shell/
 * because it pattern-matches shell text, and free of the shell analysis so that the hot hook
 * bundles can use it without loading unbash.
 *
 * | what                                   | becomes                         |
 * |----------------------------------------|---------------------------------|
 * | `NAME=value` (env assignments, exports) | `NAME=[REDACTED]`               |
 * | `Authorization: Bearer x`, `-u user:pw` | `Authorization: [REDACTED]`, `-u [REDACTED]` |
 * | `Bearer x`, `token x` after a header    | `Bearer [REDACTED]`             |
 * | `--password=x`, `--token x`, ...        | `--password=[REDACTED]`         |
 * | `https://user:pw@host`                  | `https://[REDACTED]@host`       |
 * | known key shapes (OpenAI/Anthropic `sk-`, GitHub `ghp_`/`github_pat_`, AWS `AKIA`, Slack `xox?-`, Google `AIza`, GitLab `glpat-`, npm `npm_`, JWTs) | `[REDACTED]` |
 * | PEM private keys                         | `[REDACTED PRIVATE KEY]`        |
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
    replacement: (_m, flag: string) => `${flag}${REDACTED}`,
    hint: (text, lower) => text.includes("-") && anyOf(lower(), ["pass", "token", "secret", "key", "auth"]),
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
    pattern:
      /\b(?:sk-(?:ant-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,}|glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{30,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g,
    replacement: REDACTED,
    hint: (text) => anyOf(text, ["sk-", "gh", "AKIA", "ASIA", "xox", "AIza", "glpat-", "npm_", "eyJ"]),
  },
  {
    // not `==`: base64 padding (`echo Z2l0...ZA== | base64 -d`) is not an assignment
    pattern: /((?:^|[\s;&|(`])(?:export\s+|env\s+)?[A-Za-z_][A-Za-z0-9_]*=)(?!=)("[^"]*"|'[^']*'|[^\s;&|)`]+)/g,
    replacement: (_m, head: string) => `${head}${REDACTED}`,
    hint: (text) => text.includes("="),
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

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

const RULES: readonly (readonly [RegExp, string | ((...groups: string[]) => string)])[] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, "[REDACTED PRIVATE KEY]"],
  [
    /\b((?:proxy-)?authorization)(\s*[:=]\s*)(?:(bearer|basic|token|digest|negotiate)\s+)?[^\s"',;]+/gi,
    (_m, name: string, sep: string, scheme: string | undefined) =>
      `${name}${sep}${scheme === undefined ? "" : `${scheme} `}${REDACTED}`,
  ],
  [/\b(bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi, (_m, scheme: string) => `${scheme} ${REDACTED}`],
  [
    /((?:^|\s)--?(?:password|passwd|pass|token|secret|api[-_]?key|access[-_]?key|client[-_]?secret|auth)(?:=|\s+))("[^"]*"|'[^']*'|\S+)/gi,
    (_m, flag: string) => `${flag}${REDACTED}`,
  ],
  [/((?:^|\s)(?:-u|--user)\s+)([^\s:]+:\S+)/g, (_m, flag: string) => `${flag}${REDACTED}`],
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, (_m, scheme: string) => `${scheme}${REDACTED}@`],
  [
    /\b(?:sk-(?:ant-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,}|glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{30,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g,
    REDACTED,
  ],
  [
    // not `==`: base64 padding (`echo Z2l0...ZA== | base64 -d`) is not an assignment
    /((?:^|[\s;&|(`])(?:export\s+|env\s+)?[A-Za-z_][A-Za-z0-9_]*=)(?!=)("[^"]*"|'[^']*'|[^\s;&|)`]+)/g,
    (_m, head: string) => `${head}${REDACTED}`,
  ],
];

/** `text` with every secret-looking part replaced by `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement as never);
  return out;
}

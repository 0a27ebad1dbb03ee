/**
 * `*` matches any run of characters (spaces included), every other character matches itself.
 * Used for Claude Code `Bash(...)` rule contents, option values and tool-name patterns, all of
 * which are compared with text the shell analysis already produced.
 */
export function wildcard(pattern: string, text: string): boolean {
  const parts = pattern.split("*");
  if (parts.length === 1) return pattern === text;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!text.startsWith(first) || text.length < first.length + last.length || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = text.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/**
 * Long commands for `npm run bench`, written the way agents send them: multi-line scripts with
 * loops, conditionals, pipes, command substitutions and heredocs. None of them draws an objection
 * from the default policy (they read, build, test and write under the project or the temp dir).
 */

/**
 * Complete statements an agent's compound command is made of, each one or more lines, cycled by
 * {@link longCommand}. Every entry parses on its own.
 */
const STATEMENTS: readonly string[] = [
  "git status --short && git diff --stat HEAD | tail -5",
  "ls -la src | head -20",
  [
    'for f in $(git diff --name-only HEAD -- "src/*.ts"); do',
    '  if [ -f "$f" ]; then',
    '    echo "== $f"',
    '    grep -n "TODO\\|FIXME" "$f" | head -20 || true',
    '    wc -l "$f"',
    "  fi",
    "done",
  ].join("\n"),
  "find src -name '*.test.ts' -newer package.json -print0 | xargs -0 -n 20 npx vitest run --reporter=dot 2>&1 | tail -40",
  'npx tsc --noEmit 2>&1 | grep -E "error TS[0-9]+" | sort | uniq -c | sort -rn | head -15',
  [
    "while IFS= read -r line; do",
    "  hash=${line%% *}",
    "  msg=${line#* }",
    '  printf "%s\\t%s\\n" "$hash" "$msg"',
    "done < <(git log --oneline -20)",
  ].join("\n"),
  'count=$(grep -rl "import .* from" src | wc -l); echo "modules: $count"',
  [
    'case "$(uname -s)" in',
    '  Linux) echo "linux build" ;;',
    '  Darwin) echo "mac build" ;;',
    '  *) echo "other" ;;',
    "esac",
  ].join("\n"),
  "mkdir -p /tmp/lanes-bench-out && cp -r src/server /tmp/lanes-bench-out/ && du -sh /tmp/lanes-bench-out",
  "npm run build --silent 2>&1 | tail -20 && echo build ok || echo build failed",
  ["cat > /tmp/lanes-bench-notes.md <<'EOF'", "# notes", "- checked the server sources", "- ran the tests", "EOF"].join(
    "\n",
  ),
  'jq -r ".scripts | keys[]" package.json | while read -r s; do echo "script: $s"; done',
  "test -d node_modules || npm ci --no-audit --no-fund",
  'sed -n "1,40p" README.md | grep -c "^#"',
  "awk -F: '{ n += $2 } END { print n }' <(grep -c \"\" src/server/*.ts 2>/dev/null || true)",
  [
    "if git rev-parse --verify -q HEAD >/dev/null; then",
    '  base=$(git merge-base HEAD "origin/main" 2>/dev/null || git rev-parse HEAD)',
    '  git log --format="%h %an %s" "$base"..HEAD | head -10',
    "else",
    '  echo "no commits yet"',
    "fi",
  ].join("\n"),
];

/**
 * A compound command of about `bytes` bytes (never more, but at least one statement), statements
 * joined by newlines, starting at statement `offset` of the pool (another offset, another command).
 */
export function longCommand(bytes: number, offset = 0): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = offset; ; i++) {
    const next = STATEMENTS[i % STATEMENTS.length]!;
    const grown = size + next.length + (parts.length > 0 ? 1 : 0);
    if (parts.length > 0 && grown > bytes) {
      // fill with short statements when the next long one does not fit
      const short = `echo ${"x".repeat(Math.max(0, Math.min(60, bytes - size - 7)))}`;
      if (bytes - size > 12) {
        parts.push(short);
        size += short.length + 1;
        continue;
      }
      break;
    }
    parts.push(next);
    size = grown;
  }
  return parts.join("\n");
}

/** A shell script of about `bytes` bytes handed to `bash` through a heredoc: `cat <<'EOF' | bash`. */
export function heredocToBash(bytes: number, offset = 0): string {
  const head = "cat <<'SCRIPT' | bash\nset -euo pipefail\n";
  const tail = "\nSCRIPT";
  return `${head}${longCommand(bytes - head.length - tail.length, offset)}${tail}`;
}

/** How many different commands {@link longCommand} makes of one length. */
export const COMMAND_VARIANTS = STATEMENTS.length;

/**
 * Fork bombs and unbounded spawn loops in interpreter code (`perl -e 'fork while fork'`,
 * `python -c 'while True: os.fork()'`, `ruby -e 'loop { fork }'`). The text is interpreter
 * source the shell analysis already extracted, never shell text. A heuristic on purpose: code
 * that both starts processes and loops without a bound is what it looks for; a bounded loop
 * (`for i in range(4)`) or a single fork does not count.
 */

/**
 * Calls that start a process without waiting for it, by language family. Calls that wait
 * (`subprocess.run`, `execSync`, `system()`) run one process at a time: a loop of them is a
 * watcher, not a bomb.
 */
const SPAWNS = [
  /\bfork\s*(?:\(|\b)/,
  /\bos\.fork\b/,
  /\bsubprocess\.Popen\b/,
  /\bmultiprocessing\.Process\b/,
  /\bProcess\s*\(/,
  /\bPopen\s*\(/,
  /\bos\.(?:spawn\w*|posix_spawn\w*|popen)\b/,
  /\b(?:spawn|exec|fork)\s*\(/,
  /\bpcntl_fork\b/,
  /\bProcess\.spawn\b/,
  /\bStart-Process\b/i,
];

/** Loops without a bound. */
const UNBOUNDED = [
  /\bwhile\s*\(?\s*(?:True|true|1|!0|:)\s*\)?/,
  /\bwhile\s*\(\s*\$true\s*\)/i,
  /\bfor\s*\(\s*;\s*;\s*\)/,
  /\bloop\s*(?:\{|do\b)/,
  /\bwhile\s+fork\b/,
  /\bfork\s+while\b/,
  /\buntil\s+(?:false|0)\b/,
  /\biter\s*\(\s*int\s*,\s*1\s*\)/,
  /\bitertools\.count\s*\(/,
  /\bsetInterval\s*\(/,
  /\bforever\b/,
  /\brepeat\s*\{/,
];

/** True when `code` starts processes inside a loop with no bound. */
export function spawnsWithoutBound(code: string): boolean {
  return SPAWNS.some((r) => r.test(code)) && UNBOUNDED.some((r) => r.test(code));
}

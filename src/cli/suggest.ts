/** "Did you mean" for names a user types: the nearest known name within a small edit distance. */

/** Levenshtein distance, case-insensitive. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    row = next;
  }
  return row[y.length]!;
}

/** The known name nearest to `name` (at most 2 edits, or a third of its length), if any. */
export function nearest(name: string, known: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.min(2, Math.floor(name.length / 3)));
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(name, k);
    if (d <= limit && (best === undefined || d < best.d)) best = { name: k, d };
  }
  return best?.name;
}

/** ` (did you mean \`x\`?)` or nothing. */
export const didYouMean = (name: string, known: Iterable<string>): string => {
  const near = nearest(name, known);
  return near === undefined ? "" : `: did you mean \`${near}\`?`;
};

/**
 * Parsed files, cached by content within the process: a file read twice in one call (a Makefile
 * that recurses into itself, a package.json whose scripts run each other) or in the calls of one
 * `lanes check` or test run is parsed once. The key is the file's text (the map hashes it), with
 * the format; the cache holds at most `MAX_ENTRIES` files and starts over when full.
 */

const MAX_ENTRIES = 64;

const CACHE = new Map<string, unknown>();

/** `parse(text)`, remembered for this format and text. */
export function cached<T>(format: string, text: string, parse: (text: string) => T): T {
  const key = `${format}\u0000${text}`;
  if (CACHE.has(key)) return CACHE.get(key) as T;
  const value = parse(text);
  if (CACHE.size >= MAX_ENTRIES) CACHE.clear();
  CACHE.set(key, value);
  return value;
}

/**
 * The run-time half of the build's lazily parsed data tables (scripts/build/tables.ts
 * `lazyTableSource` writes the calls): nothing in src/ imports this module, the generated table
 * modules of the bundles do.
 */

/** Nested tables of an entry, built when the entry is parsed (`members[key]()`, set on the entry). */
export type LazyMembers = Readonly<Record<string, () => Record<string, unknown>>>;

/**
 * Builds a table whose entries are parsed on first access from `lines` (`\n<key>\t<JSON>` per
 * entry): a read-only view in which every key is an own, enumerable property (`Object.hasOwn`,
 * `in`, `Object.keys` and indexing behave as for the parsed object) and reading an entry returns
 * its parsed value, parsed once. A key is found by searching the string; what a search found, or
 * did not, is remembered. With `read`, a line holds where the entry's JSON is (the data file of
 * table-file.ts), not the JSON.
 */
export function lazyTable(
  lines: string,
  members: LazyMembers | undefined,
  read?: (where: string) => string,
): Record<string, unknown> {
  const found = new Map<string, { parsed: Record<string, unknown> } | null>();
  const entry = (key: string): { parsed: Record<string, unknown> } | null => {
    let value = found.get(key);
    if (value === undefined) {
      const at = key.includes("\n") || key.includes("\t") ? -1 : lines.indexOf(`\n${key}\t`);
      if (at === -1) value = null;
      else {
        const from = at + key.length + 2;
        const text = lines.slice(from, lines.indexOf("\n", from));
        value = { parsed: JSON.parse(read === undefined ? text : read(text)) as Record<string, unknown> };
        if (members !== undefined && Object.hasOwn(members, key)) Object.assign(value.parsed, members[key]!());
      }
      found.set(key, value);
    }
    return value;
  };
  const own = (key: string | symbol): key is string => typeof key === "string" && entry(key) !== null;
  let keys: string[] | undefined;
  return new Proxy<Record<string, unknown>>(
    {},
    {
      get: (target, key) => (own(key) ? entry(key)!.parsed : Reflect.get(target, key)),
      getOwnPropertyDescriptor: (_target, key) =>
        own(key) ? { value: entry(key)!.parsed, writable: true, enumerable: true, configurable: true } : undefined,
      has: (target, key) => own(key) || key in target,
      ownKeys: () =>
        (keys ??= lines
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => l.slice(0, l.indexOf("\t")))),
      set: () => false,
      defineProperty: () => false,
      deleteProperty: () => false,
    },
  );
}

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
  // where each key's line starts (-1: no such key), then its parsed value: a key is looked up
  // without parsing anything, so `Object.keys`, `Object.hasOwn` and `in` cost a search, not a parse
  const where = new Map<string, number>();
  const parsed = new Map<string, Record<string, unknown>>();
  const locate = (key: string): number => {
    let at = where.get(key);
    if (at === undefined) {
      at = key.includes("\n") || key.includes("\t") ? -1 : lines.indexOf(`\n${key}\t`);
      where.set(key, at);
    }
    return at;
  };
  const value = (key: string): Record<string, unknown> => {
    let done = parsed.get(key);
    if (done === undefined) {
      const from = locate(key) + key.length + 2;
      const text = lines.slice(from, lines.indexOf("\n", from));
      done = JSON.parse(read === undefined ? text : read(text)) as Record<string, unknown>;
      if (members !== undefined && Object.hasOwn(members, key)) Object.assign(done, members[key]!());
      parsed.set(key, done);
    }
    return done;
  };
  const own = (key: string | symbol): key is string => typeof key === "string" && locate(key) !== -1;
  let keys: string[] | undefined;
  return new Proxy<Record<string, unknown>>(
    {},
    {
      get: (target, key) => (own(key) ? value(key) : Reflect.get(target, key)),
      // an accessor, so that listing the keys (which asks each key's descriptor) parses no entry;
      // reading the property through it, as every read does, gets the parsed value
      getOwnPropertyDescriptor: (_target, key) =>
        own(key) ? { get: () => value(key), set: undefined, enumerable: true, configurable: true } : undefined,
      has: (target, key) => own(key) || key in target,
      ownKeys: () => {
        if (keys === undefined) {
          // one pass over the lines, which also tells where each key is for the checks that follow
          keys = [];
          for (let at = lines.indexOf("\n"); at !== -1 && at + 1 < lines.length; at = lines.indexOf("\n", at + 1)) {
            const key = lines.slice(at + 1, lines.indexOf("\t", at + 1));
            if (!where.has(key)) where.set(key, at);
            keys.push(key);
          }
        }
        return keys;
      },
      set: () => false,
      defineProperty: () => false,
      deleteProperty: () => false,
    },
  );
}

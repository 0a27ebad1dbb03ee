/**
 * The decoded parse tables of each Lezer grammar the parser bundles hold (src/io/lr-tables.ts says
 * why): the build takes them from the grammar's parser, built here by the same module the bundle
 * holds, writes them beside the bundle (`<language>.lrtables`) and routes the grammar's import of
 * `@lezer/lr` through a module that passes them to `LRParser.deserialize`.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { ExternalTokenizer, LocalTokenGroup, type LRParser } from "@lezer/lr";
import type { Plugin } from "esbuild";
import { LR_TABLES, type LrTableName, type LrTablesFile } from "../../src/io/lr-tables.ts";
import { ROOT } from "./root.ts";

/** The grammar package of each parser bundle. */
export const GRAMMARS = { python: "@lezer/python", javascript: "@lezer/javascript" } as const;

type Tables = Record<LrTableName, Uint16Array | Uint32Array | undefined>;

/** The arrays the parser decoded from its string tables (the token table is held by its token groups). */
function tablesOf(parser: LRParser): Tables {
  const p = parser as unknown as {
    states: Uint32Array;
    data: Uint16Array;
    goto: Uint16Array;
    tokenizers: readonly { data?: unknown }[];
  };
  const group = p.tokenizers.find(
    (t) => !(t instanceof ExternalTokenizer) && !(t instanceof LocalTokenGroup) && t.data instanceof Uint16Array,
  );
  return { states: p.states, stateData: p.data, goto: p.goto, tokenData: group?.data as Uint16Array | undefined };
}

/** The tables file of `language` (its bytes) and how its bundle reads it. */
export async function lrTablesOf(language: keyof typeof GRAMMARS): Promise<{ contents: Buffer; file: LrTablesFile }> {
  const { parser } = (await import(GRAMMARS[language])) as { parser: LRParser };
  const tables = tablesOf(parser);
  const body = Buffer.concat(
    LR_TABLES.map(([name]) => {
      const t = tables[name];
      return t === undefined ? Buffer.alloc(0) : Buffer.from(t.buffer, t.byteOffset, t.byteLength);
    }),
  );
  // little-endian elements: every platform Node runs on
  const header = `lanes lr tables ${language} le ${createHash("sha256").update(body).digest("hex").slice(0, 16)}\n`;
  const lengths = Object.fromEntries(LR_TABLES.map(([name]) => [name, tables[name]?.length ?? 0])) as Record<
    LrTableName,
    number
  >;
  return { contents: Buffer.concat([Buffer.from(header, "latin1"), body]), file: { header, lengths } };
}

/** Routes the grammar's import of `@lezer/lr` through the module that hands the parser the decoded tables. */
export function lrTablesPlugin(language: keyof typeof GRAMMARS, file: LrTablesFile): Plugin {
  const grammar = join("node_modules", ...GRAMMARS[language].split("/"));
  return {
    name: "lanes-lr-tables",
    setup(b) {
      b.onResolve({ filter: /^@lezer\/lr$/ }, (args) =>
        args.importer.includes(grammar) ? { path: language, namespace: "lanes-lr" } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: "lanes-lr" }, () => ({
        resolveDir: ROOT,
        loader: "js",
        contents: [
          `export * from "@lezer/lr";`,
          `import { LRParser as Lezer } from "@lezer/lr";`,
          `import { join } from "node:path";`,
          `import { withDecodedTables } from ${JSON.stringify(join(ROOT, "src", "io", "lr-tables.ts"))};`,
          `const file = ${JSON.stringify(file)};`,
          `export const LRParser = { deserialize: (spec) => Lezer.deserialize(withDecodedTables(spec, join(__dirname, ${JSON.stringify(`${language}.lrtables`)}), file)) };`,
        ].join("\n"),
      }));
    },
  };
}

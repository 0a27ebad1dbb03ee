/**
 * Classifies SQL text handed to a database client (`psql -c`, `mysql -e`, heredocs, piped echo)
 * by the destructive statements it holds. A tokenizer, not a parser: it skips comments and string
 * literals, splits statements on `;` and looks at the leading keywords of each statement.
 */
import type { SqlKind } from "./compiled.ts";

/** Splits SQL into statements of uppercase keyword/identifier tokens (strings and comments removed). */
function statements(sql: string): string[][] {
  const result: string[][] = [];
  let current: string[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (c === "-" && sql[i + 1] === "-") {
      while (i < n && sql[i] !== "\n") i++;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end === -1 ? n : end + 2;
    } else if (c === "'" || c === '"' || c === "`") {
      // identifiers in quotes are still identifiers; strings are skipped either way
      let j = i + 1;
      while (j < n && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      current.push(c === "'" ? "'STRING'" : sql.slice(i + 1, j).toUpperCase());
      i = j + 1;
    } else if (c === "$") {
      // PostgreSQL dollar quoting: $tag$ ... $tag$
      const tagEnd = sql.indexOf("$", i + 1);
      const tag = tagEnd === -1 ? "" : sql.slice(i, tagEnd + 1);
      if (tag !== "" && /^\$[A-Za-z_]*\$$/.test(tag)) {
        const end = sql.indexOf(tag, tagEnd + 1);
        i = end === -1 ? n : end + tag.length;
        current.push("'STRING'");
      } else i++;
    } else if (c === ";") {
      if (current.length > 0) result.push(current);
      current = [];
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_.$]/.test(sql[j]!)) j++;
      current.push(sql.slice(i, j).toUpperCase());
      i = j;
    } else i++;
  }
  if (current.length > 0) result.push(current);
  return result;
}

/** `DROP <what>` objects whose loss is a loss of data, by the kind they count as. */
const DROPS: Readonly<Record<string, SqlKind>> = {
  DATABASE: "drop-database",
  KEYSPACE: "drop-database",
  SCHEMA: "drop-schema",
  OWNED: "drop-schema",
  TABLE: "drop-table",
  COLLECTION: "drop-table",
  MATERIALIZED: "drop-table",
  TABLESPACE: "drop-table",
};

/**
 * Document-database shell code (mongosh `--eval`, heredocs): `db.dropDatabase()`,
 * `db.users.drop()`, `deleteMany({})`/`remove({})` with an empty filter.
 */
function classifyMongo(code: string, kinds: Set<SqlKind>): void {
  const compact = code.replace(/\s+/g, "");
  if (/\.dropDatabase\(/.test(compact)) kinds.add("drop-database");
  if (/\.drop\(\)/.test(compact) || /\.dropCollection\(/.test(compact)) kinds.add("drop-table");
  if (/\.(?:deleteMany|remove)\(\{\}/.test(compact) || /\.(?:deleteMany|remove)\(\)/.test(compact))
    kinds.add("delete-without-where");
}

/** The destructive statement kinds in `sql`, in order of appearance, without repeats. */
export function classifySql(sql: string): SqlKind[] {
  const kinds = new Set<SqlKind>();
  for (const tokens of statements(sql)) {
    const [first, second] = tokens;
    const third = tokens[2];
    if (
      first === "DROP" &&
      second !== undefined &&
      DROPS[second] !== undefined &&
      (second !== "MATERIALIZED" || third === "VIEW")
    ) {
      kinds.add(DROPS[second]);
    } else if (first === "DROP" && (second === "TEMPORARY" || second === "TEMP") && third === "TABLE") {
      kinds.add("drop-table");
    } else if (first === "TRUNCATE") {
      kinds.add("truncate");
    } else if (first === "DELETE" && tokens.includes("FROM") && !tokens.includes("WHERE")) {
      kinds.add("delete-without-where");
    } else if (first === "UPDATE" && tokens.includes("SET") && !tokens.includes("WHERE")) {
      kinds.add("update-without-where");
    } else if (
      first === "ALTER" &&
      second === "TABLE" &&
      tokens.includes("DROP") &&
      !tokens.includes("CONSTRAINT") &&
      !tokens.includes("INDEX") &&
      !tokens.includes("DEFAULT")
    ) {
      kinds.add(tokens.includes("PARTITION") ? "truncate" : "drop-column");
    } else if (first === "FLUSHALL" || first === "FLUSHDB") {
      kinds.add("flush-all");
    }
  }
  classifyMongo(sql, kinds);
  return [...kinds];
}

/** Names in interpreter code that show it talks to a database. */
const DRIVERS = [
  "sqlite3",
  "psycopg",
  "pymysql",
  "MySQLdb",
  "mysql.connector",
  "sqlalchemy",
  "asyncpg",
  "pymongo",
  "redis",
  "ioredis",
  "better-sqlite3",
  "('pg')",
  '("pg")',
  "mysql2",
  "knex",
  "sequelize",
  "prisma",
  "mongoose",
  "mongodb",
  "duckdb",
  "clickhouse",
  "cassandra",
  "DBI",
  "ActiveRecord",
  "PDO",
  "mysqli",
  "execute",
  "executescript",
  "query",
  "$executeRaw",
  "raw(",
];

/** The string literals of interpreter code (single, double or backtick quotes; escapes skipped). */
function stringLiterals(code: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < code.length) {
    const quote = code[i];
    if (quote !== "'" && quote !== '"' && quote !== "`") {
      i++;
      continue;
    }
    let j = i + 1;
    let text = "";
    while (j < code.length && code[j] !== quote) {
      if (code[j] === "\\" && j + 1 < code.length) j++;
      text += code[j];
      j++;
    }
    out.push(text);
    i = j + 1;
  }
  return out;
}

/**
 * The destructive statement kinds in interpreter code that talks to a database: its string
 * literals classified as SQL (`cursor.execute("DROP TABLE users")`), and driver calls that flush or
 * drop (`r.flushall()`, `client.drop_database("x")`).
 */
export function classifyCode(code: string): SqlKind[] {
  if (!DRIVERS.some((d) => code.includes(d))) return [];
  const kinds = new Set<SqlKind>(stringLiterals(code).flatMap(classifySql));
  const compact = code.replace(/\s+/g, "").toLowerCase();
  if (compact.includes(".flushall(") || compact.includes(".flushdb(")) kinds.add("flush-all");
  if (compact.includes(".drop_database(") || compact.includes(".dropdatabase(")) kinds.add("drop-database");
  if (compact.includes(".drop_collection(")) kinds.add("drop-table");
  return [...kinds];
}

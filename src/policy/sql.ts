/**
 * Classifies SQL text handed to a database client (`psql -c`, `mysql -e`, heredocs, piped echo)
 * by the destructive statements it holds. A tokenizer, not a parser: it skips comments and string
 * literals, splits statements on `;` and looks at the leading keywords of each statement.
 */
import type { SqlKind } from "./compiled.ts";

/** One statement: its tokens, the text of its string literals, and whether its results run as SQL. */
interface Statement {
  /**
   * Uppercase keywords and identifiers (quoted identifiers too); `'STRING'` for a string literal,
   * `#` for a number, `{` for an opening brace (a Cypher property map).
   */
  readonly tokens: string[];
  /** The text of the statement's string literals and dollar-quoted bodies. */
  readonly literals: string[];
  /** psql `\gexec`: every value the statement returns is run as a statement. */
  exec: boolean;
}

/** Keywords that start a statement when they start a line (scripts and T-SQL batches without `;`). */
const LINE_STARTS = new Set(["DROP", "TRUNCATE"]);

const isWordStart = (c: string): boolean => (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || c === "_";
const isWordChar = (c: string): boolean => isWordStart(c) || (c >= "0" && c <= "9") || c === "." || c === "$";
const isDigit = (c: string): boolean => c >= "0" && c <= "9";

/**
 * Splits SQL into statements (strings and comments removed from the tokens). Besides `;`, a
 * statement ends at a T-SQL `GO` line, a psql `\g`-family meta-command, and a new line starting
 * with `DROP` or `TRUNCATE`; sqlite3 dot-commands and other psql meta-commands run to the end of
 * their line and are skipped.
 */
function statements(sql: string): Statement[] {
  const result: Statement[] = [];
  let current: Statement = { tokens: [], literals: [], exec: false };
  let lineStart = true;
  const end = (): void => {
    if (current.tokens.length > 0) result.push(current);
    current = { tokens: [], literals: [], exec: false };
  };
  const push = (token: string): void => {
    if (lineStart && current.tokens.length > 0 && LINE_STARTS.has(token)) end();
    lineStart = false;
    current.tokens.push(token);
  };
  const skipLine = (from: number): number => {
    const nl = sql.indexOf("\n", from);
    return nl === -1 ? sql.length : nl;
  };
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (c === "\n") {
      lineStart = true;
      i++;
    } else if (c === "-" && sql[i + 1] === "-") {
      i = skipLine(i);
    } else if (c === "/" && sql[i + 1] === "*") {
      const close = sql.indexOf("*/", i + 2);
      i = close === -1 ? n : close + 2;
    } else if (c === "'" || c === '"' || c === "`") {
      // identifiers in quotes are still identifiers; strings are skipped either way
      let j = i + 1;
      while (j < n && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      const text = sql.slice(i + 1, j);
      if (c === "'") {
        current.literals.push(text.split("''").join("'"));
        push("'STRING'");
      } else push(text.toUpperCase());
      i = j + 1;
    } else if (c === "$") {
      // PostgreSQL dollar quoting: $tag$ ... $tag$
      const tagEnd = sql.indexOf("$", i + 1);
      const tag = tagEnd === -1 ? "" : sql.slice(i, tagEnd + 1);
      if (tag !== "" && [...tag.slice(1, -1)].every(isWordStart)) {
        const close = sql.indexOf(tag, tagEnd + 1);
        current.literals.push(sql.slice(tagEnd + 1, close === -1 ? n : close));
        i = close === -1 ? n : close + tag.length;
        push("'STRING'");
      } else i++;
    } else if (c === ";") {
      end();
      i++;
    } else if (c === "\\") {
      // psql meta-command: `\g`, `\gx`, `\gset`, `\gexec` send the statement (`\gexec` runs its results)
      let j = i + 1;
      while (j < n && isWordStart(sql[j]!)) j++;
      // an escape written out is one letter (`\nDROP`); no meta-command starts with `n`
      if (sql[i + 1] === "n" || ((sql[i + 1] === "r" || sql[i + 1] === "t") && !isWordStart(sql[i + 2] ?? "")))
        j = i + 2;
      const name = sql.slice(i + 1, j);
      if (name === "gexec") current.exec = true;
      if (name === "n" || name === "r" || name === "t") {
        // an escape written out (`printf 'DROP TABLE t;\nSELECT 1'`): a line break or a blank
        lineStart ||= name !== "t";
      } else if (name.startsWith("g")) end();
      else if (name !== "") j = skipLine(j);
      i = j;
    } else if (c === "." && current.tokens.length === 0 && lineStart) {
      // sqlite3 dot-command (`.headers on`, `.mode csv`): one line
      i = skipLine(i);
    } else if (isWordStart(c)) {
      let j = i + 1;
      while (j < n && isWordChar(sql[j]!)) j++;
      const word = sql.slice(i, j).toUpperCase();
      // T-SQL batch separator on its own line
      if (word === "GO" && (lineStart || current.tokens.length === 0)) end();
      else push(word);
      i = j;
    } else if (isDigit(c)) {
      let j = i + 1;
      while (j < n && (isDigit(sql[j]!) || sql[j] === ".")) j++;
      push("#");
      i = j;
    } else {
      if (c === "{") push("{");
      i++;
    }
  }
  end();
  return result;
}

/** `DROP <what>` objects whose loss is a loss of data, by the kind they count as. */
const DROPS: Readonly<Record<string, SqlKind>> = {
  DATABASE: "drop-database",
  KEYSPACE: "drop-database",
  CATALOG: "drop-database",
  ALL: "drop-database",
  SCHEMA: "drop-schema",
  NAMESPACE: "drop-schema",
  OWNED: "drop-schema",
  TABLE: "drop-table",
  COLLECTION: "drop-table",
  MATERIALIZED: "drop-table",
  TABLESPACE: "drop-table",
  MEASUREMENT: "drop-table",
  SERIES: "drop-table",
  RETENTION: "drop-table",
  SHARD: "drop-table",
  USER: "drop-role",
  ROLE: "drop-role",
  LOGIN: "drop-role",
};

/** Tokens of a condition that names no column: a constant, true (or false) for every row. */
const CONSTANT = new Set(["#", "'STRING'", "TRUE", "FALSE", "NOT", "AND", "OR", "IS", "NULL"]);
/** Clauses that end a `WHERE` condition. */
const AFTER_WHERE = new Set(["ORDER", "LIMIT", "RETURNING", "OPTION", "SETTINGS", "OUTPUT"]);

/** True when the statement has no `WHERE`, or one whose condition is a constant (`WHERE 1=1`, `WHERE true`). */
function everyRow(tokens: readonly string[]): boolean {
  const where = tokens.indexOf("WHERE");
  if (where === -1) return true;
  const condition: string[] = [];
  for (const t of tokens.slice(where + 1)) {
    if (AFTER_WHERE.has(t)) break;
    condition.push(t);
  }
  return condition.length > 0 && condition.every((t) => CONSTANT.has(t));
}

/** What `ALTER TABLE ... DROP <x>` can drop without losing rows or column values. */
const ALTER_DROPS_NO_DATA = new Set([
  "CONSTRAINT",
  "INDEX",
  "KEY",
  "PRIMARY",
  "FOREIGN",
  "UNIQUE",
  "CHECK",
  "DEFAULT",
  "NOT",
  "IDENTITY",
  "EXPRESSION",
  "TRIGGER",
  "PERIOD",
  "SYSTEM",
  "PROJECTION",
  "STATISTICS",
  "TTL",
]);

/** Statements whose string literals are themselves run as statements. */
const EXECUTORS = new Set([
  "EXEC",
  "EXECUTE",
  "DO",
  "SP_EXECUTESQL",
  "SP_MSFOREACHTABLE",
  "SP_MSFOREACHDB",
  "EVAL",
  "EVALSHA",
]);
/** Statements that can follow `BEGIN` in a block (`BEGIN DROP TABLE x; END`). */
const AFTER_BEGIN = new Set(["DROP", "TRUNCATE", "DELETE", "UPDATE", "ALTER", "EXEC", "EXECUTE"]);
/** How deep statement text inside statement text is followed (`DO $$ ... EXECUTE '...' $$`). */
const MAX_NESTING = 3;

/** Adds the destructive kinds of one statement. */
function classifyStatement(statement: Statement, kinds: Set<SqlKind>, depth: number): void {
  let tokens: readonly string[] = statement.tokens;
  while ((tokens[0] === "BEGIN" || tokens[0] === "ATOMIC") && AFTER_BEGIN.has(tokens[1] ?? ""))
    tokens = tokens.slice(1);
  // `WITH d AS (DELETE FROM t RETURNING *) SELECT ...`, `EXPLAIN ANALYZE DELETE ...` (which runs it):
  // the data-changing statement inside
  if (tokens[0] === "WITH" || (tokens[0] === "EXPLAIN" && tokens.includes("ANALYZE"))) {
    const at = tokens.findIndex((t) => t === "DELETE" || t === "UPDATE" || t === "TRUNCATE");
    if (at > 0) tokens = tokens.slice(at);
  }
  const [first, second] = tokens;
  const third = tokens[2];
  if (first === "DROP" && second !== undefined && DROPS[second] !== undefined) {
    if (second !== "MATERIALIZED" || third === "VIEW") kinds.add(DROPS[second]);
  } else if (first === "TRUNCATE" && second !== undefined) {
    kinds.add("truncate");
  } else if (first === "DELETE" && (tokens.includes("FROM") || tokens.length === 2) && everyRow(tokens)) {
    // `DELETE FROM t`, T-SQL `DELETE t`
    kinds.add("delete-without-where");
  } else if (first === "UPDATE" && tokens.includes("SET") && everyRow(tokens)) {
    kinds.add("update-without-where");
  } else if (first === "ALTER" && second === "TABLE") {
    // ClickHouse mutations: `ALTER TABLE t [ON CLUSTER c] DELETE|UPDATE ... WHERE 1`
    const verb = tokens[3] === "ON" && tokens[4] === "CLUSTER" ? tokens[6] : tokens[3];
    if (verb === "DELETE" && everyRow(tokens)) kinds.add("delete-without-where");
    else if (verb === "UPDATE" && everyRow(tokens)) kinds.add("update-without-where");
    else
      tokens.forEach((t, i) => {
        if (t !== "DROP") return;
        // `DROP [COLUMN] [IF EXISTS] c` loses a column's data, `DROP PARTITION p` its rows
        const what = tokens[i + 1] === "IF" ? tokens[i + 3] : tokens[i + 1];
        if (what === "PARTITION") kinds.add("truncate");
        else if (what !== undefined && !ALTER_DROPS_NO_DATA.has(what)) kinds.add("drop-column");
      });
  } else if ((first === "MATCH" || first === "OPTIONAL") && tokens.includes("DELETE") && everyRow(tokens)) {
    // Cypher: `MATCH (n) DETACH DELETE n` with no `WHERE` and no property map deletes every node matched
    if (!tokens.includes("{")) kinds.add("delete-without-where");
  } else if (first === "FLUSHALL" || first === "FLUSHDB" || first === "FLUSH_ALL") {
    // Redis, Valkey, KeyDB; memcached `flush_all`
    kinds.add("flush-all");
  }
  const executes = statement.exec || (first !== undefined && EXECUTORS.has(first)) || tokens.includes("EXECUTE");
  if (executes && depth < MAX_NESTING) for (const text of statement.literals) classifyInto(text, kinds, depth + 1);
}

/**
 * Document-database shell code (mongosh `--eval`, heredocs): `db.dropDatabase()`,
 * `db.users.drop()`, `deleteMany({})`/`remove({})` with an empty filter, `updateMany({}, ...)`,
 * and the `dropDatabase`/`drop` database commands.
 */
function classifyMongo(code: string, kinds: Set<SqlKind>): void {
  const compact = code.replace(/\s+/g, "");
  if (/\.dropDatabase\(/.test(compact) || /[{,]["']?dropDatabase["']?:/.test(compact)) kinds.add("drop-database");
  if (/\.drop\(/.test(compact) || /\.dropCollection\(/.test(compact) || /[{,]["']?drop["']?:["'`]/.test(compact))
    kinds.add("drop-table");
  if (/\.(?:deleteMany|remove)\(\{\}/.test(compact) || /\.(?:deleteMany|remove)\(\)/.test(compact))
    kinds.add("delete-without-where");
  if (/\.updateMany\(\{\},/.test(compact)) kinds.add("update-without-where");
}

function classifyInto(sql: string, kinds: Set<SqlKind>, depth: number): void {
  for (const statement of statements(sql)) classifyStatement(statement, kinds, depth);
  classifyMongo(sql, kinds);
}

/** The destructive statement kinds in `sql`, in order of appearance, without repeats. */
export function classifySql(sql: string): SqlKind[] {
  const kinds = new Set<SqlKind>();
  classifyInto(sql, kinds, 0);
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
  "DB::",
  "connection",
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
 * ORM calls that empty or drop tables whatever the driver: Active Record `User.delete_all` (on the
 * class, not on a scope), Django `Model.objects.all().delete()`, Eloquent `User::truncate()` and
 * `DB::table('t')->delete()`, Ecto `Repo.delete_all(User)`, SQLAlchemy `metadata.drop_all()` and
 * `session.query(User).delete()`, Sequelize `sync({ force: true })`, `Model.truncate()`, Prisma and
 * Mongoose `deleteMany()` without a filter.
 */
const ORM_CALLS: readonly (readonly [RegExp, SqlKind])[] = [
  [/(?<![\w.:])[A-Z]\w*(?:::[A-Z]\w*)*(?:\.(?:all|unscoped))?\.(?:delete_all|destroy_all)\b/, "delete-without-where"],
  [/\.objects(?:\.all\(\))?\.delete\(\)/, "delete-without-where"],
  [/(?<!\w)[A-Z]\w*::(?:query\(\)->)?delete\(\)/, "delete-without-where"],
  [/DB::table\(['"][^'"]+['"]\)->delete\(\)/, "delete-without-where"],
  [/(?<!\w)(?:[A-Z]\w*::|DB::table\(['"][^'"]+['"]\)->)truncate\(\)/, "truncate"],
  [/\.deleteMany\((?:\{\})?\)/, "delete-without-where"],
  [/Schema::drop(?:IfExists)?\(/, "drop-table"],
  [/\bRepo\.delete_all\([A-Z][\w.]*\)/, "delete-without-where"],
  [/\.query\([A-Z]\w*\)\.delete\(\)/, "delete-without-where"],
  [/\.drop_all\(/, "drop-table"],
  [/\bdrop_table[(:]/, "drop-table"],
  [/connection\.truncate(?:_tables)?\(/, "truncate"],
  [/\.sync\(\{force:true/, "drop-table"],
  [/(?<![\w.])[A-Z]\w*\.truncate\(/, "truncate"],
  [/\.destroy\(\{(?:where:\{\},)?truncate:true/, "truncate"],
];

/** Adds the kinds of ORM calls in `code` (whitespace removed). */
function classifyOrm(code: string, kinds: Set<SqlKind>): void {
  const compact = code.replace(/\s+/g, "");
  for (const [pattern, kind] of ORM_CALLS) if (pattern.test(compact)) kinds.add(kind);
}

/** Driver calls that flush or drop, and the SQL in the code's string literals. */
function classifyDriverCode(code: string, kinds: Set<SqlKind>): void {
  for (const literal of stringLiterals(code)) classifyInto(literal, kinds, 0);
  const compact = code.replace(/\s+/g, "").toLowerCase();
  if (compact.includes(".flushall(") || compact.includes(".flushdb(")) kinds.add("flush-all");
  if (compact.includes(".drop_database(") || compact.includes(".dropdatabase(")) kinds.add("drop-database");
  if (compact.includes(".drop_collection(")) kinds.add("drop-table");
}

/**
 * The destructive statement kinds in interpreter code that talks to a database: its string
 * literals classified as SQL (`cursor.execute("DROP TABLE users")`), driver calls that flush or
 * drop (`r.flushall()`, `client.drop_database("x")`), and ORM calls that empty or drop tables.
 */
export function classifyCode(code: string): SqlKind[] {
  // scratch work on an in-memory SQLite database (`sqlite3.connect(':memory:')`) and nothing else
  const connects = code.split("connect(").length - 1;
  const inMemory = code.split(/connect\(\s*["']:memory:["']/).length - 1;
  if (connects > 0 && connects === inMemory) return [];
  const kinds = new Set<SqlKind>();
  if (DRIVERS.some((d) => code.includes(d))) classifyDriverCode(code, kinds);
  classifyOrm(code, kinds);
  return [...kinds];
}

/**
 * The destructive kinds in code given to a framework's console (`rails runner CODE`, `manage.py
 * shell -c CODE`, `artisan tinker --execute=CODE`): as {@link classifyCode}, and deletions with an
 * empty filter (`Model.deleteMany({})` in a Mongoose console). Not a bare `.drop()`: in Python
 * code that is most often a pandas frame (`df.drop(columns=...)`).
 */
export function classifyConsoleCode(code: string): SqlKind[] {
  const kinds = new Set<SqlKind>(classifyCode(code));
  const compact = code.replace(/\s+/g, "");
  if (/\.(?:deleteMany|remove)\(\{?\}?\)/.test(compact)) kinds.add("delete-without-where");
  if (/\.dropDatabase\(/.test(compact)) kinds.add("drop-database");
  return [...kinds];
}

/**
 * A key listing piped into a deletion (`redis-cli --scan | xargs redis-cli del`, `redis-cli KEYS '*'
 * | xargs redis-cli DEL`): `listing` and `deletion` are the two commands' arguments. Listing every
 * key (`KEYS *`, `--scan` without a narrower `--pattern`) and deleting what it lists is a flush.
 */
export function classifyKeyDeletion(listing: readonly string[], deletion: readonly string[]): SqlKind[] {
  const verb = deletion.find((w) => !w.startsWith("-"))?.toUpperCase();
  if (verb !== "DEL" && verb !== "UNLINK") return [];
  const upper = listing.map((w) => w.toUpperCase());
  const keysAll = upper.some((w, i) => w === "KEYS" && listing[i + 1] === "*");
  const pattern = upper.indexOf("--PATTERN");
  const scanAll = upper.includes("--SCAN") && (pattern === -1 || listing[pattern + 1] === "*");
  return keysAll || scanAll ? ["flush-all"] : [];
}

/** Database drops through command-line clients. */
import type { RuleSpec } from "./types.ts";

const clients = ["psql", "mysql", "mariadb", "sqlite3", "duckdb", "cockroach", "clickhouse-client", "clickhouse", "sqlcmd", "snowsql", "usql", "pgcli", "mycli", "litecli"];

export const databaseRules: readonly RuleSpec[] = [
  {
    id: "db.drop",
    effect: "deny",
    sql: { clients, statements: ["drop-database", "drop-schema", "drop-table", "truncate"] },
    why: "it drops or truncates database objects and their data",
    instead: "write a reviewed migration, or ask the user to run the drop",
  },
  {
    id: "db.delete-without-where",
    effect: "ask",
    sql: { clients, statements: ["delete-without-where"] },
    why: "a `DELETE` without `WHERE` empties the whole table",
    instead: "add a `WHERE` clause naming the rows to delete",
  },
  {
    id: "db.dropdb",
    effect: "deny",
    command: { program: ["dropdb"] },
    why: "`dropdb` deletes a whole PostgreSQL database",
    instead: "ask the user to drop databases",
  },
  {
    id: "db.mysqladmin-drop",
    effect: "deny",
    command: { program: ["mysqladmin"], args: ["drop"] },
    why: "`mysqladmin drop` deletes a whole MySQL database",
    instead: "ask the user to drop databases",
  },
  {
    id: "db.redis-flush",
    effect: "deny",
    command: { program: ["redis-cli", "valkey-cli", "keydb-cli"], args: ["flushall|flushdb"] },
    why: "`FLUSHALL`/`FLUSHDB` deletes every key",
    instead: "delete the specific keys you mean, e.g. `redis-cli del <key>`",
  },
  {
    id: "db.framework-drop",
    effect: "deny",
    command: { program: ["rails", "rake", "bin/rails"], args: ["db:drop|db:reset|db:schema:load|db:purge"] },
    why: "it drops and recreates the application database",
    instead: "run migrations with `db:migrate`, or ask the user to reset the database",
  },
  {
    id: "db.prisma-reset",
    effect: "deny",
    command: { program: ["prisma"], args: ["migrate", "reset"] },
    why: "`prisma migrate reset` drops the database and every row in it",
    instead: "use `prisma migrate dev` or ask the user to reset the database",
  },
  {
    id: "db.prisma-reset-npx",
    effect: "deny",
    command: { program: ["npx", "pnpx", "bunx", "pnpm", "yarn"], args: ["prisma", "migrate", "reset"] },
    why: "`prisma migrate reset` drops the database and every row in it",
    instead: "use `prisma migrate dev` or ask the user to reset the database",
  },
];

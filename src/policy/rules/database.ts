/**
 * Database destruction: drops, truncates and flushes sent to a client (by option, operand, stdin or
 * heredoc), the drop commands of the servers' own tools, and the reset/wipe commands of the
 * frameworks and migration tools of the Python, Ruby, PHP, JavaScript, Go, Rust, Elixir and .NET
 * ecosystems.
 */
import type { RuleSpec } from "./types.ts";

/** Clients that take SQL (or CQL, or mongosh JavaScript) as text. */
const clients = [
  "psql",
  "mysql",
  "mariadb",
  "sqlite3",
  "sqlite",
  "duckdb",
  "cockroach",
  "clickhouse-client",
  "clickhouse",
  "sqlcmd",
  "snowsql",
  "usql",
  "pgcli",
  "mycli",
  "litecli",
  "cqlsh",
  "mongosh",
  "mongo",
  "bq",
  "trino",
  "presto",
  "isql",
  "osql",
  "db2",
  "sqlplus",
  "vsql",
  "impala-shell",
  "beeline",
  "hive",
  "spark-sql",
  "influx",
  "turso",
  "psql.exe",
  "sqlcmd.exe",
];

/** Key-value clients whose operands are commands. */
const redis = ["redis-cli", "valkey-cli", "keydb-cli", "dragonfly-cli"];

/** Runners that start a project's CLI: `npx prisma ...`, `bundle exec rake ...`, `uv run python ...`. */
const runners = ["npx", "pnpx", "bunx", "pnpm", "yarn", "bun", "npm", "bundle", "uv", "poetry", "pipenv", "pdm", "hatch", "rye", "deno", "dotnet", "mix", "go"];
/** JavaScript package runners: `npx sequelize-cli ...`, `pnpm db:reset`. */
const jsRunners = ["npx", "pnpx", "bunx", "pnpm", "yarn", "bun", "npm", "deno"];
const python = ["python", "python3", "python3.*", "py", "manage.py", "django-admin", "django-admin.py", ...runners];

/** Search-cluster URLs whose `DELETE` drops indices: the Elasticsearch/OpenSearch port, `_all`, wildcards. */
const SEARCH_URLS = "*:9200*|*:9201*|*/_all|*/_all/*|*/_data_stream/*|*:8108/collections/*|*:7700/indexes/*|*.es.*.cloud.es.io*|*opensearch*";

export const databaseRules: readonly RuleSpec[] = [
  {
    id: "db.drop",
    effect: "deny",
    sql: { clients, statements: ["drop-database", "drop-schema", "drop-table", "drop-column", "truncate"] },
    why: "it drops or truncates database objects and their data",
    instead: "write a reviewed migration, or ask the user to run the drop",
  },
  {
    id: "db.delete-without-where",
    effect: "deny",
    sql: { clients, statements: ["delete-without-where"] },
    why: "a `DELETE` without `WHERE` empties the whole table",
    instead: "add a `WHERE` clause naming the rows to delete",
  },
  {
    id: "db.update-without-where",
    effect: "deny",
    sql: { clients, statements: ["update-without-where"] },
    why: "an `UPDATE` without `WHERE` overwrites a column in every row of the table",
    instead: "add a `WHERE` clause naming the rows to change",
  },
  {
    id: "db.dropdb",
    effect: "deny",
    command: { program: ["dropdb"], flags_none: ["--help", "-?", "-V", "--version"] },
    why: "`dropdb` deletes a whole PostgreSQL database",
    instead: "ask the user to drop databases",
  },
  {
    id: "db.dropcluster",
    effect: "deny",
    command: { program: ["pg_dropcluster", "pg_dropcluster.pl"], flags_none: ["--help", "-h"] },
    why: "`pg_dropcluster` deletes a PostgreSQL cluster and every database in it",
    instead: "ask the user to drop database clusters",
  },
  {
    id: "db.delete-database-file",
    effect: "deny",
    // test and scratch databases are rebuilt by the test run
    paths: { access: "no-delete", patterns: ["*.sqlite", "*.sqlite3", "*.duckdb", "*.mdb", "*.accdb", "*.realm", "*.ldb", "*.mv.db", "*.h2.db"], except: ["*test*", "*tmp*", "*scratch*", "//tmp/**", "//var/tmp/**"] },
    why: "the file is a database; deleting it deletes every row in it",
    instead: "drop the specific tables in a migration, or ask the user before deleting the database file",
  },
  {
    id: "db.mysqladmin-drop",
    effect: "deny",
    command: { program: ["mysqladmin", "mariadb-admin"], args: ["**", "drop"] },
    why: "`mysqladmin drop` deletes a whole MySQL database",
    instead: "ask the user to drop databases",
  },
  {
    id: "db.redis-flush",
    effect: "deny",
    sql: { clients: redis, statements: ["flush-all"] },
    why: "`FLUSHALL`/`FLUSHDB` deletes every key",
    instead: "delete the specific keys you mean, e.g. `redis-cli del <key>`",
  },
  {
    id: "db.etcd-delete-prefix",
    effect: "deny",
    command: { program: ["etcdctl"], args: ["**", "del|delete"], flags_any: ["--prefix", "--from-key"] },
    why: "`etcdctl del --prefix` deletes every key under the prefix (with an empty prefix, the whole store)",
    instead: "delete the specific keys you mean by their full names",
  },
  {
    id: "db.consul-delete-recurse",
    effect: "deny",
    command: { program: ["consul"], args: ["kv", "delete"], flags_any: ["-recurse", "--recurse", "-r"] },
    why: "`consul kv delete -recurse` deletes every key under the prefix",
    instead: "delete the specific keys you mean by their full names",
  },
  {
    id: "db.search-index-delete",
    effect: "deny",
    command: { program: ["curl", "xh", "http", "https"], option_values: { "-X": ["DELETE", "delete"] }, args: ["**", SEARCH_URLS] },
    why: "a `DELETE` to a search cluster removes whole indices and their documents",
    instead: "delete the specific documents by id, or ask the user to drop indices",
  },
  {
    id: "db.search-index-delete-long",
    effect: "deny",
    command: { program: ["curl"], option_values: { "--request": ["DELETE", "delete"] }, args: ["**", SEARCH_URLS] },
    why: "a `DELETE` to a search cluster removes whole indices and their documents",
    instead: "delete the specific documents by id, or ask the user to drop indices",
  },
  {
    id: "db.store-delete",
    effect: "deny",
    command: {
      program: ["influx", "vault", "nats", "kafka-topics", "kafka-topics.sh", "rabbitmqctl", "rabbitmqadmin", "meilisearch", "typesense"],
      args: ["**", "delete|destroy|purge|disable|delete_queue|purge_queue|reset|force_reset|rm"],
      flags_none: ["--help", "-h"],
    },
    why: "it deletes a bucket, secret engine, stream, topic or queue with its data",
    instead: "ask the user to delete stores and their data",
  },
  {
    id: "db.kafka-delete-topic",
    effect: "deny",
    command: { program: ["kafka-topics", "kafka-topics.sh"], flags_any: ["--delete"] },
    why: "`kafka-topics --delete` deletes a topic and every message in it",
    instead: "ask the user to delete topics",
  },
  {
    id: "db.framework-drop",
    effect: "deny",
    command: {
      program: ["rails", "rake", "bin/rails", "bin/rake", "bundle", "spring", "bin/spring"],
      args: ["**", "db:drop|db:drop:*|db:reset|db:schema:load|db:purge|db:purge:*|db:migrate:reset|db:truncate_all|db:seed:replant|db:setup|db:structure:load|db:test:purge"],
    },
    why: "it drops and recreates the application database",
    instead: "run migrations with `db:migrate`, or ask the user to reset the database",
  },
  {
    id: "db.django-flush",
    effect: "deny",
    command: { program: python, args: ["**", "*manage.py|django-admin|django-admin.py", "flush|reset_db|sqlflush|reset_schema|drop_test_database|delete_squashed_migrations"], flags_none: ["--help", "-h"] },
    why: "it deletes every row of every table of the Django database",
    instead: "delete the specific rows in a data migration, or ask the user to reset the database",
  },
  {
    id: "db.django-flush-direct",
    effect: "deny",
    command: { program: ["manage.py", "django-admin", "django-admin.py"], args: ["flush|reset_db|reset_schema|drop_test_database"], flags_none: ["--help", "-h"] },
    why: "it deletes every row of every table of the Django database",
    instead: "delete the specific rows in a data migration, or ask the user to reset the database",
  },
  {
    id: "db.django-migrate-zero",
    effect: "deny",
    command: { program: ["python", "python3", "python3.*", "py", "manage.py", "django-admin", ...runners], args: ["**", "migrate", "*", "zero"] },
    why: "`migrate <app> zero` unapplies every migration of the app, dropping its tables",
    instead: "roll back to a named migration, or ask the user",
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
    command: { program: runners, args: ["**", "prisma", "migrate", "reset"] },
    why: "`prisma migrate reset` drops the database and every row in it",
    instead: "use `prisma migrate dev` or ask the user to reset the database",
  },
  {
    id: "db.prisma-force-reset",
    effect: "deny",
    command: { program: ["prisma", ...runners], args: ["**", "db", "push"], flags_any: ["--force-reset", "--accept-data-loss"] },
    why: "`prisma db push --force-reset` drops every table before pushing the schema",
    instead: "use `prisma migrate dev` to write a migration, or ask the user",
  },
  {
    id: "db.js-migration-wipe",
    effect: "deny",
    command: {
      program: ["sequelize", "sequelize-cli", "knex", "typeorm", "typeorm-ts-node-commonjs", "typeorm-ts-node-esm", "mikro-orm", "drizzle-kit", "node-pg-migrate", "db-migrate", "umzug", ...jsRunners],
      args: ["**", "db:drop|db:reset|db:wipe|db:migrate:undo:all|db:seed:undo:all|schema:drop|schema:fresh|migration:fresh|database:drop|migrate:reset"],
    },
    why: "it drops the database or every table the migrations created",
    instead: "undo a single named migration, or ask the user to reset the database",
  },
  {
    id: "db.laravel-wipe",
    effect: "deny",
    command: { program: ["php", "artisan", "sail", "./vendor/bin/sail", "vendor/bin/sail"], args: ["**", "migrate:fresh|migrate:reset|migrate:refresh|db:wipe|doctrine:database:drop|doctrine:schema:drop|migrate/fresh|migrate/down"] },
    why: "it drops every table of the application database",
    instead: "run `migrate` for new migrations, or ask the user to reset the database",
  },
  {
    id: "db.symfony-drop",
    effect: "deny",
    command: { program: ["php", "console", "bin/console", "symfony"], args: ["**", "doctrine:database:drop|doctrine:schema:drop|d:d:d|d:s:d|doctrine:fixtures:load"] },
    why: "it drops the application database or its schema",
    instead: "write a migration, or ask the user to reset the database",
  },
  {
    id: "db.alembic-downgrade-base",
    effect: "deny",
    command: { program: ["alembic", "flask", ...python], args: ["**", "downgrade", "base"] },
    why: "`downgrade base` unapplies every migration, dropping every table they created",
    instead: "downgrade one revision (`downgrade -1`) after checking what it drops, or ask the user",
  },
  {
    id: "db.migration-tool-wipe",
    effect: "deny",
    command: {
      program: ["flyway", "liquibase", "dbmate", "goose", "diesel", "sqlx", "migrate", "atlas", "sqitch", "supabase", "graphile-migrate", "yii", "phinx", "tern", "sql-migrate"],
      args: ["**", "clean|dropall|drop-all|drop|reset|fresh|wipe|migrate/fresh|rollback-count|rollback-to-date|down-to|schema-clean"],
    },
    why: "it drops the database or every object the migrations manage",
    instead: "roll back one named migration, or ask the user to reset the database",
  },
  {
    id: "db.mix-ecto-drop",
    effect: "deny",
    command: { program: ["mix", "iex"], args: ["**", "ecto.drop|ecto.reset"], flags_none: ["--help"] },
    why: "it drops the application database (or unapplies its migrations)",
    instead: "run `mix ecto.migrate`, or ask the user to reset the database",
  },
  {
    id: "db.knex-rollback-all",
    effect: "deny",
    command: { program: ["knex", ...jsRunners], args: ["**", "migrate:rollback|migrate:down"], flags_any: ["--all"] },
    why: "`knex migrate:rollback --all` unapplies every migration, dropping the tables they created",
    instead: "roll back one batch after checking what it drops, or ask the user",
  },
  {
    id: "db.dotnet-ef-drop",
    effect: "deny",
    command: { program: ["dotnet", "dotnet-ef"], args: ["**", "database", "drop"] },
    why: "`dotnet ef database drop` deletes the application database",
    instead: "ask the user to drop databases",
  },
];

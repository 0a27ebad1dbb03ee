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
  "mysqlsh",
  "cypher-shell",
  "sqlite-utils",
  "clickhouse-local",
  "ksql",
  "cbq",
  "surreal",
  "edgedb",
  "gel",
];

/** HTTP clients: a request body that drops or truncates goes to a SQL-over-HTTP server (ClickHouse, CrateDB, Databend). */
const http = ["curl", "wget", "http", "https", "xh", "xhs"];

/**
 * File databases whose drops are scratch work: no database named (in memory), `:memory:`, a test
 * database, a file in a temp directory or under a `tmp/` directory.
 */
const scratch = {
  clients: ["sqlite3", "sqlite", "duckdb", "litecli", "sqlite-utils"],
  databases: [":memory:", "file::memory:*", "*/test.*", "*/test_*", "*/test-*", "*_test.*", "*-test.*", "*/tmp/*", "*/scratch*"],
};

/** Commands of the framework consoles that run application code with the database connected. */
const consoles = ["flask", "rails", "bin/rails", "bundle", "spring", "bin/spring", "python", "python3", "python3.*", "py", "manage.py", "django-admin", "php", "artisan", "sail", "./vendor/bin/sail", "vendor/bin/sail", "mix", "iex", "uv", "poetry", "pipenv", "pdm", "hatch", "rye"];

/** Every destructive statement kind. */
const destructive = ["drop-database", "drop-schema", "drop-table", "drop-column", "drop-role", "truncate", "delete-without-where", "update-without-where", "flush-all"] as const;

/** Key-value clients whose operands are commands, and the raw TCP clients that send memcached's or Redis' text protocol. */
const redis = ["redis-cli", "valkey-cli", "keydb-cli", "dragonfly-cli", "nc", "ncat", "netcat", "telnet", "socat"];

/** Runners that start a project's CLI: `npx prisma ...`, `bundle exec rake ...`, `uv run python ...`. */
const runners = ["npx", "pnpx", "bunx", "pnpm", "yarn", "bun", "npm", "bundle", "uv", "poetry", "pipenv", "pdm", "hatch", "rye", "deno", "dotnet", "mix", "go"];
/** JavaScript package runners: `npx sequelize-cli ...`, `pnpm db:reset`. */
const jsRunners = ["npx", "pnpx", "bunx", "pnpm", "yarn", "bun", "npm", "deno"];
const python = ["python", "python3", "python3.*", "py", "manage.py", "django-admin", "django-admin.py", ...runners];

/** Search-cluster URLs whose `DELETE` drops indices: the Elasticsearch/OpenSearch port, `_all`, wildcards; CouchDB databases. */
const SEARCH_URLS = "*:5984/*|*:9200*|*:9243*|*elasticsearch*|*.found.io*|*:9201*|*/_all|*/_all/*|*/_data_stream/*|*:8108/collections/*|*:7700/indexes/*|*.es.*.cloud.es.io*|*opensearch*";

export const databaseRules: readonly RuleSpec[] = [
  {
    id: "db.drop",
    effect: "deny",
    sql: { clients, statements: ["drop-database", "drop-schema", "drop-table", "drop-column", "truncate"], scratch },
    why: "it drops or truncates database objects and their data",
    instead: "write a reviewed migration, or ask the user to run the drop",
  },
  {
    id: "db.drop-over-http",
    effect: "deny",
    sql: { clients: http, statements: ["drop-database", "drop-schema", "drop-table", "truncate"], drivers: false },
    why: "the request sends a statement that drops or truncates database objects to a SQL-over-HTTP server",
    instead: "write a reviewed migration, or ask the user to run the drop",
  },
  {
    id: "db.drop-via-cli",
    effect: "deny",
    // `prisma db execute --stdin`, `typeorm query SQL`, `wrangler d1 execute --command`, `aws rds-data execute-statement --sql`
    sql: {
      clients: ["prisma", "typeorm", "typeorm-ts-node-commonjs", "typeorm-ts-node-esm", "wrangler", "aws", "az", "gcloud", "heroku", "fly", "flyctl", "supabase", "neonctl", "pscale", "npx", "pnpx", "bunx", "pnpm", "yarn", "bun", "npm"],
      statements: [...destructive],
      after: ["execute", "query", "execute-sql", "execute-statement", "batch-execute-statement", "start-query-execution", "pg:psql", "sql"],
    },
    why: "the command sends a statement that drops, truncates or empties database objects",
    instead: "write a reviewed migration, or ask the user to run the statement",
  },
  {
    id: "db.orm-wipe",
    effect: "deny",
    // `rails runner 'User.delete_all'`, `manage.py shell -c '...objects.all().delete()'`, `artisan tinker --execute='User::truncate()'`
    sql: { clients: consoles, statements: [...destructive], after: ["runner", "r", "shell", "tinker", "console", "c", "run", "eval"], code: true },
    why: "the code run in the application's console empties or drops database tables",
    instead: "scope the deletion to the rows you mean (`where(...)`), or ask the user",
  },
  {
    id: "db.drop-role",
    effect: "deny",
    sql: { clients, statements: ["drop-role"] },
    why: "it drops a database user or role and the grants that went with it",
    instead: "ask the user to drop database users",
  },
  {
    id: "db.dropuser",
    effect: "deny",
    command: { program: ["dropuser"], flags_none: ["--help", "-?", "-V", "--version"] },
    why: "`dropuser` deletes a PostgreSQL role and its grants",
    instead: "ask the user to drop database users",
  },
  {
    id: "db.restore-drop",
    effect: "deny",
    command: { program: ["mongorestore", "mongoimport"], flags_any: ["--drop"], flags_none: ["--help", "--dryRun"] },
    why: "`--drop` drops each collection before restoring or importing it, losing what is not in the input",
    instead: "restore into a new database, or ask the user to overwrite the data",
  },
  {
    id: "db.restore-clean",
    effect: "deny",
    command: { program: ["pg_restore"], flags_all: [["-c", "--clean"], ["-d", "--dbname"]], flags_none: ["--help", "-l", "--list"] },
    why: "`pg_restore --clean` drops the database objects before recreating them from the dump",
    instead: "restore into a new database, or ask the user to overwrite the data",
  },
  {
    id: "db.delete-without-where",
    effect: "deny",
    sql: { clients, statements: ["delete-without-where"], scratch },
    why: "a `DELETE` without `WHERE` empties the whole table",
    instead: "add a `WHERE` clause naming the rows to delete",
  },
  {
    id: "db.update-without-where",
    effect: "deny",
    sql: { clients, statements: ["update-without-where"], scratch },
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
      flags_none: ["--help", "-h"],
    },
    why: "it drops and recreates the application database",
    instead: "run migrations with `db:migrate`, or ask the user to reset the database",
  },
  {
    id: "db.django-flush",
    effect: "deny",
    command: { program: python, args: ["**", "*manage.py|django-admin|django-admin.py|django", "flush|reset_db|sqlflush|reset_schema|drop_test_database|delete_squashed_migrations"], flags_none: ["--help", "-h"] },
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
    command: { program: ["prisma"], args: ["migrate", "reset"], flags_none: ["--help", "-h"] },
    why: "`prisma migrate reset` drops the database and every row in it",
    instead: "use `prisma migrate dev` or ask the user to reset the database",
  },
  {
    id: "db.prisma-reset-npx",
    effect: "deny",
    command: { program: runners, args: ["**", "prisma", "migrate", "reset"], flags_none: ["--help", "-h"] },
    why: "`prisma migrate reset` drops the database and every row in it",
    instead: "use `prisma migrate dev` or ask the user to reset the database",
  },
  {
    id: "db.prisma-force-reset",
    effect: "deny",
    command: { program: ["prisma", ...runners], args: ["**", "db", "push"], flags_any: ["--force-reset", "--accept-data-loss"], flags_none: ["--help", "-h"] },
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
    command: { program: ["php", "artisan", "sail", "./vendor/bin/sail", "vendor/bin/sail"], args: ["**", "migrate:fresh|migrate:reset|migrate:refresh|db:wipe|doctrine:database:drop|doctrine:schema:drop|migrate/fresh|migrate/down"], flags_none: ["--help", "-h", "--dump-sql"] },
    why: "it drops every table of the application database",
    instead: "run `migrate` for new migrations, or ask the user to reset the database",
  },
  {
    id: "db.symfony-drop",
    effect: "deny",
    command: {
      program: ["php", "console", "bin/console", "symfony", "doctrine", "vendor/bin/doctrine", "./vendor/bin/doctrine"],
      args: ["**", "doctrine:database:drop|doctrine:schema:drop|d:d:d|d:s:d|orm:schema-tool:drop"],
      flags_none: ["--help", "-h", "--dump-sql"],
    },
    why: "it drops the application database or its schema",
    instead: "write a migration, or ask the user to reset the database",
  },
  {
    id: "db.symfony-fixtures-purge",
    effect: "deny",
    command: { program: ["php", "console", "bin/console", "symfony"], args: ["**", "doctrine:fixtures:load|d:f:l"], flags_none: ["--append", "--help", "-h"] },
    why: "`doctrine:fixtures:load` purges every table before loading the fixtures",
    instead: "load them with `--append`, or ask the user to reset the database",
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
      program: ["flyway", "liquibase", "dbmate", "goose", "diesel", "sqlx", "migrate", "atlas", "sqitch", "supabase", "graphile-migrate", "yii", "phinx", "tern", "sql-migrate", "sea-orm-cli"],
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
  {
    id: "db.migrate-revert-all",
    effect: "deny",
    command: {
      program: ["mix", "iex", "diesel", "migrate", "sqlx", "goose", "dbmate", "sea-orm-cli", "refinery", "tern", "sql-migrate", "node-pg-migrate", "db-migrate"],
      args: ["**", "ecto.rollback|revert|down|rollback"],
      flags_any: ["--all", "-all"],
    },
    why: "it unapplies every migration, dropping every table they created",
    instead: "roll back one migration after checking what it drops, or ask the user",
  },
  {
    id: "db.rails-migrate-zero",
    effect: "deny",
    command: { program: ["rails", "rake", "bin/rails", "bin/rake", "bundle", "spring", "bin/spring"], args: ["**", "db:migrate|db:migrate:down", "**", "VERSION=0"] },
    why: "`db:migrate VERSION=0` unapplies every migration, dropping every table they created",
    instead: "roll back one step with `db:rollback`, or ask the user",
  },
  {
    id: "db.rails-migrate-zero-env",
    effect: "deny",
    command: { program: ["rails", "rake", "bin/rails", "bin/rake", "bundle", "spring", "bin/spring"], args: ["**", "db:migrate|db:migrate:down"], env: { VERSION: ["0"] } },
    why: "`db:migrate VERSION=0` unapplies every migration, dropping every table they created",
    instead: "roll back one step with `db:rollback`, or ask the user",
  },
  {
    id: "db.dotnet-ef-update-zero",
    effect: "deny",
    command: { program: ["dotnet", "dotnet-ef"], args: ["**", "database", "update", "0"] },
    why: "`dotnet ef database update 0` unapplies every migration, dropping every table they created",
    instead: "update to a named migration, or ask the user",
  },
  {
    id: "db.hasura-down-all",
    effect: "deny",
    command: { program: ["hasura"], args: ["**", "migrate", "apply"], option_values: { "--down": ["all"] } },
    why: "`hasura migrate apply --down all` unapplies every migration, dropping every table they created",
    instead: "roll back one migration (`--down 1`), or ask the user",
  },
  {
    id: "db.build-tool-clean",
    effect: "deny",
    command: {
      program: ["mvn", "mvnw", "./mvnw", "gradle", "gradlew", "./gradlew"],
      args: ["**", "flyway:clean|liquibase:dropAll|liquibase:drop-all|flywayClean|dropAll|liquibaseDropAll"],
    },
    why: "the Flyway `clean` / Liquibase `dropAll` goal drops every object in the database schema",
    instead: "run the migrate/update goal, or ask the user to clean the database",
  },
  {
    id: "db.drizzle-drop",
    effect: "deny",
    command: { program: ["drizzle-kit"], args: ["drop"], flags_none: ["--help", "-h"] },
    why: "`drizzle-kit drop` deletes a generated migration and its journal entry",
    instead: "ask the user which migration to drop",
  },
  {
    id: "db.drizzle-drop-runner",
    effect: "deny",
    command: { program: jsRunners, args: ["**", "drizzle-kit", "drop"], flags_none: ["--help", "-h"] },
    why: "`drizzle-kit drop` deletes a generated migration and its journal entry",
    instead: "ask the user which migration to drop",
  },
  {
    id: "db.supabase-stop-no-backup",
    effect: "deny",
    command: { program: ["supabase", ...jsRunners], args: ["**", "stop"], flags_any: ["--no-backup"] },
    why: "`supabase stop --no-backup` deletes the local database's data volumes",
    instead: "stop without `--no-backup` to keep the data",
  },
  {
    id: "db.couchbase-bucket-delete",
    effect: "deny",
    command: { program: ["couchbase-cli"], args: ["bucket-delete|bucket-flush"], flags_none: ["--help", "-h"] },
    why: "it deletes or flushes a Couchbase bucket and every document in it",
    instead: "delete the specific documents, or ask the user",
  },
  {
    id: "db.task-runner-reset",
    effect: "deny",
    // a project's own target named for it: `make db-reset`, `just drop-db`, `task db:reset`
    command: {
      program: ["make", "gmake", "just", "task", "mise", "invoke", "inv", "nx", "turbo"],
      args: ["**", "db-reset|reset-db|db:reset|db_reset|reset_db|resetdb|db-drop|drop-db|db:drop|db_drop|drop_db|dropdb|db-wipe|wipe-db|db:wipe|db-nuke|nuke-db|db-purge|purge-db|db:purge|db:fresh|db-fresh|fresh-db"],
      flags_none: ["-n", "--dry-run", "--just-print", "--help"],
    },
    why: "the project's task by that name drops or resets the database",
    instead: "run the migrations, or ask the user to reset the database",
  },
  {
    id: "db.cargo-sqlx-drop",
    effect: "deny",
    command: { program: ["cargo"], args: ["sqlx", "database", "drop|reset"], flags_none: ["--help", "-h"] },
    why: "`cargo sqlx database drop|reset` deletes the application database",
    instead: "run `cargo sqlx migrate run`, or ask the user to reset the database",
  },
  {
    id: "db.mysqlimport-delete",
    effect: "deny",
    command: { program: ["mysqlimport", "mariadb-import"], flags_any: ["--delete", "-d"], flags_none: ["--help", "-?"] },
    why: "`mysqlimport --delete` empties each table before importing into it",
    instead: "import without `--delete`, or ask the user to replace the data",
  },
  {
    id: "db.zookeeper-delete-recursive",
    effect: "deny",
    command: { program: ["zkCli.sh", "zkCli", "zookeeper-shell", "zookeeper-shell.sh", "zkcli"], args: ["**", "deleteall|rmr"] },
    why: "`deleteall`/`rmr` deletes a ZooKeeper node and everything under it",
    instead: "delete the specific nodes you mean with `delete`",
  },
  {
    id: "db.search-delete-by-query",
    effect: "deny",
    command: { program: ["curl", "xh", "http", "https", "wget"], args: ["**", "*/_delete_by_query*"] },
    why: "`_delete_by_query` deletes every document the query matches (with `match_all`, the whole index)",
    instead: "delete the specific documents by id, or ask the user to run the bulk deletion",
  },
];

import { describe, expect, it } from "vitest";
import { spawnsWithoutBound } from "../../src/policy/spawn.ts";
import { classifyCode, classifyKeyDeletion, classifySql } from "../../src/policy/sql.ts";

describe("classifySql", () => {
  it.each<[string, string[]]>([
    ["DROP DATABASE prod;", ["drop-database"]],
    ["drop table users", ["drop-table"]],
    ["select 1; DROP SCHEMA public CASCADE", ["drop-schema"]],
    ["TRUNCATE orders", ["truncate"]],
    ["DELETE FROM users", ["delete-without-where"]],
    ["DELETE FROM users WHERE id = 3", []],
    ["SELECT 'DROP TABLE users'", []],
    ["-- DROP TABLE users\nSELECT 1", []],
    ["/* DROP DATABASE x */ SELECT 1", []],
    ["SELECT $$ DROP TABLE x $$", []],
    ['CREATE TABLE "drop table" (id int)', []],
    ["FLUSHALL", ["flush-all"]],
    ["insert into t values ('it''s; DROP TABLE x')", []],
    ["DROP KEYSPACE shop", ["drop-database"]],
    ["DROP OWNED BY app", ["drop-schema"]],
    ["DROP MATERIALIZED VIEW stats", ["drop-table"]],
    ["DROP TEMPORARY TABLE t", []],
    ["DROP VIEW v", []],
    ["DROP INDEX idx", []],
    ["ALTER TABLE users DROP COLUMN email", ["drop-column"]],
    ["ALTER TABLE events DROP PARTITION p1", ["truncate"]],
    ["ALTER TABLE users DROP CONSTRAINT users_pkey", []],
    ["ALTER TABLE users ADD COLUMN bio text", []],
    ["UPDATE users SET active = false", ["update-without-where"]],
    ["UPDATE users SET active = false WHERE id = 1", []],
    ["db.dropDatabase()", ["drop-database"]],
    ["db.orders.drop()", ["drop-table"]],
    ["db.getCollection('x').drop()", ["drop-table"]],
    ["db.users.deleteMany({})", ["delete-without-where"]],
    ["db.users.deleteMany({ inactive: true })", []],
    ["db.users.find().limit(5)", []],
    // constant conditions are no condition
    ["DELETE FROM users WHERE 1=1", ["delete-without-where"]],
    ["delete from users where true", ["delete-without-where"]],
    ["DELETE FROM users WHERE 'a' = 'a'", ["delete-without-where"]],
    ["DELETE FROM users WHERE id = 1 AND 1 = 1", []],
    ["DELETE dbo.Users", ["delete-without-where"]],
    ["UPDATE users SET x = 1 WHERE 1", ["update-without-where"]],
    // statements among others, meta-commands, batches
    [".headers on\nDELETE FROM users;", ["delete-without-where"]],
    ["\\c app\nDROP TABLE users;", ["drop-table"]],
    ["SELECT 1\nGO\nDROP TABLE users\nGO", ["drop-table"]],
    ["CREATE TABLE t (id int)\nDROP TABLE users", ["drop-table"]],
    ["SELECT 1;\\nTRUNCATE orders", ["truncate"]],
    ["WITH d AS (DELETE FROM users RETURNING *) SELECT count(*) FROM d", ["delete-without-where"]],
    ["EXPLAIN ANALYZE DELETE FROM users", ["delete-without-where"]],
    ["EXPLAIN DELETE FROM users", []],
    // statement text run by other statements
    ["DO $$ BEGIN EXECUTE 'DROP SCHEMA public CASCADE'; END $$", ["drop-schema"]],
    ["EXEC sp_MSforeachtable 'DROP TABLE ?'", ["drop-table"]],
    ["select format('drop table %I', tablename) from pg_tables \\gexec", ["drop-table"]],
    ["select format('drop table %I', tablename) from pg_tables", []],
    ["EVAL return redis.call('FLUSHALL') 0", ["flush-all"]],
    // objects
    ["DROP USER deploy", ["drop-role"]],
    ["DROP MEASUREMENT cpu", ["drop-table"]],
    ["ALTER TABLE users DROP email", ["drop-column"]],
    ["ALTER TABLE users ALTER COLUMN email DROP NOT NULL", []],
    ["ALTER TABLE orders DROP FOREIGN KEY fk_user", []],
    ["ALTER TABLE events DELETE WHERE 1", ["delete-without-where"]],
    ["ALTER TABLE events DELETE WHERE day < today()", []],
    ["ALTER TABLE a ADD CONSTRAINT fk FOREIGN KEY (b) REFERENCES b(id) ON DELETE CASCADE", []],
    ["MATCH (n) DETACH DELETE n", ["delete-without-where"]],
    ["MATCH (n:User {id: 1}) DELETE n", []],
    ["MATCH (n:Session) WHERE n.expires < timestamp() DELETE n", []],
    ["flush_all", ["flush-all"]],
    // document databases
    ["db.runCommand({dropDatabase: 1})", ["drop-database"]],
    ["db.runCommand({drop: 'users'})", ["drop-table"]],
    ["db.users.updateMany({}, {$set: {a: 1}})", ["update-without-where"]],
    ["db.users.updateMany({a: 0}, {$set: {a: 1}})", []],
  ])("%j → %j", (sql, kinds) => {
    expect(classifySql(sql)).toEqual(kinds);
  });
});

describe("classifyCode", () => {
  it.each<[string, string[]]>([
    ["User.delete_all", ["delete-without-where"]],
    ["User.all.destroy_all", ["delete-without-where"]],
    ["Post.where(draft: true).delete_all", []],
    ["Order.objects.all().delete()", ["delete-without-where"]],
    ["Order.objects.filter(paid=False).delete()", []],
    ["User::truncate()", ["truncate"]],
    ["DB::table('users')->delete()", ["delete-without-where"]],
    ["User::where('id', 5)->delete()", []],
    ["Repo.delete_all(User)", ["delete-without-where"]],
    ["Base.metadata.drop_all(engine)", ["drop-table"]],
    ["sequelize.sync({ force: true })", ["drop-table"]],
    ["import sqlite3; c = sqlite3.connect(':memory:'); c.execute('drop table t')", []],
    ["import sqlite3; sqlite3.connect('app.db').execute('DROP TABLE t')", ["drop-table"]],
    ["print('delete from x')", []],
  ])("%j → %j", (code, kinds) => {
    expect(classifyCode(code)).toEqual(kinds);
  });
});

describe("classifyKeyDeletion", () => {
  it.each<[string[], string[], string[]]>([
    [["--scan"], ["del"], ["flush-all"]],
    [["KEYS", "*"], ["DEL"], ["flush-all"]],
    [["--scan", "--pattern", "cache:*"], ["del"], []],
    [["KEYS", "tmp:*"], ["unlink"], []],
    [["--scan"], ["get"], []],
  ])("%j | %j → %j", (listing, deletion, kinds) => {
    expect(classifyKeyDeletion(listing, deletion)).toEqual(kinds);
  });
});

describe("spawnsWithoutBound", () => {
  it.each<[string, boolean]>([
    ["fork while fork", true],
    ["while(1){fork}", true],
    ["import os\nwhile True: os.fork()", true],
    ["[os.fork() for _ in iter(int, 1)]", true],
    ["loop { fork }", true],
    ["for(;;) require('child_process').fork(__filename)", true],
    ["import os; os.fork()", false],
    ["for i in range(4): subprocess.run(['make'])", false],
    ["setInterval(() => console.log(1), 1000)", false],
    ["while True: time.sleep(1)", false],
  ])("%j → %s", (code, expected) => {
    expect(spawnsWithoutBound(code)).toBe(expected);
  });
});

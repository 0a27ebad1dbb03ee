import { describe, expect, it } from "vitest";
import { spawnsWithoutBound } from "../../src/policy/spawn.ts";
import { classifySql } from "../../src/policy/sql.ts";

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
  ])("%j → %j", (sql, kinds) => {
    expect(classifySql(sql)).toEqual(kinds);
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

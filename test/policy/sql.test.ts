import { describe, expect, it } from "vitest";
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
  ])("%j → %j", (sql, kinds) => {
    expect(classifySql(sql)).toEqual(kinds);
  });
});

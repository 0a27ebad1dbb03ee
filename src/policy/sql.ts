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

/** The destructive statement kinds in `sql`, in order of appearance, without repeats. */
export function classifySql(sql: string): SqlKind[] {
  const kinds = new Set<SqlKind>();
  for (const tokens of statements(sql)) {
    const [first, second] = tokens;
    if (first === "DROP" && (second === "DATABASE" || second === "SCHEMA" || second === "TABLE")) {
      kinds.add(second === "DATABASE" ? "drop-database" : second === "SCHEMA" ? "drop-schema" : "drop-table");
    } else if (first === "TRUNCATE") {
      kinds.add("truncate");
    } else if (first === "DELETE" && tokens.includes("FROM") && !tokens.includes("WHERE")) {
      kinds.add("delete-without-where");
    } else if (first === "FLUSHALL" || first === "FLUSHDB") {
      kinds.add("flush-all");
    }
  }
  return [...kinds];
}

/**
 * Helpers shared by the converters from a Lezer syntax tree to the code model (`ast.ts`): the
 * children of a node, its text, the string escapes of both languages.
 */
import type { SyntaxNode } from "@lezer/common";
import type { Expr } from "./ast.ts";

/** The children of a node, comments left out. */
export function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let c = node.firstChild; c !== null; c = c.nextSibling)
    if (c.name !== "Comment" && c.name !== "LineComment" && c.name !== "BlockComment") out.push(c);
  return out;
}

/** Counts what a converter reads, for the analysis budget, and the syntax errors it met. */
export class Reader {
  nodes = 0;
  errors = 0;
  constructor(readonly code: string) {}
  text(node: SyntaxNode): string {
    return this.code.slice(node.from, node.to);
  }
  kids(node: SyntaxNode): SyntaxNode[] {
    this.nodes++;
    const out = children(node);
    for (const c of out) if (c.type.isError) this.errors++;
    return out;
  }
  /** An expression of unknown value whose children are `exprs`. */
  unknown(node: SyntaxNode, exprs: readonly Expr[]): Expr {
    return { k: "unknown", children: exprs, from: node.from, to: node.to };
  }
}

const SIMPLE: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "0": "\0",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "`": "`",
  $: "$",
  "{": "{",
  "}": "}",
};

/** Decodes backslash escapes (`\n`, `\x41`, `\u0041`, `\u{1F600}`, line continuations); unknown ones keep the backslash when `keep`. */
export function unescape(body: string, keep: boolean): string {
  if (!body.includes("\\")) return body;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== "\\" || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[++i] as string;
    const hex = (len: number): boolean => {
      const digits = body.slice(i + 1, i + 1 + len);
      if (digits.length !== len || !/^[0-9a-fA-F]+$/.test(digits)) return false;
      out += String.fromCodePoint(parseInt(digits, 16));
      i += len;
      return true;
    };
    if (n === "\n") continue;
    if (n === "\r") {
      if (body[i + 1] === "\n") i++;
      continue;
    }
    if (Object.hasOwn(SIMPLE, n) && !(keep && (n === "$" || n === "{" || n === "}" || n === "`"))) {
      out += SIMPLE[n] as string;
      continue;
    }
    if (n === "x" && hex(2)) continue;
    if (n === "u" && body[i + 1] === "{") {
      const close = body.indexOf("}", i);
      const digits = body.slice(i + 2, close);
      if (close > 0 && /^[0-9a-fA-F]{1,6}$/.test(digits)) {
        out += String.fromCodePoint(Math.min(parseInt(digits, 16), 0x10ffff));
        i = close;
        continue;
      }
    }
    if (n === "u" && hex(4)) continue;
    if (n === "U" && hex(8)) continue;
    out += keep ? `\\${n}` : n;
  }
  return out;
}

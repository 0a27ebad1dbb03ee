/**
 * The code model the interpreter analysis reads: a small syntax tree shared by Python and
 * JavaScript/TypeScript, built from each language's parser (`python.ts`, `javascript.ts`) and read
 * by `interpret.ts`. It keeps what decides what code does (names, attributes, calls, strings and
 * their interpolations, assignments, imports, functions, loops, branches) and folds the rest into
 * `unknown` nodes whose children are still read for their calls. Positions are offsets in the code.
 */

/** An expression. */
export type Expr =
  | { readonly k: "str"; readonly v: string; readonly from: number; readonly to: number }
  | { readonly k: "num"; readonly v: number; readonly from: number; readonly to: number }
  /** `True`, `false`, `None`, `null`, `undefined`. */
  | { readonly k: "const"; readonly v: boolean | null; readonly from: number; readonly to: number }
  /** An f-string or template literal: literal text and interpolated expressions, in order. */
  | { readonly k: "tmpl"; readonly parts: readonly (string | Expr)[]; readonly from: number; readonly to: number }
  | { readonly k: "name"; readonly name: string; readonly from: number; readonly to: number }
  | { readonly k: "attr"; readonly obj: Expr; readonly name: string; readonly from: number; readonly to: number }
  | { readonly k: "index"; readonly obj: Expr; readonly index: Expr; readonly from: number; readonly to: number }
  | {
      readonly k: "call";
      readonly fn: Expr;
      readonly args: readonly Arg[];
      /** `new X(...)`. */
      readonly isNew: boolean;
      readonly from: number;
      readonly to: number;
    }
  /** A binary or logical operator (`+`, `/`, `%`, `or`, `||`, `??`, `==`, `in`). */
  | {
      readonly k: "bin";
      readonly op: string;
      readonly l: Expr;
      readonly r: Expr;
      readonly from: number;
      readonly to: number;
    }
  | { readonly k: "not"; readonly e: Expr; readonly from: number; readonly to: number }
  | {
      readonly k: "cond";
      readonly test: Expr;
      readonly then: Expr;
      readonly else: Expr;
      readonly from: number;
      readonly to: number;
    }
  /** A list, tuple, set or array literal. */
  | { readonly k: "list"; readonly items: readonly Expr[]; readonly from: number; readonly to: number }
  /** A dict or object literal; a `key` of `undefined` is a spread (`**d`, `...o`). */
  | {
      readonly k: "dict";
      readonly entries: readonly { readonly key: string | Expr | undefined; readonly value: Expr }[];
      readonly from: number;
      readonly to: number;
    }
  /** `*x`, `...x` in a list or call. */
  | { readonly k: "spread"; readonly e: Expr; readonly from: number; readonly to: number }
  /** A lambda, arrow function or function expression. */
  | { readonly k: "func"; readonly def: FunctionDef; readonly from: number; readonly to: number }
  /** A comprehension or generator: `elt` for each binding of the clauses. */
  | {
      readonly k: "comp";
      readonly elt: Expr;
      readonly clauses: readonly { readonly target: Target; readonly iter: Expr; readonly conds: readonly Expr[] }[];
      readonly from: number;
      readonly to: number;
    }
  /** An assignment used as a value (`(x := 1)`, `a = b = 1` in JavaScript). */
  | { readonly k: "assign"; readonly target: Target; readonly value: Expr; readonly from: number; readonly to: number }
  /** Anything else: its value is unknown, its children are still read. */
  | { readonly k: "unknown"; readonly children: readonly Expr[]; readonly from: number; readonly to: number };

/** A call argument: positional, keyword (`name=`), or spread (`*args`, `**kw`, `...xs`). */
export interface Arg {
  readonly name?: string;
  readonly spread?: "list" | "dict";
  readonly value: Expr;
}

/** What an assignment or loop binds. */
export type Target =
  | { readonly k: "name"; readonly name: string }
  | { readonly k: "attr"; readonly obj: Expr; readonly name: string }
  | { readonly k: "index"; readonly obj: Expr; readonly index: Expr }
  /** `a, b = ...`, `[a, b] = ...`; a `rest` item is `*a` / `...a`. */
  | { readonly k: "tuple"; readonly items: readonly Target[]; readonly rest?: number }
  /** `{ a, b: c } = ...`. */
  | { readonly k: "object"; readonly props: readonly { readonly key: string; readonly target: Target }[] }
  | { readonly k: "none" };

/** A function: its parameters (with defaults) and body. */
export interface FunctionDef {
  readonly name: string | undefined;
  readonly params: readonly Param[];
  /** Statements, or the one expression of a lambda or arrow function. */
  readonly body: readonly Stmt[] | Expr;
  /** Decorated (`@app.route(...)`): something else calls it. */
  readonly decorated: boolean;
}

export interface Param {
  readonly target: Target;
  readonly default?: Expr;
  /** `*args` / `...rest` (`list`), `**kwargs` (`dict`). */
  readonly rest?: "list" | "dict";
}

/** One import binding: `local` is bound to `module` or to `module.name`. */
export interface ImportName {
  readonly local: string;
  readonly module: string;
  /** The imported member (`from m import x`, `import { x } from "m"`); absent for the module itself. */
  readonly name?: string;
}

/** A statement. */
export type Stmt =
  | { readonly k: "expr"; readonly e: Expr }
  | { readonly k: "assign"; readonly targets: readonly Target[]; readonly value: Expr; readonly op?: string }
  | { readonly k: "import"; readonly names: readonly ImportName[] }
  | { readonly k: "def"; readonly def: FunctionDef }
  | { readonly k: "class"; readonly name: string; readonly body: readonly Stmt[] }
  | { readonly k: "if"; readonly test: Expr; readonly then: readonly Stmt[]; readonly else: readonly Stmt[] }
  | { readonly k: "for"; readonly target: Target; readonly iter: Expr; readonly body: readonly Stmt[] }
  /** `while`, `do ... while`, `for (;;)`: the body runs some number of times. */
  | { readonly k: "loop"; readonly test: Expr | undefined; readonly body: readonly Stmt[] }
  | {
      readonly k: "with";
      readonly items: readonly { readonly e: Expr; readonly target?: Target }[];
      readonly body: readonly Stmt[];
    }
  /** `try`, blocks, `switch` cases: every part may run. */
  | { readonly k: "block"; readonly parts: readonly (readonly Stmt[])[] }
  | { readonly k: "return"; readonly e: Expr | undefined };

/** A parsed program: its statements and whether the parser had to recover from errors. */
export interface Program {
  readonly body: readonly Stmt[];
  readonly errors: number;
  /** Syntax nodes read, for the analysis budget. */
  readonly nodes: number;
}

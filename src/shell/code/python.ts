/**
 * Python code as the code model (`ast.ts`), from the Lezer Python parser (`@lezer/python`):
 * error-tolerant, so a snippet with a typo still yields the statements around it.
 */
import type { SyntaxNode } from "@lezer/common";
import { parser } from "@lezer/python";
import type { Arg, Expr, FunctionDef, ImportName, Param, Program, Stmt, Target } from "./ast.ts";
import { Reader, unescape } from "./syntax.ts";

const BINARY_OPS = new Set(["ArithOp", "BitOp", "CompareOp", "or", "and", "in", "not", "is", "@", "*", "**"]);
const SKIP = new Set(["(", ")", "[", "]", "{", "}", ",", ":", ";", "."]);

/** A Python string literal's value (prefixes, triple quotes, raw strings). */
function stringValue(text: string): string | undefined {
  const m = /^([rRbBuU]{0,2})('''|"""|'|")/.exec(text);
  if (m === null) return undefined;
  const quote = m[2] as string;
  const body = text.slice(m[0].length, text.length - quote.length);
  if (!text.endsWith(quote) || text.length < m[0].length + quote.length) return undefined;
  return /[rR]/.test(m[1] as string) ? body : unescape(body, true);
}

class PythonReader extends Reader {
  program(node: SyntaxNode): Stmt[] {
    return this.statements(this.kids(node));
  }

  statements(nodes: readonly SyntaxNode[]): Stmt[] {
    const out: Stmt[] = [];
    for (const n of nodes) out.push(...this.statement(n));
    return out;
  }

  body(node: SyntaxNode | undefined): Stmt[] {
    if (node === undefined) return [];
    return this.statements(this.kids(node).filter((c) => c.name !== ":"));
  }

  statement(node: SyntaxNode): Stmt[] {
    const kids = (): SyntaxNode[] => this.kids(node);
    switch (node.name) {
      case "ExpressionStatement":
      case "ReturnStatement": {
        const exprs = kids()
          .filter((c) => c.name !== "return")
          .map((c) => this.expr(c));
        const e = exprs.length === 1 ? exprs[0] : exprs.length === 0 ? undefined : this.tuple(node, exprs);
        if (node.name === "ReturnStatement") return [{ k: "return", e }];
        return e === undefined ? [] : [{ k: "expr", e }];
      }
      case "AssignStatement":
        return [this.assign(kids())];
      case "UpdateStatement": {
        const [target, op, value] = kids();
        if (target === undefined || value === undefined) return [];
        const opText = op === undefined ? "+" : this.text(op).replace("=", "");
        return [{ k: "assign", targets: [this.target(target)], value: this.expr(value), op: opText }];
      }
      case "ImportStatement":
        return [{ k: "import", names: this.imports(kids()) }];
      case "FunctionDefinition":
        return [{ k: "def", def: this.functionDef(node, false) }];
      case "DecoratedStatement": {
        const parts = kids();
        const decorators = parts.filter((c) => c.name === "Decorator");
        const inner = parts.find((c) => c.name === "FunctionDefinition" || c.name === "ClassDefinition");
        const reads: Stmt[] = decorators.flatMap((d) =>
          this.kids(d)
            .filter((c) => c.name !== "At")
            .map((c) => ({ k: "expr" as const, e: this.expr(c) })),
        );
        if (inner?.name === "FunctionDefinition") return [...reads, { k: "def", def: this.functionDef(inner, true) }];
        return [...reads, ...(inner === undefined ? [] : this.statement(inner))];
      }
      case "ClassDefinition": {
        const parts = kids();
        const name = parts.find((c) => c.name === "VariableName");
        const bases = parts.find((c) => c.name === "ArgList");
        const reads: Stmt[] =
          bases === undefined
            ? []
            : [
                {
                  k: "expr",
                  e: this.unknown(
                    bases,
                    this.args(bases).map((a) => a.value),
                  ),
                },
              ];
        return [
          ...reads,
          {
            k: "class",
            name: name === undefined ? "" : this.text(name),
            body: this.body(parts.find((c) => c.name === "Body")),
          },
        ];
      }
      case "IfStatement":
        return [this.ifChain(kids())];
      case "WhileStatement": {
        const parts = kids();
        const test = parts[1] === undefined || parts[1].name === "Body" ? undefined : this.expr(parts[1]);
        const bodies = parts.filter((c) => c.name === "Body");
        return [
          { k: "loop", test, body: this.body(bodies[0]) },
          ...(bodies[1] === undefined ? [] : this.body(bodies[1])),
        ];
      }
      case "ForStatement": {
        const parts = kids();
        const at = parts.findIndex((c) => c.name === "in");
        const bodies = parts.filter((c) => c.name === "Body");
        const targets = parts
          .slice(1, at < 0 ? 1 : at)
          .filter((c) => c.name !== "," && c.name !== "async" && c.name !== "for");
        const iterNode = at < 0 ? undefined : parts.slice(at + 1).find((c) => c.name !== "Body");
        const target: Target =
          targets.length === 1
            ? this.target(targets[0] as SyntaxNode)
            : { k: "tuple", items: targets.map((t) => this.target(t)) };
        const iter: Expr = iterNode === undefined ? this.unknown(node, []) : this.expr(iterNode);
        return [
          { k: "for", target, iter, body: this.body(bodies[0]) },
          ...(bodies[1] === undefined ? [] : this.body(bodies[1])),
        ];
      }
      case "TryStatement": {
        const parts = kids();
        const reads = parts
          .filter(
            (c) => c.name !== "Body" && c.name !== "VariableName" && !/^(try|except|finally|else|as)$/.test(c.name),
          )
          .map((c) => ({ k: "expr" as const, e: this.expr(c) }));
        return [...reads, { k: "block", parts: parts.filter((c) => c.name === "Body").map((b) => this.body(b)) }];
      }
      case "WithStatement": {
        const parts = kids().filter((c) => c.name !== "with" && c.name !== "async");
        const items: { e: Expr; target?: Target }[] = [];
        let body: Stmt[] = [];
        for (let i = 0; i < parts.length; i++) {
          const c = parts[i] as SyntaxNode;
          if (c.name === "Body") body = this.body(c);
          else if (c.name === ",") continue;
          else if (c.name === "as" && items.length > 0 && parts[i + 1] !== undefined) {
            const last = items.pop() as { e: Expr };
            items.push({ e: last.e, target: this.target(parts[i + 1] as SyntaxNode) });
            i++;
          } else items.push({ e: this.expr(c) });
        }
        return [{ k: "with", items, body }];
      }
      case "MatchStatement": {
        const parts = kids();
        const subject = parts[1];
        const clauses = parts.find((c) => c.name === "MatchBody");
        const bodies =
          clauses === undefined
            ? []
            : this.kids(clauses)
                .filter((c) => c.name === "MatchClause")
                .map((c) => this.body(this.kids(c).find((x) => x.name === "Body")));
        return [
          ...(subject === undefined ? [] : [{ k: "expr" as const, e: this.expr(subject) }]),
          { k: "block", parts: bodies },
        ];
      }
      case "StatementGroup":
      case "Body":
        return this.statements(kids().filter((c) => c.name !== ";" && c.name !== ":"));
      case "DeleteStatement":
      case "RaiseStatement":
      case "AssertStatement":
      case "PrintStatement":
      case "YieldStatement":
        return kids()
          .filter((c) => !SKIP.has(c.name) && !/^(del|raise|assert|print|from|yield)$/.test(c.name))
          .map((c) => ({ k: "expr" as const, e: this.expr(c) }));
      default:
        if (node.type.isError) {
          this.errors++;
          return this.statements(kids());
        }
        return [];
    }
  }

  ifChain(parts: readonly SyntaxNode[]): Stmt {
    // if TEST BODY (elif TEST BODY)* (else BODY)?
    const test = parts[1];
    const body = parts[2];
    const rest = parts.slice(3);
    const then = this.body(body);
    let otherwise: Stmt[] = [];
    if (rest[0]?.name === "elif") otherwise = [this.ifChain(rest)];
    else if (rest[0]?.name === "else") otherwise = this.body(rest[1]);
    return {
      k: "if",
      test: test === undefined ? { k: "const", v: null, from: 0, to: 0 } : this.expr(test),
      then,
      else: otherwise,
    };
  }

  assign(parts: readonly SyntaxNode[]): Stmt {
    // segments between `=`: every segment but the last is a target
    const segments: SyntaxNode[][] = [[]];
    for (const c of parts) {
      if (c.name === "AssignOp") segments.push([]);
      else if (c.name !== "TypeDef") (segments.at(-1) as SyntaxNode[]).push(c);
    }
    const value = segments.pop() as SyntaxNode[];
    const targets = segments.map((s) => this.targetList(s));
    const exprs = value.filter((c) => c.name !== ",").map((c) => this.expr(c));
    const first = value[0];
    const e: Expr =
      exprs.length === 1 && !value.some((c) => c.name === ",")
        ? (exprs[0] as Expr)
        : first === undefined
          ? { k: "const", v: null, from: 0, to: 0 }
          : { k: "list", items: exprs, from: first.from, to: (value.at(-1) as SyntaxNode).to };
    return { k: "assign", targets, value: e };
  }

  targetList(nodes: readonly SyntaxNode[]): Target {
    const items = nodes.filter((c) => c.name !== ",");
    if (items.length === 1 && !nodes.some((c) => c.name === ",")) return this.target(items[0] as SyntaxNode);
    return this.tupleTarget(items);
  }

  tupleTarget(items: readonly SyntaxNode[]): Target {
    const out: Target[] = [];
    let rest: number | undefined;
    for (let i = 0; i < items.length; i++) {
      const c = items[i] as SyntaxNode;
      if (c.name === "*") {
        rest = out.length;
        continue;
      }
      out.push(this.target(c));
    }
    return rest === undefined ? { k: "tuple", items: out } : { k: "tuple", items: out, rest };
  }

  target(node: SyntaxNode): Target {
    switch (node.name) {
      case "VariableName":
        return { k: "name", name: this.text(node) };
      case "MemberExpression": {
        const e = this.expr(node);
        if (e.k === "attr") return { k: "attr", obj: e.obj, name: e.name };
        if (e.k === "index") return { k: "index", obj: e.obj, index: e.index };
        return { k: "none" };
      }
      case "TupleExpression":
      case "ArrayExpression":
      case "ParenthesizedExpression":
        return this.tupleTarget(this.kids(node).filter((c) => !SKIP.has(c.name)));
      default:
        return { k: "none" };
    }
  }

  imports(parts: readonly SyntaxNode[]): ImportName[] {
    const out: ImportName[] = [];
    if (parts[0]?.name === "from") {
      let i = 1;
      let module = "";
      while (i < parts.length && parts[i]?.name !== "import") {
        module += this.text(parts[i] as SyntaxNode);
        i++;
      }
      const names = parts.slice(i + 1).filter((c) => c.name !== "(" && c.name !== ")" && c.name !== ",");
      for (let j = 0; j < names.length; j++) {
        const n = names[j] as SyntaxNode;
        if (n.name === "*") {
          out.push({ local: "*", module });
          continue;
        }
        if (n.name !== "VariableName") continue;
        const name = this.text(n);
        let local = name;
        if (names[j + 1]?.name === "as" && names[j + 2] !== undefined) {
          local = this.text(names[j + 2] as SyntaxNode);
          j += 2;
        }
        out.push({ local, module, name });
      }
      return out;
    }
    // import a.b.c [as x], d
    let dotted: string[] = [];
    const flush = (alias: string | undefined): void => {
      if (dotted.length === 0) return;
      const module = dotted.join(".");
      // `import a.b` binds `a` (to the package); `import a.b as x` binds `x` to `a.b`
      out.push(
        alias === undefined ? { local: dotted[0] as string, module: dotted[0] as string } : { local: alias, module },
      );
      dotted = [];
    };
    for (let i = 1; i < parts.length; i++) {
      const c = parts[i] as SyntaxNode;
      if (c.name === "VariableName") dotted.push(this.text(c));
      else if (c.name === "as" && parts[i + 1] !== undefined) {
        flush(this.text(parts[i + 1] as SyntaxNode));
        i++;
      } else if (c.name === ",") flush(undefined);
    }
    flush(undefined);
    return out;
  }

  functionDef(node: SyntaxNode, decorated: boolean): FunctionDef {
    const parts = this.kids(node);
    const name = parts.find((c) => c.name === "VariableName");
    const params = parts.find((c) => c.name === "ParamList");
    return {
      name: name === undefined ? undefined : this.text(name),
      params: params === undefined ? [] : this.params(params),
      body: this.body(parts.find((c) => c.name === "Body")),
      decorated,
    };
  }

  params(node: SyntaxNode): Param[] {
    const out: Param[] = [];
    const parts = this.kids(node).filter((c) => c.name !== "(" && c.name !== ")");
    let rest: Param["rest"];
    for (let i = 0; i < parts.length; i++) {
      const c = parts[i] as SyntaxNode;
      if (c.name === "*" || c.name === "**") {
        rest = c.name === "*" ? "list" : "dict";
        continue;
      }
      if (c.name !== "VariableName") continue;
      let def: Expr | undefined;
      let j = i + 1;
      if (parts[j]?.name === "TypeDef") j++;
      if (parts[j]?.name === "AssignOp" && parts[j + 1] !== undefined) {
        def = this.expr(parts[j + 1] as SyntaxNode);
        j++;
      }
      out.push({
        target: { k: "name", name: this.text(c) },
        ...(def !== undefined && { default: def }),
        ...(rest !== undefined && { rest }),
      });
      rest = undefined;
      i = j - 1;
    }
    return out;
  }

  tuple(node: SyntaxNode, items: readonly Expr[]): Expr {
    return { k: "list", items, from: node.from, to: node.to };
  }

  args(node: SyntaxNode): Arg[] {
    const parts = this.kids(node).filter((c) => c.name !== "(" && c.name !== ")");
    // a generator argument: `f(x for x in y)`
    if (parts.some((c) => c.name === "for")) return [{ value: this.comprehension(node, parts) }];
    const out: Arg[] = [];
    for (let i = 0; i < parts.length; i++) {
      const c = parts[i] as SyntaxNode;
      if (c.name === ",") continue;
      if (c.name === "*" || c.name === "**") {
        const v = parts[i + 1];
        if (v !== undefined) out.push({ spread: c.name === "*" ? "list" : "dict", value: this.expr(v) });
        i++;
        continue;
      }
      if (c.name === "VariableName" && parts[i + 1]?.name === "AssignOp" && parts[i + 2] !== undefined) {
        out.push({ name: this.text(c), value: this.expr(parts[i + 2] as SyntaxNode) });
        i += 2;
        continue;
      }
      out.push({ value: this.expr(c) });
    }
    return out;
  }

  /** `elt for t in it if c ...` (also `k: v for ...`), from the parts inside the brackets. */
  comprehension(node: SyntaxNode, parts: readonly SyntaxNode[]): Expr {
    const first = parts.findIndex((c) => c.name === "for");
    const head = parts.slice(0, first).filter((c) => c.name !== "async");
    const colon = head.findIndex((c) => c.name === ":");
    const elt: Expr =
      colon >= 0
        ? this.tuple(
            node,
            head.filter((c) => c.name !== ":").map((c) => this.expr(c)),
          )
        : head.length === 1
          ? this.expr(head[0] as SyntaxNode)
          : this.tuple(
              node,
              head.map((c) => this.expr(c)),
            );
    const clauses: { target: Target; iter: Expr; conds: Expr[] }[] = [];
    let i = first;
    while (i >= 0 && i < parts.length) {
      const at = parts.findIndex((c, j) => j > i && c.name === "in");
      if (at < 0) break;
      const targets = parts.slice(i + 1, at).filter((c) => c.name !== ",");
      let next = parts.findIndex((c, j) => j > at && c.name === "for");
      if (next < 0) next = parts.length;
      const after = parts.slice(at + 1, next).filter((c) => c.name !== "async");
      const ifAt = after.findIndex((c) => c.name === "if");
      const iterNodes = ifAt < 0 ? after : after.slice(0, ifAt);
      const conds =
        ifAt < 0
          ? []
          : after
              .slice(ifAt)
              .filter((c) => c.name !== "if")
              .map((c) => this.expr(c));
      clauses.push({
        target: targets.length === 1 ? this.target(targets[0] as SyntaxNode) : this.tupleTarget(targets),
        iter:
          iterNodes.length === 1
            ? this.expr(iterNodes[0] as SyntaxNode)
            : this.unknown(
                node,
                iterNodes.map((c) => this.expr(c)),
              ),
        conds,
      });
      i = next;
    }
    return { k: "comp", elt, clauses, from: node.from, to: node.to };
  }

  formatString(node: SyntaxNode): Expr {
    const text = this.text(node);
    const m = /^([rRbBfFuU]{0,3})('''|"""|'|")/.exec(text);
    const raw = m !== null && /[rR]/.test(m[1] as string);
    const start = node.from + (m === null ? 0 : m[0].length);
    const end = node.to - (m === null ? 0 : (m[2] as string).length);
    const parts: (string | Expr)[] = [];
    const literal = (from: number, to: number): void => {
      if (to <= from) return;
      const body = this.code.slice(from, to).replaceAll("{{", "{").replaceAll("}}", "}");
      parts.push(raw ? body : unescape(body, true));
    };
    let at = start;
    for (const r of this.kids(node)) {
      if (r.name !== "FormatReplacement") continue;
      literal(at, r.from);
      const inner = this.kids(r).filter((c) => c.name !== "{" && c.name !== "}");
      const value = inner[0];
      // `{x!r}`, `{x:>10}`, `{x=}`: conversions, format specs and self-documenting forms are not emulated
      const plain = value !== undefined && inner.length === 1;
      parts.push(plain ? this.expr(value) : this.unknown(r, value === undefined ? [] : [this.expr(value)]));
      at = r.to;
    }
    literal(at, end);
    return { k: "tmpl", parts, from: node.from, to: node.to };
  }

  expr(node: SyntaxNode): Expr {
    const { from, to } = node;
    switch (node.name) {
      case "VariableName":
        return { k: "name", name: this.text(node), from, to };
      case "Number": {
        const v = Number(this.text(node).replaceAll("_", ""));
        return { k: "num", v: Number.isFinite(v) ? v : 0, from, to };
      }
      case "Boolean":
        return { k: "const", v: this.text(node) === "True", from, to };
      case "None":
        return { k: "const", v: null, from, to };
      case "String": {
        const v = stringValue(this.text(node));
        return v === undefined ? this.unknown(node, []) : { k: "str", v, from, to };
      }
      case "FormatString":
        return this.formatString(node);
      case "ContinuedString": {
        const parts = this.kids(node).map((c) => this.expr(c));
        return { k: "tmpl", parts: parts.map((p) => (p.k === "str" ? p.v : p)), from, to };
      }
      case "ParenthesizedExpression": {
        const inner = this.kids(node).filter((c) => c.name !== "(" && c.name !== ")");
        return inner.length === 1
          ? this.expr(inner[0] as SyntaxNode)
          : this.unknown(
              node,
              inner.map((c) => this.expr(c)),
            );
      }
      case "TupleExpression":
      case "ArrayExpression":
      case "SetExpression": {
        const items = this.kids(node)
          .filter((c) => !SKIP.has(c.name))
          .map((c) => this.expr(c));
        return { k: "list", items, from, to };
      }
      case "DictionaryExpression": {
        const parts = this.kids(node).filter((c) => c.name !== "{" && c.name !== "}");
        const entries: { key: string | Expr | undefined; value: Expr }[] = [];
        for (let i = 0; i < parts.length; i++) {
          const c = parts[i] as SyntaxNode;
          if (c.name === ",") continue;
          if (c.name === "**" && parts[i + 1] !== undefined) {
            entries.push({ key: undefined, value: this.expr(parts[i + 1] as SyntaxNode) });
            i++;
            continue;
          }
          if (parts[i + 1]?.name === ":" && parts[i + 2] !== undefined) {
            const key = this.expr(c);
            entries.push({ key: key.k === "str" ? key.v : key, value: this.expr(parts[i + 2] as SyntaxNode) });
            i += 2;
          }
        }
        return { k: "dict", entries, from, to };
      }
      case "ArrayComprehensionExpression":
      case "ComprehensionExpression":
      case "SetComprehensionExpression":
      case "DictionaryComprehensionExpression":
        return this.comprehension(
          node,
          this.kids(node).filter((c) => !["(", ")", "[", "]", "{", "}"].includes(c.name)),
        );
      case "CallExpression": {
        const [fn, argList] = this.kids(node);
        if (fn === undefined) return this.unknown(node, []);
        return {
          k: "call",
          fn: this.expr(fn),
          args: argList === undefined ? [] : this.args(argList),
          isNew: false,
          from,
          to,
        };
      }
      case "MemberExpression": {
        const parts = this.kids(node);
        const obj = parts[0];
        if (obj === undefined) return this.unknown(node, []);
        const o = this.expr(obj);
        if (parts[1]?.name === "." && parts[2] !== undefined)
          return { k: "attr", obj: o, name: this.text(parts[2]), from, to };
        const inside = parts.slice(2, -1);
        if (inside.length === 1) return { k: "index", obj: o, index: this.expr(inside[0] as SyntaxNode), from, to };
        // a slice (`a[1:]`, `a[::2]`): an unknown part of the object
        return this.unknown(node, [o, ...inside.filter((c) => c.name !== ":").map((c) => this.expr(c))]);
      }
      case "BinaryExpression": {
        const parts = this.kids(node);
        const l = parts[0];
        const r = parts.at(-1);
        const ops = parts.slice(1, -1);
        if (l === undefined || r === undefined || ops.length === 0 || !ops.every((o) => BINARY_OPS.has(o.name)))
          return this.unknown(
            node,
            parts.map((c) => this.expr(c)),
          );
        return { k: "bin", op: ops.map((o) => this.text(o)).join(" "), l: this.expr(l), r: this.expr(r), from, to };
      }
      case "UnaryExpression": {
        const [op, e] = this.kids(node);
        if (op === undefined || e === undefined) return this.unknown(node, []);
        const inner = this.expr(e);
        if (op.name === "not") return { k: "not", e: inner, from, to };
        if (this.text(op) === "-" && inner.k === "num") return { k: "num", v: -inner.v, from, to };
        return this.unknown(node, [inner]);
      }
      case "ConditionalExpression": {
        // THEN if TEST else ELSE
        const parts = this.kids(node).filter((c) => c.name !== "if" && c.name !== "else");
        const [a, test, b] = parts;
        if (a === undefined || test === undefined || b === undefined)
          return this.unknown(
            node,
            parts.map((c) => this.expr(c)),
          );
        return { k: "cond", test: this.expr(test), then: this.expr(a), else: this.expr(b), from, to };
      }
      case "LambdaExpression": {
        const parts = this.kids(node);
        const params = parts.find((c) => c.name === "ParamList");
        const body = parts.at(-1);
        const def: FunctionDef = {
          name: undefined,
          params: params === undefined ? [] : this.params(params),
          body: body === undefined || body.name === ":" ? { k: "const", v: null, from, to } : this.expr(body),
          decorated: false,
        };
        return { k: "func", def, from, to };
      }
      case "NamedExpression": {
        const [t, , v] = this.kids(node);
        if (t === undefined || v === undefined) return this.unknown(node, []);
        return { k: "assign", target: this.target(t), value: this.expr(v), from, to };
      }
      case "AwaitExpression": {
        const inner = this.kids(node).find((c) => c.name !== "await");
        return inner === undefined ? this.unknown(node, []) : this.expr(inner);
      }
      default: {
        if (node.type.isError) this.errors++;
        const inner = this.kids(node).filter((c) => !SKIP.has(c.name) && c.firstChild !== null);
        return this.unknown(
          node,
          inner.map((c) => this.expr(c)),
        );
      }
    }
  }
}

/** Python code as the code model. */
export function parsePython(code: string): Program {
  const tree = parser.parse(code);
  const reader = new PythonReader(code);
  const body = reader.program(tree.topNode);
  return { body, errors: reader.errors, nodes: reader.nodes };
}

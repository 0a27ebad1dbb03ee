/**
 * JavaScript and TypeScript code as the code model (`ast.ts`), from the Lezer JavaScript parser
 * (`@lezer/javascript`) in its TypeScript dialect, which reads plain JavaScript too: type
 * annotations, `as` casts and non-null marks are dropped. Error-tolerant like the Python reader.
 */
import type { SyntaxNode } from "@lezer/common";
import { parser as base } from "@lezer/javascript";
import type { Arg, Expr, FunctionDef, ImportName, Param, Program, Stmt, Target } from "./ast.ts";
import { Reader, unescape } from "./syntax.ts";

const PUNCT = new Set(["(", ")", "[", "]", "{", "}", ",", ":", ";", "."]);
const TYPES = new Set([
  "TypeAnnotation",
  "TypeArgList",
  "TypeParamList",
  "TypeName",
  "Optional",
  "TypeAliasDeclaration",
  "InterfaceDeclaration",
  "AmbientDeclaration",
  "Privacy",
  "readonly",
  "declare",
  "static",
  "abstract",
  "override",
  "async",
  "get",
  "set",
  "accessor",
]);

let tsParser: typeof base | undefined;

class JavaScriptReader extends Reader {
  kidsOf(node: SyntaxNode): SyntaxNode[] {
    return this.kids(node).filter((c) => !TYPES.has(c.name));
  }

  statements(nodes: readonly SyntaxNode[]): Stmt[] {
    const out: Stmt[] = [];
    for (const n of nodes) out.push(...this.statement(n));
    return out;
  }

  block(node: SyntaxNode | undefined): Stmt[] {
    if (node === undefined) return [];
    if (node.name === "Block") return this.statements(this.kidsOf(node).filter((c) => !PUNCT.has(c.name)));
    return this.statement(node);
  }

  statement(node: SyntaxNode): Stmt[] {
    const kids = (): SyntaxNode[] => this.kidsOf(node).filter((c) => c.name !== ";");
    switch (node.name) {
      case "ExpressionStatement": {
        const [e] = kids();
        return e === undefined ? [] : [{ k: "expr", e: this.expr(e) }];
      }
      case "VariableDeclaration":
        return this.declaration(kids());
      case "ImportDeclaration":
        return [{ k: "import", names: this.imports(kids()) }];
      case "ExportDeclaration": {
        const parts = kids().filter((c) => c.name !== "export" && c.name !== "default");
        return parts.flatMap((c) =>
          /Declaration$|Statement$/.test(c.name)
            ? this.statement(c)
            : c.name === "ExportGroup" ||
                c.name === "from" ||
                c.name === "String" ||
                c.name === "Star" ||
                c.name === "as" ||
                c.name === "VariableName"
              ? []
              : [{ k: "expr" as const, e: this.expr(c) }],
        );
      }
      case "FunctionDeclaration":
        return [{ k: "def", def: this.functionDef(node) }];
      case "ClassDeclaration": {
        const parts = kids();
        const name = parts.find((c) => c.name === "VariableDefinition");
        return [{ k: "class", name: name === undefined ? "" : this.text(name), body: this.classBody(parts) }];
      }
      case "IfStatement": {
        const parts = kids().filter((c) => c.name !== "if");
        const test = parts[0];
        const elseAt = parts.findIndex((c) => c.name === "else");
        return [
          {
            k: "if",
            test: test === undefined ? { k: "const", v: null, from: 0, to: 0 } : this.expr(test),
            then: this.block(parts[1]?.name === "else" ? undefined : parts[1]),
            else: elseAt < 0 ? [] : this.block(parts[elseAt + 1]),
          },
        ];
      }
      case "ForStatement": {
        const parts = kids();
        const spec = parts.find((c) => c.name === "ForSpec" || c.name === "ForInSpec" || c.name === "ForOfSpec");
        const body = this.block(parts.at(-1) === spec ? undefined : parts.at(-1));
        if (spec === undefined) return [{ k: "loop", test: undefined, body }];
        const inner = this.kidsOf(spec).filter((c) => c.name !== "(" && c.name !== ")");
        if (spec.name === "ForSpec") {
          const init = inner.filter((c) => c.name === "VariableDeclaration").flatMap((c) => this.statement(c));
          const exprs = inner
            .filter((c) => c.name !== "VariableDeclaration" && c.name !== ";")
            .map((c) => ({ k: "expr" as const, e: this.expr(c) }));
          return [...init, { k: "loop", test: undefined, body: [...body, ...exprs] }];
        }
        const at = inner.findIndex((c) => c.name === "of" || c.name === "in");
        const targetNode = inner
          .slice(0, at)
          .find((c) => c.name !== "const" && c.name !== "let" && c.name !== "var" && c.name !== "await");
        const iterNode = inner[at + 1];
        const target = targetNode === undefined ? ({ k: "none" } as const) : this.target(targetNode);
        const iter: Expr = iterNode === undefined ? this.unknown(spec, []) : this.expr(iterNode);
        // `for (k in o)`: the keys of the object
        const keys: Expr =
          spec.name === "ForInSpec"
            ? {
                k: "call",
                fn: { k: "attr", obj: { k: "name", name: "Object", from: 0, to: 0 }, name: "keys", from: 0, to: 0 },
                args: [{ value: iter }],
                isNew: false,
                from: iter.from,
                to: iter.to,
              }
            : iter;
        return [{ k: "for", target, iter: keys, body }];
      }
      case "WhileStatement":
      case "DoStatement": {
        const parts = kids();
        const test = parts.find((c) => c.name === "ParenthesizedExpression");
        const body = parts.find((c) => c !== test && c.name !== "while" && c.name !== "do");
        return [{ k: "loop", test: test === undefined ? undefined : this.expr(test), body: this.block(body) }];
      }
      case "Block":
        return [{ k: "block", parts: [this.block(node)] }];
      case "TryStatement": {
        const parts = kids();
        const blocks: Stmt[][] = [];
        for (const c of parts) {
          if (c.name === "Block") blocks.push(this.block(c));
          else if (c.name === "CatchClause" || c.name === "FinallyClause")
            blocks.push(this.block(this.kidsOf(c).find((x) => x.name === "Block")));
        }
        return [{ k: "block", parts: blocks }];
      }
      case "SwitchStatement": {
        const parts = kids();
        const subject = parts.find((c) => c.name === "ParenthesizedExpression");
        const body = parts.find((c) => c.name === "SwitchBody");
        const cases: Stmt[][] = [];
        let current: SyntaxNode[] = [];
        const reads: Stmt[] = [];
        for (const c of body === undefined ? [] : this.kidsOf(body).filter((x) => !PUNCT.has(x.name))) {
          if (c.name === "CaseLabel" || c.name === "DefaultLabel") {
            if (current.length > 0) cases.push(this.statements(current));
            current = [];
            for (const e of this.kidsOf(c).filter((x) => x.name !== "case" && x.name !== "default" && x.name !== ":"))
              reads.push({ k: "expr", e: this.expr(e) });
          } else current.push(c);
        }
        if (current.length > 0) cases.push(this.statements(current));
        return [
          ...(subject === undefined ? [] : [{ k: "expr" as const, e: this.expr(subject) }]),
          ...reads,
          { k: "block", parts: cases },
        ];
      }
      case "ReturnStatement": {
        const e = kids().find((c) => c.name !== "return");
        return [{ k: "return", e: e === undefined ? undefined : this.expr(e) }];
      }
      case "ThrowStatement": {
        const e = kids().find((c) => c.name !== "throw");
        return e === undefined ? [] : [{ k: "expr", e: this.expr(e) }];
      }
      case "LabeledStatement":
        return this.statements(kids().filter((c) => c.name !== "Label" && c.name !== ":"));
      case "WithStatement": {
        const parts = kids();
        return this.block(parts.at(-1));
      }
      default:
        if (node.type.isError) {
          this.errors++;
          return this.statements(kids());
        }
        return [];
    }
  }

  classBody(parts: readonly SyntaxNode[]): Stmt[] {
    const out: Stmt[] = [];
    const heritage = parts.findIndex((c) => c.name === "extends");
    if (heritage >= 0 && parts[heritage + 1] !== undefined)
      out.push({ k: "expr", e: this.expr(parts[heritage + 1] as SyntaxNode) });
    const body = parts.find((c) => c.name === "ClassBody");
    for (const m of body === undefined ? [] : this.kidsOf(body)) {
      if (m.name === "MethodDeclaration") {
        const inner = this.kidsOf(m);
        const name = inner.find((c) => c.name === "PropertyDefinition" || c.name === "PrivatePropertyDefinition");
        const params = inner.find((c) => c.name === "ParamList");
        out.push({
          k: "def",
          def: {
            name: name === undefined ? undefined : this.text(name),
            params: params === undefined ? [] : this.params(params),
            body: this.block(inner.find((c) => c.name === "Block")),
            decorated: true,
          },
        });
      } else if (m.name === "PropertyDeclaration") {
        const inner = this.kidsOf(m);
        const eq = inner.findIndex((c) => c.name === "Equals");
        if (eq >= 0 && inner[eq + 1] !== undefined) out.push({ k: "expr", e: this.expr(inner[eq + 1] as SyntaxNode) });
      } else if (m.name === "StaticBlock") out.push(...this.block(this.kidsOf(m).find((c) => c.name === "Block")));
    }
    return out;
  }

  declaration(parts: readonly SyntaxNode[]): Stmt[] {
    const out: Stmt[] = [];
    for (let i = 0; i < parts.length; i++) {
      const c = parts[i] as SyntaxNode;
      if (c.name !== "VariableDefinition" && c.name !== "ObjectPattern" && c.name !== "ArrayPattern") continue;
      const target = this.target(c);
      if (parts[i + 1]?.name === "Equals" && parts[i + 2] !== undefined) {
        out.push({ k: "assign", targets: [target], value: this.expr(parts[i + 2] as SyntaxNode) });
        i += 2;
      } else out.push({ k: "assign", targets: [target], value: { k: "const", v: null, from: c.from, to: c.to } });
    }
    return out;
  }

  imports(parts: readonly SyntaxNode[]): ImportName[] {
    const source = parts.find((c) => c.name === "String");
    const module = source === undefined ? "" : (this.stringOf(source) ?? "");
    const out: ImportName[] = [];
    for (let i = 0; i < parts.length; i++) {
      const c = parts[i] as SyntaxNode;
      if (c.name === "VariableDefinition") out.push({ local: this.text(c), module, name: "default" });
      else if (c.name === "Star" && parts[i + 1]?.name === "as" && parts[i + 2] !== undefined) {
        out.push({ local: this.text(parts[i + 2] as SyntaxNode), module });
        i += 2;
      } else if (c.name === "ImportGroup") {
        const inner = this.kidsOf(c).filter((x) => !PUNCT.has(x.name) && x.name !== "type");
        for (let j = 0; j < inner.length; j++) {
          const n = inner[j] as SyntaxNode;
          if (inner[j + 1]?.name === "as" && inner[j + 2] !== undefined) {
            out.push({ local: this.text(inner[j + 2] as SyntaxNode), module, name: this.importedName(n) });
            j += 2;
          } else out.push({ local: this.text(n), module, name: this.importedName(n) });
        }
      }
    }
    return out;
  }

  importedName(node: SyntaxNode): string {
    return node.name === "String" ? (this.stringOf(node) ?? "") : this.text(node);
  }

  functionDef(node: SyntaxNode): FunctionDef {
    const parts = this.kidsOf(node);
    const name = parts.find((c) => c.name === "VariableDefinition");
    const params = parts.find((c) => c.name === "ParamList");
    const body = parts.find((c) => c.name === "Block");
    return {
      name: name === undefined ? undefined : this.text(name),
      params: params === undefined ? [] : this.params(params),
      body: this.block(body),
      decorated: false,
    };
  }

  params(node: SyntaxNode): Param[] {
    // an arrow function's single parameter without parentheses is the ParamList's only child
    const parts = this.kidsOf(node).filter((c) => c.name !== "(" && c.name !== ")");
    const out: Param[] = [];
    let rest = false;
    for (let i = 0; i < parts.length; i++) {
      const c = parts[i] as SyntaxNode;
      if (c.name === "Spread") {
        rest = true;
        continue;
      }
      if (c.name !== "VariableDefinition" && c.name !== "ObjectPattern" && c.name !== "ArrayPattern") continue;
      let def: Expr | undefined;
      if (parts[i + 1]?.name === "Equals" && parts[i + 2] !== undefined) {
        def = this.expr(parts[i + 2] as SyntaxNode);
        i += 2;
      }
      out.push({
        target: this.target(c),
        ...(def !== undefined && { default: def }),
        ...(rest && { rest: "list" as const }),
      });
      rest = false;
    }
    return out;
  }

  target(node: SyntaxNode): Target {
    switch (node.name) {
      case "VariableDefinition":
      case "VariableName":
        return { k: "name", name: this.text(node) };
      case "MemberExpression": {
        const e = this.expr(node);
        if (e.k === "attr") return { k: "attr", obj: e.obj, name: e.name };
        if (e.k === "index") return { k: "index", obj: e.obj, index: e.index };
        return { k: "none" };
      }
      case "ArrayPattern": {
        const items: Target[] = [];
        let rest: number | undefined;
        for (const c of this.kidsOf(node).filter((x) => !PUNCT.has(x.name))) {
          if (c.name === "Spread") {
            rest = items.length;
            continue;
          }
          if (c.name === "Equals") continue;
          items.push(this.target(c));
        }
        return rest === undefined ? { k: "tuple", items } : { k: "tuple", items, rest };
      }
      case "ObjectPattern": {
        const props: { key: string; target: Target }[] = [];
        for (const p of this.kidsOf(node).filter((c) => c.name === "PatternProperty")) {
          const inner = this.kidsOf(p).filter((c) => c.name !== ":");
          const [key, value] = inner;
          if (key === undefined || key.name === "Spread") continue;
          const keyText = key.name === "String" ? (this.stringOf(key) ?? "") : this.text(key);
          props.push({
            key: keyText,
            target: value === undefined || value.name === "Equals" ? { k: "name", name: keyText } : this.target(value),
          });
        }
        return { k: "object", props };
      }
      default:
        return { k: "none" };
    }
  }

  stringOf(node: SyntaxNode): string | undefined {
    const text = this.text(node);
    if (text.length < 2 || text[0] !== text.at(-1)) return undefined;
    return unescape(text.slice(1, -1), false);
  }

  template(node: SyntaxNode): Expr {
    const parts: (string | Expr)[] = [];
    let at = node.from + 1;
    const end = node.to - 1;
    const literal = (to: number): void => {
      if (to > at) parts.push(unescape(this.code.slice(at, to), false));
    };
    for (const c of this.kids(node)) {
      if (c.name !== "Interpolation") continue;
      literal(c.from);
      const inner = this.kids(c).filter((x) => x.name !== "InterpolationStart" && x.name !== "InterpolationEnd");
      parts.push(
        inner.length === 1
          ? this.expr(inner[0] as SyntaxNode)
          : this.unknown(
              c,
              inner.map((x) => this.expr(x)),
            ),
      );
      at = c.to;
    }
    literal(end);
    return { k: "tmpl", parts, from: node.from, to: node.to };
  }

  args(node: SyntaxNode): Arg[] {
    const parts = this.kidsOf(node).filter((c) => c.name !== "(" && c.name !== ")");
    const out: Arg[] = [];
    for (let i = 0; i < parts.length; i++) {
      const c = parts[i] as SyntaxNode;
      if (c.name === ",") continue;
      if (c.name === "Spread" && parts[i + 1] !== undefined) {
        out.push({ spread: "list", value: this.expr(parts[i + 1] as SyntaxNode) });
        i++;
        continue;
      }
      out.push({ value: this.expr(c) });
    }
    return out;
  }

  object(node: SyntaxNode): Expr {
    const entries: { key: string | Expr | undefined; value: Expr }[] = [];
    for (const p of this.kidsOf(node).filter((c) => c.name === "Property")) {
      const inner = this.kidsOf(p).filter((c) => c.name !== ":");
      const [key, value] = inner;
      if (key === undefined) continue;
      if (key.name === "Spread") {
        if (value !== undefined) entries.push({ key: undefined, value: this.expr(value) });
        continue;
      }
      // a method (`m() {}`): a function value
      const params = inner.find((c) => c.name === "ParamList");
      if (params !== undefined) {
        const def: FunctionDef = {
          name: this.text(key),
          params: this.params(params),
          body: this.block(inner.find((c) => c.name === "Block")),
          decorated: true,
        };
        entries.push({ key: this.text(key), value: { k: "func", def, from: p.from, to: p.to } });
        continue;
      }
      let keyValue: string | Expr;
      if (key.name === "PropertyDefinition") keyValue = this.text(key);
      else if (key.name === "String") keyValue = this.stringOf(key) ?? "";
      else if (key.name === "Number") keyValue = this.text(key);
      else if (key.name === "[") {
        const computed = inner[1];
        if (computed === undefined) continue;
        keyValue = this.expr(computed);
        const v = inner.slice(2).find((c) => c.name !== "]");
        entries.push({ key: keyValue, value: v === undefined ? this.unknown(p, []) : this.expr(v) });
        continue;
      } else keyValue = this.text(key);
      const shorthand: Expr = {
        k: "name",
        name: typeof keyValue === "string" ? keyValue : "",
        from: key.from,
        to: key.to,
      };
      entries.push({ key: keyValue, value: value === undefined ? shorthand : this.expr(value) });
    }
    return { k: "dict", entries, from: node.from, to: node.to };
  }

  fn(node: SyntaxNode): Expr {
    const parts = this.kidsOf(node);
    const params = parts.find((c) => c.name === "ParamList");
    const last = parts.at(-1);
    const body: readonly Stmt[] | Expr =
      node.name === "ArrowFunction" && last !== undefined && last.name !== "Block"
        ? this.expr(last)
        : this.block(parts.find((c) => c.name === "Block"));
    const name = node.name === "FunctionExpression" ? parts.find((c) => c.name === "VariableDefinition") : undefined;
    const def: FunctionDef = {
      name: name === undefined ? undefined : this.text(name),
      params: params === undefined ? [] : this.params(params),
      body,
      decorated: false,
    };
    return { k: "func", def, from: node.from, to: node.to };
  }

  expr(node: SyntaxNode): Expr {
    const { from, to } = node;
    switch (node.name) {
      case "VariableName":
      case "VariableDefinition":
        return { k: "name", name: this.text(node), from, to };
      case "this":
      case "super":
        return { k: "name", name: node.name, from, to };
      case "Number": {
        const v = Number(this.text(node).replaceAll("_", "").replace(/n$/, ""));
        return { k: "num", v: Number.isFinite(v) ? v : 0, from, to };
      }
      case "BooleanLiteral":
        return { k: "const", v: this.text(node) === "true", from, to };
      case "null":
        return { k: "const", v: null, from, to };
      case "String": {
        const v = this.stringOf(node);
        return v === undefined ? this.unknown(node, []) : { k: "str", v, from, to };
      }
      case "TemplateString":
        return this.template(node);
      case "ParenthesizedExpression": {
        const inner = this.kidsOf(node).filter((c) => c.name !== "(" && c.name !== ")");
        return inner.length === 1
          ? this.expr(inner[0] as SyntaxNode)
          : this.unknown(
              node,
              inner.map((c) => this.expr(c)),
            );
      }
      case "SequenceExpression": {
        const inner = this.kidsOf(node).filter((c) => c.name !== ",");
        return this.unknown(
          node,
          inner.map((c) => this.expr(c)),
        );
      }
      case "ArrayExpression": {
        const parts = this.kidsOf(node).filter((c) => !PUNCT.has(c.name));
        const items: Expr[] = [];
        for (let i = 0; i < parts.length; i++) {
          const c = parts[i] as SyntaxNode;
          if (c.name === "Spread" && parts[i + 1] !== undefined) {
            const e = this.expr(parts[i + 1] as SyntaxNode);
            items.push({ k: "spread", e, from: c.from, to: e.to });
            i++;
          } else items.push(this.expr(c));
        }
        return { k: "list", items, from, to };
      }
      case "ObjectExpression":
        return this.object(node);
      case "ArrowFunction":
      case "FunctionExpression":
        return this.fn(node);
      case "ClassExpression":
        return this.unknown(node, []);
      case "CallExpression":
      case "NewExpression": {
        const parts = this.kidsOf(node).filter((c) => c.name !== "new" && c.name !== "?.");
        const callee = parts[0];
        const argList = parts.find((c) => c.name === "ArgList");
        if (callee === undefined) return this.unknown(node, []);
        return {
          k: "call",
          fn: this.expr(callee),
          args: argList === undefined ? [] : this.args(argList),
          isNew: node.name === "NewExpression",
          from,
          to,
        };
      }
      case "DynamicImport": {
        const arg = this.kidsOf(node).find((c) => c.name !== "import" && c.name !== "(" && c.name !== ")");
        return {
          k: "call",
          fn: { k: "name", name: "require", from, to: from },
          args: arg === undefined ? [] : [{ value: this.expr(arg) }],
          isNew: false,
          from,
          to,
        };
      }
      case "TaggedTemplateExpression": {
        const [tag, tmpl] = this.kidsOf(node);
        if (tag === undefined || tmpl === undefined) return this.unknown(node, []);
        return { k: "call", fn: this.expr(tag), args: [{ value: this.expr(tmpl) }], isNew: false, from, to };
      }
      case "MemberExpression": {
        const parts = this.kidsOf(node);
        const obj = parts[0];
        if (obj === undefined) return this.unknown(node, []);
        const o = this.expr(obj);
        const sep = parts[1];
        if ((sep?.name === "." || sep?.name === "?.") && parts[2] !== undefined) {
          if (parts[2].name === "[") {
            const index = parts[3];
            return index === undefined
              ? this.unknown(node, [o])
              : { k: "index", obj: o, index: this.expr(index), from, to };
          }
          return { k: "attr", obj: o, name: this.text(parts[2]), from, to };
        }
        if (sep?.name === "[" && parts[2] !== undefined)
          return { k: "index", obj: o, index: this.expr(parts[2]), from, to };
        return this.unknown(node, [o]);
      }
      case "BinaryExpression": {
        const parts = this.kidsOf(node);
        const [l, op, r] = parts;
        if (l === undefined) return this.unknown(node, []);
        // `x as T`, `x satisfies T`: the value of `x`
        if (op?.name === "as" || op?.name === "satisfies") return this.expr(l);
        if (op === undefined || r === undefined)
          return this.unknown(
            node,
            parts.map((c) => this.expr(c)),
          );
        return { k: "bin", op: this.text(op), l: this.expr(l), r: this.expr(r), from, to };
      }
      case "AssignmentExpression": {
        const [t, op, v] = this.kidsOf(node);
        if (t === undefined || v === undefined) return this.unknown(node, []);
        const value = this.expr(v);
        const opText = op === undefined ? "=" : this.text(op);
        const target = this.target(t);
        if (opText === "=") return { k: "assign", target, value, from, to };
        // `a += b`, `a ??= b`: `a = a OP b`
        const current = this.expr(t);
        return {
          k: "assign",
          target,
          value: { k: "bin", op: opText.slice(0, -1), l: current, r: value, from, to },
          from,
          to,
        };
      }
      case "ConditionalExpression": {
        const parts = this.kidsOf(node).filter((c) => c.name !== "LogicOp");
        const [test, a, b] = parts;
        if (test === undefined || a === undefined || b === undefined)
          return this.unknown(
            node,
            parts.map((c) => this.expr(c)),
          );
        return { k: "cond", test: this.expr(test), then: this.expr(a), else: this.expr(b), from, to };
      }
      case "UnaryExpression": {
        const [op, e] = this.kidsOf(node);
        if (op === undefined || e === undefined) return this.unknown(node, []);
        const inner = this.expr(e);
        if (this.text(op) === "!") return { k: "not", e: inner, from, to };
        if (this.text(op) === "-" && inner.k === "num") return { k: "num", v: -inner.v, from, to };
        if (op.name === "await") return inner;
        return this.unknown(node, [inner]);
      }
      case "AwaitExpression":
      case "PostfixExpression":
      case "YieldExpression": {
        const inner = this.kidsOf(node).find(
          (c) =>
            c.name !== "await" &&
            c.name !== "yield" &&
            c.name !== "LogicOp" &&
            c.name !== "ArithOp" &&
            c.name !== "Star",
        );
        if (inner === undefined) return this.unknown(node, []);
        // `x!` (non-null) is `x`; `i++` changes a number
        const postfix = node.name === "PostfixExpression" ? this.kidsOf(node).at(-1) : undefined;
        if (postfix !== undefined && this.text(postfix) !== "!") return this.unknown(node, [this.expr(inner)]);
        return this.expr(inner);
      }
      case "InstantiationExpression": {
        const inner = this.kidsOf(node)[0];
        return inner === undefined ? this.unknown(node, []) : this.expr(inner);
      }
      case "PrefixCast": {
        const inner = this.kidsOf(node).at(-1);
        return inner === undefined ? this.unknown(node, []) : this.expr(inner);
      }
      default: {
        if (node.type.isError) this.errors++;
        const inner = this.kidsOf(node).filter((c) => !PUNCT.has(c.name) && c.firstChild !== null);
        return this.unknown(
          node,
          inner.map((c) => this.expr(c)),
        );
      }
    }
  }
}

/** JavaScript or TypeScript code as the code model. */
export function parseJavaScript(code: string): Program {
  tsParser ??= base.configure({ dialect: "ts" });
  const tree = tsParser.parse(code);
  const reader = new JavaScriptReader(code);
  const body = reader.statements(reader.kidsOf(tree.topNode).filter((c) => c.name !== "Hashbang"));
  return { body, errors: reader.errors, nodes: reader.nodes };
}

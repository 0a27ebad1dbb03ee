/**
 * Whether a `find` expression may hand one entry under its search root to one of its actions
 * (`-exec`, `-execdir`, `-ok`, `-okdir`, `-delete`): `find . -path '*lanes/dist/*.cjs' -exec
 * truncate -s 0 {} +` reaches `./.claude/lanes/dist/pre-tool-use.cjs`, `find . -name '*.ts' -exec
 * sed -i … {} +` does not reach `./.claude/settings.json`. The answer errs on "may": a test lanes
 * cannot evaluate without the disk (`-newer`, `-size`, `-perm`) may be true, and an expression it
 * cannot parse reaches everything. Depth options and a certain `-prune` of an ancestor directory
 * (without `-depth` or `-delete`, which switch pruning off) keep an entry out.
 */

/** Three-valued truth: what a test gives an entry whose metadata lanes does not read. */
type Truth = "true" | "false" | "unknown";

type Node =
  | { readonly kind: "test"; readonly test: (entry: Entry) => Truth }
  | { readonly kind: "action"; readonly result: Truth }
  | { readonly kind: "prune" }
  | { readonly kind: "not"; readonly operand: Node }
  | { readonly kind: "and" | "or" | "list"; readonly left: Node; readonly right: Node };

interface Entry {
  /** The path as find shows it: the root as written, then the path under it. */
  readonly path: string;
  readonly name: string;
  readonly type: "f" | "d";
}

/** Primaries with one argument whose truth needs the entry's metadata. */
const METADATA_TESTS: readonly string[] = [
  "-newer", "-anewer", "-cnewer", "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-size", "-user",
  "-group", "-uid", "-gid", "-perm", "-links", "-inum", "-samefile", "-lname", "-ilname", "-used", "-fstype",
  "-context", "-files0-from",
]; // prettier-ignore

/** Primaries without argument whose truth needs the entry's metadata. */
const METADATA_FLAGS: readonly string[] = ["-empty", "-readable", "-writable", "-executable", "-nouser", "-nogroup"];

/** Options (always true) without and with one argument. */
const OPTIONS: readonly string[] = [
  "-depth", "-d", "-xdev", "-mount", "-follow", "-noleaf", "-daystart", "-ignore_readdir_race",
  "-noignore_readdir_race", "-warn", "-nowarn", "-true", "-quit",
]; // prettier-ignore
const VALUED_OPTIONS: readonly string[] = ["-maxdepth", "-mindepth", "-regextype"];

/** Actions that print to standard output (what `xargs` reads), and those that print to a file. */
const PRINTS: readonly string[] = ["-print", "-print0", "-ls"];
const PRINTS_TO: readonly string[] = ["-fprint", "-fprint0", "-fls", "-fprintf"];

const ACTIONS: readonly string[] = ["-exec", "-execdir", "-ok", "-okdir"];

/** The expression of a find command line (its arguments after the program), parsed once. */
export interface FindSelection {
  /** Undefined when lanes could not parse the expression: every entry is reached. */
  readonly root: Node | undefined;
  readonly maxDepth: number;
  readonly minDepth: number;
  /** `-depth` or `-delete`: directories are processed after their content, `-prune` does nothing. */
  readonly depthFirst: boolean;
  /** The search roots as written (none: find searches `.`). */
  readonly roots: readonly string[];
}

/**
 * Parses `args` (find's arguments: global options, roots, expression). `printed`: the effect is a
 * command that gets what find prints (`find … | xargs rm`), so printing is the action that counts,
 * `-print` given or implied (an expression without actions prints what it is true for).
 */
export function findSelection(args: readonly (string | undefined)[], printed = false): FindSelection {
  let i = 0;
  while (i < args.length) {
    const v = args[i];
    if (v === "-H" || v === "-L" || v === "-P" || v?.startsWith("-O") === true) i++;
    else if (v === "-D") i += 2;
    else break;
  }
  const first = i;
  while (i < args.length) {
    const v = args[i];
    if (v === undefined || v.startsWith("-") || v === "(" || v === "!" || v === ")" || v === ",") break;
    i++;
  }
  const roots = args.slice(first, i) as string[];
  const words = args.slice(i);
  const depth = (option: string, fallback: number): number => {
    const at = words.lastIndexOf(option);
    const n = at < 0 ? Number.NaN : Number(words[at + 1]);
    return Number.isInteger(n) && n >= 0 ? n : fallback;
  };
  return {
    root: words.length === 0 ? { kind: "action", result: "true" } : parse(words, printed),
    maxDepth: depth("-maxdepth", Number.POSITIVE_INFINITY),
    minDepth: depth("-mindepth", 0),
    depthFirst: words.includes("-depth") || words.includes("-d") || words.includes("-delete"),
    roots,
  };
}

/** Ordinary names an expression that narrows its action leaves out one of (`*.*` passes the first only). */
const PROBE_NAMES: readonly string[] = ["index.ts", "README", "q_7"];

/**
 * Whether a find expression acts on fewer entries than all: some entry with an ordinary name, one
 * or two levels under a root, as a file or as a directory, is not certainly handed to an action.
 * `find . -name '*.cjs' -not -path './node_modules/*' -delete` narrows; `find . -not -name x
 * -delete`, `find . -type f -delete` and `find . \( -name a -o -true \) -delete` do not. A test
 * whose truth needs the disk (`-mtime +7`, `-empty`) narrows (it may be false); an expression
 * lanes cannot parse does not. `printed`: as for {@link findSelection} (`find … | xargs rm`).
 */
export function findNarrows(args: readonly (string | undefined)[], printed = false): boolean {
  const selection = findSelection(args, printed);
  const expr = selection.root;
  if (expr === undefined) return false;
  const root = selection.roots[0] ?? ".";
  const base = root.length > 1 && root.endsWith("/") ? root.slice(0, -1) : root;
  const top = Math.max(1, selection.minDepth);
  const depths = [top, top + 1].filter((d) => d <= selection.maxDepth);
  if (depths.length === 0) return false;
  const actsOnAll = (type: "f" | "d"): boolean =>
    depths.every((depth) =>
      PROBE_NAMES.every((name) => {
        const path = `${base}${"/probe".repeat(depth - 1)}/${name}`;
        return evaluate(expr, { path, name, type }, true).acted;
      }),
    );
  return !actsOnAll("f") && !actsOnAll("d");
}

/**
 * True when `selection` may hand `root/relative` (a file, or a directory with `type: "d"`) to an
 * action: it is within the depth bounds, no ancestor is certainly pruned, and the expression may
 * reach an action for it.
 */
export function findReaches(selection: FindSelection, root: string, relative: string, type: "f" | "d" = "f"): boolean {
  const parts = relative.split("/").filter((p) => p.length > 0);
  if (parts.length > selection.maxDepth || parts.length < selection.minDepth) return false;
  const expr = selection.root;
  if (expr === undefined) return true;
  const base = root.length > 1 && root.endsWith("/") ? root.slice(0, -1) : root;
  const entry = (depth: number, kind: "f" | "d"): Entry => {
    const path = depth === 0 ? root : `${base}/${parts.slice(0, depth).join("/")}`;
    const name = depth === 0 ? (base.split("/").at(-1) ?? base) : (parts[depth - 1] as string);
    return { path, name: name === "" ? "/" : name, type: kind };
  };
  if (!selection.depthFirst) {
    for (let depth = 0; depth < parts.length; depth++) {
      if (depth >= selection.maxDepth) break;
      if (evaluate(expr, entry(depth, "d"), true).pruned) return false;
    }
  }
  return evaluate(expr, entry(parts.length, type), true).reached;
}

interface Outcome {
  readonly value: Truth;
  /** An action was evaluated (certainly or maybe). */
  readonly reached: boolean;
  /** A `-prune` was certainly evaluated. */
  readonly pruned: boolean;
  /** An action was certainly evaluated. */
  readonly acted: boolean;
}

function evaluate(node: Node, entry: Entry, certain: boolean): Outcome {
  switch (node.kind) {
    case "test":
      return { value: node.test(entry), reached: false, pruned: false, acted: false };
    case "action":
      return { value: node.result, reached: true, pruned: false, acted: certain };
    case "prune":
      return { value: "true", reached: false, pruned: certain, acted: false };
    case "not": {
      const inner = evaluate(node.operand, entry, certain);
      const value = inner.value === "true" ? "false" : inner.value === "false" ? "true" : "unknown";
      return { ...inner, value };
    }
    case "and":
    case "or":
    case "list": {
      const left = evaluate(node.left, entry, certain);
      const stop = node.kind === "and" ? "false" : node.kind === "or" ? "true" : undefined;
      if (left.value === stop) return left;
      const go = node.kind === "and" ? "true" : node.kind === "or" ? "false" : left.value;
      const right = evaluate(node.right, entry, certain && left.value === go);
      const value = node.kind === "list" || left.value === go ? right.value : right.value === stop ? stop : "unknown";
      return {
        value,
        reached: left.reached || right.reached,
        pruned: left.pruned || right.pruned,
        acted: left.acted || right.acted,
      };
    }
  }
}

/** Parses a find expression; undefined when it is not one lanes reads (an unknown primary, unbalanced parentheses). */
function parse(words: readonly (string | undefined)[], printed: boolean): Node | undefined {
  let at = 0;
  let actions = 0;
  const peek = (): string | undefined => words[at];
  const list = (): Node | undefined => {
    let left = or();
    while (left !== undefined && peek() === ",") {
      at++;
      const right = or();
      left = right === undefined ? undefined : { kind: "list", left, right };
    }
    return left;
  };
  const or = (): Node | undefined => {
    let left = and();
    while (left !== undefined && (peek() === "-o" || peek() === "-or")) {
      at++;
      const right = and();
      left = right === undefined ? undefined : { kind: "or", left, right };
    }
    return left;
  };
  const and = (): Node | undefined => {
    let left = unary();
    for (;;) {
      const next = peek();
      if (left === undefined || at >= words.length || next === ")" || next === "," || next === "-o" || next === "-or")
        return left;
      if (next === "-a" || next === "-and") at++;
      const right = unary();
      left = right === undefined ? undefined : { kind: "and", left, right };
    }
  };
  const unary = (): Node | undefined => {
    const next = peek();
    if (next === "!" || next === "-not") {
      at++;
      const operand = unary();
      return operand === undefined ? undefined : { kind: "not", operand };
    }
    if (next === "(") {
      at++;
      const inner = list();
      if (peek() !== ")") return undefined;
      at++;
      return inner;
    }
    return primary();
  };
  const primary = (): Node | undefined => {
    const word = words[at++];
    if (word === undefined) return undefined;
    const arg = (): string | undefined => (at < words.length ? words[at++] : undefined);
    if (ACTIONS.includes(word)) {
      let plus = false;
      for (; at < words.length; at++) {
        const x = words[at];
        if (x === ";") break;
        if (x === "+" && words[at - 1] === "{}") {
          plus = true;
          break;
        }
      }
      if (at >= words.length) return undefined;
      at++;
      actions++;
      return { kind: "action", result: plus ? "true" : "unknown" };
    }
    if (word === "-delete") {
      actions++;
      return { kind: "action", result: "unknown" };
    }
    if (PRINTS.includes(word)) {
      actions++;
      return printed ? { kind: "action", result: "true" } : { kind: "test", test: () => "true" };
    }
    if (word === "-printf") {
      actions++;
      if (arg() === undefined) return undefined;
      return printed ? { kind: "action", result: "true" } : { kind: "test", test: () => "true" };
    }
    if (PRINTS_TO.includes(word)) {
      actions++;
      if (arg() === undefined || (word === "-fprintf" && arg() === undefined)) return undefined;
      return { kind: "test", test: () => "true" };
    }
    if (word === "-prune") return { kind: "prune" };
    if (word === "-false") return { kind: "test", test: () => "false" };
    if (OPTIONS.includes(word)) return { kind: "test", test: () => "true" };
    if (VALUED_OPTIONS.includes(word)) return arg() === undefined ? undefined : { kind: "test", test: () => "true" };
    if (METADATA_FLAGS.includes(word)) return { kind: "test", test: () => "unknown" };
    if (METADATA_TESTS.includes(word) || /^-newer[amcBt]{2}$/.test(word))
      return arg() === undefined ? undefined : { kind: "test", test: () => "unknown" };
    const value = arg();
    if (value === undefined) return undefined;
    switch (word) {
      case "-name":
      case "-iname": {
        const fold = word === "-iname";
        return { kind: "test", test: (e) => truth(fnmatch(value, e.name, fold)) };
      }
      case "-path":
      case "-ipath":
      case "-wholename":
      case "-iwholename": {
        const fold = word.startsWith("-i");
        return { kind: "test", test: (e) => truth(fnmatch(value, e.path, fold)) };
      }
      case "-regex":
      case "-iregex": {
        const regex = findRegex(value, word === "-iregex");
        return { kind: "test", test: (e) => (regex === undefined ? "unknown" : truth(regex.test(e.path))) };
      }
      case "-type":
      case "-xtype": {
        const types = value.split(",");
        return { kind: "test", test: (e) => truth(types.includes(e.type)) };
      }
      default:
        return undefined;
    }
  };
  const root = list();
  if (at !== words.length || root === undefined) return undefined;
  // no action at all: find prints what the whole expression is true for
  return printed && actions === 0 ? { kind: "and", left: root, right: { kind: "action", result: "true" } } : root;
}

const truth = (b: boolean): Truth => (b ? "true" : "false");

/**
 * A find regex (emacs syntax by default) as a JavaScript one, anchored on the whole path, when
 * the two read it alike: no backslash groups, alternations or counts (`\(`, `\|`, `\{`).
 */
function findRegex(pattern: string, fold: boolean): RegExp | undefined {
  if (pattern.includes("\\(") || pattern.includes("\\|") || pattern.includes("\\{") || pattern.includes("\\`"))
    return undefined;
  try {
    return new RegExp(`^(?:${pattern})$`, fold ? "is" : "s");
  } catch {
    return undefined;
  }
}

/**
 * fnmatch(3) without FNM_PATHNAME, as find's `-name` and `-path` use it: `*` and `?` match any
 * character, `/` too; `[...]` sets with ranges and `!`/`^` negation; `\` quotes the next character.
 */
export function fnmatch(pattern: string, text: string, fold = false): boolean {
  const p = fold ? pattern.toLowerCase() : pattern;
  const t = fold ? text.toLowerCase() : text;
  let pi = 0;
  let ti = 0;
  let starP = -1;
  let starT = 0;
  while (ti < t.length) {
    const step = pi < p.length ? matchOne(p, pi, t[ti] as string) : undefined;
    if (pi < p.length && p[pi] === "*") {
      starP = pi++;
      starT = ti;
    } else if (step !== undefined) {
      pi = step;
      ti++;
    } else if (starP >= 0) {
      pi = starP + 1;
      ti = ++starT;
    } else return false;
  }
  while (pi < p.length && p[pi] === "*") pi++;
  return pi === p.length;
}

/** The pattern index after the element at `at` when it matches `c`, else undefined. */
function matchOne(p: string, at: number, c: string): number | undefined {
  const head = p[at];
  if (head === "?") return at + 1;
  if (head === "\\" && at + 1 < p.length) return p[at + 1] === c ? at + 2 : undefined;
  if (head === "[") {
    let i = at + 1;
    const negate = p[i] === "!" || p[i] === "^";
    if (negate) i++;
    let matched = false;
    let first = true;
    for (; i < p.length && (first || p[i] !== "]"); i++, first = false) {
      const lo = p[i] as string;
      if (p[i + 1] === "-" && i + 2 < p.length && p[i + 2] !== "]") {
        const hi = p[i + 2] as string;
        if (c >= lo && c <= hi) matched = true;
        i += 2;
      } else if (lo === c) matched = true;
    }
    if (i >= p.length) return head === c ? at + 1 : undefined; // no closing bracket: a literal `[`
    return matched !== negate ? i + 1 : undefined;
  }
  return head === c ? at + 1 : undefined;
}

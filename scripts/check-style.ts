/**
 * The style check of `npm test`: rules of the house that the type checker cannot see, checked on
 * the TypeScript AST of `src/`.
 *
 * - `unbash` is imported only under `src/shell/` (one module owns shell text);
 * - outside `src/shell/`, no regex or splitting method is called on the command text of a tool call
 *   (a receiver or argument that names `command`, e.g. `input.command.split(" ")`);
 * - `gray-matter` is imported only by `src/markdown/frontmatter.ts` (locked-down options);
 * - `process.exit` appears only in `src/cli/main.ts`, the statusline's own entry and the hooks'
 *   entry (which exit once they have printed their answer: src/cli/statusline-main.ts,
 *   src/hooks/entries/entry.ts);
 * - no `console.*` in `src/` except the hooks' stdout guard (stdout belongs to the hook's JSON);
 * - layers: a module under `src/<dir>/` imports only from its own layer or lower ones ({@link LAYERS}).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The only modules that end the process themselves. */
const EXITS = ["src/cli/main.ts", "src/cli/statusline-main.ts", "src/hooks/entries/entry.ts"];

const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..");
const TEXT_METHODS = new Set(["match", "matchAll", "replace", "replaceAll", "split", "search", "test", "exec"]);
const COMMAND_NAMES = /(?:^|[.[\s"'(])(?:command|commandLine|cmdline|rawCommand)(?:$|[\]."')\s])/;

/**
 * The layers of `src/`, lowest first; directories in one entry share a layer. A module may import
 * from its own layer and the layers before it, never from a later one: the code stays acyclic and
 * each layer can be read without the ones above it.
 */
// prettier-ignore
export const LAYERS: readonly (readonly string[])[] = [
  ["host", "io"],           // where things live, env, path arithmetic, the tool and event tables; atomic writes, locks, results
  ["globs"],                // glob compile, match, expand, overlap
  ["schema", "markdown"],   // shared zod atoms and plain vocabulary; frontmatter
  ["shell"],                // the only code that reads shell text
  ["policy"],               // the pure decision core
  ["definitions"],          // agent and skill definitions
  ["config"],               // lanes.yaml, the compiler, the compiled policy file
  ["runtime"],              // progress, memory, checkpoints, phases
  ["hooks"],                // the hooks' work and their entries
  ["generate"],             // renderers, lint
  ["install"],              // lanes init
  ["cli"],                  // commands
];

const layerOf = (dir: string): number => LAYERS.findIndex((layer) => layer.includes(dir));
const LAYER_ORDER = LAYERS.map((layer) => layer.join(", ")).join(" < ");

/** The layer rule for one import of `rel` (a path under `src/`); a message, or undefined when allowed. */
export function layerProblem(rel: string, spec: string): string | undefined {
  if (!rel.startsWith("src/") || !spec.startsWith(".")) return undefined;
  const target = posix.normalize(posix.join(posix.dirname(rel), spec));
  const from = rel.split("/")[1]!;
  const to = target.split("/")[1]!;
  if (!target.startsWith("src/") || to.endsWith(".ts"))
    return `layers: \`${rel}\` imports \`${target}\`, which is in no layer: put modules in a directory of the LAYERS table of scripts/check-style.ts`;
  const fromLayer = layerOf(from);
  const toLayer = layerOf(to);
  if (fromLayer === -1)
    return `layers: \`src/${from}/\` is in no layer: add it to the LAYERS table of scripts/check-style.ts`;
  if (toLayer === -1)
    return `layers: \`${rel}\` imports \`${target}\`, whose directory is in no layer: add it to the LAYERS table of scripts/check-style.ts`;
  if (toLayer <= fromLayer) return undefined;
  return `layers: \`${rel}\` (layer ${from}) imports \`${target}\` (layer ${to}), a higher layer: move what both need down, or invert the dependency (${LAYER_ORDER})`;
}

export interface Violation {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

function files(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (path.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** Checks one source file; `rel` is its path relative to the repository. */
export function checkSource(rel: string, text: string): Violation[] {
  const violations: Violation[] = [];
  const source = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
  const inShell = rel.startsWith("src/shell/");
  const at = (node: ts.Node, message: string) =>
    violations.push({ file: rel, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, message });

  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const spec = node.moduleSpecifier.text;
      if (spec === "unbash" && !inShell)
        at(node, "`unbash` is imported outside src/shell/: shell text is analysed only by the shell module");
      const layer = layerProblem(rel, spec);
      if (layer !== undefined) at(node, layer);
      if (spec === "gray-matter" && rel !== "src/markdown/frontmatter.ts")
        at(
          node,
          "`gray-matter` is imported outside src/markdown/frontmatter.ts: use parseFrontmatter, whose options are locked down",
        );
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const receiver = node.expression.expression.getText(source);
      if (!inShell && TEXT_METHODS.has(method)) {
        const args = node.arguments.map((a) => a.getText(source)).join(" ");
        if (
          COMMAND_NAMES.test(` ${receiver} `) ||
          (method === "test" || method === "exec" ? COMMAND_NAMES.test(` ${args} `) : false)
        ) {
          at(
            node,
            `\`${receiver}.${method}(...)\` treats command text with a regex or split outside src/shell/: use the shell analysis`,
          );
        }
      }
      if (receiver === "process" && method === "exit" && !EXITS.includes(rel))
        at(node, "`process.exit` outside the entry points (src/cli/main.ts): return an exit code instead");
      if (receiver === "console" && rel !== "src/hooks/entries/stdout-guard.ts")
        at(node, "`console` in src/: write through the CLI context or stderr, stdout belongs to the hook's JSON");
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return violations;
}

export function checkAll(): Violation[] {
  return files(join(ROOT, "src")).flatMap((path) => {
    const rel = relative(ROOT, path).split("\\").join("/");
    return checkSource(rel, readFileSync(path, "utf8"));
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const violations = checkAll();
  for (const v of violations) process.stderr.write(`${v.file}:${v.line}: ${v.message}\n`);
  if (violations.length > 0) {
    process.stderr.write(`style: ${violations.length} problem(s)\n`);
    process.exitCode = 1;
  } else process.stdout.write("style: ok\n");
}

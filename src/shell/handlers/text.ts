/**
 * Text producers: what a command prints when that is known before it runs (`echo`, `printf`,
 * `cat` of a heredoc, decoders such as `base64 -d`, `rev`, `xxd -r -p`, `pwd`, `dirname`, the
 * repository root), and the files a command writes with known text (`> f`, `tee f`) or downloads
 * (`curl -o f`). Text that reaches a shell or interpreter is analysed as the code it is.
 */
import { posix } from "node:path";
import { echoOutput, printfOutput } from "../_echo.ts";
import { detailedView } from "../_argview.ts";
import { DOWNLOADERS, type DownloadSpec } from "../tables/programs.ts";
import type { AnalyzeOptions, ShellRedirect, ShellWord } from "../types.ts";
import { resolveDir, varValue, type State } from "../walk/context.ts";

/** What `staticOutput` needs to know about a command. */
export interface OutputQuery {
  readonly program: string | undefined;
  readonly args: readonly ShellWord[];
  /** The static text on stdin, if any. */
  readonly stdin: string | undefined;
  /** Whether anything feeds stdin at all (a pipe or a redirection). */
  readonly hasStdin: boolean;
  readonly state: State;
  readonly options: AnalyzeOptions;
  /** The text of a file written earlier on the line (`undefined` when not static). */
  readonly fileText?: (path: string) => string | undefined;
}

/** Builtins and programs that print nothing on success. */
const SILENT: readonly string[] = [
  "cd",
  "export",
  "true",
  ":",
  "unset",
  "local",
  "readonly",
  "declare",
  "typeset",
  "alias",
  "set",
  "shift",
  "mkdir",
  "touch",
  "chmod",
  "cd",
];

/**
 * Commands that print a tool's cache directory (`rm -rf "$(go env GOCACHE)"`). Where it is varies
 * by platform and settings; what it is does not: a cache. The Linux default under the home
 * directory stands for it, so the policy sees a path in a cache directory.
 */
// prettier-ignore
const TOOL_CACHES: Readonly<Record<string, { readonly argv: readonly string[]; readonly dir: string }>> = {
  goCache: { argv: ["go", "env", "GOCACHE"], dir: ".cache/go-build" },
  goModCache: { argv: ["go", "env", "GOMODCACHE"], dir: "go/pkg/mod" },
  npm: { argv: ["npm", "config", "get", "cache"], dir: ".npm" },
  yarn: { argv: ["yarn", "cache", "dir"], dir: ".cache/yarn" },
  pip: { argv: ["pip", "cache", "dir"], dir: ".cache/pip" },
  pip3: { argv: ["pip3", "cache", "dir"], dir: ".cache/pip" },
  uv: { argv: ["uv", "cache", "dir"], dir: ".cache/uv" },
  pnpm: { argv: ["pnpm", "store", "path"], dir: ".local/share/pnpm/store" },
  brew: { argv: ["brew", "--cache"], dir: "Library/Caches/Homebrew" },
  composer: { argv: ["composer", "config", "cache-dir"], dir: ".cache/composer" },
  poetry: { argv: ["poetry", "config", "cache-dir"], dir: ".cache/pypoetry" },
  bun: { argv: ["bun", "pm", "cache"], dir: ".bun/install/cache" },
};

/** Every program `staticOutput` knows. */
const PRODUCERS: ReadonlySet<string> = new Set([
  ...SILENT,
  "echo",
  "printf",
  "cat",
  "tac",
  "base64",
  "base32",
  "openssl",
  "rev",
  "xxd",
  "tr",
  "which",
  "command",
  "type",
  "pwd",
  "dirname",
  "basename",
  "realpath",
  "readlink",
  "git",
  "whoami",
  "id",
  "mktemp",
  ...new Set(Object.values(TOOL_CACHES).map((row) => row.argv[0] as string)),
]);

const values = (args: readonly ShellWord[]): string[] | undefined =>
  args.some((a) => a.value === undefined || a.glob) ? undefined : args.map((a) => a.value as string);

/** The statically known stdout of a command, or `undefined` when it depends on run-time values. */
export function staticOutput(q: OutputQuery): string | undefined {
  if (q.program === undefined || !PRODUCERS.has(q.program)) return undefined;
  const args = values(q.args);
  if (args === undefined) return undefined;
  const cache = Object.values(TOOL_CACHES).find(
    (row) =>
      row.argv[0] === q.program &&
      row.argv.length === args.length + 1 &&
      row.argv.every((a, i) => i === 0 || a === args[i - 1]),
  );
  if (cache !== undefined) return `${q.options.home}/${cache.dir}\n`;
  switch (q.program) {
    case "echo":
      return echoOutput(args);
    case "printf":
      return args[0] === "-v" ? "" : printfOutput(args);
    case "cat":
    case "tac":
      if (args.length > 0 && !(args.length === 1 && args[0] === "-")) {
        // files written earlier on the line (`echo ... > f; sh -c "$(cat f)"`)
        const texts = args.map((a) => (a.startsWith("-") ? undefined : q.fileText?.(a)));
        return q.program === "cat" && texts.every((t) => t !== undefined) ? texts.join("") : undefined;
      }
      if (q.stdin === undefined) return undefined;
      return q.program === "cat"
        ? q.stdin
        : lines(q.stdin)
            .reverse()
            .map((l) => `${l}\n`)
            .join("");
    case "base64":
    case "base32":
      return decodeBase(q.program, args, q.stdin);
    case "openssl":
      // `openssl base64 -d`, `openssl enc -d -base64` / `-a`
      if (
        (args[0] === "base64" || (args[0] === "enc" && (args.includes("-base64") || args.includes("-a")))) &&
        args.includes("-d") &&
        args.every((a) => a.startsWith("-") || a === "base64" || a === "enc")
      ) {
        return decodeBase("base64", ["-d"], q.stdin);
      }
      return undefined;
    case "rev":
      if (args.length > 0 || q.stdin === undefined) return undefined;
      return lines(q.stdin)
        .map((l) => `${[...l].reverse().join("")}\n`)
        .join("");
    case "xxd":
      return xxdReverse(args, q.stdin);
    case "tr":
      return translate(args, q.stdin);
    case "which":
    case "command":
    case "type": {
      // the path of a program: whatever directory it is in, the program is the same
      const name = q.program === "which" ? args[0] : args[0] === "-v" || args[0] === "-P" ? args[1] : undefined;
      const exact = q.program === "which" ? args.length === 1 : args.length === 2;
      return name !== undefined && exact && !name.includes("/") && !name.startsWith("-") ? `${name}\n` : undefined;
    }
    case "whoami":
      return args.length === 0 && login(q) !== undefined ? `${login(q)}\n` : undefined;
    case "id":
      return args.length === 1 && (args[0] === "-un" || args[0] === "-nu") && login(q) !== undefined
        ? `${login(q)}\n`
        : undefined;
    case "mktemp":
      return mktemp(args, q.state);
    case "pwd":
      return q.state.cwd === undefined ? undefined : `${q.state.cwd}\n`;
    case "dirname":
      return args.length === 0 ? undefined : args.map((a) => `${posix.dirname(a)}\n`).join("");
    case "basename":
      return args.length === 0 ? undefined : `${posix.basename(args[0] as string, args[1])}\n`;
    case "realpath":
    case "readlink": {
      const paths = args.filter((a) => !a.startsWith("-"));
      if (q.program === "readlink" && !args.includes("-f")) return undefined;
      const resolved = paths.map((p) => resolveDir(q.state.cwd, p));
      return resolved.length === 0 || resolved.some((r) => r === undefined)
        ? undefined
        : resolved.map((r) => `${r}\n`).join("");
    }
    case "git":
      // the repository root, while the working directory is inside it
      if (args.length === 2 && args[0] === "rev-parse" && args[1] === "--show-toplevel")
        return inRepo(q) ? `${q.options.repoRoot}\n` : undefined;
      // its `.git` directory (`--git-dir` prints it relative at the top, absolute elsewhere: the same directory)
      if (args.length === 2 && args[0] === "rev-parse" && GIT_DIR_OPTIONS.includes(args[1] as string))
        return inRepo(q) ? `${q.options.repoRoot}/.git\n` : undefined;
      return undefined;
    default:
      return SILENT.includes(q.program) && !q.hasStdin ? "" : undefined;
  }
}

const GIT_DIR_OPTIONS: readonly string[] = ["--git-dir", "--absolute-git-dir", "--git-common-dir"];

/** The login name as the state knows it (`USER`). */
const login = (q: OutputQuery): string | undefined => varValue(q.state, "USER");

/**
 * `mktemp [-d] [-p DIR | --tmpdir=DIR] [TEMPLATE]`: the name is random, its directory is not. The
 * directory is the one given (an absolute template or `-p`), else `$TMPDIR` when the line set it,
 * else `/tmp` (an unset or environment `TMPDIR` names a temporary directory too: what matters is
 * that the result is a fresh entry of a temporary directory). The `X`s stay as written.
 */
function mktemp(args: readonly string[], state: State): string | undefined {
  let dir: string | undefined;
  let template: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "-p" || a === "--tmpdir") dir = args[++i];
    else if (a.startsWith("--tmpdir=")) dir = a.slice("--tmpdir=".length);
    else if (a === "-d" || a === "--directory" || a === "-q" || a === "--quiet" || a === "-u" || a === "--dry-run")
      continue;
    else if (a.startsWith("-")) return undefined;
    else template = a;
  }
  if (template !== undefined && template.startsWith("/")) return `${template}\n`;
  if (template !== undefined && template.includes("/")) return undefined;
  if (dir === undefined) {
    const tmpdir = state.vars.get("TMPDIR");
    if (state.vars.has("TMPDIR") && (tmpdir === undefined || (tmpdir.set && tmpdir.value === undefined)))
      return undefined;
    dir =
      tmpdir !== undefined && tmpdir.set && tmpdir.value !== undefined && tmpdir.value.length > 0
        ? tmpdir.value
        : "/tmp";
  }
  if (!dir.startsWith("/")) return undefined;
  return `${posix.join(dir, template ?? "tmp.XXXXXXXXXX")}\n`;
}

function inRepo(q: OutputQuery): boolean {
  const root = q.options.repoRoot;
  const cwd = q.state.cwd;
  return (
    root !== undefined && cwd !== undefined && (cwd === root || cwd.startsWith(root.endsWith("/") ? root : `${root}/`))
  );
}

function lines(text: string): string[] {
  const out = text.split("\n");
  if (out.at(-1) === "") out.pop();
  return out;
}

/** `base64 -d`, `base64 --decode`, `base32 -d`: decoded stdin (or a `-` operand). */
function decodeBase(program: string, args: readonly string[], stdin: string | undefined): string | undefined {
  const decode = args.some(
    (a) =>
      a === "-d" || a === "--decode" || a === "-D" || (a.startsWith("-") && !a.startsWith("--") && a.includes("d")),
  );
  const operands = args.filter((a) => !a.startsWith("-") || a === "-");
  if (stdin === undefined || operands.some((o) => o !== "-")) return undefined;
  if (!decode)
    return program === "base64" && args.every((a) => a === "-" || a === "-w0" || a === "--wrap=0")
      ? `${Buffer.from(stdin, "utf8").toString("base64")}\n`
      : undefined;
  const text = stdin.replace(/\s+/g, "");
  if (program === "base32") return undefined;
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return undefined;
  return Buffer.from(text, "base64").toString("utf8");
}

/** `xxd -r -p`: hex text back to bytes. */
function xxdReverse(args: readonly string[], stdin: string | undefined): string | undefined {
  const reverse = args.includes("-r") || args.includes("-revert") || args.some((a) => a === "-rp" || a === "-pr");
  const plainHex =
    args.includes("-p") ||
    args.includes("-ps") ||
    args.includes("-plain") ||
    args.some((a) => a === "-rp" || a === "-pr");
  if (!reverse || !plainHex || stdin === undefined || args.some((a) => !a.startsWith("-"))) return undefined;
  const hex = stdin.replace(/\s+/g, "");
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) return undefined;
  return Buffer.from(hex, "hex").toString("utf8");
}

/** `tr SET1 SET2` with plain character sets of equal length (`tr 'a-z' 'n-za-m'` is not expanded). */
function translate(args: readonly string[], stdin: string | undefined): string | undefined {
  if (args.length !== 2 || stdin === undefined) return undefined;
  const [from, to] = args as [string, string];
  if (
    from.length !== to.length ||
    from.includes("-") ||
    from.includes("\\") ||
    from.includes("[") ||
    to.includes("-") ||
    to.includes("\\")
  )
    return undefined;
  return [...stdin].map((c) => (from.includes(c) ? (to[from.indexOf(c)] as string) : c)).join("");
}

/** A file written by a command. */
export interface Written {
  readonly path: string;
  readonly text: string | undefined;
  readonly append: boolean;
}

/** What `writtenFiles` needs to know about a command. */
export interface WriteQuery {
  readonly program: string | undefined;
  readonly args: readonly ShellWord[];
  readonly redirects: readonly ShellRedirect[];
  readonly output: string | undefined;
  readonly stdin: string | undefined;
  readonly cwd: string | undefined;
}

/** The files a command writes: stdout redirections, `tee` operands, downloads. */
export function writtenFiles(q: WriteQuery): Written[] {
  const out: Written[] = [];
  if (
    q.redirects.length === 0 &&
    q.program !== "tee" &&
    (q.program === undefined || !Object.hasOwn(DOWNLOADERS, q.program))
  )
    return out;
  const at = (path: string | undefined): string | undefined =>
    path === undefined ? undefined : resolveDir(q.cwd, path);
  for (const r of q.redirects) {
    if ((r.kind !== "write" && r.kind !== "append") || (r.fd !== undefined && r.fd !== 1)) continue;
    const path = at(r.target?.value);
    if (path !== undefined) out.push({ path, text: q.output, append: r.kind === "append" });
  }
  const args = q.args.map((a) => a.value);
  if (q.program === "tee") {
    const append = args.includes("-a") || args.includes("--append");
    for (const a of args) {
      const path = a === undefined || a.startsWith("-") ? undefined : at(a);
      if (path !== undefined) out.push({ path, text: q.stdin, append });
    }
  }
  const spec = q.program === undefined || !Object.hasOwn(DOWNLOADERS, q.program) ? undefined : DOWNLOADERS[q.program];
  if (spec !== undefined)
    for (const path of downloaded(q.program, q.args, spec)) {
      const abs = at(path);
      if (abs !== undefined) out.push({ path: abs, text: undefined, append: false });
    }
  return out;
}

/** The last segment of a URL's path (`https://x/a/install.sh?v=1` → `install.sh`); `index.html` for a directory. */
function urlName(url: string): string {
  const path = (url.split("#")[0] as string).split("?")[0] as string;
  const rest = path.includes("://") ? path.slice(path.indexOf("://") + 3) : path;
  const slash = rest.indexOf("/");
  const name = slash < 0 ? "" : posix.basename(rest.slice(slash));
  return name === "" || rest.endsWith("/") ? "index.html" : name;
}

/**
 * The files a downloader saves (relative to its directory): the output options' values, else the
 * URLs' last segments when it saves under the remote name (`curl -O`, `wget URL`), under the
 * directory option's value when there is one (`wget -P /tmp URL`). Standard output (`-`) is no file.
 */
function downloaded(program: string | undefined, args: readonly ShellWord[], spec: DownloadSpec): string[] {
  const view = detailedView(program, args);
  const valuesOf = (names: readonly string[]): string[] =>
    names.flatMap((n) => view.values.get(n) ?? []).flatMap((w) => (w.value === undefined ? [] : [w.value]));
  const named = valuesOf(spec.output);
  const dir = valuesOf(spec.directory ?? []).at(-1);
  const inDir = (name: string): string => (dir === undefined || name.startsWith("/") ? name : posix.join(dir, name));
  if (named.length > 0) return named.filter((n) => n !== "-").map(inDir);
  const remote = spec.remoteName === undefined || spec.remoteName.some((f) => view.flags.has(f));
  if (!remote) return [];
  const urls = [...view.operands.map((o) => o.word.value), ...valuesOf(["--url"])];
  return urls.flatMap((u) => (u === undefined || u.startsWith("-") ? [] : [inDir(urlName(u))]));
}

/** `HOME` as the state knows it. */
export const homeOf = (state: State): string | undefined => varValue(state, "HOME");

/**
 * Text producers: what a command prints when that is known before it runs (`echo`, `printf`,
 * `cat` of a heredoc, decoders such as `base64 -d`, `rev`, `xxd -r -p`, `pwd`, `dirname`, the
 * repository root), and the files a command writes with known text (`> f`, `tee f`) or downloads
 * (`curl -o f`). Text that reaches a shell or interpreter is analysed as the code it is.
 */
import { posix } from "node:path";
import { echoOutput, printfOutput } from "../echo.ts";
import { detailedView } from "../detailed-view.ts";
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

/**
 * Where a package manager keeps the project's tools (`$(npm bin)/eslint`, `"$(yarn bin)/jest"`,
 * `$(npm root)/.bin/vitest`): under the working directory's `node_modules` (the nearest package's,
 * taken here as the working directory's; the program a word names is its basename either way).
 */
const PACKAGE_DIRS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  npm: { bin: "node_modules/.bin", root: "node_modules" },
  pnpm: { bin: "node_modules/.bin", root: "node_modules" },
  yarn: { bin: "node_modules/.bin" },
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
  "ls",
  "tee",
  "head",
  "tail",
  "cut",
  "paste",
  "sed",
  ...Object.keys(PACKAGE_DIRS),
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
    case "tee":
      // what tee copies to its files it also prints
      return q.stdin;
    case "head":
    case "tail":
      return headTail(q.program, args, q.stdin);
    case "cut":
      return cut(args, q.stdin);
    case "paste":
      return paste(args, q.stdin);
    case "sed":
      return sedSubstitute(args, q.stdin);
    case "ls": {
      // `ls -d PATH...` prints the paths themselves (one per line when piped)
      const flags = args.filter((a) => a.startsWith("-") && a !== "-");
      const paths = args.filter((a) => !a.startsWith("-") || a === "-");
      const known = flags.every((f) => /^-[d1]+$/.test(f)) && flags.some((f) => f.includes("d"));
      return known && paths.length > 0 ? paths.map((p) => `${p}\n`).join("") : undefined;
    }
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
    case "git": {
      // the repository root, while the working directory is inside it (`git [-C DIR] rev-parse --show-toplevel`)
      const dir = args[0] === "-C" && args[1] !== undefined ? resolveDir(q.state.cwd, args[1]) : q.state.cwd;
      const rest = args[0] === "-C" ? args.slice(2) : args;
      if (rest.length !== 2 || rest[0] !== "rev-parse" || dir === undefined || !inRepo(q, dir)) return undefined;
      const root = q.options.repoRoot as string;
      if (rest[1] === "--show-toplevel") return `${root}\n`;
      // its `.git` directory (`--git-dir` prints it relative at the top, absolute elsewhere: the same directory)
      if (GIT_DIR_OPTIONS.includes(rest[1] as string)) return `${root}/.git\n`;
      if (rest[1] === "--show-cdup") {
        const up = posix.relative(dir, root);
        return up === "" ? "\n" : `${up}/\n`;
      }
      return undefined;
    }
    default: {
      const dirs = Object.hasOwn(PACKAGE_DIRS, q.program) ? PACKAGE_DIRS[q.program] : undefined;
      if (dirs !== undefined) {
        const dir = args.length === 1 && Object.hasOwn(dirs, args[0] as string) ? dirs[args[0] as string] : undefined;
        return dir === undefined || q.state.cwd === undefined ? undefined : `${q.state.cwd}/${dir}\n`;
      }
      return SILENT.includes(q.program) && !q.hasStdin ? "" : undefined;
    }
  }
}

const GIT_DIR_OPTIONS: readonly string[] = ["--git-dir", "--absolute-git-dir", "--git-common-dir"];

/** The lines of stdin with their newlines. */
const withNewlines = (text: string): string[] => lines(text).map((l) => `${l}\n`);

/** `head`/`tail` `-n N`, `-N`, `-n +N` over stdin. */
function headTail(program: "head" | "tail", args: readonly string[], stdin: string | undefined): string | undefined {
  if (stdin === undefined) return undefined;
  let count = "10";
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "-n" || a === "--lines") count = args[++i] ?? "";
    else if (a.startsWith("--lines=")) count = a.slice(8);
    else if (/^-n[+-]?\d+$/.test(a)) count = a.slice(2);
    else if (/^-\d+$/.test(a)) count = a.slice(1);
    else return undefined;
  }
  const all = withNewlines(stdin);
  const from = count.startsWith("+");
  const n = Number(from ? count.slice(1) : count.replace(/^-/, ""));
  if (!Number.isInteger(n)) return undefined;
  if (program === "head")
    return (count.startsWith("-") ? all.slice(0, Math.max(0, all.length - n)) : all.slice(0, n)).join("");
  return (from ? all.slice(Math.max(0, n - 1)) : all.slice(Math.max(0, all.length - n))).join("");
}

/** A cut LIST (`1`, `1-3`, `2-`, `-2`, comma separated) as a test of 1-based positions. */
function cutList(list: string): ((n: number) => boolean) | undefined {
  const ranges: [number, number][] = [];
  for (const piece of list.split(",")) {
    const m = /^(\d*)(-?)(\d*)$/.exec(piece);
    if (m === null || (m[1] === "" && m[3] === "")) return undefined;
    const from = m[1] === "" ? 1 : Number(m[1]);
    const to = m[2] === "" ? from : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
    ranges.push([from, to]);
  }
  return (n) => ranges.some(([a, b]) => n >= a && n <= b);
}

/** `cut -d X -f LIST`, `cut -c LIST` over stdin. */
function cut(args: readonly string[], stdin: string | undefined): string | undefined {
  if (stdin === undefined) return undefined;
  let delimiter = "\t";
  let fieldsList: string | undefined;
  let charsList: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const value = (short: string, long: string): string | undefined =>
      a === short || a === long
        ? args[++i]
        : a.startsWith(`${long}=`)
          ? a.slice(long.length + 1)
          : a.startsWith(short)
            ? a.slice(2)
            : undefined;
    const d = value("-d", "--delimiter");
    const f = d === undefined ? value("-f", "--fields") : undefined;
    const c = d === undefined && f === undefined ? value("-c", "--characters") : undefined;
    if (d !== undefined) delimiter = d;
    else if (f !== undefined) fieldsList = f;
    else if (c !== undefined) charsList = c;
    else return undefined;
  }
  const pick = cutList(fieldsList ?? charsList ?? "");
  if (pick === undefined || delimiter.length !== 1 || (fieldsList === undefined) === (charsList === undefined))
    return undefined;
  return lines(stdin)
    .map((line) => {
      if (charsList !== undefined) return `${[...line].filter((_, i) => pick(i + 1)).join("")}\n`;
      if (!line.includes(delimiter)) return `${line}\n`;
      return `${line
        .split(delimiter)
        .filter((_, i) => pick(i + 1))
        .join(delimiter)}\n`;
    })
    .join("");
}

/** `paste -s [-d X]` over stdin: the lines joined. */
function paste(args: readonly string[], stdin: string | undefined): string | undefined {
  if (stdin === undefined) return undefined;
  let serial = false;
  let delimiter = "\t";
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "-s" || a === "--serial") serial = true;
    else if (a === "-d") delimiter = args[++i] ?? "";
    else if (a.startsWith("-sd")) {
      serial = true;
      delimiter = a.length > 3 ? a.slice(3) : (args[++i] ?? "");
    } else if (a.startsWith("-d")) delimiter = a.slice(2);
    else if (a !== "-") return undefined;
  }
  if (!serial || delimiter.length > 1) return undefined;
  return `${lines(stdin).join(delimiter)}\n`;
}

/**
 * `sed 's/PAT/REP/[g]'` (one substitution, or several with `-e`/`;`) over stdin, for patterns of
 * plain characters, `.`, `*`, `^`, `$` and bracket classes; `&` in the replacement. Others are
 * not emulated.
 */
function sedSubstitute(args: readonly string[], stdin: string | undefined): string | undefined {
  if (stdin === undefined) return undefined;
  const scripts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "-e" || a === "--expression") scripts.push(args[++i] ?? "");
    else if (a === "-E" || a === "-r" || a === "--regexp-extended") continue;
    else if (!a.startsWith("-") && scripts.length === 0 && i === args.length - 1) scripts.push(a);
    else return undefined;
  }
  const commands = scripts
    .flatMap((x) => x.split(";"))
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
  if (commands.length === 0) return undefined;
  let text = stdin;
  for (const command of commands) {
    if (command[0] !== "s" || command.length < 4) return undefined;
    const delim = command[1] as string;
    const parts = command.slice(2).split(delim);
    if (parts.length !== 3) return undefined;
    const [pattern, replacement, flags] = parts as [string, string, string];
    if (!/^g?$/.test(flags) || /[\\+?(){}|]/.test(pattern) || /\\/.test(replacement) || pattern === "")
      return undefined;
    let re: RegExp;
    try {
      re = new RegExp(pattern, flags === "g" ? "gm" : "m");
    } catch {
      return undefined;
    }
    text = lines(text)
      .map((line) => `${line.replace(re, replacement.replaceAll("$", "$$$$").replaceAll("&", "$&"))}\n`)
      .join("");
  }
  return text;
}

/** The login name as the state knows it (`USER`). */
const login = (q: OutputQuery): string | undefined => varValue(q.state, "USER");

/**
 * `mktemp [-d] [-t] [-p DIR | --tmpdir=DIR] [TEMPLATE]`: the name is random, its directory is not. The
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
    else if (a === "--directory" || a === "--quiet" || a === "--dry-run") continue;
    // `-d`, `-q`, `-u`, and `-t` (GNU: the template is relative to the temp directory; BSD: `-t
    // PREFIX` names a file in it): alone or combined (`-dt`)
    else if (/^-[dqut]+$/.test(a)) continue;
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

function inRepo(q: OutputQuery, cwd: string | undefined = q.state.cwd): boolean {
  const root = q.options.repoRoot;
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

/** The classes `tr` knows (`[:upper:]`), as the characters they stand for. */
const TR_CLASSES: Readonly<Record<string, string>> = {
  lower: "abcdefghijklmnopqrstuvwxyz",
  upper: "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
  digit: "0123456789",
  space: " \t\n\r\v\f",
  blank: " \t",
};

/** The escapes `tr` sets understand. */
const TR_ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "\\": "\\", v: "\v", f: "\f" };

/**
 * A `tr` set as the characters it lists, in order: ranges (`a-z`), classes (`[:upper:]`), escapes
 * (`\n`, `\\`, octal `\NNN`). `undefined` for what lanes does not emulate (`[c*n]`, `[=c=]`,
 * reversed ranges) and for sets over 1,024 characters.
 */
function trSet(set: string): string | undefined {
  const chars: string[] = [];
  for (let i = 0; i < set.length; i++) {
    let c = set[i] as string;
    if (c === "[") {
      if (set[i + 1] === ":") {
        const end = set.indexOf(":]", i + 2);
        const name = end < 0 ? undefined : set.slice(i + 2, end);
        const members = name === undefined || !Object.hasOwn(TR_CLASSES, name) ? undefined : TR_CLASSES[name];
        if (members === undefined) return undefined;
        chars.push(...members);
        i = end + 1;
        continue;
      }
      if (set[i + 1] === "=" || set.indexOf("*", i) > i) return undefined;
    }
    if (c === "\\" && i + 1 < set.length) {
      const n = set[i + 1] as string;
      if (n >= "0" && n <= "7") {
        let j = i + 1;
        while (j < set.length && j < i + 4 && (set[j] as string) >= "0" && (set[j] as string) <= "7") j++;
        c = String.fromCharCode(parseInt(set.slice(i + 1, j), 8));
        i = j - 1;
      } else {
        c = Object.hasOwn(TR_ESCAPES, n) ? (TR_ESCAPES[n] as string) : n;
        i++;
      }
    }
    if (set[i + 1] === "-" && i + 2 < set.length) {
      const to = set[i + 2] as string;
      if (to === "\\" || to < c) return undefined;
      for (let code = c.charCodeAt(0); code <= to.charCodeAt(0); code++) chars.push(String.fromCharCode(code));
      i += 2;
    } else chars.push(c);
    if (chars.length > 1024) return undefined;
  }
  return chars.join("");
}

/**
 * `tr SET1 SET2` (ROT13: `tr 'a-z' 'n-za-m'`), `tr -d SET`: the translated stdin. SET2 shorter than
 * SET1 repeats its last character (GNU). Other options are not emulated.
 */
function translate(args: readonly string[], stdin: string | undefined): string | undefined {
  if (stdin === undefined) return undefined;
  if (args.length === 2 && args[0] === "-d") {
    const remove = trSet(args[1] as string);
    return remove === undefined ? undefined : [...stdin].filter((c) => !remove.includes(c)).join("");
  }
  if (args.length !== 2 || (args[0] as string).startsWith("-")) return undefined;
  const from = trSet(args[0] as string);
  const to = trSet(args[1] as string);
  if (from === undefined || to === undefined || to.length === 0) return undefined;
  const map = new Map<string, string>();
  [...from].forEach((c, i) => map.set(c, to[Math.min(i, to.length - 1)] as string));
  return [...stdin].map((c) => map.get(c) ?? c).join("");
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

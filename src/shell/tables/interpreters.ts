/**
 * Shells and interpreters: how each one is told which code to run. Data only; `interpreter-input.ts`
 * reads a command's argv with these entries.
 */
import type { OptionGrammar } from "../option-scanner.ts";
import type { CodeLanguage } from "../types.ts";

/** One shell or interpreter program family. */
export interface InterpreterSpec {
  readonly language: CodeLanguage;
  /** Options and arities; scanning stops at the first operand (the script). */
  readonly grammar: OptionGrammar;
  /** Options whose value is the code (`python -c CODE`, `node -e CODE`, `perl -e CODE`). */
  readonly codeOptions?: readonly string[];
  /** Shells: this flag makes the first operand the code (`bash -c STR`), the next one `$0`. */
  readonly codeFlag?: string;
  /** Flags that make the program read code from stdin even with operands (`bash -s`). */
  readonly stdinFlags?: readonly string[];
  /** Options after which no code is read at all (`python -m MOD`, `--version`, `php -l` lint). */
  readonly noCode?: readonly string[];
  /** Code options may repeat; the pieces are joined with newlines (`perl -e A -e B`). */
  readonly joinCode?: boolean;
  /** A subcommand that takes the code as its first operand (`deno eval CODE`). */
  readonly evalSubcommand?: string;
  /** Only the code options run code; operands are not scripts (`bun install` is not code). */
  readonly codeOptionsOnly?: boolean;
  /**
   * PowerShell: the code option takes every remaining word, joined with spaces (`-Command
   * Restart-Computer -Force`); with `operandIsCode`, so does a first operand that is not a `.ps1`
   * script (Windows PowerShell runs `powershell Stop-Computer -Force` as a command).
   */
  readonly restIsCode?: boolean;
  /** Whole-word spellings read as another option (`node -pe CODE` is `-p -e CODE`: the code follows). */
  readonly spellings?: Readonly<Record<string, string>>;
  /** Options are case-insensitive (PowerShell's `-Command`, `-COMMAND`): the grammar lists them in lower case. */
  readonly foldCase?: boolean;
  /** The first operand is code, not a script (Windows PowerShell: `powershell "irm URL | iex"`)... */
  readonly operandIsCode?: boolean;
  /** ...unless one of these options makes it a script (`powershell -File install.ps1`). */
  readonly scriptOptions?: readonly string[];
}

const SHELL: InterpreterSpec = {
  language: "shell",
  grammar: {
    options: { "-o": 1, "-O": 1, "+o": 1, "+O": 1, "--rcfile": 1, "--init-file": 1 },
    permute: false,
    plusOptions: true,
  },
  codeFlag: "-c",
  stdinFlags: ["-s"],
  // `bash -n`: read the code, check its syntax, run nothing
  noCode: ["--version", "--help", "-n", "--noexec"],
};

const PYTHON: InterpreterSpec = {
  language: "python",
  grammar: { options: { "-c": 1, "-m": 1, "-W": 1, "-X": 1, "--check-hash-based-pycs": 1 }, permute: false, terminators: ["-c", "-m"] },
  codeOptions: ["-c"],
  noCode: ["-m", "--version", "-V", "--help", "-h"],
};

const NODE: InterpreterSpec = {
  language: "node",
  grammar: {
    options: {
      "-e": 1, "--eval": 1, "-p": 1, "--print": 1, "-r": 1, "--require": 1, "--import": 1, "--loader": 1,
      "--experimental-loader": 1, "-C": 1, "--conditions": 1, "--input-type": 1, "--env-file": 1, "--title": 1,
    },
    permute: false,
  },
  codeOptions: ["-e", "--eval", "-p", "--print"],
  noCode: ["--version", "-v", "--help", "-h", "--check", "-c"],
  spellings: { "-pe": "-e", "-ep": "-e" },
};

const PERL: InterpreterSpec = {
  language: "perl",
  grammar: {
    options: {
      "-e": 1, "-E": 1, "-I": 1, "-M": 1, "-m": 1, "-l": "digits", "-0": "digits", "-i": "optional",
      "-C": "digits", "-d": "optional", "-D": "optional", "-x": "optional", "-F": "optional", "-V": "optional",
    },
    permute: false,
  },
  codeOptions: ["-e", "-E"],
  joinCode: true,
  noCode: ["-v", "--version", "-h", "--help", "-c", "-V"],
};

const RUBY: InterpreterSpec = {
  language: "ruby",
  grammar: {
    options: {
      "-e": 1, "-r": 1, "-I": 1, "-C": 1, "-E": 1, "--encoding": 1, "-F": "optional", "-i": "optional",
      "-W": "optional", "-x": "optional", "-0": "digits", "-K": "optional", "-T": "optional",
    },
    permute: false,
  },
  codeOptions: ["-e"],
  joinCode: true,
  noCode: ["-v", "--version", "-h", "--help", "-c"],
};

const PHP: InterpreterSpec = {
  language: "php",
  grammar: { options: { "-r": 1, "-R": 1, "-B": 1, "-E": 1, "-f": 1, "-d": 1, "-c": 1, "-z": 1, "-t": 1, "-S": 1, "-F": 1 }, permute: false },
  codeOptions: ["-r", "-R", "-B", "-E"],
  joinCode: true,
  noCode: ["-v", "--version", "-h", "--help", "-l", "--syntax-check", "-i", "--info", "-m", "-S"],
};

/** Every prefix of `name` from `min` characters on, as a `-option` (PowerShell accepts any unambiguous prefix). */
const prefixes = (name: string, min: number): string[] =>
  Array.from({ length: name.length - min + 1 }, (_, i) => `-${name.slice(0, min + i)}`);

const arity = (names: readonly string[], n: 0 | 1): Record<string, 0 | 1> =>
  Object.fromEntries(names.map((o) => [o, n]));

/** `-Command` and its prefixes (`-c`, `-com`); PowerShell options are case-insensitive and whole words. */
const PS_COMMAND = prefixes("command", 1);

const POWERSHELL: InterpreterSpec = {
  language: "powershell",
  grammar: {
    options: {
      ...arity([...PS_COMMAND, ...prefixes("encodedcommand", 1), "-ec", ...prefixes("executionpolicy", 2), "-ep"], 1),
      // `-File script.ps1`: the script is the operand that follows
      ...arity(prefixes("file", 1), 0),
      ...arity([...prefixes("windowstyle", 1), ...prefixes("workingdirectory", 3), "-wd", ...prefixes("inputformat", 3), "-if", ...prefixes("outputformat", 3), "-of"], 1),
      ...arity([...prefixes("configurationname", 4), ...prefixes("settingsfile", 2), ...prefixes("commandwithargs", 8), "-cwa"], 1),
      ...arity([...prefixes("noprofile", 3), ...prefixes("noninteractive", 4), ...prefixes("nologo", 3), ...prefixes("noexit", 3), "-sta", "-mta"], 0),
    },
    // `-Command`, `-NoProfile`: whole words, never clusters of letters
    singleDashLong: true,
    permute: false,
  },
  codeOptions: [...PS_COMMAND, ...prefixes("commandwithargs", 8), "-cwa"],
  restIsCode: true,
  scriptOptions: prefixes("file", 1),
  foldCase: true,
  noCode: [...prefixes("version", 1), ...prefixes("help", 1), "-?", "/?"],
};

/** How code of one language downloads text and evaluates text, as lower-case words of the code. */
export interface RemoteCodeWords {
  /** Words that fetch from the network, each with the fetcher it is reported as. */
  readonly downloads: Readonly<Record<string, string>>;
  /** Words that evaluate text as code. */
  readonly evaluators: readonly string[];
  /** Consecutive word pairs that evaluate text as code (`[scriptblock]::Create`, `new Function`). */
  readonly evaluatorPairs?: readonly (readonly [string, string])[];
}

/**
 * Code that downloads and evaluates in one go, which no pipeline shows: PowerShell's
 * `iex (New-Object Net.WebClient).DownloadString(URL)`, python's `exec(urlopen(URL).read())`,
 * node's `fetch(URL).then(r => r.text()).then(eval)`. Read by `handlers/remote-code.ts`.
 */
export const REMOTE_CODE_WORDS: Readonly<Partial<Record<CodeLanguage, RemoteCodeWords>>> = {
  powershell: {
    downloads: {
      iwr: "iwr", irm: "irm", "invoke-webrequest": "invoke-webrequest", "invoke-restmethod": "invoke-restmethod", curl: "curl",
      wget: "wget", "start-bitstransfer": "start-bitstransfer", downloadstring: "invoke-webrequest", downloaddata: "invoke-webrequest",
      getstringasync: "invoke-webrequest", getbytearrayasync: "invoke-webrequest", openread: "invoke-webrequest",
    },
    evaluators: ["iex", "invoke-expression"],
    evaluatorPairs: [["scriptblock", "create"]],
  },
  python: {
    downloads: { urlopen: "urllib", urlretrieve: "urllib", requests: "requests", httpx: "httpx", urllib3: "urllib3", aiohttp: "aiohttp" },
    evaluators: ["exec", "eval"],
  },
  node: {
    downloads: { fetch: "fetch", axios: "axios", got: "got", undici: "undici", https: "https", http: "https" },
    evaluators: ["eval", "runinthiscontext", "runinnewcontext", "runincontext"],
    evaluatorPairs: [["new", "function"]],
  },
  ruby: {
    downloads: { uri: "open-uri", httparty: "httparty", faraday: "faraday", net: "net-http" },
    evaluators: ["eval", "instance_eval", "class_eval", "module_eval"],
  },
  perl: {
    downloads: { lwp: "lwp", furl: "furl", mojo: "mojo", getstore: "lwp", get: "lwp" },
    evaluators: ["eval"],
  },
  php: {
    downloads: { file_get_contents: "file_get_contents", curl_exec: "curl_exec", fopen: "file_get_contents" },
    evaluators: ["eval"],
  },
};


/** Interpreters by program name (after version suffixes are stripped: `python3.12` → `python3`). */
export const INTERPRETERS: Readonly<Record<string, InterpreterSpec>> = {
  bash: SHELL,
  sh: SHELL,
  zsh: SHELL,
  dash: SHELL,
  ksh: SHELL,
  mksh: SHELL,
  ash: SHELL,
  fish: SHELL,
  python: PYTHON,
  python2: PYTHON,
  python3: PYTHON,
  pypy: PYTHON,
  pypy3: PYTHON,
  node: NODE,
  nodejs: NODE,
  deno: { language: "node", grammar: { options: { "-p": 0, "--print": 0 }, permute: false }, evalSubcommand: "eval", codeOptionsOnly: true },
  bun: { language: "node", grammar: { options: { "-e": 1, "--eval": 1, "-p": 1, "--print": 1 }, permute: false }, codeOptions: ["-e", "--eval", "-p", "--print"], codeOptionsOnly: true },
  perl: PERL,
  ruby: RUBY,
  php: PHP,
  // PowerShell 7 runs its first operand as a script file, Windows PowerShell 5 as a command
  pwsh: POWERSHELL,
  "pwsh.exe": POWERSHELL,
  powershell: { ...POWERSHELL, operandIsCode: true },
  "powershell.exe": { ...POWERSHELL, operandIsCode: true },
};

/**
 * Programs that run a script file of a language lanes reads without being one of the interpreters
 * above (their command lines are handled as `script-runners` in `handlers/scripts.ts`): a `#!`
 * line naming one (`#!/usr/bin/env tsx`) runs the file in that language.
 */
export const SCRIPT_RUNNERS: Readonly<Record<string, CodeLanguage>> = {
  tsx: "node",
  "ts-node": "node",
  "ts-node-esm": "node",
  "ts-node-script": "node",
  esno: "node",
  "vite-node": "node",
  "babel-node": "node",
  jiti: "node",
};

/** PowerShell's evaluators: they run their argument, or what is piped in (`iwr URL | iex`). */
export const STDIN_EVALUATORS: readonly string[] = ["iex", "invoke-expression"];

/**
 * Programs whose output is environment code meant for `eval`/`source` (`eval "$(ssh-agent -s)"`,
 * `source <(kubectl completion bash)`): running it is not unknown code. The listed words are the
 * subcommands or options that make the program print such code; an empty list means any use.
 */
export const CODE_GENERATORS: Readonly<Record<string, readonly string[]>> = {
  "ssh-agent": [],
  direnv: ["hook", "export"],
  pyenv: ["init", "virtualenv-init"],
  rbenv: ["init"],
  nodenv: ["init"],
  goenv: ["init"],
  jenv: ["init"],
  plenv: ["init"],
  conda: ["shell.bash", "shell.zsh", "hook"],
  brew: ["shellenv"],
  fnm: ["env"],
  zoxide: ["init"],
  starship: ["init"],
  mise: ["activate", "env"],
  rtx: ["activate"],
  atuin: ["init"],
  thefuck: ["--alias"],
  dircolors: [],
  "gpg-agent": ["--daemon"],
  kubectl: ["completion"],
  helm: ["completion"],
  gh: ["completion"],
  npm: ["completion"],
  pnpm: ["completion"],
  rustup: ["completions"],
  docker: ["completion"],
  poetry: ["completions"],
  opam: ["env"],
  minikube: ["docker-env", "podman-env"],
  "docker-machine": ["env"],
  keychain: ["--eval"],
  nix: ["print-dev-env"],
  devbox: ["shellenv"],
  fzf: ["--bash", "--zsh", "--fish"],
  uv: ["generate-shell-completion"],
  "register-python-argcomplete": [],
  pip: ["completion"],
  just: ["--completions"],
  deno: ["completions"],
  bun: ["completions"],
  op: ["completion", "signin"],
  luarocks: ["path"],
  aws: ["export-credentials", "get-login"],
  "aws-vault": ["export"],
  saml2aws: ["script"],
  tsh: ["env"],
};

/**
 * Subcommands and options that make any program print shell completion code
 * (`source <(eksctl completion bash)`, `pulumi gen-completion bash`, `stern --completion bash`).
 */
export const COMPLETION_WORDS: readonly string[] = ["completion", "completions", "gen-completion", "--completion", "--completions", "completion-script"];

/** Programs that run a shell file in the current shell (`source file`, `. file`). */
export const SOURCE_COMMANDS: readonly string[] = ["source", "."];

/** `eval ARGS`: the arguments joined by spaces are shell code run in the current shell. */
export const EVAL_COMMANDS: readonly string[] = ["eval"];

/** Commands whose output is their static arguments (`echo`, `printf`): what they pipe into a shell or a client is literal text. */
export const LITERAL_PRODUCERS: readonly string[] = ["echo", "printf"];

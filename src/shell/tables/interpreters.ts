/**
 * Shells and interpreters: how each one is told which code to run. Data only; `_interpreters.ts`
 * reads a command's argv with these entries.
 */
import type { OptionGrammar } from "../_options.ts";
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
  /** Whole-word spellings read as another option (`node -pe CODE` is `-p -e CODE`: the code follows). */
  readonly spellings?: Readonly<Record<string, string>>;
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
  noCode: ["--version", "--help"],
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

const POWERSHELL: InterpreterSpec = {
  language: "powershell",
  grammar: {
    options: {
      "-c": 1, "-Command": 1, "-command": 1, "-e": 1, "-ec": 1, "-EncodedCommand": 1, "-encodedcommand": 1, "-ExecutionPolicy": 1,
      "-executionpolicy": 1, "-ep": 1, "-File": 1, "-file": 1, "-f": 1, "-NoProfile": 0, "-noprofile": 0, "-nop": 0,
      "-NonInteractive": 0, "-noninteractive": 0, "-NoLogo": 0, "-nologo": 0, "-WindowStyle": 1, "-w": 1,
    },
    permute: false,
  },
  codeOptions: ["-c", "-Command", "-command"],
  noCode: ["-Version", "-v", "-h", "-Help", "-?"],
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
  pwsh: POWERSHELL,
  powershell: POWERSHELL,
  "powershell.exe": POWERSHELL,
  "pwsh.exe": POWERSHELL,
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
  aws: ["export-credentials"],
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
  op: ["completion"],
  luarocks: ["path"],
};

/** Programs that run a shell file in the current shell (`source file`, `. file`). */
export const SOURCE_COMMANDS: readonly string[] = ["source", "."];

/** `eval ARGS`: the arguments joined by spaces are shell code run in the current shell. */
export const EVAL_COMMANDS: readonly string[] = ["eval"];

/** Commands whose output is their static arguments, so piping them into a shell pipes literal code. */
export const LITERAL_PRODUCERS: readonly string[] = ["echo", "printf"];

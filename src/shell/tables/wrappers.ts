/**
 * Wrappers: programs that run another command given in their arguments. The analysis removes them
 * (recording their names in `ShellCommand.wrappers`) so the wrapped argv is exact. Each entry is
 * data: the wrapper's real option syntax and how its command is given. The unwrapping code in
 * `_walk.ts` is generic over these entries.
 */
import type { OptionGrammar } from "../option-scanner.ts";

/**
 * How a wrapper gives its command:
 * - `exec`: the first operand after the options (and `operands` leading operands) is the command;
 * - `xargs`: like `exec`, but the command gets more arguments at run time (default command `echo`);
 * - `parallel`: GNU parallel; the command ends at `:::`/`::::` and runs through a shell once per input;
 * - `multicall`: the first operand names the applet (`busybox rm -rf /`);
 * - `shell-option`: an option's value is a shell string (`su -c STR`, `flock FILE -c STR`);
 * - `remote`: after the options and `operands` (the host), the rest joined by spaces is a shell string (`ssh`);
 * - `watch`: the rest joined by spaces is a shell string, or an argv with `execOptions` (`watch -x`).
 */
export type WrapperKind = "exec" | "xargs" | "parallel" | "multicall" | "shell-option" | "remote" | "watch";

/** One wrapper program. */
export interface WrapperSpec {
  readonly kind: WrapperKind;
  /** The wrapper's own options; scanning stops at the first operand unless `permute` is set. */
  readonly grammar: OptionGrammar;
  /** Operands between the options and the command (`timeout DURATION`, `chroot NEWROOT`, `ssh HOST`). */
  readonly operands?: number;
  /** Options after which the wrapper does not run its operands (`command -v`, `sudo -l`, `ionice -p`). */
  readonly noRun?: readonly string[];
  /** Options whose value is a shell string (`su -c`, `flock -c`, `nix-shell --run`, `script -c`). */
  readonly shellString?: readonly string[];
  /** Options whose value is split into words and put before the command (`env -S`). */
  readonly splitString?: readonly string[];
  /** Options whose value becomes the command's working directory (`env -C`, `sudo -D`). */
  readonly chdir?: readonly string[];
  /** `NAME=VALUE` operands before the command are environment assignments (`env`). */
  readonly assignments?: boolean;
  /** The command runs under another root directory, so its working directory is unknown (`chroot`). */
  readonly newRoot?: boolean;
  /** The command run when none is given (`xargs` → `echo`). */
  readonly defaultCommand?: string;
  /** `watch`: options after which the rest is an argv instead of a shell string. */
  readonly execOptions?: readonly string[];
  /** The command runs on another machine, so its working directory is unknown (`ssh`). */
  readonly remote?: boolean;
  /**
   * Without a command the wrapper starts a shell that reads its commands from stdin
   * (`echo 'rm -rf /' | su`, `curl x | ssh host`); with `shellOptions`, only when one of them is
   * given (`sudo -s`, `sudo -i`).
   */
  readonly stdinShell?: boolean;
  readonly shellOptions?: readonly string[];
  /**
   * The program wraps only with one of these subcommands first (`pnpm exec`, `uv run`,
   * `bundle exec`); other uses (`pnpm install`) are the program itself.
   */
  readonly subcommands?: readonly string[];
  /** The command follows `--` when there is one, wherever the wrapper's own words end (`aws-vault exec prod --duration=1h -- cmd`). */
  readonly afterDoubleDash?: boolean;
  /**
   * A runner's own options before its subcommand (`npm -w api exec`, `pnpm -r --filter web exec`,
   * `yarn --cwd web exec`): skipped to find the subcommand, and the directory they choose is where
   * the command runs. Unknown options leave the command whole (the argv view still names what it
   * runs, `runners.ts`).
   */
  readonly globals?: RunnerGlobals;
  /**
   * The command word names a package (`npx aws-cdk@2 destroy`): its version is dropped and a
   * package whose binary has another name becomes that binary ({@link PACKAGE_BINARIES}).
   */
  readonly packages?: boolean;
}

/** A package runner's options before its subcommand (see {@link WrapperSpec.globals}). */
export interface RunnerGlobals {
  readonly grammar: OptionGrammar;
  /** Options naming the directory the runner works in (`pnpm -C dir`, `npm --prefix dir`, `yarn --cwd dir`). */
  readonly chdir?: readonly string[];
  /**
   * Options selecting a workspace by name or path (`npm -w api`, `pnpm --filter web`): a path is
   * resolved; a name is taken as a directory of that name in the current one (where in the project
   * it lies is not known, only that it is inside).
   */
  readonly workspace?: readonly string[];
  /** Words before the subcommand that select a workspace, with its name as the next word (`yarn workspace NAME`). */
  readonly workspaceWords?: readonly string[];
  /** Words before the subcommand that run it in every workspace, then their own options (`yarn workspaces foreach -A`). */
  readonly eachWords?: readonly (readonly [string, string])[];
  readonly eachGrammar?: OptionGrammar;
}

/** npm packages whose binary has another name: `npx aws-cdk deploy` runs `cdk`. */
export const PACKAGE_BINARIES: Readonly<Record<string, string>> = {
  "aws-cdk": "cdk",
  "firebase-tools": "firebase",
  "netlify-cli": "netlify",
  "@aws-amplify/cli": "amplify",
  "@railway/cli": "railway",
  "cdktf-cli": "cdktf",
  "@cloudflare/wrangler": "wrangler",
  "@azure/static-web-apps-cli": "swa",
  "@sentry/cli": "sentry-cli",
  "@nestjs/cli": "nest",
  "@angular/cli": "ng",
  "@vue/cli": "vue",
  "@shopify/cli": "shopify",
  "@redocly/cli": "redocly",
  "@biomejs/biome": "biome",
  "sequelize-cli": "sequelize",
  "@mikro-orm/cli": "mikro-orm",
  typescript: "tsc",
  "typeorm-ts-node-commonjs": "typeorm",
  "typeorm-ts-node-esm": "typeorm",
  "del-cli": "del",
  "@supabase/cli": "supabase",
  "@prisma/cli": "prisma",
  "@planetscale/cli": "pscale",
  "@expo/cli": "expo",
  "eas-cli": "eas",
  "@vercel/cli": "vercel",
  // agent CLIs (tables/clients.ts)
  "@anthropic-ai/claude-code": "claude",
  "@openai/codex": "codex",
  "@google/gemini-cli": "gemini",
  "@qwen-code/qwen-code": "qwen",
  "opencode-ai": "opencode",
  "@sourcegraph/amp": "amp",
  "@github/copilot": "copilot",
  "@charmland/crush": "crush",
  "aider-chat": "aider",
};

const stop = (options: OptionGrammar["options"], extra: Partial<OptionGrammar> = {}): OptionGrammar => ({ options, permute: false, ...extra });

/** Wrapper programs by name. */
export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  sudo: {
    kind: "exec",
    grammar: stop({
      "-u": 1, "--user": 1, "-g": 1, "--group": 1, "-h": 1, "--host": 1, "-p": 1, "--prompt": 1,
      "-C": 1, "--close-from": 1, "-D": 1, "--chdir": 1, "-r": 1, "--role": 1, "-t": 1, "--type": 1,
      "-T": 1, "--command-timeout": 1, "-U": 1, "--other-user": 1,
      "-E": 0, "--preserve-env": "optional", "-H": 0, "--set-home": 0, "-i": 0, "--login": 0, "-s": 0, "--shell": 0,
      "-n": 0, "--non-interactive": 0, "-k": 0, "--reset-timestamp": 0, "-S": 0, "--stdin": 0, "-b": 0,
      "--background": 0, "-P": 0, "--preserve-groups": 0, "-A": 0, "--askpass": 0, "-B": 0, "--bell": 0,
      "-K": 0, "--remove-timestamp": 0, "-l": 0, "--list": 0, "-v": 0, "--validate": 0, "-V": 0, "--version": 0,
      "-e": 0, "--edit": 0,
    }),
    noRun: ["-l", "--list", "-v", "--validate", "-K", "--remove-timestamp", "-V", "--version", "-e", "--edit"],
    chdir: ["-D", "--chdir"],
    // `sudo VERSION=1 bash`: assignments before the command are its environment
    assignments: true,
    stdinShell: true,
    shellOptions: ["-s", "--shell", "-i", "--login"],
  },
  doas: { kind: "exec", grammar: stop({ "-u": 1, "-C": 1, "-n": 0, "-s": 0, "-L": 0 }), noRun: ["-C", "-L"], stdinShell: true, shellOptions: ["-s"] },
  pkexec: { kind: "exec", grammar: stop({ "--user": 1, "--disable-internal-agent": 0, "--keep-cwd": 0 }) },
  env: {
    kind: "exec",
    grammar: stop({
      "-i": 0, "--ignore-environment": 0, "-0": 0, "--null": 0, "-u": 1, "--unset": 1, "-C": 1, "--chdir": 1,
      "-S": 1, "--split-string": 1, "-P": 1, "-v": 0, "--debug": 0, "--block-signal": "optional",
      "--default-signal": "optional", "--ignore-signal": "optional", "--list-signal-handling": 0,
    }),
    splitString: ["-S", "--split-string"],
    chdir: ["-C", "--chdir"],
    assignments: true,
  },
  command: { kind: "exec", grammar: stop({ "-p": 0, "-v": 0, "-V": 0 }), noRun: ["-v", "-V"] },
  builtin: { kind: "exec", grammar: stop({}) },
  exec: { kind: "exec", grammar: stop({ "-a": 1, "-c": 0, "-l": 0 }) },
  nice: { kind: "exec", grammar: stop({ "-n": 1, "--adjustment": 1 }) },
  nohup: { kind: "exec", grammar: stop({}) },
  time: { kind: "exec", grammar: stop({ "-p": 0, "--portability": 0, "-f": 1, "--format": 1, "-o": 1, "--output": 1, "-a": 0, "--append": 0, "-v": 0, "--verbose": 0, "-q": 0, "--quiet": 0 }) },
  timeout: {
    kind: "exec",
    grammar: stop({ "-s": 1, "--signal": 1, "-k": 1, "--kill-after": 1, "--preserve-status": 0, "--foreground": 0, "-v": 0, "--verbose": 0 }),
    operands: 1,
  },
  stdbuf: { kind: "exec", grammar: stop({ "-i": 1, "--input": 1, "-o": 1, "--output": 1, "-e": 1, "--error": 1 }) },
  ionice: {
    kind: "exec",
    grammar: stop({ "-c": 1, "--class": 1, "-n": 1, "--classdata": 1, "-p": 1, "--pid": 1, "-P": 1, "--pgid": 1, "-u": 1, "--uid": 1, "-t": 0, "--ignore": 0 }),
    noRun: ["-p", "--pid", "-P", "--pgid", "-u", "--uid"],
  },
  chrt: {
    kind: "exec",
    grammar: stop({
      "-a": 0, "--all-tasks": 0, "-b": 0, "--batch": 0, "-d": 0, "--deadline": 0, "-f": 0, "--fifo": 0,
      "-i": 0, "--idle": 0, "-o": 0, "--other": 0, "-r": 0, "--rr": 0, "-R": 0, "--reset-on-fork": 0,
      "-m": 0, "--max": 0, "-p": 0, "--pid": 0, "-T": 1, "--sched-runtime": 1, "-P": 1, "--sched-period": 1,
      "-D": 1, "--sched-deadline": 1, "-v": 0, "--verbose": 0,
    }),
    operands: 1,
    noRun: ["-m", "--max", "-p", "--pid"],
  },
  taskset: { kind: "exec", grammar: stop({ "-a": 0, "--all-tasks": 0, "-c": 0, "--cpu-list": 0, "-p": 0, "--pid": 0 }), operands: 1, noRun: ["-p", "--pid"] },
  setsid: { kind: "exec", grammar: stop({ "-c": 0, "--ctty": 0, "-f": 0, "--fork": 0, "-w": 0, "--wait": 0 }) },
  unbuffer: { kind: "exec", grammar: stop({ "-p": 0 }) },
  fakeroot: { kind: "exec", grammar: stop({ "-l": 1, "--lib": 1, "--faked": 1, "-s": 1, "-i": 1, "-u": 0, "--unknown-is-real": 0, "-b": 1 }) },
  strace: {
    kind: "exec",
    grammar: stop({
      "-o": 1, "--output": 1, "-e": 1, "-p": 1, "--attach": 1, "-s": 1, "--string-limit": 1, "-u": 1, "--user": 1,
      "-E": 1, "--env": 1, "-P": 1, "--trace-path": 1, "-I": 1, "-b": 1, "-a": 1, "-X": 1, "-O": 1, "-S": 1,
    }),
    noRun: ["-p", "--attach"],
  },
  // `nsenter -t 1 -m -u -n -i cmd`: the command runs in another process's namespaces (the host's for pid 1)
  nsenter: {
    kind: "exec",
    grammar: stop({
      "-t": 1, "--target": 1, "-S": 1, "--setuid": 1, "-G": 1, "--setgid": 1, "-r": "optional", "--root": "optional", "-w": "optional", "--wd": "optional",
      "-m": "optional", "--mount": "optional", "-u": "optional", "--uts": "optional", "-i": "optional", "--ipc": "optional", "-n": "optional", "--net": "optional",
      "-p": "optional", "--pid": "optional", "-U": "optional", "--user": "optional", "-C": "optional", "--cgroup": "optional", "-T": "optional", "--time": "optional",
      "-a": 0, "--all": 0, "-F": 0, "--no-fork": 0, "--preserve-credentials": 0, "-Z": 0, "--follow-context": 0,
    }),
  },
  chroot: { kind: "exec", grammar: stop({ "--userspec": 1, "--groups": 1, "--skip-chdir": 0 }), operands: 1, newRoot: true },
  flock: {
    kind: "shell-option",
    grammar: stop({
      "-s": 0, "--shared": 0, "-x": 0, "-e": 0, "--exclusive": 0, "-u": 0, "--unlock": 0, "-n": 0, "--nonblock": 0,
      "--nb": 0, "-o": 0, "--close": 0, "-E": 1, "--conflict-exit-code": 1, "-w": 1, "--wait": 1, "--timeout": 1,
      "-F": 0, "--no-fork": 0, "--verbose": 0, "-c": 1, "--command": 1,
    }),
    operands: 1,
    shellString: ["-c", "--command"],
  },
  su: {
    kind: "shell-option",
    grammar: {
      options: {
        "-c": 1, "--command": 1, "--session-command": 1, "-s": 1, "--shell": 1, "-g": 1, "--group": 1,
        "-G": 1, "--supp-group": 1, "-w": 1, "--whitelist-environment": 1, "-l": 0, "--login": 0,
        "-m": 0, "-p": 0, "--preserve-environment": 0, "-f": 0, "--fast": 0, "-P": 0, "--pty": 0,
      },
    },
    shellString: ["-c", "--command", "--session-command"],
    stdinShell: true,
  },
  runuser: {
    kind: "shell-option",
    grammar: {
      options: {
        "-c": 1, "--command": 1, "--session-command": 1, "-s": 1, "--shell": 1, "-g": 1, "--group": 1,
        "-G": 1, "--supp-group": 1, "-w": 1, "--whitelist-environment": 1, "-l": 0, "--login": 0,
        "-m": 0, "-p": 0, "--preserve-environment": 0, "-f": 0, "--fast": 0, "-P": 0, "--pty": 0, "-u": 1, "--user": 1,
      },
    },
    shellString: ["-c", "--command", "--session-command"],
    stdinShell: true,
  },
  "nix-shell": {
    kind: "shell-option",
    grammar: {
      options: {
        "--run": 1, "--command": 1, "-A": 1, "--attr": 1, "-I": 1, "--include": 1, "--arg": 2, "--argstr": 2,
        "--keep": 1, "-j": 1, "--max-jobs": 1, "--option": 2, "-p": 0, "--packages": 0, "--pure": 0, "-E": 0, "--expr": 0,
      },
    },
    shellString: ["--run", "--command"],
  },
  script: {
    kind: "shell-option",
    grammar: {
      options: {
        "-c": 1, "--command": 1, "-E": 1, "--echo": 1, "-I": 1, "--log-in": 1, "-O": 1, "--log-out": 1,
        "-B": 1, "--log-io": 1, "-T": 1, "--log-timing": 1, "-m": 1, "--logging-format": 1, "-o": 1,
        "--output-limit": 1, "-t": "optional", "--timing": "optional", "-a": 0, "--append": 0, "-e": 0,
        "--return": 0, "-f": 0, "--flush": 0, "-q": 0, "--quiet": 0,
      },
    },
    shellString: ["-c", "--command"],
  },
  ssh: {
    kind: "remote",
    grammar: stop({
      "-b": 1, "-c": 1, "-D": 1, "-E": 1, "-e": 1, "-F": 1, "-I": 1, "-i": 1, "-J": 1, "-L": 1, "-l": 1,
      "-m": 1, "-O": 1, "-o": 1, "-p": 1, "-Q": 1, "-R": 1, "-S": 1, "-W": 1, "-w": 1, "-B": 1, "-P": 1,
    }),
    operands: 1,
    remote: true,
    stdinShell: true,
  },
  // `heroku run python manage.py flush -a app`: the command runs through a shell on a one-off dyno
  heroku: {
    kind: "remote",
    grammar: stop({ "-a": 1, "--app": 1, "-r": 1, "--remote": 1, "-s": 1, "--size": 1, "-e": 1, "--env": 1, "--type": 1, "-x": 0, "--exit-code": 0, "--no-tty": 0, "--no-notify": 0 }),
    subcommands: ["run", "run:detached", "run:inside"],
    remote: true,
  },
  // `pssh -h hosts.txt 'cmd'`: the command runs on every host of the list
  pssh: {
    kind: "remote",
    grammar: stop({ "-h": 1, "--hosts": 1, "-H": 1, "--host": 1, "-l": 1, "--user": 1, "-p": 1, "--par": 1, "-o": 1, "--outdir": 1, "-e": 1, "--errdir": 1, "-t": 1, "--timeout": 1, "-O": 1, "--option": 1, "-x": 1, "--extra-args": 1, "-X": 1, "--extra-arg": 1, "-A": 0, "--askpass": 0, "-i": 0, "--inline": 0, "-I": 0, "--send-input": 0, "-P": 0, "--print": 0, "-v": 0, "--verbose": 0 }),
    remote: true,
  },
  // Windows `cmd /c COMMAND`: the switch is the one operand before the command line
  cmd: { kind: "remote", grammar: stop({}), operands: 1 },
  "cmd.exe": { kind: "remote", grammar: stop({}), operands: 1 },
  watch: {
    kind: "watch",
    grammar: stop({
      "-n": 1, "--interval": 1, "-d": "optional", "--differences": "optional", "-g": 0, "--chgexit": 0,
      "-q": 1, "--equexit": 1, "-t": 0, "--no-title": 0, "-b": 0, "--beep": 0, "-e": 0, "--errexit": 0,
      "-c": 0, "--color": 0, "-C": 0, "--no-color": 0, "-x": 0, "--exec": 0, "-p": 0, "--precise": 0,
      "-w": 0, "--no-wrap": 0, "-r": 0, "--no-rerun": 0, "-s": 1, "--shotsdir": 1,
    }),
    execOptions: ["-x", "--exec"],
  },
  xargs: {
    kind: "xargs",
    grammar: stop({
      "-0": 0, "--null": 0, "-a": 1, "--arg-file": 1, "-d": 1, "--delimiter": 1, "-E": 1, "-e": "optional",
      "--eof": "optional", "-I": 1, "-i": "optional", "--replace": "optional", "-L": 1, "--max-lines": "optional",
      "-l": "optional", "-n": 1, "--max-args": 1, "-P": 1, "--max-procs": 1, "-s": 1, "--max-chars": 1,
      "-r": 0, "--no-run-if-empty": 0, "-t": 0, "--verbose": 0, "-p": 0, "--interactive": 0, "-x": 0,
      "--exit": 0, "-o": 0, "--open-tty": 0, "--process-slot-var": 1, "--show-limits": 0,
    }),
    defaultCommand: "echo",
  },
  parallel: {
    kind: "parallel",
    grammar: stop({
      "-j": 1, "--jobs": 1, "-P": 1, "--max-procs": 1, "-S": 1, "--sshlogin": 1, "-a": 1, "--arg-file": 1,
      "--joblog": 1, "-d": 1, "--delimiter": 1, "-E": 1, "-I": 1, "--colsep": 1, "-C": 1, "-N": 1,
      "-n": 1, "--max-args": 1, "-L": 1, "--max-lines": 1, "-l": "optional", "--results": 1, "--res": 1,
      "--tmpdir": 1, "--workdir": 1, "--wd": 1, "--basefile": 1, "--bf": 1, "--return": 1, "-s": 1,
      "--max-chars": 1, "--timeout": 1, "--delay": 1, "--halt": 1, "--retries": 1, "--memfree": 1,
      "--load": 1, "--tagstring": 1, "--tag-string": 1, "--env": 1, "--sshloginfile": 1, "--slf": 1,
      "-0": 0, "--null": 0, "-k": 0, "--keep-order": 0, "-q": 0, "--quote": 0, "-v": 0, "--dry-run": 0,
      "-X": 0, "-m": 0, "--pipe": 0, "-u": 0, "--ungroup": 0, "--line-buffer": 0, "--lb": 0,
      "--progress": 0, "--eta": 0, "--bar": 0, "--tag": 0, "--will-cite": 0, "-r": 0, "--no-run-if-empty": 0,
      "--group": 0, "--xargs": 0, "--plus": 0, "--shuf": 0,
    }),
  },
  // package runners: the real program is the package's binary (`npx rimraf dist` runs `rimraf`)
  npx: {
    kind: "shell-option",
    packages: true,
    grammar: stop({ "-y": 0, "--yes": 0, "--no": 0, "-q": 0, "--quiet": 0, "-p": 1, "--package": 1, "-c": 1, "--call": 1, "--no-install": 0, "--ignore-existing": 0 }),
    shellString: ["-c", "--call"],
  },
  // shelljs's commands from npm scripts (`shx rm -rf dist`)
  shx: { kind: "exec", grammar: stop({ "--silent": 0, "--verbose": 0, "--noglob": 0 }) },
  pnpx: { kind: "exec", grammar: stop({ "-p": 1, "--package": 1, "-s": 0, "--silent": 0 }), packages: true },
  bunx: { kind: "exec", grammar: stop({ "--bun": 0, "-p": 1, "--package": 1, "--silent": 0 }), packages: true },
  pnpm: {
    kind: "shell-option",
    grammar: stop({ "-c": 0, "--shell-mode": 0, "-r": 0, "--recursive": 0, "--parallel": 0, "--silent": 0, "--package": 1 }),
    subcommands: ["exec", "dlx"],
    packages: true,
    globals: {
      grammar: stop({
        "-r": 0, "--recursive": 0, "-F": 1, "--filter": 1, "--filter-prod": 1, "-C": 1, "--dir": 1, "-w": 0, "--workspace-root": 0,
        "--parallel": 0, "--stream": 0, "--workspace-concurrency": 1, "--if-present": 0, "-s": 0, "--silent": 0, "--reporter": 1,
        "--aggregate-output": 0, "--no-bail": 0, "--bail": 0, "--include-workspace-root": 0, "--fail-if-no-match": 0,
        "--resume-from": 1, "--sort": 0, "--no-sort": 0, "--reverse": 0, "--loglevel": 1, "--changed-files-ignore-pattern": 1,
        "--test-pattern": 1, "--color": 0, "--no-color": 0,
      }),
      chdir: ["-C", "--dir"],
      workspace: ["-F", "--filter", "--filter-prod"],
    },
  },
  yarn: {
    kind: "exec",
    grammar: stop({ "-p": 1, "--package": 1, "-q": 0, "--quiet": 0 }),
    subcommands: ["exec", "dlx"],
    packages: true,
    globals: {
      grammar: stop({ "--cwd": 1, "-s": 0, "--silent": 0, "--verbose": 0, "--offline": 0, "--no-progress": 0 }),
      chdir: ["--cwd"],
      workspaceWords: ["workspace"],
      eachWords: [["workspaces", "foreach"]],
      eachGrammar: stop({
        "-A": 0, "--all": 0, "-R": 0, "--recursive": 0, "-W": 0, "--worktree": 0, "-p": 0, "--parallel": 0, "-i": 0,
        "--interlaced": 0, "-v": 0, "--verbose": 0, "-t": 0, "--topological": 0, "--topological-dev": 0, "-j": 1, "--jobs": 1,
        "--include": 1, "--exclude": 1, "--from": 1, "--since": "optional", "--no-private": 0,
      }),
    },
  },
  npm: {
    kind: "shell-option",
    grammar: stop({ "-y": 0, "--yes": 0, "--no": 0, "-p": 1, "--package": 1, "-c": 1, "--call": 1, "-w": 1, "--workspace": 1 }),
    shellString: ["-c", "--call"],
    subcommands: ["exec", "x"],
    packages: true,
    globals: {
      // npm reads `-ws` as one option: its short options do not cluster
      grammar: stop(
        {
          "-w": 1, "--workspace": 1, "-ws": 0, "--workspaces": 0, "--include-workspace-root": 0, "--prefix": 1, "--if-present": 0,
          "--loglevel": 1, "-s": 0, "--silent": 0, "-q": 0, "--quiet": 0, "-d": 0, "--registry": 1, "-y": 0, "--yes": 0,
          "--userconfig": 1, "--cache": 1, "--foreground-scripts": 0, "--ignore-scripts": 0, "--no-audit": 0, "--no-fund": 0,
        },
        { cluster: false },
      ),
      chdir: ["--prefix"],
      workspace: ["-w", "--workspace"],
    },
  },
  uv: {
    kind: "exec",
    grammar: stop({
      "--with": 1, "--with-requirements": 1, "--python": 1, "-p": 1, "--project": 1, "--directory": 1, "--env-file": 1, "--extra": 1,
      "--group": 1, "--package": 1, "--isolated": 0, "--no-project": 0, "-q": 0, "--quiet": 0, "--frozen": 0, "--locked": 0,
      "--no-sync": 0, "--all-extras": 0, "--no-dev": 0, "--active": 0, "--script": 0, "-v": 0, "--verbose": 0,
    }),
    subcommands: ["run"],
  },
  uvx: { kind: "exec", grammar: stop({ "--from": 1, "--with": 1, "--python": 1, "-p": 1, "-q": 0, "--quiet": 0, "--isolated": 0 }) },
  bundle: { kind: "exec", grammar: stop({}), subcommands: ["exec"] },
  poetry: { kind: "exec", grammar: stop({ "-C": 1, "--directory": 1, "-q": 0, "--quiet": 0 }), subcommands: ["run"] },
  pipx: { kind: "exec", grammar: stop({ "--spec": 1, "--python": 1, "--pip-args": 1, "--no-cache": 0, "-q": 0, "--quiet": 0 }), subcommands: ["run"] },
  mise: { kind: "exec", grammar: stop({ "-C": 1, "--cd": 1, "-j": 1, "--jobs": 1 }), subcommands: ["exec", "x"] },
  direnv: { kind: "exec", grammar: stop({}), subcommands: ["exec"], operands: 1 },
  // credential and secret injectors: `aws-vault exec prod -- aws ...`, `doppler run -- terraform ...`
  "aws-vault": {
    kind: "exec",
    afterDoubleDash: true,
    grammar: stop({
      "-d": 1, "--duration": 1, "-n": 0, "--no-session": 0, "--region": 1, "-t": 1, "--mfa-token": 1, "-j": 0, "--json": 0, "-s": 0,
      "--server": 0, "--ec2-server": 0, "--ecs-server": 0, "--lazy": 0, "--stdout": 0, "--prompt": 1, "--backend": 1,
    }),
    subcommands: ["exec"],
    operands: 1,
  },
  saml2aws: { kind: "exec", afterDoubleDash: true, grammar: stop({ "--exec-profile": 1, "-a": 1, "--idp-account": 1, "-p": 1, "--profile": 1, "--region": 1 }), subcommands: ["exec"] },
  doppler: {
    kind: "exec",
    afterDoubleDash: true,
    grammar: stop({ "-p": 1, "--project": 1, "-c": 1, "--config": 1, "--token": 1, "--fallback": 1, "--mount": 1, "--preserve-env": "optional", "--forward-signals": 0, "--name-transformer": 1, "--command": 1 }),
    shellString: ["--command"],
    subcommands: ["run"],
  },
  op: { kind: "exec", afterDoubleDash: true, grammar: stop({ "--env-file": 1, "--no-masking": 0, "--account": 1 }), subcommands: ["run"] },
  infisical: {
    kind: "exec",
    afterDoubleDash: true,
    grammar: stop({ "--env": 1, "--path": 1, "--projectId": 1, "--token": 1, "--domain": 1, "--watch": 0, "--recursive": 0, "--include-imports": 0, "--silent": 0 }),
    subcommands: ["run"],
  },
  berglas: { kind: "exec", afterDoubleDash: true, grammar: stop({ "-l": 1, "--local": 0 }), subcommands: ["exec"] },
  // environment loaders: they set variables (from `NAME=VALUE` words or an env file) and run the command
  "cross-env": { kind: "exec", grammar: stop({}), assignments: true },
  dotenv: { kind: "exec", afterDoubleDash: true, grammar: stop({ "-e": 1, "-v": 1, "-p": 1, "-c": 1, "-o": 0, "--override": 0, "--debug": 0, "--quiet": 0 }), noRun: ["-p"] },
  // `npx dotenv-cli -e .env.test -- jest`: the package name of dotenv's binary
  "dotenv-cli": { kind: "exec", afterDoubleDash: true, grammar: stop({ "-e": 1, "-v": 1, "-p": 1, "-c": 1, "-o": 0, "--override": 0, "--debug": 0, "--quiet": 0 }), noRun: ["-p"] },
  "env-cmd": {
    kind: "exec",
    grammar: stop({
      "-f": 1, "--file": 1, "-e": 1, "--environments": 1, "-r": 1, "--rc-file": 1, "--fallback": 0, "--no-override": 0,
      "--silent": 0, "--use-shell": 0, "--expand-envs": 0, "-x": 0, "--verbose": 0,
    }),
  },
  dotenvx: {
    kind: "exec",
    afterDoubleDash: true,
    grammar: stop({ "-f": 1, "--env-file": 1, "-fk": 1, "--env-keys-file": 1, "-e": 1, "--env": 1, "--convention": 1, "-o": 0, "--overload": 0, "--strict": 0, "-q": 0, "--quiet": 0, "--verbose": 0, "--debug": 0 }),
    subcommands: ["run"],
  },
  // run-as-is wrappers: output, power, network, sandbox and tracing helpers, environment managers
  chronic: { kind: "exec", grammar: stop({ "-e": 0, "-v": 0 }) },
  ifne: { kind: "exec", grammar: stop({ "-n": 0 }) },
  caffeinate: { kind: "exec", grammar: stop({ "-d": 0, "-i": 0, "-m": 0, "-s": 0, "-u": 0, "-t": 1, "-w": 1 }) },
  torsocks: { kind: "exec", grammar: stop({ "-u": 1, "-p": 1, "-a": 1, "-P": 1, "-i": 0, "-d": 0, "-q": 0 }) },
  proxychains: { kind: "exec", grammar: stop({ "-q": 0, "-f": 1 }) },
  proxychains4: { kind: "exec", grammar: stop({ "-q": 0, "-f": 1 }) },
  firejail: { kind: "exec", grammar: stop({}) },
  "xvfb-run": {
    kind: "exec",
    grammar: stop({ "-a": 0, "--auto-servernum": 0, "-n": 1, "--server-num": 1, "-s": 1, "--server-args": 1, "-f": 1, "--auth-file": 1, "-e": 1, "--error-file": 1, "-p": 1, "-w": 1 }),
  },
  "dbus-run-session": { kind: "exec", grammar: stop({ "--config-file": 1, "--dbus-daemon": 1 }) },
  "systemd-run": {
    kind: "exec",
    grammar: stop({
      "-u": 1, "--unit": 1, "-p": 1, "--property": 1, "-E": 1, "--setenv": 1, "--description": 1, "--slice": 1,
      "-M": 1, "--machine": 1, "--working-directory": 1, "--uid": 1, "--gid": 1, "--nice": 1, "--on-calendar": 1,
      "--on-active": 1, "--on-boot": 1, "--timer-property": 1, "-d": 0, "--same-dir": 0, "--user": 0, "--scope": 0,
      "-t": 0, "--pty": 0, "-P": 0, "--pipe": 0, "-q": 0, "--quiet": 0, "--wait": 0, "-G": 0, "--collect": 0, "-r": 0,
      "--remain-after-exit": 0, "-S": 0, "--shell": 0,
    }),
    chdir: ["--working-directory"],
  },
  "systemd-inhibit": { kind: "exec", grammar: stop({ "--what": 1, "--who": 1, "--why": 1, "--mode": 1, "--list": 0 }), noRun: ["--list"] },
  valgrind: { kind: "exec", grammar: stop({}) },
  ltrace: { kind: "exec", grammar: stop({ "-o": 1, "-e": 1, "-p": 1, "-s": 1, "-u": 1, "-n": 1, "-a": 1 }), noRun: ["-p"] },
  prlimit: { kind: "exec", grammar: stop({ "-p": 1, "--pid": 1 }), noRun: ["-p", "--pid"] },
  numactl: {
    kind: "exec",
    grammar: stop({ "-N": 1, "--cpunodebind": 1, "-m": 1, "--membind": 1, "-C": 1, "--physcpubind": 1, "-i": 1, "--interleave": 1, "-p": 1, "--preferred": 1, "-l": 0, "--localalloc": 0, "-H": 0, "--hardware": 0, "-s": 0, "--show": 0 }),
    noRun: ["-H", "--hardware", "-s", "--show"],
  },
  rlwrap: { kind: "exec", grammar: stop({ "-f": 1, "-H": 1, "-l": 1, "-P": 1, "-S": 1, "-t": 1, "-w": 1 }) },
  conda: { kind: "exec", grammar: stop({ "-n": 1, "--name": 1, "-p": 1, "--prefix": 1, "--cwd": 1, "--live-stream": 0, "--no-capture-output": 0 }), subcommands: ["run"] },
  mamba: { kind: "exec", grammar: stop({ "-n": 1, "--name": 1, "-p": 1, "--prefix": 1, "--cwd": 1, "--live-stream": 0, "--no-capture-output": 0 }), subcommands: ["run"] },
  micromamba: { kind: "exec", grammar: stop({ "-n": 1, "--name": 1, "-p": 1, "--prefix": 1, "--cwd": 1 }), subcommands: ["run"] },
  pipenv: { kind: "exec", grammar: stop({}), subcommands: ["run"] },
  // terminal multiplexers: `tmux new -d 'cmd'` runs a shell string; `tmux send-keys 'cmd' Enter` types one
  tmux: {
    kind: "watch",
    grammar: stop({
      "-s": 1, "-n": 1, "-c": 1, "-t": 1, "-x": 1, "-y": 1, "-e": 1, "-F": 1, "-l": 1, "-T": 1, "-N": 1, "-X": 0,
      "-d": 0, "-P": 0, "-A": 0, "-D": 0, "-E": 0, "-a": 0, "-b": 0, "-k": 0, "-h": 0, "-v": 0, "-f": 0, "-Z": 0,
      "-I": 0, "-C": 0, "-R": 0, "-K": 0, "-H": 0, "-M": 0, "-p": 0,
    }),
    subcommands: ["new-session", "new", "new-window", "neww", "split-window", "splitw", "run-shell", "run", "respawn-pane", "respawnp", "respawn-window", "respawnw", "send-keys", "send"],
  },
  screen: {
    kind: "exec",
    grammar: stop({
      "-S": 1, "-c": 1, "-p": 1, "-t": 1, "-T": 1, "-e": 1, "-h": 1, "-s": 1, "-Logfile": 1, "-L": 0, "-l": 0, "-d": 0,
      "-D": 0, "-m": 0, "-q": 0, "-A": 0, "-a": 0, "-U": 0, "-r": 0, "-R": 0, "-x": 0, "-X": 0, "-O": 0, "-i": 0, "-f": 0,
    }),
    noRun: ["-r", "-R", "-x", "-X", "-D"],
  },
  busybox: { kind: "multicall", grammar: stop({}) },
  // `microk8s kubectl delete ns prod`, `k3s kubectl ...`: bundled tools named by the first operand
  microk8s: { kind: "multicall", grammar: stop({}) },
  k3s: { kind: "multicall", grammar: stop({}) },
  toybox: { kind: "multicall", grammar: stop({}) },
};

/** GNU parallel's argument separators: what follows is input, not the command. */
export const PARALLEL_SEPARATORS: readonly string[] = [":::", "::::", ":::+", "::::+"];

/**
 * Options whose value is a command that the program runs through a shell (or splits and runs
 * itself): `rsync -e CMD`, `tar --to-command=CMD`, `ssh -o ProxyCommand=CMD`, `git -c
 * core.sshCommand=CMD`, `git -c alias.x='!CMD'`, `git rebase --exec CMD`. The walk analyses these values as shell strings.
 */

/** One option that carries a command. */
export interface EmbeddedCommand {
  /** The option as `argView` reports it (`-e`, `--rsh`, `-o`, `-c`). */
  readonly option: string;
  /**
   * For `key=value` option values: the keys (case-insensitive) whose value is the command; a key
   * ending in `.` matches any key with that prefix (`alias.`).
   */
  readonly keys?: readonly string[];
  /** Only values starting with `!` are commands (git aliases); the `!` is not part of the command. */
  readonly bang?: boolean;
}

/** Embedded commands by program. */
export const EMBEDDED_COMMANDS: Readonly<Record<string, readonly EmbeddedCommand[]>> = {
  rsync: [{ option: "-e" }, { option: "--rsh" }, { option: "--rsync-path" }],
  tar: [{ option: "-I" }, { option: "--use-compress-program" }, { option: "--to-command" }, { option: "--info-script" }, { option: "-F" }, { option: "--new-volume-script" }],
  ssh: [{ option: "-o", keys: ["ProxyCommand", "LocalCommand", "KnownHostsCommand"] }],
  scp: [{ option: "-o", keys: ["ProxyCommand", "LocalCommand", "KnownHostsCommand"] }, { option: "-S" }],
  sftp: [{ option: "-o", keys: ["ProxyCommand", "LocalCommand", "KnownHostsCommand"] }, { option: "-S" }],
  // remote executors whose option is the command run on the hosts
  ansible: [{ option: "-a" }, { option: "--args" }],
  gcloud: [{ option: "--command" }],
  vagrant: [{ option: "-c" }, { option: "--command" }],
  // git's `-c KEY=CMD` keys are handlers/git-config.ts' (the table of src/host/git-programs.ts)
  git: [
    // `git rebase -x CMD` / `--exec CMD` runs CMD after each commit; `git push --exec` runs the receive-pack program
    { option: "-x" },
    { option: "--exec" },
  ],
};

/**
 * Environment variables whose value is a command the program runs through a shell
 * (`GIT_SSH_COMMAND='...' git fetch`, `GIT_PAGER='...' git log`), by program.
 */
export const ENV_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  git: ["GIT_SSH_COMMAND", "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_EXTERNAL_DIFF", "PAGER", "EDITOR", "VISUAL"],
  rsync: ["RSYNC_RSH"],
  man: ["PAGER", "MANPAGER"],
  crontab: ["EDITOR", "VISUAL"],
  visudo: ["EDITOR", "VISUAL", "SUDO_EDITOR"],
  sudoedit: ["EDITOR", "VISUAL", "SUDO_EDITOR"],
};

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
  git: [
    { option: "-c", keys: ["core.sshCommand", "core.pager", "core.editor", "core.fsmonitor", "sequence.editor", "diff.external", "gpg.program"] },
    { option: "-c", keys: ["alias.", "credential.helper"], bang: true },
    // `git rebase -x CMD` / `--exec CMD` runs CMD after each commit; `git push --exec` runs the receive-pack program
    { option: "-x" },
    { option: "--exec" },
  ],
};

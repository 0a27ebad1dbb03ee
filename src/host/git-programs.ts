/**
 * Git configuration keys that make git run a program: one table, read by the shell analysis (a
 * key set by `git config`, `git -c`, `GIT_CONFIG_*` variables or written into a git config file is
 * code that runs later, `src/shell/handlers/git.ts`) and by lanes' own git runner, which turns
 * every one of them off (`src/io/git.ts`). From `git help config` (2.39) and the pages it points
 * to (git-send-email, git-interpret-trailers, git-archive, gitcredentials, git-remote-ext).
 *
 * A key is written `section.name` or `section.*.name` (`*`: any subsection); matching ignores case,
 * as git does for section and variable names (subsections are case-sensitive in git: matching them
 * without case only widens what counts).
 */
import { assertNever } from "./assert-never.ts";

/** What the value of a program key is. */
export type GitProgramKind =
  /** A command git runs (through the shell when it has spaces or metacharacters): `core.pager`, `filter.*.clean`. */
  | "command"
  /** Like `command`, but only a value starting with `!` is a command (`alias.*`, `submodule.*.update`). */
  | "bang"
  /** A helper name (`git-credential-<name>`, `git-remote-<vcs>`), an absolute path, or `!command`. */
  | "helper"
  /** A directory whose hooks git runs (`core.hooksPath`), or whose hooks it copies into new repositories (`init.templateDir`). */
  | "hooks-dir"
  /** Another configuration file, read as if written here (`include.path`): whatever it sets, git runs. */
  | "config-file"
  /** A switch that lets a URL name a command (`protocol.ext.allow`: `ext::sh -c ...` remotes). */
  | "switch";

/** One key and the value lanes' git runner gives it to turn it off. */
export interface GitProgramKey {
  readonly key: string;
  readonly kind: GitProgramKind;
  /**
   * The value that makes git run nothing for this key, for the runner's overrides; `undefined`
   * where no value does (`include.path`: the runner overrides what the included files set instead).
   */
  readonly off: string | undefined;
}

const k = (key: string, kind: GitProgramKind, off: string | null = ""): GitProgramKey => ({
  key,
  kind,
  off: off ?? undefined,
});

// prettier-ignore
export const GIT_PROGRAM_KEYS: readonly GitProgramKey[] = [
  // run by everyday commands in the work tree (status, diff, add, checkout, log)
  k("core.fsmonitor", "command", "false"),
  k("core.hooksPath", "hooks-dir", "/dev/null"),
  k("core.pager", "command", "cat"),
  k("pager.*", "command", "false"),
  k("core.editor", "command", "true"),
  k("sequence.editor", "command", "true"),
  k("core.askPass", "command"),
  k("core.sshCommand", "command", "false"),
  k("core.gitProxy", "command"),
  k("core.alternateRefsCommand", "command"),
  k("credential.helper", "helper"),
  k("credential.*.helper", "helper"),
  k("diff.external", "command"),
  k("diff.*.textconv", "command"),
  k("diff.*.command", "command"),
  k("filter.*.clean", "command"),
  k("filter.*.smudge", "command"),
  k("filter.*.process", "command"),
  k("merge.*.driver", "command"),
  k("interactive.diffFilter", "command"),
  k("gpg.program", "command", "false"),
  k("gpg.*.program", "command", "false"),
  k("gpg.ssh.defaultKeyCommand", "command"),
  k("alias.*", "bang"),
  k("include.path", "config-file", null),
  k("includeIf.*.path", "config-file", null),
  // run by less common commands (tools, transports, mail, archives, templates)
  k("difftool.*.cmd", "command"),
  k("difftool.*.path", "command"),
  k("mergetool.*.cmd", "command"),
  k("mergetool.*.path", "command"),
  k("guitool.*.cmd", "command"),
  k("browser.*.cmd", "command"),
  k("browser.*.path", "command"),
  k("web.browser", "command"),
  k("instaweb.browser", "command"),
  k("instaweb.httpd", "command"),
  k("man.viewer", "command"),
  k("man.*.cmd", "command"),
  k("man.*.path", "command"),
  k("imap.tunnel", "command"),
  k("sendemail.smtpServer", "command"),
  k("sendemail.*.smtpServer", "command"),
  k("sendemail.sendmailCmd", "command"),
  k("sendemail.*.sendmailCmd", "command"),
  k("sendemail.toCmd", "command"),
  k("sendemail.*.toCmd", "command"),
  k("sendemail.ccCmd", "command"),
  k("sendemail.*.ccCmd", "command"),
  k("trailer.*.command", "command"),
  k("trailer.*.cmd", "command"),
  k("tar.*.command", "command"),
  k("uploadpack.packObjectsHook", "command"),
  k("remote.*.uploadpack", "command"),
  k("remote.*.receivepack", "command"),
  k("remote.*.vcs", "helper"),
  k("submodule.*.update", "bang"),
  k("init.templateDir", "hooks-dir"),
  k("protocol.allow", "switch", "never"),
  k("protocol.*.allow", "switch", "never"),
];

/**
 * Environment variables git reads in place of a program key, for the one command they are given to
 * (git(1) "Environment Variables"): the key whose row judges the value. A configuration file named by
 * `GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM` or `GIT_CONFIG` is read whole, as `include.path` is.
 */
export const GIT_PROGRAM_VARIABLES: ReadonlyMap<string, string> = new Map([
  ["GIT_PAGER", "core.pager"],
  ["GIT_EDITOR", "core.editor"],
  ["GIT_SEQUENCE_EDITOR", "sequence.editor"],
  ["GIT_ASKPASS", "core.askPass"],
  ["GIT_SSH_COMMAND", "core.sshCommand"],
  ["GIT_SSH", "core.sshCommand"],
  ["GIT_PROXY_COMMAND", "core.gitProxy"],
  ["GIT_EXTERNAL_DIFF", "diff.external"],
  ["GIT_TEMPLATE_DIR", "init.templateDir"],
  ["GIT_CONFIG_GLOBAL", "include.path"],
  ["GIT_CONFIG_SYSTEM", "include.path"],
  ["GIT_CONFIG", "include.path"],
]);

/** Lowercase wildcard (`*` = any text, one or more subsection segments) against a lowercase key. */
function keyMatches(pattern: string, key: string): boolean {
  const star = pattern.indexOf("*");
  if (star < 0) return pattern === key;
  const head = pattern.slice(0, star);
  const tail = pattern.slice(star + 1);
  return key.length > head.length + tail.length && key.startsWith(head) && key.endsWith(tail);
}

const LOWER = GIT_PROGRAM_KEYS.map((entry) => ({ entry, pattern: entry.key.toLowerCase() }));

/**
 * The table row of a configuration key (`core.fsmonitor`, `diff.x.textconv`) or of a variable that
 * stands for one (`GIT_PAGER`, {@link GIT_PROGRAM_VARIABLES}), or `undefined` when git runs nothing for it.
 */
export function gitProgramKey(key: string): GitProgramKey | undefined {
  const lower = (GIT_PROGRAM_VARIABLES.get(key) ?? key).toLowerCase();
  return LOWER.find(({ pattern }) => keyMatches(pattern, lower))?.entry;
}

/** Values git reads as boolean false. */
const FALSE = new Set(["false", "no", "off", "0"]);

/**
 * Whether a value of `entry` makes git run nothing at all: an empty value (the default, or "no
 * helper"), a boolean where the key takes one (`core.fsmonitor=true` is git's own daemon,
 * `pager.status=false`), a `bang` key's value without `!` (an alias of git subcommands), `never`
 * or `user` for a protocol switch, `/dev/null` as a hooks directory or a configuration file.
 */
export function runsNothing(entry: GitProgramKey, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (v === "") return true;
  switch (entry.kind) {
    case "command":
      return (
        (entry.key === "core.fsmonitor" || entry.key === "pager.*") &&
        (FALSE.has(v) || v === "true" || v === "yes" || v === "on" || v === "1")
      );
    case "bang":
      return !v.startsWith("!");
    case "hooks-dir":
    case "config-file":
      return v === "/dev/null";
    case "switch":
      return v === "never" || v === "user";
    case "helper":
      return false;
    default:
      return assertNever(entry.kind, "git program kind");
  }
}

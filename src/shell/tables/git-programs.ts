/**
 * Programs a git configuration key may name without parking code: pagers, editors, viewers,
 * git's own helpers (`git-lfs`, the credential stores), `ssh` without a command option. A value is
 * harmless when it is plain words only (no quotes, expansions, redirections or separators), its
 * program is listed here, and its options are ones the row allows. The keys themselves are
 * `src/host/git-programs.ts`.
 */

/** What a harmless program may be given: `any` option words, or only these; `operands`: plain words too. */
export interface HarmlessProgram {
  readonly options: "any" | readonly string[];
  readonly operands?: boolean;
}

const any: HarmlessProgram = { options: "any" };
const none: HarmlessProgram = { options: [] };
const editor: HarmlessProgram = { options: ["-w", "--wait", "-n", "--new-window", "-r", "--reuse-window", "-nw", "--nw", "-f"] };

// prettier-ignore
export const HARMLESS_PROGRAMS: Readonly<Record<string, HarmlessProgram>> = {
  // pagers and viewers
  cat: none, less: any, more: any, most: any, bat: any, delta: any, "diff-so-fancy": any, "diff-highlight": none,
  difft: any, ydiff: any, "riff": any,
  // programs that do nothing
  true: none, false: none, ":": none,
  // editors
  vi: editor, vim: editor, nvim: editor, nano: editor, emacs: editor, emacsclient: editor, micro: editor, hx: editor,
  kak: editor, code: editor, "code-insiders": editor, codium: editor, subl: editor, mate: editor, zed: editor,
  gedit: editor, kate: editor, notepad: editor, "notepad++": editor, cursor: editor,
  // signing and transport programs in their plain form
  gpg: any, gpg2: any, gpgsm: any, "ssh-keygen": any,
  // git's own helpers
  "git-lfs": { options: "any", operands: true },
};

/** `ssh` options that run a command (`-o ProxyCommand=...`, `-o LocalCommand=...`); the other options are harmless. */
export const SSH_COMMAND_OPTIONS: readonly string[] = ["proxycommand", "localcommand", "knownhostscommand", "permitlocalcommand", "match"];

/** `ssh` options that take a value. */
export const SSH_VALUE_OPTIONS: readonly string[] = ["-i", "-p", "-F", "-l", "-o", "-J", "-c", "-m", "-b", "-E"];

/** Credential helpers git ships or documents (`git-credential-<name>`), with their options. */
export const HARMLESS_CREDENTIAL_HELPERS: readonly string[] = [
  "cache",
  "store",
  "osxkeychain",
  "manager",
  "manager-core",
  "libsecret",
  "wincred",
  "gnome-keyring",
];

/** Characters a harmless value may hold: anything else (quotes, `$`, `;`, `|`, `&`, `<`, `>`, backquotes, globs, `!`) makes it code. */
export const PLAIN_VALUE_CHARACTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_./=:,+%@~";

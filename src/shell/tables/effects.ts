/**
 * What programs do to the paths they are given, as data for `effects.ts`. A program listed here is
 * "known": its operands get the access written here (or none). Programs not listed are unknown:
 * every operand becomes a `read` effect with basis `operand`.
 */
import type { FileEffect } from "../types.ts";

/** A file access. */
export type Access = FileEffect["access"];

/** Effects of one program (or one git subcommand). */
export interface EffectSpec {
  /** Access of the operands; `none` when they are not paths (`echo`, `kill`). Default `none`. */
  readonly operands?: Access | "none";
  /** Access of operands by position, before `operands` applies to the rest (`uniq IN OUT`, `zip OUT IN...`). */
  readonly byPosition?: readonly (Access | "none")[];
  /** Leading operands that are not paths (`chmod MODE`, `grep PATTERN`, `sed SCRIPT`). */
  readonly skip?: number;
  /** ...unless one of these options gave that operand already (`grep -e PAT`, `sed -e SCRIPT`, `chmod --reference`). */
  readonly skipUnless?: readonly string[];
  /** Operands with these values at the start are skipped too (`yq eval`). */
  readonly skipWords?: readonly string[];
  /** Operands starting with one of these are not paths (`vim +10 file`). */
  readonly skipPrefixes?: readonly string[];
  /** Only operands after `--` are paths (`git checkout main -- file`). */
  readonly afterDoubleDashOnly?: boolean;
  /** `var=value` operands are not paths (awk). */
  readonly skipAssignments?: boolean;
  /** Operands written `host:path` are remote and skipped (scp, rsync). */
  readonly remoteOperands?: boolean;
  /** Option values that are paths. */
  readonly optionPaths?: Readonly<Record<string, Access>>;
  /**
   * With one of `flags`, the values of `options` are not file effects (`openssl rsa -in key.pem
   * -pubout` reads the key only to print its public half).
   */
  readonly quietOptionFlags?: { readonly flags: readonly string[]; readonly options: readonly string[] };
  /** Option values that name a file after `@` (`curl -d @file`, `curl -F name=@file`). */
  readonly atFileOptions?: Readonly<Record<string, Access>>;
  /** Flags that change the access of every operand (`sed -i` → write, `shred -u` → delete, `git rm --cached` → none). */
  readonly switches?: readonly { readonly flags: readonly string[]; readonly access: Access | "none" }[];
  /** The last operand (or a `-t DIR` value) is a destination; the others are sources. */
  readonly destination?: {
    readonly access: Access;
    readonly sources: Access | "none";
    readonly targetDirOptions: readonly string[];
    /** With a single operand, the destination is its basename in the working directory (`ln -s /x/y`). */
    readonly single?: "basename";
    /** Moved sources take their whole tree with them (`mv dir x`). */
    readonly sourcesRecursive?: boolean;
    /** Extra effects when flags are present (`rsync --delete` deletes in the destination). */
    readonly extra?: readonly { readonly flags: readonly string[]; readonly access: Access; readonly on: "destination" | "sources" }[];
  };
  /**
   * A path meant without being named: when no operand is given (`grep -r x` → `.`, `patch < d` →
   * `.`), or with `always` whenever none of `unlessOptions` is given (`unzip a.zip` writes into `.`).
   */
  readonly defaultOperand?: {
    readonly value: string;
    readonly access: Access;
    readonly ifFlags?: readonly string[];
    readonly always?: boolean;
    readonly unlessOptions?: readonly string[];
  };
  /**
   * Its writes replace a file's whole content (`truncate`, `tee`, `cp SRC DEST`), unless one of
   * `unless` is given (`tee -a`, `cp -n`), or only when one of `only` is (`ln -f`).
   */
  readonly overwrite?: { readonly unless?: readonly string[]; readonly only?: readonly string[] };
  /** Flags that make the operation recursive (`-r`, `-R`, `--recursive`). */
  readonly recursiveFlags?: readonly string[];
  /** Always recursive (`rg` searches trees, `patch` and `git clean` reach below `.`). */
  readonly recursive?: boolean;
  /** Flags that force it (`-f`, `--force`). */
  readonly forceFlags?: readonly string[];
  /** The effects only hit entries selected by something else (`git clean` only untracked files, `patch` only patched files). */
  readonly filtered?: boolean;
  /** Options that change the directory relative operands are resolved in (`git -C dir`); repeated ones add up. */
  readonly chdirOptions?: readonly string[];
  /** Shapes that need their own code: see `effects.ts`. */
  readonly custom?: "tar" | "find" | "interpreter" | "source" | "request-items" | "socat";
  /** Per-subcommand specs (git); the first operand is the subcommand. Unlisted subcommands have no effects. */
  readonly subcommands?: Readonly<Record<string, EffectSpec>>;
}

const NONE: EffectSpec = {};
const READ: EffectSpec = { operands: "read" };
const WRITE: EffectSpec = { operands: "write" };
const USE: EffectSpec = { operands: "use" };
const RECURSIVE_R = ["-r", "-R", "--recursive"];
const FORCE = ["-f", "--force"];

/** `grep` switches under which it prints no line of its input, only a status, counts or file names. */
export const GREP_NO_LINES: readonly string[] = ["-q", "--quiet", "--silent", "-c", "--count", "-l", "--files-with-matches", "-L", "--files-without-match"];

const GREP: EffectSpec = {
  operands: "read",
  skip: 1,
  skipUnless: ["-e", "--regexp", "-f", "--file"],
  optionPaths: { "-f": "read", "--file": "read", "--exclude-from": "read" },
  recursiveFlags: ["-r", "-R", "--recursive", "--dereference-recursive"],
  defaultOperand: { value: ".", access: "read", ifFlags: ["-r", "-R", "--recursive", "--dereference-recursive"] },
  // these print no line of the files, only a status, counts or file names (`grep -q KEY .env`)
  switches: [{ flags: GREP_NO_LINES, access: "use" }],
};

const TREE_SEARCH: EffectSpec = { operands: "read", skip: 1, skipUnless: ["-e", "--regexp", "-f", "--file", "--files", "--type-list"], optionPaths: { "-f": "read", "--file": "read", "--ignore-file": "read" }, recursive: true, defaultOperand: { value: ".", access: "read" }, switches: [{ flags: ["-q", "--quiet", "-c", "--count", "--count-matches", "-l", "--files-with-matches", "--files-without-match"], access: "use" }] };

const SED: EffectSpec = { operands: "read", skip: 1, skipUnless: ["-e", "--expression", "-f", "--file"], optionPaths: { "-f": "read", "--file": "read" }, switches: [{ flags: ["-i", "--in-place", "-I"], access: "write" }] };

const AWK: EffectSpec = { operands: "read", skip: 1, skipUnless: ["-f", "--file"], optionPaths: { "-f": "read", "--file": "read" }, skipAssignments: true };

const COMPRESS: EffectSpec = { operands: "write", switches: [{ flags: ["-c", "--stdout", "--to-stdout", "-k", "--keep", "-l", "--list", "-t", "--test"], access: "read" }] };

const EDITOR: EffectSpec = { operands: "write", skipPrefixes: ["+"] };

const CHMOD: EffectSpec = { operands: "chmod", skip: 1, skipUnless: ["--reference"], optionPaths: { "--reference": "read" }, recursiveFlags: ["-R", "--recursive"] };
const CHOWN: EffectSpec = { ...CHMOD, operands: "chown" };
/** `setfacl -R -m u:x:rwx DIR`: the ACL comes in option values, every operand is a path. */
const SETFACL: EffectSpec = { operands: "chmod", optionPaths: { "-M": "read", "--modify-file": "read", "-X": "read", "--remove-file": "read", "--set-file": "read" }, recursiveFlags: ["-R", "--recursive"] };

const NO_CLOBBER = { unless: ["-n", "--no-clobber"] };
const COPY: EffectSpec = { destination: { access: "write", sources: "read", targetDirOptions: ["-t", "--target-directory"] }, recursiveFlags: ["-r", "-R", "--recursive", "-a", "--archive"], forceFlags: FORCE, overwrite: NO_CLOBBER };

const GIT: EffectSpec = {
  // `--work-tree` too: `git --work-tree=dir checkout -- f` writes `dir/f`
  chdirOptions: ["-C", "--work-tree"],
  subcommands: {
    rm: { operands: "delete", recursiveFlags: ["-r"], forceFlags: FORCE, switches: [{ flags: ["--cached", "-n", "--dry-run"], access: "none" }] },
    mv: { destination: { access: "write", sources: "delete", targetDirOptions: [], sourcesRecursive: true }, forceFlags: FORCE, switches: [{ flags: ["-n", "--dry-run"], access: "none" }] },
    add: READ,
    // `git hash-object -w f` stores f's content as a blob, which `git cat-file -p` prints
    "hash-object": READ,
    checkout: { operands: "write", afterDoubleDashOnly: true },
    restore: { operands: "write", switches: [{ flags: ["-S", "--staged"], access: "none" }] },
    clean: { operands: "delete", filtered: true, recursiveFlags: ["-d"], forceFlags: FORCE, defaultOperand: { value: ".", access: "delete" }, switches: [{ flags: ["-n", "--dry-run"], access: "none" }] },
    apply: { operands: "read", defaultOperand: { value: ".", access: "write" } },
    // `git clone URL DIR`: a new repository in DIR, hooks and all; without DIR it is a new directory here
    clone: { byPosition: ["none", "write"], recursive: true, optionPaths: { "--separate-git-dir": "write", "--template": "read" } },
  },
};

/** Effect specs by program. */
export const PROGRAM_EFFECTS: Readonly<Record<string, EffectSpec>> = {
  // programs whose operands are not files (or that only list names)
  ...Object.fromEntries(
    [
      "echo", "printf", "true", "false", ":", "test", "[", "[[", "which", "type", "whereis", "basename", "dirname",
      "command", "export", "alias", "unalias", "pwd", "date", "sleep", "exit", "return", "set", "unset", "shift", "read",
      "printenv", "whoami", "id", "uname", "hostname", "seq", "yes", "kill", "pkill", "killall", "ps", "pgrep", "jobs", "wait",
      "trap", "history", "clear", "tput", "stty", "env", "cd", "pushd", "popd", "dirs", "local", "declare", "typeset",
      "readonly", "let", "eval", "time", "hash", "umask", "ulimit", "getopts", "mapfile", "readarray", "caller", "complete",
      "compgen", "shopt", "enable", "help", "logout", "bg", "fg", "disown", "suspend", "times", "nproc", "arch", "uptime",
      "free", "df", "du", "tty", "logname", "groups", "users", "who", "w", "last", "sync", "mktemp", "realpath", "readlink",
      "stat", "tr", "expr", "bc", "dc", "lsof", "top", "htop", "man", "info", "ssh", "nohup", "sudo", "doas",
      // ssh-keygen generates keys or prints the public half; ssh-copy-id installs the public half
      "ssh-keygen", "ssh-copy-id",
    ].map((p) => [p, NONE]),
  ),
  // listings: the names in a directory (`ls -d DIR` shows the directory itself, not what is in it)
  ...Object.fromEntries(["ls", "dir", "vdir", "exa", "eza", "lsd"].map((p) => [p, { operands: "list", recursiveFlags: ["-R", "--recursive"], switches: [{ flags: ["-d", "--directory"], access: "none" }] } as EffectSpec])),
  tree: { operands: "list", recursive: true, optionPaths: { "-o": "write" } },
  // read
  ...Object.fromEntries(
    [
      "cat", "tac", "nl", "head", "tail", "less", "more", "most", "bat", "batcat", "cut", "paste", "base64", "base32",
      "xxd", "od", "hexdump", "strings", "fold", "fmt", "expand", "unexpand", "column", "rev", "shuf", "diff", "cmp", "comm", "join",
      "sdiff", "zcat", "bzcat", "xzcat", "zless", "look", "tsort", "pr", "csplit",
    ].map((p) => [p, READ]),
  ),
  // counts, checksums and file types: they read every byte and show none of it
  ...Object.fromEntries(
    ["wc", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum", "md5", "shasum", "file"].map((p) => [p, USE]),
  ),
  sort: { operands: "read", optionPaths: { "-o": "write", "--output": "write", "--files0-from": "read" } },
  uniq: { byPosition: ["read", "write"] },
  iconv: { operands: "read", optionPaths: { "-o": "write", "--output": "write" } },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  zgrep: GREP,
  rg: TREE_SEARCH,
  ag: TREE_SEARCH,
  ack: TREE_SEARCH,
  sed: SED,
  gsed: SED,
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  jq: { operands: "read", skip: 1, skipUnless: ["-f", "--from-file"], optionPaths: { "-f": "read", "--from-file": "read" } },
  yq: { operands: "read", skip: 1, skipWords: ["eval", "e", "eval-all", "ea"], switches: [{ flags: ["-i", "--inplace"], access: "write" }], optionPaths: { "--from-file": "read" } },
  // write
  touch: { operands: "write", optionPaths: { "-r": "read", "--reference": "read" } },
  mkdir: WRITE,
  truncate: { operands: "write", optionPaths: { "-r": "read", "--reference": "read" }, overwrite: {} },
  tee: { operands: "write", overwrite: { unless: ["-a", "--append"] } },
  ...Object.fromEntries(["vi", "vim", "nvim", "view", "nano", "pico", "emacs", "emacsclient", "code", "subl", "ed", "ex", "micro", "hx", "kak", "gedit", "sudoedit", "mcedit", "joe"].map((p) => [p, EDITOR])),
  ...Object.fromEntries(["gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma", "zstd", "unzstd", "lz4", "compress", "uncompress"].map((p) => [p, COMPRESS])),
  dd: { optionPaths: { of: "write", if: "read" }, overwrite: {} },
  dcfldd: { optionPaths: { of: "write", if: "read", vf: "read" }, overwrite: {} },
  dc3dd: { optionPaths: { of: "write", if: "read", hof: "write", ofs: "write" }, overwrite: {} },
  ddrescue: { byPosition: ["read", "write", "write"] },
  // delete
  rm: { operands: "delete", recursiveFlags: RECURSIVE_R, forceFlags: FORCE },
  unlink: { operands: "delete" },
  rmdir: { operands: "delete" },
  // overwriting a file's content with noise destroys it as surely as removing it (`-u` also removes)
  shred: { operands: "delete", forceFlags: FORCE },
  // node's rm -rf (`npx rimraf dist`, `del-cli 'build/**'`): every operand goes, recursively, unasked
  rimraf: { operands: "delete", recursive: true },
  del: { operands: "delete", recursive: true },
  "del-cli": { operands: "delete", recursive: true },
  srm: { operands: "delete", recursiveFlags: ["-r", "-R", "--recursive"], forceFlags: FORCE },
  wipe: { operands: "delete", recursiveFlags: ["-r", "-R"], forceFlags: FORCE },
  // modes and owners
  chmod: CHMOD,
  chown: CHOWN,
  setfacl: SETFACL,
  chgrp: CHOWN,
  // copies, moves, links
  cp: COPY,
  install: { ...COPY, switches: [{ flags: ["-d", "--directory"], access: "write" }], overwrite: {} },
  mv: { destination: { access: "write", sources: "delete", targetDirOptions: ["-t", "--target-directory"], sourcesRecursive: true }, forceFlags: FORCE, overwrite: NO_CLOBBER },
  ln: { destination: { access: "write", sources: "none", targetDirOptions: ["-t", "--target-directory"], single: "basename" }, forceFlags: FORCE, overwrite: { only: ["-f", "--force"] } },
  scp: { destination: { access: "write", sources: "read", targetDirOptions: [] }, remoteOperands: true, recursiveFlags: ["-r"], optionPaths: { "-i": "use", "-F": "read" }, overwrite: {} },
  // the agent keeps the key: `ssh-add -L` shows only public keys
  "ssh-add": { operands: "use" },
  rsync: {
    destination: {
      access: "write",
      sources: "read",
      targetDirOptions: [],
      extra: [
        { flags: ["--delete", "--delete-before", "--delete-during", "--delete-delay", "--delete-after", "--delete-excluded"], access: "delete", on: "destination" },
        { flags: ["--remove-source-files"], access: "delete", on: "sources" },
      ],
    },
    remoteOperands: true,
    overwrite: { unless: ["--ignore-existing", "--append", "--append-verify", "-n", "--dry-run"] },
    recursiveFlags: ["-r", "--recursive", "-a", "--archive"],
    optionPaths: { "--exclude-from": "read", "--include-from": "read", "--files-from": "read", "--password-file": "read", "--log-file": "write" },
  },
  // archives and patches
  tar: { custom: "tar" },
  unzip: { byPosition: ["read"], operands: "none", optionPaths: { "-d": "write" }, defaultOperand: { value: ".", access: "write", always: true, unlessOptions: ["-d"] } },
  zip: { byPosition: ["write"], operands: "read", recursiveFlags: ["-r", "-R"] },
  patch: { byPosition: ["write", "read"], optionPaths: { "-i": "read", "--input": "read", "-o": "write", "--output": "write", "-r": "write", "--reject-file": "write", "-d": "write", "--directory": "write" }, defaultOperand: { value: ".", access: "write" }, filtered: true, recursive: true },
  split: { byPosition: ["read", "write"] },
  // network tools: only their file options
  curl: {
    optionPaths: {
      "-o": "write", "--output": "write", "--output-dir": "write", "-T": "read", "--upload-file": "read", "-K": "read", "--config": "read",
      "-c": "write", "--cookie-jar": "write", "-D": "write", "--dump-header": "write", "--trace": "write", "--trace-ascii": "write",
      "--stderr": "write", "--netrc-file": "read", "-E": "use", "--cert": "use", "--key": "use", "--cacert": "use", "--capath": "use",
      "--proxy-cert": "use", "--proxy-key": "use", "--proxy-cacert": "use",
    },
    atFileOptions: { "-d": "read", "--data": "read", "--data-binary": "read", "--data-urlencode": "read", "--data-ascii": "read", "--json": "read", "-F": "read", "--form": "read" },
  },
  wget: {
    optionPaths: {
      "-O": "write", "--output-document": "write", "-o": "write", "--output-file": "write", "-a": "write", "--append-output": "write",
      "-P": "write", "--directory-prefix": "write", "-i": "read", "--input-file": "read", "--post-file": "read", "--body-file": "read",
      "--load-cookies": "read", "--save-cookies": "write", "--config": "read",
    },
  },
  openssl: {
    optionPaths: {
      // `-in` is what the command prints or converts (`openssl rsa -in k.pem` shows the key); a key
      // or certificate given to sign, encrypt or connect with is only used
      "-in": "read", "-out": "write", "-keyout": "write", "-inkey": "use", "-key": "use", "-kfile": "read", "-config": "read",
      "-certfile": "use", "-CAfile": "use", "-CA": "use", "-CAkey": "use", "-signkey": "use", "-cert": "use", "-extfile": "read",
    },
    quietOptionFlags: { flags: ["-pubout"], options: ["-in"] },
  },
  mkcert: { optionPaths: { "-key-file": "write", "-cert-file": "write", "-p12-file": "write", "-csr": "read" } },
  // `vercel env pull [FILE]` writes the project's variables into an env file (default `.env.local`)
  ...Object.fromEntries(["vercel", "vc"].map((p) => [p, { subcommands: { env: { subcommands: { pull: { operands: "write" } } } } } as EffectSpec])),
  // a keystore is opened to list, sign with or add to; keytool never prints a private key
  keytool: { optionPaths: { "-keystore": "use", "-srckeystore": "use", "-destkeystore": "write" } },
  gpg: { operands: "read", optionPaths: { "-o": "write", "--output": "write", "--passphrase-file": "read" } },
  // httpie's request items read files (`field@path`, `field=@path`, `@body.json`); socat's `FILE:path` addresses
  ...Object.fromEntries(["http", "https", "xh", "xhs", "httpie"].map((p) => [p, { custom: "request-items" } as EffectSpec])),
  socat: { custom: "socat" },
  // structured programs
  find: { custom: "find" },
  git: GIT,
  ".": { custom: "source" },
  source: { custom: "source" },
};

/** Paths that are not files: writes and reads of these are never effects. */
export const NON_FILES: readonly string[] = ["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero", "/dev/random", "/dev/urandom"];

/** Prefixes of non-file paths (`/dev/fd/3`; bash's sockets `/dev/tcp/h/p`, sends of `sends.ts`). */
export const NON_FILE_PREFIXES: readonly string[] = ["/dev/fd/", "/dev/tcp/", "/dev/udp/"];

/** socat address types that name a file (`FILE:path`, `OPEN:path,creat`): read when another address is a peer. */
export const SOCAT_FILES: readonly string[] = ["file", "open", "gopen", "create"];

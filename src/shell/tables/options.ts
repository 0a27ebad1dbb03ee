/**
 * Per-program option grammars for `argView`: which options take a value, and program shapes
 * (subcommands, `key=value` operands, old-style clusters). Data only; programs not listed here
 * get the default grammar (every `-x`/`--x` is a flag without a value, short options cluster).
 */
import type { Arity, OptionGrammar } from "../option-scanner.ts";

/** A program's argument grammar. */
export interface ProgramGrammar extends OptionGrammar {
  /**
   * Options before a subcommand (`git -C dir push`): they are skipped, recorded in `values` but
   * not in `flags`, and positionals start at the subcommand.
   */
  readonly global?: OptionGrammar;
  /** Grammars of subcommands (the first positional); others use this grammar's own options. */
  readonly subcommands?: Readonly<Record<string, ProgramGrammar>>;
  /** `key=value` operands are values keyed by `key` (`dd of=/dev/sda`). */
  readonly keyValueOperands?: boolean;
  /** A first argument without a dash is a cluster of option letters (`tar xzf a.tgz`). */
  readonly oldStyle?: boolean;
  /** After this many operands the rest are operands too (`docker run IMAGE cmd -x`). */
  readonly stopAfterOperands?: number;
}

type Options = Readonly<Record<string, Arity>>;

const flags = (...names: string[]): Record<string, Arity> => Object.fromEntries(names.map((n) => [n, 0 as Arity]));
const values = (...names: string[]): Record<string, Arity> => Object.fromEntries(names.map((n) => [n, 1 as Arity]));
const g = (options: Options, extra: Partial<ProgramGrammar> = {}): ProgramGrammar => ({ options, ...extra });

const GIT_SUBCOMMANDS: Readonly<Record<string, ProgramGrammar>> = {
  commit: g({
    ...values("-m", "--message", "-F", "--file", "-C", "--reuse-message", "-c", "--reedit-message", "--fixup", "--squash", "--author", "--date", "-t", "--template", "--cleanup", "--trailer", "--pathspec-from-file"),
    ...flags("-a", "--all", "-p", "--patch", "--amend", "--no-verify", "-n", "--allow-empty", "--allow-empty-message", "-q", "--quiet", "-v", "--verbose", "-s", "--signoff", "-e", "--edit", "--no-edit", "-o", "--only", "-i", "--include", "--dry-run", "--reset-author", "--no-gpg-sign"),
    "-S": "optional",
    "--gpg-sign": "optional",
    "-u": "optional",
    "--untracked-files": "optional",
  }),
  checkout: g({
    ...values("-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"),
    ...flags("-f", "--force", "-q", "--quiet", "-p", "--patch", "--detach", "-m", "--merge", "--ours", "--theirs", "--ignore-other-worktrees", "--no-track", "--overlay", "--no-overlay", "--progress"),
    "-t": "optional",
    "--track": "optional",
    "--recurse-submodules": "optional",
  }),
  switch: g({
    ...values("-c", "--create", "-C", "--force-create", "--orphan", "--conflict"),
    ...flags("-f", "--force", "--discard-changes", "-d", "--detach", "-m", "--merge", "-q", "--quiet", "--guess", "--no-guess", "--ignore-other-worktrees"),
    "-t": "optional",
    "--track": "optional",
  }),
  restore: g({ ...values("-s", "--source", "--pathspec-from-file", "--conflict"), ...flags("-S", "--staged", "-W", "--worktree", "-p", "--patch", "-q", "--quiet", "--ours", "--theirs", "-m", "--merge", "--overlay", "--no-overlay") }),
  branch: g({
    ...values("-u", "--set-upstream-to", "--format", "--sort", "--points-at"),
    ...flags("-d", "-D", "--delete", "-f", "--force", "-m", "-M", "--move", "-c", "-C", "--copy", "-r", "--remotes", "-a", "--all", "-l", "--list", "-v", "-vv", "--verbose", "--show-current", "--unset-upstream", "-q", "--quiet", "--edit-description"),
    "--contains": "optional",
    "--no-contains": "optional",
    "--merged": "optional",
    "--no-merged": "optional",
    "-t": "optional",
    "--track": "optional",
  }),
  push: g({
    ...values("-o", "--push-option", "--repo", "--receive-pack", "--exec"),
    ...flags("-f", "--force", "--force-if-includes", "-d", "--delete", "--all", "--branches", "--mirror", "--tags", "-u", "--set-upstream", "-n", "--dry-run", "--follow-tags", "--atomic", "--prune", "-q", "--quiet", "-v", "--verbose", "--no-verify", "--porcelain", "--progress"),
    "--force-with-lease": "optional",
    "--recurse-submodules": "optional",
    "--signed": "optional",
  }),
  reset: g({ ...values("--pathspec-from-file"), ...flags("--hard", "--soft", "--mixed", "--merge", "--keep", "-p", "--patch", "-q", "--quiet", "-N", "--intent-to-add", "--no-refresh"), "--recurse-submodules": "optional" }),
  clean: g({ ...values("-e", "--exclude"), ...flags("-f", "--force", "-d", "-x", "-X", "-n", "--dry-run", "-i", "--interactive", "-q", "--quiet") }),
  stash: g({ ...values("-m", "--message", "--pathspec-from-file"), ...flags("-p", "--patch", "-k", "--keep-index", "--no-keep-index", "-u", "--include-untracked", "-a", "--all", "-q", "--quiet", "-S", "--staged", "--index") }),
  tag: g({
    ...values("-m", "--message", "-F", "--file", "-u", "--local-user", "--sort", "--format", "--cleanup"),
    ...flags("-a", "--annotate", "-s", "--sign", "-d", "--delete", "-f", "--force", "-l", "--list", "-v", "--verify"),
    "--contains": "optional",
    "--no-contains": "optional",
    "--points-at": "optional",
    "-n": "digits",
  }),
  rebase: g({ ...values("--onto", "-s", "--strategy", "-X", "--strategy-option", "-x", "--exec", "--empty"), ...flags("-i", "--interactive", "--continue", "--abort", "--skip", "--quit", "-f", "--force-rebase", "--autosquash", "--no-autosquash", "--root", "--autostash", "-q", "-v", "--keep-base", "--update-refs") }),
  merge: g({ ...values("-m", "-F", "--file", "-s", "--strategy", "-X", "--strategy-option", "--into-name"), ...flags("--no-ff", "--ff", "--ff-only", "--abort", "--continue", "--quit", "--squash", "--no-commit", "--commit", "-q", "-v", "--allow-unrelated-histories", "--no-edit", "-e") }),
  pull: g({ ...values("-s", "--strategy", "-X", "--strategy-option", "--depth", "-j", "--jobs"), ...flags("--no-ff", "--ff", "--ff-only", "--squash", "--no-commit", "-q", "-v", "--all", "-f", "--force", "--autostash", "--tags", "--prune", "-p"), "--rebase": "optional", "-r": "optional" }),
  fetch: g({ ...values("--depth", "--deepen", "--shallow-since", "--shallow-exclude", "-j", "--jobs", "-o", "--server-option", "--upload-pack"), ...flags("--all", "-p", "--prune", "-P", "--prune-tags", "-t", "--tags", "-f", "--force", "--dry-run", "-q", "-v", "--unshallow", "-a", "--append") }),
  rm: g({ ...values("--pathspec-from-file"), ...flags("-r", "-f", "--force", "--cached", "-n", "--dry-run", "-q", "--quiet", "--ignore-unmatch", "--sparse") }),
  mv: g(flags("-f", "--force", "-k", "-n", "--dry-run", "-v", "--verbose")),
  add: g({ ...values("--chmod", "--pathspec-from-file"), ...flags("-A", "--all", "-u", "--update", "-p", "--patch", "-f", "--force", "-n", "--dry-run", "-N", "--intent-to-add", "-v", "--verbose", "-i", "--interactive", "--renormalize", "--ignore-removal", "--no-all") }),
  log: g({ ...values("-n", "--max-count", "--author", "--committer", "--grep", "--since", "--after", "--until", "--before", "--format", "-S", "-G", "--skip", "--date"), "--pretty": "optional", "--decorate": "optional", "--stat": "optional" }),
  config: g({ ...values("-f", "--file", "--blob", "--type", "--default"), ...flags("--global", "--system", "--local", "--worktree", "--unset", "--unset-all", "--add", "--get", "--get-all", "--list", "-l", "--replace-all", "--bool", "--int", "--remove-section", "--rename-section", "-e", "--edit") }),
  worktree: g({ ...values("-b", "-B", "--reason"), ...flags("-f", "--force", "--detach", "--checkout", "--no-checkout", "--lock", "-q", "--quiet", "-v", "--porcelain") }),
  "cherry-pick": g({ ...values("-m", "--mainline", "-s", "--strategy", "-X", "--strategy-option"), ...flags("-n", "--no-commit", "-e", "--edit", "-x", "--continue", "--abort", "--quit", "--skip", "--ff") }),
  revert: g({ ...values("-m", "--mainline", "-s", "--strategy", "-X", "--strategy-option"), ...flags("-n", "--no-commit", "-e", "--edit", "--no-edit", "--continue", "--abort", "--quit", "--skip") }),
  "filter-branch": g({ ...values("--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter", "--subdirectory-filter", "--prune-empty", "-d", "--original", "--state-branch"), ...flags("-f", "--force") }),
  gc: g({ ...flags("--aggressive", "--auto", "--quiet", "--force", "--keep-largest-pack"), "--prune": "optional" }),
  reflog: g({ "--expire": "optional", "--expire-unreachable": "optional", ...flags("--all", "--rewrite", "--updateref", "--stale-fix", "-n", "--dry-run", "--verbose") }),
  "update-ref": g({ ...values("-m"), ...flags("-d", "--no-deref", "--stdin", "-z", "--create-reflog") }),
  apply: g({ ...values("-p", "-C", "--directory", "--exclude", "--include"), ...flags("--check", "--stat", "--index", "--cached", "-R", "--reverse", "--3way", "-3", "--reject") }),
  clone: g({ ...values("--depth", "-b", "--branch", "-o", "--origin", "--reference", "--reference-if-able", "--separate-git-dir", "-c", "--config", "--filter", "-j", "--jobs", "--template", "-u", "--upload-pack", "--shallow-since", "--shallow-exclude", "--revision", "--bundle-uri", "--server-option"), ...flags("--bare", "--mirror", "-l", "--local", "--no-hardlinks", "-s", "--shared", "-q", "--quiet", "-v", "--verbose", "--progress", "-n", "--no-checkout", "--single-branch", "--no-single-branch", "--no-tags", "--recurse-submodules", "--recursive", "--shallow-submodules", "--remote-submodules", "--sparse", "--dissociate") }),
};

/** git's own options before the subcommand. */
const GIT_GLOBAL: OptionGrammar = {
  options: {
    ...values("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--list-cmds", "--attr-source"),
    "--exec-path": "optional",
    ...flags("-p", "--paginate", "-P", "--no-pager", "--bare", "--no-replace-objects", "--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "--html-path", "--man-path", "--info-path", "--version", "--help"),
  },
  permute: false,
};

const RM: ProgramGrammar = g({ ...flags("-f", "--force", "-i", "-I", "-r", "-R", "--recursive", "-d", "--dir", "-v", "--verbose", "--one-file-system", "--no-preserve-root"), "--interactive": "optional", "--preserve-root": "optional" });

const CP: ProgramGrammar = g({
  ...values("-t", "--target-directory", "-S", "--suffix", "--no-preserve", "--sparse"),
  ...flags("-a", "--archive", "-b", "-d", "-f", "--force", "-i", "--interactive", "-H", "-l", "--link", "-L", "--dereference", "-n", "--no-clobber", "-P", "--no-dereference", "-p", "-R", "-r", "--recursive", "-s", "--symbolic-link", "-T", "--no-target-directory", "-u", "--update", "-v", "--verbose", "-x", "--one-file-system", "--parents", "--remove-destination", "--strip-trailing-slashes", "--attributes-only", "--copy-contents"),
  "--backup": "optional",
  "--preserve": "optional",
  "--reflink": "optional",
});

const MV: ProgramGrammar = g({ ...values("-t", "--target-directory", "-S", "--suffix"), ...flags("-b", "-f", "--force", "-i", "--interactive", "-n", "--no-clobber", "-T", "--no-target-directory", "-u", "--update", "-v", "--verbose", "--strip-trailing-slashes", "--exchange", "--no-copy"), "--backup": "optional" });

const CHMOD_LIKE = (extra: Options = {}): ProgramGrammar =>
  g({ ...values("--reference", "--from"), ...flags("-c", "--changes", "-f", "--silent", "--quiet", "-v", "--verbose", "-R", "--recursive", "--no-preserve-root", "--preserve-root", "-h", "--no-dereference", "--dereference", "-H", "-L", "-P"), ...extra }, { strictShort: true });

const GREP: ProgramGrammar = g({
  ...values("-e", "--regexp", "-f", "--file", "-m", "--max-count", "-A", "--after-context", "-B", "--before-context", "-C", "--context", "--include", "--exclude", "--exclude-dir", "--exclude-from", "--label", "-d", "--directories", "-D", "--devices", "--binary-files", "--group-separator"),
  "--color": "optional",
  "--colour": "optional",
});

const RG: ProgramGrammar = g({
  ...values("-e", "--regexp", "-f", "--file", "-g", "--glob", "--iglob", "-t", "--type", "-T", "--type-not", "-m", "--max-count", "-A", "--after-context", "-B", "--before-context", "-C", "--context", "--max-depth", "-d", "-j", "--threads", "-M", "--max-columns", "-r", "--replace", "--type-add", "--ignore-file", "-E", "--encoding", "--sort", "--sortr", "--max-filesize", "--path-separator", "--pre", "--pre-glob", "--colors", "--color"),
});

const SED: ProgramGrammar = g({ ...values("-e", "--expression", "-f", "--file", "-l", "--line-length"), "-i": "optional", "--in-place": "optional", "-I": "optional", ...flags("-n", "--quiet", "--silent", "-E", "-r", "--regexp-extended", "-s", "--separate", "-z", "--null-data", "-u", "--unbuffered", "--posix", "--debug", "--sandbox") });

const CURL: ProgramGrammar = g({
  ...values(
    "-o", "--output", "-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii", "-H", "--header", "-X", "--request",
    "-u", "--user", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie", "-c", "--cookie-jar", "-F", "--form", "--form-string",
    "-T", "--upload-file", "-K", "--config", "-x", "--proxy", "-m", "--max-time", "--connect-timeout", "-w", "--write-out", "--retry",
    "-r", "--range", "-E", "--cert", "--key", "--cacert", "--capath", "--proxy-cert", "--proxy-key", "--proxy-cacert", "--resolve", "--url", "-Y", "--speed-limit", "-y", "--speed-time",
    "-z", "--time-cond", "--json", "--oauth2-bearer", "--output-dir", "-D", "--dump-header", "--trace", "--trace-ascii", "--stderr",
    "-Q", "--quote", "-t", "--telnet-option", "-U", "--proxy-user", "--interface", "--limit-rate", "--max-filesize", "--local-port",
    "--netrc-file", "-C", "--continue-at", "--connect-to", "--retry-delay", "--retry-max-time", "--max-redirs", "--unix-socket", "-P", "--ftp-port",
    "--pass", "--proxy-pass", "--tlsuser", "--tlspassword", "--proxy-tlsuser", "--proxy-tlspassword", "--key-type", "--cert-type", "--aws-sigv4",
    "--login-options", "--sasl-authzid", "--delegation", "--pinnedpubkey", "--hostpubmd5", "--hostpubsha256", "--abstract-unix-socket", "--variable",
  ),
});

const HTTPIE: ProgramGrammar = g({
  ...values(
    "-a", "--auth", "-A", "--auth-type", "--bearer", "-o", "--output", "--session", "--session-read-only", "--verify", "--cert", "--cert-key",
    "--cert-key-pass", "--proxy", "--timeout", "--raw", "-p", "--print", "-s", "--style", "--pretty", "--format-options", "--max-redirects",
    "--boundary", "--default-scheme", "--ssl", "--ciphers", "--response-charset", "--response-mime", "--unix-socket",
  ),
});

const WGET: ProgramGrammar = g({
  ...values(
    "-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "-P", "--directory-prefix", "-i", "--input-file",
    "-U", "--user-agent", "--header", "--post-data", "--post-file", "--body-data", "--body-file", "--method", "-t", "--tries", "-T", "--timeout",
    "-w", "--wait", "-e", "--execute", "--user", "--password", "-l", "--level", "-A", "--accept", "-R", "--reject", "-D", "--domains",
    "--load-cookies", "--save-cookies", "-Q", "--quota", "--limit-rate", "-B", "--base", "--config", "--bind-address", "-n",
    "--http-user", "--http-password", "--proxy-user", "--proxy-password", "--ftp-user", "--ftp-password", "--ca-certificate", "--certificate", "--private-key",
  ),
});

const DOCKER_RUN: ProgramGrammar = g(
  {
    ...values("-e", "--env", "--env-file", "-v", "--volume", "-p", "--publish", "--name", "-w", "--workdir", "-u", "--user", "--network", "--net", "--mount", "--entrypoint", "-l", "--label", "--platform", "-h", "--hostname", "--add-host", "--cpus", "-m", "--memory", "--restart", "--pull", "--cap-add", "--cap-drop", "--device", "--dns", "--expose", "--gpus", "--ipc", "--pid", "--security-opt", "--tmpfs", "--ulimit", "--volumes-from", "--log-driver", "--log-opt", "-a", "--attach", "--cidfile", "--health-cmd", "--shm-size", "--stop-signal", "--userns"),
    ...flags("-d", "--detach", "-i", "--interactive", "-t", "--tty", "--rm", "--privileged", "-P", "--publish-all", "--init", "--read-only"),
  },
  { stopAfterOperands: 1 },
);

const DOCKER: ProgramGrammar = g(
  { ...values("-f", "--file", "--filter", "--format") },
  {
    global: { options: { ...values("-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"), ...flags("-D", "--debug", "--tls", "--tlsverify") }, permute: false },
    subcommands: {
      run: DOCKER_RUN,
      create: DOCKER_RUN,
      exec: g({ ...values("-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys"), ...flags("-d", "--detach", "-i", "--interactive", "-t", "--tty", "--privileged") }, { stopAfterOperands: 1 }),
      build: g({ ...values("-t", "--tag", "-f", "--file", "--build-arg", "--target", "--platform", "--label", "--cache-from", "--network", "--secret", "--ssh", "-o", "--output", "--progress", "--iidfile"), ...flags("-q", "--quiet", "--no-cache", "--pull", "--rm", "--force-rm", "--load", "--push") }),
      rm: g(flags("-f", "--force", "-v", "--volumes", "-l", "--link")),
      rmi: g(flags("-f", "--force", "--no-prune")),
      system: g({ ...values("--filter"), ...flags("-a", "--all", "-f", "--force", "--volumes") }),
      volume: g({ ...values("--filter", "-d", "--driver", "--label", "-o", "--opt"), ...flags("-a", "--all", "-f", "--force") }),
      image: g({ ...values("--filter"), ...flags("-a", "--all", "-f", "--force") }),
      container: g({ ...values("--filter"), ...flags("-f", "--force", "-v", "--volumes") }),
      network: g({ ...values("--filter", "-d", "--driver"), ...flags("-f", "--force") }),
      // `docker compose [-f FILE ...] SUBCOMMAND [-f] [-v]`: `-f` is `--file` before the subcommand, `--force` after it
      compose: g(
        { ...values("--rmi", "-t", "--timeout"), ...flags("-f", "--force", "-s", "--stop", "-v", "--volumes", "--remove-orphans", "-d", "--detach", "--build") },
        { global: { options: values("-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory", "--ansi", "--progress"), permute: false }, subcommands: {} },
      ),
    },
  },
);

/** PowerShell's `Invoke-WebRequest` (`iwr`): whole-word options, in their usual spellings. */
const INVOKE_WEB_REQUEST: ProgramGrammar = g(
  {
    ...values("-Uri", "-uri", "-OutFile", "-outfile", "-Method", "-method", "-Headers", "-headers", "-Body", "-body", "-UserAgent", "-ContentType", "-InFile", "-infile", "-Proxy", "-Credential", "-TimeoutSec", "-MaximumRedirection", "-SessionVariable", "-WebSession"),
  },
  { singleDashLong: true },
);

/** `gh api` and `glab api`: the request options, so `-XDELETE` reads as `-X DELETE`. */
const FORGE_API: ProgramGrammar = g({
  ...values("-X", "--method", "-f", "--raw-field", "-F", "--field", "-H", "--header", "-q", "--jq", "-t", "--template", "--input", "-p", "--preview", "--hostname", "--cache"),
  ...flags("-i", "--include", "--paginate", "--silent", "--slurp", "--verbose"),
});

/** `gh` and `glab`: only the repository before the subcommand; `api` has its own options. */
const FORGE: ProgramGrammar = g({ ...values("-R", "--repo") }, { global: { options: values("-R", "--repo"), permute: false }, subcommands: { api: FORGE_API } });

/**
 * Programs with a `help` command word (`aws ec2 terminate-instances help`, `terraform help destroy`,
 * `kubectl help delete`): an operand `help` asks for usage and reads as `--help`.
 */
export const HELP_WORD_PROGRAMS: readonly string[] = [
  "aws", "awslocal", "terraform", "tofu", "terragrunt", "helm", "pulumi", "gcloud", "kubectl", "oc", "gh", "glab", "heroku", "fly", "flyctl",
  "doctl", "vercel", "netlify", "firebase", "wrangler", "eksctl", "hcloud", "scw", "civo", "supabase", "railway", "serverless", "sls", "cdk",
  "linode-cli", "ibmcloud", "rclone", "vagrant", "nomad",
];

/** PowerShell's approved verbs, lowercase: a `Verb-Noun` program is a cmdlet with whole-word parameters. */
export const POWERSHELL_VERBS: readonly string[] = [
  "add", "clear", "close", "copy", "enter", "exit", "find", "format", "get", "hide", "join", "lock", "move", "new", "open",
  "optimize", "pop", "push", "redo", "remove", "rename", "reset", "resize", "search", "select", "set", "show", "skip", "split",
  "step", "switch", "undo", "unlock", "watch", "connect", "disconnect", "read", "receive", "send", "write", "backup",
  "checkpoint", "compare", "compress", "convert", "convertfrom", "convertto", "dismount", "edit", "expand", "export", "group",
  "import", "initialize", "limit", "merge", "mount", "out", "publish", "restore", "save", "sync", "unpublish", "update",
  "debug", "measure", "repair", "resolve", "test", "trace", "approve", "assert", "build", "complete", "confirm", "deny",
  "deploy", "disable", "enable", "install", "invoke", "register", "request", "restart", "resume", "start", "stop", "submit",
  "suspend", "uninstall", "unregister", "wait", "block", "grant", "protect", "revoke", "unblock", "unprotect", "use",
  "foreach", "where", "sort", "tee",
];

/** Grammars by program name. */
export const PROGRAM_GRAMMARS: Readonly<Record<string, ProgramGrammar>> = {
  git: g({}, { global: GIT_GLOBAL, subcommands: GIT_SUBCOMMANDS }),
  rm: RM,
  unlink: g({}),
  rmdir: g({ ...flags("-p", "--parents", "-v", "--verbose", "--ignore-fail-on-non-empty") }),
  shred: g({ ...values("-n", "--iterations", "-s", "--size", "--random-source"), ...flags("-f", "--force", "-u", "-v", "--verbose", "-x", "--exact", "-z", "--zero"), "--remove": "optional" }),
  cp: CP,
  mv: MV,
  install: g({ ...values("-m", "--mode", "-o", "--owner", "-g", "--group", "-t", "--target-directory", "-S", "--suffix"), ...flags("-d", "--directory", "-D", "-C", "--compare", "-p", "--preserve-timestamps", "-s", "--strip", "-v", "--verbose", "-T", "-b") }),
  // GNU and BSD: `-h` (BSD's `-n`), `-w` and `-F` are BSD's
  ln: g({ ...values("-t", "--target-directory", "-S", "--suffix"), ...flags("-s", "--symbolic", "-f", "--force", "-n", "--no-dereference", "-T", "--no-target-directory", "-v", "--verbose", "-r", "--relative", "-L", "--logical", "-P", "--physical", "-i", "--interactive", "-b", "-d", "-F", "--directory", "-h", "-w"), "--backup": "optional" }),
  tee: g(flags("-a", "--append", "-i", "--ignore-interrupts", "-p")),
  touch: g({ ...values("-d", "--date", "-t", "-r", "--reference"), ...flags("-a", "-c", "--no-create", "-m", "-h", "--no-dereference") }),
  mkdir: g({ ...values("-m", "--mode"), ...flags("-p", "--parents", "-v", "--verbose") }),
  truncate: g({ ...values("-s", "--size", "-r", "--reference"), ...flags("-c", "--no-create", "-o", "--io-blocks") }),
  chmod: CHMOD_LIKE(),
  chown: CHMOD_LIKE(),
  setfacl: g({ ...values("-m", "--modify", "-M", "--modify-file", "-x", "--remove", "-X", "--remove-file", "--set", "--set-file"), ...flags("-b", "--remove-all", "-k", "--remove-default", "-n", "--no-mask", "--mask", "-d", "--default", "-R", "--recursive", "-L", "--logical", "-P", "--physical", "--test", "--restore") }),
  chgrp: CHMOD_LIKE(),
  dd: g({}, { keyValueOperands: true }),
  dcfldd: g({}, { keyValueOperands: true }),
  dc3dd: g({}, { keyValueOperands: true }),
  ddrescue: g({ ...values("-b", "--sector-size", "-c", "--cluster-size", "-i", "--input-position", "-o", "--output-position", "-s", "--size", "-m", "--domain-mapfile", "-K", "--skip-size", "-a", "--min-read-rate") }),
  tar: g(
    {
      ...values("-f", "--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from", "-b", "--blocking-factor", "-I", "--use-compress-program", "-N", "--newer", "--exclude", "--transform", "--owner", "--group", "--mode", "-K", "--starting-file", "-V", "--label"),
      ...flags("-x", "--extract", "--get", "-c", "--create", "-t", "--list", "-r", "--append", "-u", "--update", "-A", "--catenate", "-d", "--diff", "--delete", "-z", "--gzip", "-j", "--bzip2", "-J", "--xz", "-v", "--verbose", "-p", "--preserve-permissions", "-k", "--keep-old-files", "--overwrite", "--remove-files", "-P", "--absolute-names", "-h", "-O", "--to-stdout", "-a", "--auto-compress", "--zstd", "-m", "-W", "--verify"),
    },
    { oldStyle: true },
  ),
  unzip: g({ ...values("-d", "-P", "-x", "-I", "-O"), ...flags("-o", "-n", "-q", "-qq", "-l", "-t", "-v", "-j", "-a", "-u", "-f", "-C", "-L", "-X") }),
  zip: g({ ...values("-P", "--password", "-b", "-t", "-tt", "-i", "-x", "-n", "-Z", "-O", "--output-file"), ...flags("-r", "-R", "-q", "-v", "-u", "-f", "-d", "-m", "-j", "-D", "-e", "-9", "-0", "-y") }),
  patch: g({ ...values("-i", "--input", "-o", "--output", "-d", "--directory", "-r", "--reject-file", "-B", "--prefix", "-D", "--ifdef", "-F", "--fuzz", "-V", "--version-control", "-z", "--suffix", "-g", "--get", "-Y", "--basename-prefix"), "-p": "digits", "--strip": 1, ...flags("-R", "--reverse", "-N", "--forward", "-E", "--remove-empty-files", "-f", "--force", "-s", "--silent", "--quiet", "-t", "--batch", "-u", "--unified", "-b", "--backup", "--dry-run", "-l", "--ignore-whitespace") }),
  split: g({ ...values("-l", "--lines", "-b", "--bytes", "-n", "--number", "-a", "--suffix-length", "-C", "--line-bytes", "--additional-suffix", "-t", "--separator", "--filter"), ...flags("-d", "-x", "-e", "--elide-empty-files", "-u", "--verbose") }, { permute: true }),
  find: g({}),
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: RG,
  ag: g({ ...values("-G", "--file-search-regex", "--ignore", "--ignore-dir", "-A", "-B", "-C", "-m", "--max-count", "--depth", "-p", "--path-to-ignore", "--pager") }),
  sed: SED,
  gsed: SED,
  awk: g({ ...values("-f", "--file", "-v", "--assign", "-F", "--field-separator", "-i", "--include", "-l", "--load", "-E", "--exec") }, { permute: false }),
  gawk: g({ ...values("-f", "--file", "-v", "--assign", "-F", "--field-separator", "-i", "--include", "-l", "--load", "-E", "--exec") }, { permute: false }),
  sort: g({ ...values("-o", "--output", "-k", "--key", "-t", "--field-separator", "-S", "--buffer-size", "-T", "--temporary-directory", "--files0-from", "--parallel", "--batch-size", "--compress-program") }),
  head: g(values("-n", "--lines", "-c", "--bytes")),
  tail: g({ ...values("-n", "--lines", "-c", "--bytes", "-s", "--sleep-interval", "--pid", "--max-unchanged-stats"), "--follow": "optional" }),
  cut: g(values("-b", "--bytes", "-c", "--characters", "-d", "--delimiter", "-f", "--fields", "--output-delimiter")),
  jq: g({ ...values("-f", "--from-file", "-L", "--indent"), "--arg": 2, "--argjson": 2, "--slurpfile": 2, "--rawfile": 2 }),
  yq: g({ ...values("-f", "--from-file", "-o", "--output-format", "-p", "--input-format", "-I", "--indent", "--expression") }),
  diff: g({ ...values("-U", "--unified", "-C", "--context", "-x", "--exclude", "-X", "--exclude-from", "-I", "--ignore-matching-lines", "--label", "-L", "-W", "--width", "--from-file", "--to-file", "-F", "--show-function-line", "--color") }),
  cmp: g(values("-i", "--ignore-initial", "-n", "--bytes")),
  scp: g({ ...values("-P", "-i", "-o", "-F", "-c", "-l", "-S", "-J", "-D", "-X"), ...flags("-r", "-p", "-q", "-v", "-C", "-3", "-4", "-6", "-A", "-B", "-O", "-R", "-s", "-T") }),
  rsync: g({
    ...values("-e", "--rsh", "--exclude", "--include", "-f", "--filter", "--exclude-from", "--include-from", "--files-from", "-T", "--temp-dir", "--backup-dir", "--suffix", "--chmod", "--chown", "--port", "--password-file", "--log-file", "--rsync-path", "--partial-dir", "--max-size", "--min-size", "--timeout", "--bwlimit", "--compare-dest", "--copy-dest", "--link-dest", "-B", "--block-size", "--usermap", "--groupmap", "--out-format", "--info", "--debug", "--compress-choice", "--checksum-choice", "--max-delete", "--mkpath"),
    ...flags("-a", "--archive", "-r", "--recursive", "-v", "--verbose", "-z", "--compress", "-n", "--dry-run", "-u", "--update", "--delete", "--delete-before", "--delete-during", "--delete-delay", "--delete-after", "--delete-excluded", "--remove-source-files", "--force", "-P", "--progress", "-h", "--human-readable", "-l", "-L", "-p", "-o", "-g", "-t", "-D", "-H", "-A", "-X", "-c", "--checksum", "-x", "-R", "--relative", "--inplace", "--existing", "--ignore-existing", "-q", "-i", "--itemize-changes", "--stats", "--partial"),
  }),
  openssl: g(
    {
      ...values("-in", "-out", "-k", "-kfile", "-pass", "-passin", "-passout", "-key", "-cert", "-inkey", "-keyout", "-config", "-subj", "-days", "-newkey", "-certfile", "-CAfile", "-CApath", "-CA", "-CAkey", "-signkey", "-md", "-iv", "-K", "-S", "-name", "-caname", "-engine", "-rand", "-writerand", "-extfile", "-extensions", "-set_serial", "-connect", "-servername", "-cipher", "-digest", "-sigopt", "-pkeyopt", "-iter", "-inform", "-outform", "-keyform", "-certform"),
    },
    { singleDashLong: true },
  ),
  keytool: g(
    {
      ...values("-keystore", "-srckeystore", "-destkeystore", "-storepass", "-srcstorepass", "-deststorepass", "-keypass", "-srckeypass", "-destkeypass", "-storetype", "-srcstoretype", "-deststoretype", "-alias", "-srcalias", "-destalias", "-file", "-dname", "-keyalg", "-keysize", "-groupname", "-sigalg", "-validity", "-startdate", "-ext", "-infile", "-outfile", "-providername", "-providerclass", "-providerpath", "-providerarg", "-addprovider", "-J"),
    },
    { singleDashLong: true },
  ),
  gpg: g({ ...values("-o", "--output", "-r", "--recipient", "-u", "--local-user", "--homedir", "--passphrase", "--passphrase-file", "--passphrase-fd", "--default-key", "--keyring", "--secret-keyring", "--trust-model", "--cipher-algo", "--digest-algo", "--compress-algo", "-z", "--pinentry-mode", "--keyserver", "--recv-keys", "--export-options", "--import-options") }),
  kill: g({ ...values("-s", "--signal", "-n"), "-l": "optional", "--list": "optional", ...flags("-L", "--table", "-q", "--queue") }, { cluster: false }),
  pkill: g({ ...values("-u", "--euid", "-U", "--uid", "-g", "--pgroup", "-G", "--group", "-P", "--parent", "-s", "--session", "-t", "--terminal", "--signal", "-F", "--pidfile") }, { cluster: false }),
  pgrep: g({ ...values("-u", "--euid", "-U", "--uid", "-g", "--pgroup", "-G", "--group", "-P", "--parent", "-s", "--session", "-t", "--terminal", "-F", "--pidfile", "-d", "--delimiter") }, { cluster: false }),
  killall: g({ ...values("-s", "--signal", "-u", "--user", "-o", "--older-than", "-y", "--younger-than", "-n", "--ns") }, { cluster: false }),
  psql: g({
    ...values("-c", "--command", "-f", "--file", "-d", "--dbname", "-U", "--username", "-h", "--host", "-p", "--port", "-v", "--set", "--variable", "-o", "--output", "-L", "--log-file", "-P", "--pset", "-F", "--field-separator", "-R", "--record-separator", "-T", "--table-attr"),
    ...flags("-A", "--no-align", "-t", "--tuples-only", "-q", "--quiet", "-x", "--expanded", "-X", "--no-psqlrc", "-1", "--single-transaction", "-w", "--no-password", "-W", "--password", "-e", "--echo-queries", "-E", "--echo-hidden", "-a", "--echo-all", "-b", "--echo-errors", "-n", "--no-readline", "-s", "--single-step", "-S", "--single-line", "-H", "--html", "-l", "--list"),
  }),
  mysql: g({ ...values("-e", "--execute", "-u", "--user", "-h", "--host", "-D", "--database", "-P", "--port", "-S", "--socket", "--default-character-set", "--init-command", "--defaults-file", "--defaults-extra-file", "--login-path"), "-p": "optional", "--password": "optional", ...flags("-B", "--batch", "-N", "--skip-column-names", "-s", "--silent", "-v", "--verbose", "-t", "--table", "-f", "--force", "-r", "--raw", "-E", "--vertical", "-X", "--xml", "-H", "--html") }),
  mysqladmin: g({ ...values("-u", "--user", "-h", "--host", "-P", "--port", "-S", "--socket", "-c", "--count", "-i", "--sleep", "--defaults-file", "--defaults-extra-file", "--login-path"), "-p": "optional", "--password": "optional", ...flags("-f", "--force", "-s", "--silent", "-v", "--verbose") }),
  mysqldump: g({ ...values("-u", "--user", "-h", "--host", "-P", "--port", "-S", "--socket", "-r", "--result-file", "-w", "--where", "--defaults-file", "--ignore-table"), "-p": "optional", "--password": "optional" }),
  ...Object.fromEntries(
    ["dropdb", "createdb", "pg_dump", "pg_dumpall", "pg_restore", "dropuser", "createuser"].map((p) => [
      p,
      g({ ...values("-h", "--host", "-p", "--port", "-U", "--username", "-d", "--dbname", "-f", "--file", "-F", "--format", "-j", "--jobs", "-n", "--schema", "-N", "--exclude-schema", "-t", "--table", "-T", "--exclude-table", "-E", "--encoding", "-O", "--owner", "-D", "--tablespace", "-l", "--locale", "--maintenance-db", "-S", "--superuser-name"), ...flags("-w", "--no-password", "-W", "--password", "-e", "--echo", "-i", "--interactive", "--if-exists", "-c", "--clean", "-a", "--data-only", "-s", "--schema-only", "-v", "--verbose", "-C", "--create") }),
    ]),
  ),
  mongosh: g({ ...values("--eval", "--host", "--port", "-u", "--username", "-p", "--password", "--authenticationDatabase", "-f", "--file", "--tlsCAFile") }),
  mongo: g({ ...values("--eval", "--host", "--port", "-u", "--username", "-p", "--password", "--authenticationDatabase") }),
  mariadb: g({ ...values("-e", "--execute", "-u", "--user", "-h", "--host", "-D", "--database", "-P", "--port", "-S", "--socket"), "-p": "optional", "--password": "optional" }),
  "redis-cli": g(
    { ...values("-h", "-p", "-a", "-n", "-u", "-s", "-r", "-i", "-d", "--user", "--pass", "--pattern", "--count", "--eval", "--rdb", "--tls-cert", "--tls-key", "--cacert", "--sni"), ...flags("-c", "-x", "-e", "--tls", "--raw", "--no-raw", "--csv", "--scan", "--pipe", "--bigkeys", "--memkeys", "--stat", "--latency", "--no-auth-warning", "--verbose", "-3", "-2") },
    { permute: false },
  ),
  kubectl: g({
    ...values("-n", "--namespace", "-f", "--filename", "-l", "--selector", "-o", "--output", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--token", "-c", "--container", "--field-selector", "--sort-by", "-k", "--kustomize", "--grace-period", "--timeout", "--type", "--from-literal", "--from-file", "--image", "--replicas", "--port", "--as", "--as-group", "--request-timeout", "--cascade", "--template", "-p", "--patch", "--patch-file", "--local-port", "--since", "--tail"),
    ...flags("-A", "--all-namespaces", "--all", "-w", "--watch", "--force", "-R", "--recursive", "-i", "--stdin", "-t", "--tty", "--now", "--wait", "--overwrite", "--ignore-not-found", "--prune", "-q", "--quiet", "--follow", "-F", "--previous"),
    "--dry-run": "optional",
    "--validate": "optional",
  }),
  helm: g({ ...values("-n", "--namespace", "-f", "--values", "--set", "--set-string", "--set-file", "--version", "--kube-context", "--kubeconfig", "-o", "--output", "--timeout", "--repo"), ...flags("-A", "--all-namespaces", "--install", "--wait", "--atomic", "--force", "--dry-run", "--create-namespace", "--debug", "--keep-history") }),
  aws: g({
    ...values("--region", "--profile", "--output", "--query", "--endpoint-url", "--cli-input-json", "--cli-input-yaml", "--color", "--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout", "--exclude", "--include", "--acl", "--storage-class", "--sse", "--expires", "--cache-control", "--content-type", "--bucket", "--key", "--stack-name", "--function-name", "--table-name", "--db-instance-identifier", "--cluster"),
    ...flags("--recursive", "--dryrun", "--dry-run", "--delete", "--force", "--quiet", "--no-paginate", "--debug", "--no-verify-ssl", "--no-sign-request", "--skip-final-snapshot", "--delete-automated-backups", "--follow-symlinks"),
  }),
  gcloud: g({ ...values("--command", "--project", "--region", "--zone", "--account", "--configuration", "--format", "--filter", "--flags-file", "--impersonate-service-account", "--verbosity", "--billing-project", "--limit", "--page-size", "--sort-by"), ...flags("-q", "--quiet", "--async", "--all", "--recursive") }),
  gsutil: g({ ...values("-h", "-o", "-u", "-p"), ...flags("-m", "-q", "-D", "-r", "-R", "-f", "-a", "-I", "-e", "-c", "-n", "-d") }),
  terraform: g(
    {
      ...values("-var", "-var-file", "-target", "-replace", "-out", "-state", "-state-out", "-backup", "-lock-timeout", "-parallelism", "-backend-config", "-chdir", "-plugin-dir", "-from-module", "-generate-config-out"),
      ...flags("-auto-approve", "-destroy", "-refresh-only", "-json", "-no-color", "-upgrade", "-reconfigure", "-migrate-state", "-force-copy", "-force", "-recursive", "-compact-warnings"),
    },
    { singleDashLong: true },
  ),
  tofu: g(
    { ...values("-var", "-var-file", "-target", "-replace", "-out", "-state", "-state-out", "-backup", "-lock-timeout", "-parallelism", "-backend-config", "-chdir"), ...flags("-auto-approve", "-destroy", "-refresh-only", "-json", "-no-color", "-upgrade", "-reconfigure") },
    { singleDashLong: true },
  ),
  go: g({ ...values("-o", "-run", "-bench", "-tags", "-ldflags", "-gcflags", "-count", "-timeout", "-p", "-C", "-mod", "-coverprofile", "-exec", "-modfile", "-pkgdir", "-covermode", "-coverpkg") }, { singleDashLong: true }),
  docker: DOCKER,
  podman: DOCKER,
  nomad: g({}, { singleDashLong: true }),
  iwr: INVOKE_WEB_REQUEST,
  "Invoke-WebRequest": INVOKE_WEB_REQUEST,
  "invoke-webrequest": INVOKE_WEB_REQUEST,
  gh: FORGE,
  glab: FORGE,
  curl: CURL,
  http: HTTPIE,
  https: HTTPIE,
  xh: HTTPIE,
  xhs: HTTPIE,
  "curl.exe": CURL,
  wget: WGET,
  wget2: WGET,
  "wget.exe": WGET,
  aria2c: g({ ...values("-o", "--out", "-d", "--dir", "-i", "--input-file", "-x", "--max-connection-per-server", "-s", "--split", "-j", "--max-concurrent-downloads", "--header", "-U", "--user-agent", "--checksum") }),
  osascript: g(values("-e", "-l", "-s")),
  mount: g({ ...values("-t", "--types", "-o", "--options", "-L", "--label", "-U", "--uuid", "-O", "--test-opts", "-N", "--namespace", "--target", "--source"), ...flags("-a", "--all", "-r", "--read-only", "-w", "--rw", "-B", "--bind", "-R", "--rbind", "-M", "--move", "-f", "--fake", "-n", "--no-mtab", "-v", "--verbose", "-l") }),
  ansible: g({ ...values("-a", "--args", "-m", "--module-name", "-i", "--inventory", "-u", "--user", "-e", "--extra-vars", "-f", "--forks", "-l", "--limit", "-M", "--module-path", "-t", "--tree", "-B", "--background", "-P", "--poll", "--become-user", "--become-method", "--private-key", "--key-file", "-c", "--connection", "-T", "--timeout", "--vault-password-file"), ...flags("-b", "--become", "-K", "--ask-become-pass", "-k", "--ask-pass", "-C", "--check", "-D", "--diff", "-o", "--one-line", "-v", "-vv", "-vvv") }),
  vagrant: g({ ...values("-c", "--command", "--provider") }),
  ssh: g({ ...values("-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p", "-Q", "-R", "-S", "-W", "-w", "-B", "-P") }, { permute: false }),
  npm: g({ ...values("--prefix", "-w", "--workspace", "--registry", "--tag", "--access", "--otp") }),
  "Set-MpPreference": g({ ...flags("-DisableRealtimeMonitoring", "-DisableBehaviorMonitoring", "-DisableIOAVProtection", "-DisableScriptScanning") }, { singleDashLong: true }),
  usermod: g({ ...values("-G", "--groups", "-g", "--gid", "-d", "--home", "-s", "--shell", "-c", "--comment", "-l", "--login", "-u", "--uid", "-e", "--expiredate", "-f", "--inactive", "-p", "--password", "-R", "--root", "-P", "--prefix") }),
  sqlite3: g({ ...values("-cmd", "-separator", "-newline", "-nullvalue", "-init", "-vfs") }, { singleDashLong: true, permute: false }),
  migrate: g({ ...values("-path", "-database", "-source", "-lock-timeout", "-prefetch", "-ext", "-dir", "-format", "-tz", "-seq-digits"), ...flags("-all", "-verbose", "-version", "-help", "-f", "-seq") }, { singleDashLong: true }),
  duckdb: g({ ...values("-c", "-cmd", "-s", "-f", "-init", "-separator", "-newline", "-nullvalue") }, { singleDashLong: true }),
};

/**
 * `find` primaries and how many arguments each takes (`-exec` and friends take a command up to
 * `;` or `+`, handled apart). Primaries not listed take none; `-newerXY` takes one.
 */
export const FIND_PRIMARIES: Readonly<Record<string, number>> = {
  "-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1, "-regex": 1, "-iregex": 1,
  "-regextype": 1, "-type": 1, "-xtype": 1, "-maxdepth": 1, "-mindepth": 1, "-newer": 1, "-anewer": 1, "-cnewer": 1,
  "-mtime": 1, "-atime": 1, "-ctime": 1, "-mmin": 1, "-amin": 1, "-cmin": 1, "-size": 1, "-user": 1, "-group": 1,
  "-uid": 1, "-gid": 1, "-perm": 1, "-links": 1, "-inum": 1, "-samefile": 1, "-lname": 1, "-ilname": 1, "-fstype": 1,
  "-printf": 1, "-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2, "-context": 1, "-used": 1, "-files0-from": 1,
};

/** The `find` primaries that run a command. */
export const FIND_EXEC_PRIMARIES: readonly string[] = ["-exec", "-execdir", "-ok", "-okdir"];

/** `find` operators that widen or invert an expression, so its filters no longer narrow an action. */
export const FIND_WIDENERS: readonly string[] = ["-o", "-or", ",", "!", "-not"];

/**
 * Options that never take a value, across the CLIs the built-in rules name: an operand after one
 * of these is an operand, not the option's value (`ArgView.suspect`).
 */
// prettier-ignore
export const VALUELESS_OPTIONS: readonly string[] = [
  "-f", "--force", "-y", "--yes", "-q", "--quiet", "-v", "--verbose", "-a", "--all", "-A", "--all-namespaces", "-r",
  "-R", "--recursive", "-d", "--delete", "-D", "--now", "--wait", "--no-wait", "--force-with-lease",
  "--force-if-includes", "--mirror", "--prune", "--tags", "--atomic", "--no-verify", "-u", "--set-upstream",
  "--porcelain", "--purge", "--cascade", "--ignore-not-found", "--keep-history", "--skip-seed", "--noinput",
  "--no-input", "--seed", "--debug", "--json", "--insecure", "--async", "--sync", "-auto-approve", "--auto-approve",
  "--force-reset", "--accept-data-loss", "--volumes", "--remove-orphans", "-i", "--interactive", "-t", "--tty",
  "--rm", "-P", "--progress", "-h", "--help", "-x", "--hard", "--soft", "--mixed", "--merge", "--keep", "-m",
  "--quick", "-s", "-S", "-Force", "-Recurse", "--nodeps", "-e", "--erase", "--force-remove-essential",
  "--force-all", "-Rdd", "-Rns", "-Rs", "-Rn", "-p", "--paginate", "--bare", "--literal-pathspecs",
  "--glob-pathspecs", "--icase-pathspecs", "--version", "--tls", "--global", "--system", "--local", "--replace-all",
  "-B", "--batch-mode", "-ntp", "--no-transfer-progress", "--tlsverify", "--ours", "--theirs", "--no-overlay",
  "--discard-changes", "--worktree", "--staged", "--ignore-unmatch",
];

/**
 * Options whose value is statement text, across clients (`psql -c`, `mysql -e`, `sqlcmd -Q`,
 * `clickhouse-client --query`, `mongosh --eval`, `sqlite3 -cmd`, `influx -execute`) and the request
 * bodies of HTTP clients (ClickHouse and other SQL-over-HTTP servers): `statements.ts`.
 */
// prettier-ignore
export const STATEMENT_OPTIONS: readonly string[] = [
  "-c", "--command", "-e", "--execute", "-execute", "--eval", "-q", "-Q", "--query", "--sql", "-cmd", "-s",
  "--init-command", "-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--post-data", "--body-data",
];

/**
 * How a database client is opened read-only, so that no statement it is sent can change data: a
 * flag (`sqlite3 -readonly`, `duckdb -readonly`), a connection string or an environment variable
 * holding a setting (`mode=ro`, PostgreSQL's `default_transaction_read_only=on` in `PGOPTIONS` or the
 * URI's `options`). `unless`: statement words that lift it again (`SET default_transaction_read_only
 * = off`, `BEGIN READ WRITE`, `ATTACH` another database).
 */
export const READ_ONLY_CLIENTS: Readonly<
  Record<string, { readonly flags?: readonly string[]; readonly settings?: readonly string[]; readonly env?: readonly string[]; readonly unless: readonly string[] }>
> = {
  sqlite3: { flags: ["-readonly", "--readonly"], settings: ["mode=ro", "immutable=1"], unless: [] },
  sqlite: { flags: ["-readonly", "--readonly"], settings: ["mode=ro", "immutable=1"], unless: [] },
  duckdb: { flags: ["-readonly", "--readonly"], settings: ["access_mode=read_only"], unless: ["attach"] },
  psql: {
    settings: ["default_transaction_read_only=on", "default_transaction_read_only=true", "default_transaction_read_only=1", "default_transaction_read_only%3don", "default_transaction_read_only%3dtrue", "default_transaction_read_only%3d1"],
    env: ["PGOPTIONS"],
    unless: ["read write", "read_only=off", "read_only = off", "read_only to off", "read_only=false", "read_only = false", "read_only to false", "read_only=0"],
  },
};

/**
 * Option grammars and program lists of the handlers in `handlers/` (containers, awk and sed,
 * fd, downloads, listings). Data only: inlined as JSON at build time like every table here.
 */
import type { OptionGrammar } from "../option-scanner.ts";

/** `docker exec` options. */
export const DOCKER_EXEC: OptionGrammar = {
  options: { "-e": 1, "--env": 1, "--env-file": 1, "-u": 1, "--user": 1, "-w": 1, "--workdir": 1, "--detach-keys": 1, "--index": 1, "-T": 0, "--no-TTY": 0, "-d": 0, "--detach": 0, "-i": 0, "--interactive": 0, "-t": 0, "--tty": 0, "--privileged": 0 },
  permute: false,
};

/** `docker run` options. */
export const DOCKER_RUN: OptionGrammar = {
  options: {
    "-v": 1, "--volume": 1, "--mount": 1, "-e": 1, "--env": 1, "--env-file": 1, "--name": 1, "-p": 1, "--publish": 1, "-w": 1, "--workdir": 1,
    "--entrypoint": 1, "--network": 1, "--net": 1, "-u": 1, "--user": 1, "-l": 1, "--label": 1, "-h": 1, "--hostname": 1, "--platform": 1,
    "--pull": 1, "-m": 1, "--memory": 1, "--cpus": 1, "--device": 1, "--add-host": 1, "--cap-add": 1, "--cap-drop": 1, "--security-opt": 1,
    "--tmpfs": 1, "--volumes-from": 1, "--ulimit": 1, "--restart": 1, "--shm-size": 1, "--gpus": 1, "--ipc": 1, "--pid": 1, "--dns": 1,
    "--rm": 0, "-d": 0, "--detach": 0, "-i": 0, "--interactive": 0, "-t": 0, "--tty": 0, "--privileged": 0, "--init": 0, "-P": 0, "--read-only": 0,
  },
  permute: false,
};

/**
 * Images whose entrypoint is a command-line tool, so that `docker run IMAGE args` runs `tool args`
 * (`docker run amazon/aws-cli s3 rm s3://b --recursive` is `aws s3 rm ...`). Keys are image names
 * without registry `docker.io/`, `library/`, tag or digest.
 */
export const IMAGE_ENTRYPOINTS: Readonly<Record<string, string>> = {
  "amazon/aws-cli": "aws",
  "public.ecr.aws/aws-cli/aws-cli": "aws",
  "hashicorp/terraform": "terraform",
  "opentofu/opentofu": "tofu",
  "ghcr.io/opentofu/opentofu": "tofu",
  "bitnami/kubectl": "kubectl",
  "rancher/kubectl": "kubectl",
  "alpine/helm": "helm",
  "alpine/git": "git",
  "curlimages/curl": "curl",
  "minio/mc": "mc",
  "rclone/rclone": "rclone",
  "peakcom/s5cmd": "s5cmd",
  "flyio/flyctl": "flyctl",
  "digitalocean/doctl": "doctl",
};

/** `docker` options before its subcommand. */
export const DOCKER_GLOBAL: OptionGrammar = {
  options: { "-H": 1, "--host": 1, "-c": 1, "--context": 1, "--config": 1, "-l": 1, "--log-level": 1, "--tlscacert": 1, "--tlscert": 1, "--tlskey": 1, "-D": 0, "--debug": 0, "--tls": 0, "--tlsverify": 0 },
  permute: false,
};

/** `docker compose` options before its subcommand. */
export const COMPOSE_GLOBAL: OptionGrammar = {
  options: { "-f": 1, "--file": 1, "-p": 1, "--project-name": 1, "--profile": 1, "--env-file": 1, "--project-directory": 1, "--ansi": 1, "--progress": 1, "--parallel": 1 },
  permute: false,
};

/** Compose programs of their own (`docker-compose exec web cmd`). */
export const COMPOSE_PROGRAMS: readonly string[] = ["docker-compose", "podman-compose"];

/** Container CLIs that share docker's grammar. */
export const DOCKER_LIKE: readonly string[] = ["docker", "podman", "nerdctl", "finch"];

/** awk's own options (the program is the first operand unless `-f`/`-e` gives it). */
export const AWK_GRAMMAR: OptionGrammar = {
  options: { "-F": 1, "-v": 1, "-f": 1, "--file": 1, "--field-separator": 1, "--assign": 1, "-e": 1, "--source": 1, "-i": 1, "--include": 1, "-l": 1, "--load": 1 },
  permute: false,
};

/** sed's own options (the script is the first operand unless `-e`/`-f` gives it). */
export const SED_GRAMMAR: OptionGrammar = {
  options: { "-e": 1, "--expression": 1, "-f": 1, "--file": 1, "-l": 1, "--line-length": 1, "-i": "optional", "--in-place": "optional", "-n": 0, "--quiet": 0, "--silent": 0, "-E": 0, "-r": 0, "--regexp-extended": 0, "-s": 0, "-z": 0, "-u": 0 },
  permute: true,
};

/** awk implementations. */
export const AWK_PROGRAMS: readonly string[] = ["awk", "gawk", "mawk", "nawk"];

/** sed implementations. */
export const SED_PROGRAMS: readonly string[] = ["sed", "gsed"];

/** fd's options that take a value (so their value is not read as the pattern or a path). */
export const FD_VALUED: readonly string[] = [
  "-e", "--extension", "-t", "--type", "-E", "--exclude", "-d", "--max-depth", "--min-depth", "--exact-depth", "-S", "--size",
  "--changed-within", "--changed-before", "-o", "--owner", "-j", "--threads", "--base-directory", "--search-path", "-c", "--color",
  "--ignore-file", "--max-results", "--format", "--path-separator", "--batch-size",
];

/** fd's options after which the rest is a command run per match. */
export const FD_EXEC: readonly string[] = ["-x", "--exec", "-X", "--exec-batch"];

/** Where a downloader saves what it fetches (its options are split by its grammar in `tables/options.ts`). */
export interface DownloadSpec {
  /** Options whose value is the output file (`curl -o f`, `wget -O f`); `-` is stdout. */
  readonly output: readonly string[];
  /**
   * Flags that save under the last segment of each URL (`curl -O`, `--remote-name`); absent: that is
   * the default without an output option (`wget URL`, `aria2c URL`).
   */
  readonly remoteName?: readonly string[];
  /** Options whose value is the directory the file is saved in (`curl --output-dir d`, `wget -P d`). */
  readonly directory?: readonly string[];
}

const WGET_DOWNLOAD: DownloadSpec = { output: ["-O", "--output-document"], directory: ["-P", "--directory-prefix"] };

/** Downloaders that save to a file, by program name. */
export const DOWNLOADERS: Readonly<Record<string, DownloadSpec>> = {
  curl: { output: ["-o", "--output"], remoteName: ["-O", "--remote-name", "--remote-name-all"], directory: ["--output-dir"] },
  "curl.exe": { output: ["-o", "--output"], remoteName: ["-O", "--remote-name", "--remote-name-all"], directory: ["--output-dir"] },
  wget: WGET_DOWNLOAD,
  wget2: WGET_DOWNLOAD,
  "wget.exe": WGET_DOWNLOAD,
  aria2c: { output: ["-o", "--out"], directory: ["-d", "--dir"] },
  // PowerShell saves only with `-OutFile`
  iwr: { output: ["-OutFile", "-outfile"], remoteName: [] },
  "Invoke-WebRequest": { output: ["-OutFile", "-outfile"], remoteName: [] },
  "invoke-webrequest": { output: ["-OutFile", "-outfile"], remoteName: [] },
};

/** Listing programs whose output is the entries of their operand directories (`ls -1 | xargs rm`). */
export const LISTERS: readonly string[] = ["ls"];

/** `ps` options that select some processes only (by pid, name, parent, terminal, session). */
export const PS_SELECTORS: readonly string[] = ["-p", "--pid", "-C", "--ppid", "-q", "--quick-pid", "-t", "--tty", "--sid", "p", "q", "-g", "--Group", "--group"];

/** Programs that pass a process listing on without choosing processes (`awk '{print $2}'` and `grep -v` are judged apart). */
export const PROCESS_PASS_THROUGH: readonly string[] = ["tail", "head", "sort", "uniq", "cut", "tr", "cat", "column", "sed"];

/** CLIs whose `exec TARGET [options] -- cmd` runs cmd in a pod, container or VM (`kubectl exec web-0 -- sh`). */
export const REMOTE_EXEC: readonly string[] = ["kubectl", "oc", "lxc", "incus", "multipass"];

/** C and C++ compilers whose source may be text written on the same line. */
export const C_COMPILERS: readonly string[] = ["gcc", "cc", "clang", "tcc", "g++", "c++", "clang++", "musl-gcc", "zig"];

/** File names a C compiler reads as source. */
export const C_SOURCE_SUFFIXES: readonly string[] = [".c", ".cc", ".cpp", ".cxx", ".C"];

/** `Get-Process`/`Stop-Process` switches that select nothing (lowercase): with only these, every process. */
export const POWERSHELL_PROCESS_FLAGS: readonly string[] = ["-force", "-passthru", "-confirm:$false", "-whatif:$false", "-includeusername", "-erroraction", "silentlycontinue", "-ea", "0"];

/** Options of `kubectl`/`oc`/`lxc` before and after `exec` that take a value (the rest are flags). */
export const REMOTE_EXEC_OPTIONS: OptionGrammar = {
  options: {
    "-n": 1, "--namespace": 1, "--context": 1, "--kubeconfig": 1, "--cluster": 1, "--user": 1, "-s": 1, "--server": 1, "--token": 1,
    "-c": 1, "--container": 1, "-f": 1, "--filename": 1, "--pod-running-timeout": 1, "--project": 1, "--env": 1, "--cwd": 1,
    "--as": 1, "--request-timeout": 1, "-i": 0, "--stdin": 0, "-t": 0, "--tty": 0, "-q": 0, "--quiet": 0,
  },
  permute: false,
};

/**
 * CLIs that read a parameter's value from a file written `file://PATH` (the AWS CLI: `--change-batch
 * file://batch.json`, `--cli-input-json file://in.json`): the value is the file's text.
 */
export const PARAMETER_FILE_CLIS: readonly string[] = ["aws", "awslocal", "aws.exe", "aws2"];

/** The prefix of such a parameter value (`fileb://` is binary and left alone). */
export const PARAMETER_FILE_PREFIX = "file://";

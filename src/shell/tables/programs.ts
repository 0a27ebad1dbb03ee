/**
 * Option grammars and program lists of the handlers in `handlers/` (containers, awk and sed,
 * fd, downloads, listings). Data only: inlined as JSON at build time like every table here.
 */
import type { OptionGrammar } from "../_options.ts";

/** `docker exec` options. */
export const DOCKER_EXEC: OptionGrammar = {
  options: { "-e": 1, "--env": 1, "--env-file": 1, "-u": 1, "--user": 1, "-w": 1, "--workdir": 1, "--detach-keys": 1, "-d": 0, "--detach": 0, "-i": 0, "--interactive": 0, "-t": 0, "--tty": 0, "--privileged": 0 },
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

/** Container CLIs that share docker's grammar. */
export const DOCKER_LIKE: readonly string[] = ["docker", "podman", "nerdctl"];

/** Compose front ends whose `exec` takes a service, then the command (`docker-compose exec db psql`). */
export const COMPOSE_LIKE: readonly string[] = ["docker-compose", "podman-compose"];

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

/** Downloaders and the options that name the output file. */
export const DOWNLOAD_OUTPUT: Readonly<Record<string, readonly string[]>> = { curl: ["-o", "--output"], wget: ["-O", "--output-document"] };

/** Listing programs whose output is the entries of their operand directories (`ls -1 | xargs rm`). */
export const LISTERS: readonly string[] = ["ls"];

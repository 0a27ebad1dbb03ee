/**
 * `networkSends`: what the network clients of a command line send, from the client table
 * (`tables/network.ts`): the peers they reach, the run-time variables whose values go into the
 * request as data, and, when a client sends its standard input, the commands piped into it; and
 * interpreter code that sends the whole environment (`code/env.ts`).
 */
import { detailedView } from "./detailed-view.ts";
import { environmentSends } from "./code/index.ts";
import { hostOf, urlPeer } from "./url.ts";
import {
  ARGUMENT_PRINTERS,
  CREDENTIAL_PRINTERS,
  ENVIRONMENT_PRINTERS,
  NETWORK_CLIENTS,
  SECRET_PATTERN_WORDS,
  TEXT_PASS_THROUGH,
  SOCAT_PEERS,
  STDIN_FIELD_SUFFIXES,
  STDIN_VALUES,
  XARGS_PLACEHOLDER,
  type NetworkClient,
} from "./tables/network.ts";
import { GREP_NO_LINES } from "./tables/effects.ts";
import type { NetworkPeer, NetworkSend, ShellAnalysis, ShellCommand, ShellWord } from "./types.ts";

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

function clientSend(cmd: ShellCommand, client: NetworkClient, analysis: ShellAnalysis): NetworkSend {
  const view = detailedView(cmd.program, cmd.args);
  const env = new Set<string>();
  const payload: ShellWord[] = [];
  const add = (word: ShellWord): void => {
    payload.push(word);
    word.env?.forEach((name) => env.add(name));
  };
  const peers: NetworkPeer[] = [];
  for (const option of client.payload) for (const word of view.values.get(option) ?? []) add(word);
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
      const url = operands[at];
      if (url !== undefined) {
        peers.push(urlPeer(looseValue(url), url.env));
        add(url);
      }
      for (const item of operands.slice(at + 1)) if (!isHeaderItem(item)) add(item);
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
    cmd.redirects.some((r) => r.kind === "herestring" || r.kind === "heredoc");
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
    for (const at of stdinFrom) {
      const producer = analysis.commands[at];
      if (producer === undefined) continue;
      herestringEnv(producer).forEach((name) => env.add(name));
      if (producer.program !== undefined && ARGUMENT_PRINTERS.includes(producer.program)) producer.args.forEach(add);
    }
  }
  // `*`: a substitution that prints the whole environment (`-d "$(env)"`)
  const environment = env.delete("*");
  return { command: cmd.index, peers, env: [...env], environment, stdinFrom };
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
  for (const cmd of analysis.commands) {
    const program = cmd.program;
    if (program === undefined || !Object.hasOwn(NETWORK_CLIENTS, program)) continue;
    sends.push(clientSend(cmd, NETWORK_CLIENTS[program]!, analysis));
  }
  for (const exec of analysis.code) {
    if (exec.source !== "literal" || exec.code === undefined) continue;
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

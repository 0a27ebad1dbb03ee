/**
 * Containers and remote execution: `docker exec CONTAINER cmd`, `docker run IMAGE cmd`,
 * `kubectl exec POD -- cmd`. The command runs elsewhere (unknown directory and environment);
 * a bind mount maps container paths back to the host (`docker run -v /:/host ... rm -rf /host`
 * deletes `/`).
 */
import { posix } from "node:path";
import { scanOptions, type OptionGrammar } from "../_options.ts";
import { plain, resolveDir, type ArgWord, type Invocation } from "../walk/context.ts";
import type { Walker } from "../walk/traverse.ts";
import { hostCtx } from "./code.ts";

const DOCKER_EXEC: OptionGrammar = {
  options: { "-e": 1, "--env": 1, "--env-file": 1, "-u": 1, "--user": 1, "-w": 1, "--workdir": 1, "--detach-keys": 1, "-d": 0, "--detach": 0, "-i": 0, "--interactive": 0, "-t": 0, "--tty": 0, "--privileged": 0 },
  permute: false,
};

const DOCKER_RUN: OptionGrammar = {
  options: {
    "-v": 1, "--volume": 1, "--mount": 1, "-e": 1, "--env": 1, "--env-file": 1, "--name": 1, "-p": 1, "--publish": 1, "-w": 1, "--workdir": 1,
    "--entrypoint": 1, "--network": 1, "--net": 1, "-u": 1, "--user": 1, "-l": 1, "--label": 1, "-h": 1, "--hostname": 1, "--platform": 1,
    "--pull": 1, "-m": 1, "--memory": 1, "--cpus": 1, "--device": 1, "--add-host": 1, "--cap-add": 1, "--cap-drop": 1, "--security-opt": 1,
    "--tmpfs": 1, "--volumes-from": 1, "--ulimit": 1, "--restart": 1, "--shm-size": 1, "--gpus": 1, "--ipc": 1, "--pid": 1, "--dns": 1,
    "--rm": 0, "-d": 0, "--detach": 0, "-i": 0, "--interactive": 0, "-t": 0, "--tty": 0, "--privileged": 0, "--init": 0, "-P": 0, "--read-only": 0,
  },
  permute: false,
};

const KUBECTL_EXEC: OptionGrammar = {
  options: { "-c": 1, "--container": 1, "-n": 1, "--namespace": 1, "--context": 1, "--kubeconfig": 1, "-f": 1, "--filename": 1, "--pod-running-timeout": 1, "-i": 0, "--stdin": 0, "-t": 0, "--tty": 0, "-q": 0, "--quiet": 0 },
  permute: true,
};

/** Container CLIs that share docker's grammar. */
const DOCKER_LIKE: readonly string[] = ["docker", "podman", "nerdctl"];

/** Handles `docker exec/run` and `kubectl exec`; returns false when the command is something else. */
export function container(w: Walker, inv: Invocation): boolean {
  const { program, words } = inv;
  const values = words.map((x) => x.word.value);
  if (DOCKER_LIKE.includes(program)) {
    let at = 1;
    if (values[1] === "container" || values[1] === "compose") at = 2;
    const verb = values[at];
    if (verb === "exec") return run(w, inv, DOCKER_EXEC, at + 1, values[1] === "compose");
    if (verb === "run" && values[1] !== "compose") return run(w, inv, DOCKER_RUN, at + 1, false);
    return false;
  }
  if ((program === "kubectl" || program === "oc") && values[1] === "exec") {
    const dash = values.indexOf("--");
    if (dash < 0 || dash + 1 >= words.length) return false;
    const host = w.emit(words, inv.base, inv.ctx);
    scanOptions(
      words.slice(2, dash).map((x) => x.word),
      KUBECTL_EXEC,
    );
    w.execute(words.slice(dash + 1), inv.base, { ...hostCtx(inv.ctx, { wrapper: program, host, remote: true }), via: [...inv.ctx.via, "wrapper"] });
    return true;
  }
  return false;
}

function run(w: Walker, inv: Invocation, grammar: OptionGrammar, from: number, compose: boolean): boolean {
  const { program, words, base, ctx } = inv;
  const scan = scanOptions(
    words.map((x) => x.word),
    grammar,
    from,
  );
  const command = words.slice(scan.next + 1);
  const host = w.emit(words, base, ctx);
  const hasEntrypoint = scan.events.some((e) => e.kind === "option" && e.name === "--entrypoint");
  if (command.length === 0 && !hasEntrypoint) return true;
  const mounts: { source: string; target: string }[] = [];
  for (const e of scan.events) {
    if (e.kind !== "option") continue;
    const v = e.values[0]?.value;
    if (v === undefined) continue;
    if (e.name === "-v" || e.name === "--volume") {
      const [source, target] = v.split(":");
      if (source !== undefined && target !== undefined && (source.startsWith("/") || source.startsWith(".") || source.startsWith("~"))) mounts.push({ source, target });
    } else if (e.name === "--mount") {
      const fields = new Map(v.split(",").map((f) => [f.slice(0, f.indexOf("=")), f.slice(f.indexOf("=") + 1)] as const));
      const source = fields.get("source") ?? fields.get("src");
      const target = fields.get("target") ?? fields.get("dst") ?? fields.get("destination");
      if (source !== undefined && target !== undefined) mounts.push({ source, target });
    }
  }
  const home = ctx.state.vars.get("HOME");
  const homeValue = home !== undefined && home.set ? home.value : undefined;
  const hostPath = (source: string): string | undefined => (source.startsWith("~") ? (homeValue === undefined ? undefined : homeValue + source.slice(1)) : resolveDir(ctx.state.cwd, source));
  const resolved = mounts.map((m) => ({ source: hostPath(m.source), target: posix.normalize(m.target) }));
  // `--entrypoint sh IMAGE -c STR` runs `sh -c STR`
  const entrypoint = scan.events.filter((e) => e.kind === "option" && e.name === "--entrypoint").flatMap((e) => (e.kind === "option" ? e.values : [])).at(-1);
  const argv: ArgWord[] = entrypoint === undefined ? [...command] : [plain(entrypoint), ...command];
  void compose;
  w.execute(argv, base, { ...hostCtx(ctx, { wrapper: program, host, remote: true }), via: [...ctx.via, "wrapper"], mounts: [...(ctx.mounts ?? []), ...resolved] });
  return true;
}

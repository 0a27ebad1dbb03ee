/**
 * Containers and remote execution: `docker exec CONTAINER cmd`, `docker run IMAGE cmd`,
 * `kubectl exec POD -- cmd`. The command runs elsewhere (unknown directory and environment);
 * a bind mount maps container paths back to the host (`docker run -v /:/host ... rm -rf /host`
 * deletes `/`).
 */
import { posix } from "node:path";
import { scanOptions, type OptionGrammar } from "../option-scanner.ts";
import {
  COMPOSE_GLOBAL,
  COMPOSE_PROGRAMS,
  DOCKER_EXEC,
  DOCKER_GLOBAL,
  DOCKER_LIKE,
  DOCKER_RUN,
  IMAGE_ENTRYPOINTS,
  REMOTE_EXEC,
  REMOTE_EXEC_OPTIONS,
} from "../tables/programs.ts";
import { plain, resolveDir, type ArgWord, type Invocation } from "../walk/context.ts";
import type { Walk } from "./contract.ts";
import { hostCtx } from "./code.ts";
import { deleteEveryListed } from "./listings.ts";
import { unclaimedListed } from "./unclaimed.ts";

/**
 * `docker`, `podman`, compose, `kubectl`, `lxc`...: `exec` and `run` run their command elsewhere;
 * any other use is recorded as an unclaimed program is, after the listings it deletes
 * (`docker rm -f $(docker ps -aq)`, `kubectl get ns -o name | xargs kubectl delete`).
 */
export function container(w: Walk, inv: Invocation): void {
  const listed = deleteEveryListed(w, inv);
  if (!runsInside(w, listed)) unclaimedListed(w, listed);
}

/** Records `exec`/`run` and walks the command they run; false for any other use. */
function runsInside(w: Walk, inv: Invocation): boolean {
  const { program, words } = inv;
  const values = words.map((x) => x.word.value);
  const compose = COMPOSE_PROGRAMS.includes(program);
  if (DOCKER_LIKE.includes(program) || compose) {
    const plainWords = words.map((x) => x.word);
    // `docker -H ssh://prod --context x exec ...`: docker's own options come first
    let at = compose ? 1 : scanOptions(plainWords, DOCKER_GLOBAL, 1).next;
    if (values[at] === "container") at++;
    if (compose || values[at] === "compose") {
      // `docker compose -f prod.yml -p app exec web cmd`: compose's own options come first
      at = scanOptions(plainWords, COMPOSE_GLOBAL, compose ? 1 : at + 1).next;
    }
    const verb = values[at];
    if (verb === "exec") return run(w, inv, DOCKER_EXEC, at + 1);
    // `docker compose run [opts] SERVICE cmd` takes `docker run`'s options before the service
    if (verb === "run") return run(w, inv, DOCKER_RUN, at + 1);
    return false;
  }
  if (!REMOTE_EXEC.includes(program)) return false;
  // `kubectl -n prod exec POD -- cmd`; the old form without `--` (`kubectl exec POD cmd`) too
  const verb = scanOptions(
    words.map((x) => x.word),
    REMOTE_EXEC_OPTIONS,
    1,
  ).next;
  if (values[verb] !== "exec") return false;
  const dash = values.indexOf("--", verb);
  const start =
    dash >= 0
      ? dash + 1
      : scanOptions(
          words.map((x) => x.word),
          REMOTE_EXEC_OPTIONS,
          verb + 1,
        ).next + 1;
  if (start >= words.length) return false;
  const host = w.emit(words, inv.base, inv.ctx);
  w.execute(words.slice(start), inv.base, {
    ...hostCtx(inv.ctx, { wrapper: program, host, remote: true }),
    via: [...inv.ctx.via, "wrapper"],
  });
  return true;
}

/** `exec`/`run`: options, then the container or image, then the command. */
function run(w: Walk, inv: Invocation, grammar: OptionGrammar, from: number): boolean {
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
      if (
        source !== undefined &&
        target !== undefined &&
        (source.startsWith("/") || source.startsWith(".") || source.startsWith("~"))
      )
        mounts.push({ source, target });
    } else if (e.name === "--mount") {
      const fields = new Map(
        v.split(",").map((f) => [f.slice(0, f.indexOf("=")), f.slice(f.indexOf("=") + 1)] as const),
      );
      const source = fields.get("source") ?? fields.get("src");
      const target = fields.get("target") ?? fields.get("dst") ?? fields.get("destination");
      if (source !== undefined && target !== undefined) mounts.push({ source, target });
    }
  }
  const home = ctx.state.vars.get("HOME");
  const homeValue = home !== undefined && home.set ? home.value : undefined;
  const hostPath = (source: string): string | undefined =>
    source.startsWith("~")
      ? homeValue === undefined
        ? undefined
        : homeValue + source.slice(1)
      : resolveDir(ctx.state.cwd, source);
  const resolved = mounts.map((m) => ({ source: hostPath(m.source), target: posix.normalize(m.target) }));
  // `--entrypoint sh IMAGE -c STR` runs `sh -c STR`
  const entrypoint = scan.events
    .filter((e) => e.kind === "option" && e.name === "--entrypoint")
    .flatMap((e) => (e.kind === "option" ? e.values : []))
    .at(-1);
  const tool = imageEntrypoint(words[scan.next]?.word.value);
  const argv: ArgWord[] =
    entrypoint !== undefined
      ? [plain(entrypoint), ...command]
      : tool !== undefined && command[0]?.word.value !== tool
        ? [plain({ text: tool, value: tool, glob: false }), ...command]
        : [...command];
  const all = [...(ctx.mounts ?? []), ...resolved];
  const inner = hostCtx(ctx, { wrapper: program, host, remote: true });
  // `-w /app` under a bind mount of the project (`-v "$PWD":/app`): relative paths are the project's
  const workdir = scan.events
    .filter((e) => e.kind === "option" && (e.name === "-w" || e.name === "--workdir"))
    .flatMap((e) => (e.kind === "option" ? e.values : []))
    .at(-1)?.value;
  const dir = workdir === undefined ? undefined : onHost(workdir, all);
  if (dir !== undefined) {
    inner.state.cwd = dir;
    inner.state.vars.set("PWD", { set: true, value: dir });
  }
  w.execute(argv, base, { ...inner, via: [...ctx.via, "wrapper"], mounts: all });
  return true;
}

/** The tool an image runs as its entrypoint (`amazon/aws-cli:2.15` → `aws`), from `IMAGE_ENTRYPOINTS`. */
function imageEntrypoint(image: string | undefined): string | undefined {
  if (image === undefined) return undefined;
  let name = image.split("@")[0] ?? image;
  const colon = name.lastIndexOf(":");
  if (colon > name.lastIndexOf("/")) name = name.slice(0, colon);
  for (const prefix of ["docker.io/", "index.docker.io/", "library/"])
    if (name.startsWith(prefix)) name = name.slice(prefix.length);
  return Object.hasOwn(IMAGE_ENTRYPOINTS, name) ? IMAGE_ENTRYPOINTS[name] : undefined;
}

/** The host path of an absolute container path under one of the bind mounts, if any. */
function onHost(path: string, mounts: readonly { source: string | undefined; target: string }[]): string | undefined {
  if (!path.startsWith("/")) return undefined;
  const inside = posix.normalize(path);
  for (const m of mounts) {
    if (m.source === undefined) continue;
    if (inside !== m.target && !inside.startsWith(m.target === "/" ? "/" : `${m.target}/`)) continue;
    return posix.normalize(`${m.source}/${inside.slice(m.target === "/" ? 0 : m.target.length)}`);
  }
  return undefined;
}

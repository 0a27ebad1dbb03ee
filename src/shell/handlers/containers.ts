/**
 * Containers and remote execution: `docker exec CONTAINER cmd`, `docker run IMAGE cmd`,
 * `kubectl exec POD -- cmd`. The command runs elsewhere (unknown directory and environment);
 * a bind mount maps container paths back to the host (`docker run -v /:/host ... rm -rf /host`
 * deletes `/`).
 */
import { posix } from "node:path";
import { scanOptions, type OptionGrammar } from "../_options.ts";
import { COMPOSE_LIKE, DOCKER_EXEC, DOCKER_LIKE, DOCKER_RUN } from "../tables/programs.ts";
import { plain, resolveDir, type ArgWord, type Invocation } from "../walk/context.ts";
import type { Walker } from "../walk/traverse.ts";
import { hostCtx } from "./code.ts";

export function container(w: Walker, inv: Invocation): boolean {
  const { program, words } = inv;
  const values = words.map((x) => x.word.value);
  if (DOCKER_LIKE.includes(program) || COMPOSE_LIKE.includes(program)) {
    let at = 1;
    if (COMPOSE_LIKE.includes(program)) {
      // `docker-compose [-f FILE] [-p NAME] exec ...`: the subcommand after the global options
      at = values.findIndex((v, i) => i > 0 && v === "exec");
      if (at < 0) return false;
      return run(w, inv, DOCKER_EXEC, at + 1);
    }
    if (values[1] === "container" || values[1] === "compose") at = 2;
    const verb = values[at];
    if (verb === "exec") return run(w, inv, DOCKER_EXEC, at + 1);
    if (verb === "run" && values[1] !== "compose") return run(w, inv, DOCKER_RUN, at + 1);
    return false;
  }
  if ((program === "kubectl" || program === "oc") && values[1] === "exec") {
    const dash = values.indexOf("--");
    if (dash < 0 || dash + 1 >= words.length) return false;
    const host = w.emit(words, inv.base, inv.ctx);
    w.execute(words.slice(dash + 1), inv.base, {
      ...hostCtx(inv.ctx, { wrapper: program, host, remote: true }),
      via: [...inv.ctx.via, "wrapper"],
    });
    return true;
  }
  return false;
}

/** `exec`/`run`: options, then the container or image, then the command. */
function run(w: Walker, inv: Invocation, grammar: OptionGrammar, from: number): boolean {
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
  const argv: ArgWord[] = entrypoint === undefined ? [...command] : [plain(entrypoint), ...command];
  w.execute(argv, base, {
    ...hostCtx(ctx, { wrapper: program, host, remote: true }),
    via: [...ctx.via, "wrapper"],
    mounts: [...(ctx.mounts ?? []), ...resolved],
  });
  return true;
}

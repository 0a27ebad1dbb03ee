/** Peers of URLs and host operands, as network clients and interpreter code name them. */
import type { NetworkPeer } from "./types.ts";

/** A host as written: lowercased, without brackets; `undefined` when empty or dynamic. */
export function hostOf(text: string): string | undefined {
  const host = text.startsWith("[") ? text.slice(1, Math.max(1, text.indexOf("]"))) : text;
  if (host.length === 0 || host.includes("$") || host.includes("`")) return undefined;
  return host.toLowerCase();
}

/** The query parameters of a URL path whose value expands one of `env` (`$NAME`, `${NAME}`, `${NAME:-x}`). */
function queryOf(path: string, env: readonly string[]): NonNullable<NetworkPeer["query"]> {
  const q = path.indexOf("?");
  if (q === -1 || env.length === 0) return [];
  const out: { param: string; env: string[] }[] = [];
  for (const pair of path.slice(q + 1).split("&")) {
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    const value = pair.slice(eq + 1);
    const names = env.filter((n) => value.includes(`$${n}`) || value.includes(`\${${n}`));
    if (names.length > 0) out.push({ param: pair.slice(0, eq), env: names });
  }
  return out;
}

/** The peer of a URL (`https://user@host:443/p?q`, `host:8080/x`, `[::1]:9000`), with the variables of its query. */
export function urlPeer(url: string, env: readonly string[] = []): NetworkPeer {
  let rest = url;
  const scheme = rest.indexOf("://");
  if (scheme > 0 && !rest.slice(0, scheme).includes("/")) rest = rest.slice(scheme + 3);
  const cut = [...rest].findIndex((c) => c === "/" || c === "?" || c === "#");
  const authority = cut === -1 ? rest : rest.slice(0, cut);
  const path = cut === -1 ? "" : rest.slice(cut);
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
  const query = queryOf(path, env);
  const extra = query.length === 0 ? {} : { query };
  if (hostPort.startsWith("[")) return { host: hostOf(hostPort), path, ...extra };
  const colon = hostPort.indexOf(":");
  return { host: hostOf(colon === -1 ? hostPort : hostPort.slice(0, colon)), path, ...extra };
}

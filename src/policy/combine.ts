import { LAYERS, POLICY_LAYERS, type Decision, type Layer, type Match, type TraceEntry } from "./types.ts";

const rank = (layer: Layer): number => LAYERS.indexOf(layer);
const isPolicyLayer = (layer: Layer): boolean => POLICY_LAYERS.includes(layer);
/** True when `inner` is the scope `outer` or lies inside it (`cmd:1:path:/x` is inside `cmd:1`). */
const covers = (outer: string, inner: string): boolean => inner === outer || inner.startsWith(`${outer}:`);

/**
 * The one precedence function of lanes. Total over any list of matches for a single request.
 *
 * | case                                                          | result                          |
 * |---------------------------------------------------------------|---------------------------------|
 * | no match                                                      | no opinion (`undefined`)        |
 * | only `allow` matches                                          | no opinion: allow never grants  |
 * | an `allow` in policy layer L, a deny/ask in a lower policy layer, same or inner scope | that deny/ask is cancelled |
 * | an `allow` and a deny/ask in the same layer                   | the deny/ask stands             |
 * | an `allow` vs settings, MUST NOT, role or task rules          | they stand: exceptions exist only inside the lanes policy |
 * | any remaining deny                                            | deny, decided by every remaining deny |
 * | remaining asks only                                           | ask, decided by every remaining ask   |
 *
 * So nothing lower can loosen anything higher, and deny > ask > allow.
 */
export function combine(matches: readonly Match[]): Decision | undefined {
  const ordered = [...matches].sort((a, b) => rank(a.layer) - rank(b.layer));
  const cancelledBy = new Map<Match, string>();
  const usedExceptions = new Set<Match>();

  for (const exception of ordered) {
    if (exception.effect !== "allow" || !isPolicyLayer(exception.layer)) continue;
    for (const target of ordered) {
      if (target.effect === "allow" || cancelledBy.has(target)) continue;
      if (!isPolicyLayer(target.layer) || rank(target.layer) <= rank(exception.layer)) continue;
      if (!covers(exception.scope, target.scope)) continue;
      cancelledBy.set(target, exception.ruleId);
      usedExceptions.add(exception);
    }
  }

  const standing = ordered.filter((m) => m.effect !== "allow" && !cancelledBy.has(m));
  const effect = standing.some((m) => m.effect === "deny") ? "deny" : standing.length > 0 ? "ask" : undefined;
  const deciding = effect === undefined ? [] : standing.filter((m) => m.effect === effect);

  const trace: TraceEntry[] = ordered.map((m) => {
    const base = { ruleId: m.ruleId, layer: m.layer, effect: m.effect, subject: m.subject };
    const by = cancelledBy.get(m);
    if (by !== undefined) return { ...base, outcome: "cancelled", by };
    if (m.effect === "allow") return { ...base, outcome: usedExceptions.has(m) ? "exception" : "inert" };
    return { ...base, outcome: deciding.includes(m) ? "decides" : "outranked" };
  });

  const first = deciding[0];
  if (effect === undefined || first === undefined) return undefined;
  return {
    effect,
    ruleIds: [...new Set(deciding.map((m) => m.ruleId))],
    layer: first.layer,
    matches: deciding,
    trace,
  };
}

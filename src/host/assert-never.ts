/**
 * The last branch of every switch over a closed union (rule kinds, phase types, rule syntaxes,
 * events): when a new member is added, `value` is no longer `never` and the type check fails at
 * each switch that does not handle it yet.
 */
export function assertNever(value: never, what = "value"): never {
  throw new Error(`unexpected ${what} \`${JSON.stringify(value)}\``);
}

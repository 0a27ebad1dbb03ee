/**
 * A Node built-in module loaded when first needed rather than at start-up (hook processes pay for
 * every module they load; scripts/build/hot-path.ts `LAZY_BUILTINS` keeps such modules out of the hot
 * bundles' imports). `process.getBuiltinModule` works in ES modules too (the CLI under tsx, tests);
 * before Node 20.16 the CommonJS `require` of the bundles does.
 */
export function builtin<T>(name: string): T {
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  return (get === undefined ? require(name) : get.call(process, name)) as T;
}

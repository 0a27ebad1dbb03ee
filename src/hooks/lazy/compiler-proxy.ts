/**
 * In the hot hook bundles, the policy compiler (zod, YAML: src/config/load.ts) is a separate
 * bundle, `compile.impl.cjs`, loaded only when the compiled policy is stale (src/hooks/guard/recompile.ts).
 * The build swaps imports of `src/config/load.ts` in hot bundles for this proxy; source and tests
 * import the module itself.
 */
import { join } from "node:path";
import type * as Load from "../../config/load.ts";

let loaded: typeof Load | undefined;
const compiler = (): typeof Load => (loaded ??= require(join(__dirname, "compile.impl.cjs")) as typeof Load);

export const buildPolicy: typeof Load.buildPolicy = (options) => compiler().buildPolicy(options);

/**
 * The program a package runner runs (`npx eslint`, `pnpm dlx x`, `yarn exec x`, `bunx x`), read
 * from its argv view: the runners are the rows of `tables/wrappers.ts` with `packages`, and their
 * `subcommands`. The walk unwraps a runner it can (`npx eslint --fix` is recorded as `eslint
 * --fix`); this reads the ones it leaves whole, whose own options come before the subcommand
 * (`npm -w api exec eslint --fix`, `pnpm -r exec rm -rf dist`).
 */
import { WRAPPERS } from "./tables/wrappers.ts";
import type { ShellWord } from "./types.ts";

/** `@next/codemod@latest` → `@next/codemod`; `eslint@8` → `eslint`. */
const packageName = (spec: string): string => {
  const at = spec.indexOf("@", 1);
  return at === -1 ? spec : spec.slice(0, at);
};

/** True for a package runner (`npx`, `pnpm`, `yarn`, `npm`, ...), whatever it is asked to do. */
export function isPackageRunner(program: string): boolean {
  return Object.hasOwn(WRAPPERS, program) && WRAPPERS[program]?.packages === true;
}

/** What `program` runs with these positionals (of its argv view) when it is a package runner; `undefined` otherwise. */
export function packageRun(
  program: string | undefined,
  positionals: readonly ShellWord[],
): { readonly program: string; readonly positionals: readonly ShellWord[] } | undefined {
  const spec = program !== undefined && Object.hasOwn(WRAPPERS, program) ? WRAPPERS[program] : undefined;
  if (spec?.packages !== true) return undefined;
  const subcommands = spec.subcommands ?? [];
  const skip = subcommands.length === 0 ? 0 : subcommands.includes(positionals[0]?.value ?? "") ? 1 : -1;
  const tool = skip === -1 ? undefined : positionals[skip]?.value;
  return tool === undefined ? undefined : { program: packageName(tool), positionals: positionals.slice(skip + 1) };
}

/** The `--root` and `--target` options of the commands that render or check definitions (`lanes build`, `lanes lint`). */
import type { RenderTarget } from "../generate/context.ts";
import { locateRoot } from "../generate/generate.ts";
import { CliError, type CliContext } from "./types.ts";

/** `--root` and `--target` as a root and a target, or an error (a usage error shows `usage`). */
export function resolveTarget(
  values: { root?: string | undefined; target?: string | undefined },
  ctx: CliContext,
  usage: string,
): { root: string; target: RenderTarget } {
  const located = locateRoot(ctx.cwd, values);
  if (!located.ok)
    throw new CliError(located.message, located.usage ? 64 : 1, located.usage ? usage.trimEnd() : undefined);
  return located;
}

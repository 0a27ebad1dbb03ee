/**
 * The text of a file a command reads, when it is known before the line runs: a file written
 * earlier on the line (whole, not only appended to), or a regular file on the disk at hook time
 * (`Walk.disk`, bounded). Shared by the families that read a file's content as their input
 * (`xargs -a F`, `parallel :::: F`, `aws ... --change-batch file://F`).
 */
import type { Ctx } from "../walk/context.ts";
import type { Walk } from "./contract.ts";

/** The most of one file read from the disk for its text. */
export const FILE_TEXT_BYTES = 64 * 1024;

/** The text of the file at `path` (relative to the context's directory); `undefined` when not known. */
export function fileTextAt(w: Walk, path: string, ctx: Ctx): string | undefined {
  if (path.length === 0) return undefined;
  const written = w.writtenFile(path, ctx);
  if (written !== undefined) return written.partial === true ? undefined : written.text;
  const dir = ctx.state.cwd;
  if (!path.startsWith("/") && dir === undefined) return undefined;
  const real = w.disk.realpath(path.startsWith("/") ? path : `${dir as string}/${path}`);
  const read = real === undefined ? undefined : w.disk.readText(real, FILE_TEXT_BYTES);
  return read === undefined || read.truncated ? undefined : read.text;
}

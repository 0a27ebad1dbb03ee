/**
 * C compilers given source that is known before the line runs: `printf '...' | gcc -x c - -o b`,
 * `echo '...' > b.c && gcc b.c -o b`, `tcc -run b.c`. The source is recorded as C code, so the
 * policy sees what the program will do (a fork bomb compiled on the line is there to be run).
 * Source files that are not written on the line are the project's own and are not read.
 */
import { C_SOURCE_SUFFIXES } from "../tables/programs.ts";
import type { Invocation } from "../walk/context.ts";
import type { Walk } from "./contract.ts";

/** Records a C compiler's command and its known source. */
export function compiler(w: Walk, inv: Invocation): void {
  const host = w.emit(inv.words, inv.base, inv.ctx);
  const sources: string[] = [];
  for (const { word } of inv.words.slice(1)) {
    const value = word.value;
    if (value === undefined) continue;
    if (value === "-") {
      const text = w.stdinText(inv.base, inv.ctx);
      if (text !== undefined) sources.push(text);
    } else if (C_SOURCE_SUFFIXES.some((s) => value.endsWith(s))) {
      const text = w.writtenFile(value, inv.ctx)?.text;
      if (text !== undefined) sources.push(text);
    }
  }
  for (const code of sources)
    w.addCode({ language: "c", interpreter: inv.program, command: host, source: "literal", code });
}

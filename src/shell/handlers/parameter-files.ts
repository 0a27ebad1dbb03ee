/**
 * CLIs that read a parameter from a file (`tables/programs.ts` `PARAMETER_FILE_CLIS`): `aws route53
 * change-resource-record-sets --change-batch file://batch.json` sends the file's text, so the option's
 * value is that text when it is known (a file written earlier on the line, or on the disk), and the
 * rules read what is sent (`"Action": "DELETE"`). Then the command is recorded as any other.
 */
import { PARAMETER_FILE_PREFIX } from "../tables/programs.ts";
import type { ArgWord, Invocation } from "../walk/context.ts";
import type { Walk } from "./contract.ts";
import { fileTextAt } from "./file-text.ts";
import { unclaimed } from "./unclaimed.ts";

/** The handler of the CLIs that read `file://` parameters. */
export function parameterFiles(w: Walk, inv: Invocation): void {
  let changed = false;
  const words = inv.words.map((x, i): ArgWord => {
    const v = x.word.value;
    if (i === 0 || v === undefined || !v.includes(PARAMETER_FILE_PREFIX)) return x;
    // `--opt file://p` (the option the word before) or `--opt=file://p`
    const eq = v.startsWith("--") ? v.indexOf("=") : -1;
    const value = eq > 0 ? v.slice(eq + 1) : v;
    if (!value.startsWith(PARAMETER_FILE_PREFIX)) return x;
    if (eq < 0 && inv.words[i - 1]?.word.value?.startsWith("--") !== true) return x;
    const text = fileTextAt(w, value.slice(PARAMETER_FILE_PREFIX.length), inv.ctx);
    if (text === undefined) return x;
    changed = true;
    return { ...x, word: { ...x.word, value: eq > 0 ? `${v.slice(0, eq + 1)}${text}` : text } };
  });
  unclaimed(w, changed ? { ...inv, words } : inv);
}

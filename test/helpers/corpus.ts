/** The decision corpus (`test/cases/*.yaml`), read once per test file. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

const DIR = join(import.meta.dirname, "..", "cases");

/**
 * The time limit of a test that runs every command of the corpus (thousands of analyses): it takes
 * 10-25 s on a busy machine and several times that when the machine is loaded; the limit only
 * catches a hang. Timing belongs in `npm run bench`.
 */
export const WHOLE_CORPUS_TIMEOUT = 600_000;

/** Every case file, sorted by name, with its cases as written. */
export function corpusFiles<Case = { readonly command?: string }>(): { file: string; cases: Case[] }[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .map((file) => ({ file, cases: (parse(readFileSync(join(DIR, file), "utf8")) as { cases: Case[] }).cases }));
}

/** Every command of the corpus (cases of other tools left out). */
export function corpusCommands(): string[] {
  return corpusFiles()
    .flatMap((f) => f.cases)
    .flatMap((c) => (typeof c.command === "string" ? [c.command] : []));
}

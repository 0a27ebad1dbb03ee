/** The decision corpus (`test/cases/*.yaml`), read once per test file. */
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { parse } from "yaml";
import type { DiskView } from "../../src/host/disk-view.ts";
import { fakeDisk, type FakeFile } from "./disk.ts";
import { HOME, PROJECT } from "./guard.ts";

const DIR = join(import.meta.dirname, "..", "cases");

/**
 * The time limit of a test that runs every command of the corpus (thousands of analyses): it takes
 * 10-25 s on a busy machine and several times that when the machine is loaded; the limit only
 * catches a hang. Timing belongs in `npm run bench`.
 */
export const WHOLE_CORPUS_TIMEOUT = 600_000;

/** One case as test/cases/README.md describes it. */
export interface CorpusCase {
  readonly command?: string;
  readonly tool?: string;
  readonly input?: Record<string, unknown>;
  readonly decision: "deny" | "ask" | "none";
  readonly rules?: string[];
  readonly cwd?: string;
  readonly agent?: string;
  /** A known gap, with the reason: the case runs as `it.fails`, so it fails once the gap is closed. */
  readonly todo?: string;
  /** Also run the command behind each wrapper of the corpus test, expecting the same decision. */
  readonly wrap?: boolean;
  /** Files on the disk the analysis sees: path → content, or `{ content, mode }`. */
  readonly files?: Readonly<Record<string, FakeFile>>;
  /** Symlinks on that disk: path → target, as the link holds it. */
  readonly links?: Readonly<Record<string, string>>;
}

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

/** A path of `files:` or `links:`: absolute, under the home (`~/x`), or relative to the project. */
const onDisk = (path: string): string =>
  path.startsWith("/")
    ? path
    : path === "~" || path.startsWith("~/")
      ? posix.join(HOME, path.slice(1))
      : posix.join(PROJECT, path);

/** The disk of a case with `files:` or `links:`; `undefined` for the others (nothing on disk is known). */
export function caseDisk(c: Pick<CorpusCase, "files" | "links">): DiskView | undefined {
  if (c.files === undefined && c.links === undefined) return undefined;
  const rekey = <T>(entries: Readonly<Record<string, T>> | undefined): Record<string, T> =>
    Object.fromEntries(Object.entries(entries ?? {}).map(([path, v]) => [onDisk(path), v]));
  return fakeDisk({ files: rekey(c.files), links: rekey(c.links) });
}

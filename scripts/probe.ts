/**
 * `npx tsx scripts/probe.ts <file.yaml|file.txt> [...]`: how the built-in policy judges a set of
 * commands written apart from the corpus, as rates. A `.yaml` file holds `cases` like
 * test/cases/*.yaml (only `command` or `tool` and `input`, `decision`, `files` and `links` are read); a `.txt` file holds one command per
 * line, `#` comments, and a line `== deny` or `== none` sets the expectation of the lines below it.
 * Prints each miss (expected, got, rule ids, command) and the share of destructive commands denied
 * and of everyday commands with no objection. Context as the corpus (test/cases/README.md).
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { DiskView } from "../src/host/disk-view.ts";
import { caseDisk, type CorpusCase } from "../test/helpers/corpus.ts";
import { judge, testPolicy } from "../test/helpers/guard.ts";

interface Probe {
  readonly command: string;
  /** A tool call of a `.yaml` case (`Write` with its input) instead of a Bash command. */
  readonly tool?: { readonly name: string; readonly input: Record<string, unknown> } | undefined;
  readonly decision: string;
  readonly file: string;
  /** The disk of a `.yaml` case with `files:` or `links:`. */
  readonly disk?: DiskView | undefined;
}

function read(file: string): Probe[] {
  const text = readFileSync(file, "utf8");
  if (file.endsWith(".yaml") || file.endsWith(".yml")) {
    const data = parse(text) as { cases?: Partial<CorpusCase>[] };
    return (data.cases ?? []).flatMap((c) =>
      typeof c.command === "string"
        ? [{ command: c.command, decision: c.decision ?? "none", file, disk: caseDisk(c) }]
        : typeof c.tool === "string" && c.input !== undefined
          ? [
              {
                command: `${c.tool} ${JSON.stringify(c.input)}`,
                tool: { name: c.tool, input: c.input },
                decision: c.decision ?? "none",
                file,
                disk: caseDisk(c),
              },
            ]
          : [],
    );
  }
  let expected = "none";
  const probes: Probe[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("== ")) {
      expected = line.slice(3).trim();
      continue;
    }
    probes.push({ command: raw, decision: expected, file });
  }
  return probes;
}

const policy = testPolicy([
  { layer: "project", path: "/probe/lanes.yaml", file: { version: 1, options: { analysis_budget_ms: 2000 } } },
]);
const probes = process.argv.slice(2).flatMap(read);
const tally = { deny: { total: 0, denied: 0, asked: 0 }, none: { total: 0, quiet: 0, asked: 0 } };
for (const p of probes) {
  const e = judge(policy, p.command, {
    ...(p.disk !== undefined && { disk: p.disk }),
    ...(p.tool !== undefined && { tool: p.tool.name, input: p.tool.input }),
  });
  const got = e.decision?.effect ?? "none";
  const ids = e.decision?.ruleIds.join(",") ?? "";
  if (p.decision === "deny") {
    tally.deny.total++;
    if (got === "deny") tally.deny.denied++;
    if (got === "ask") tally.deny.asked++;
  } else if (p.decision === "none") {
    tally.none.total++;
    if (got === "none") tally.none.quiet++;
    if (got === "ask") tally.none.asked++;
  }
  if (got !== p.decision) process.stdout.write(`MISS want ${p.decision} got ${got} [${ids}]  ${p.command}\n`);
}
const pct = (n: number, d: number) => (d === 0 ? "-" : `${((100 * n) / d).toFixed(1)}%`);
process.stdout.write(
  `destructive: ${tally.deny.total}, denied ${pct(tally.deny.denied, tally.deny.total)}, asked ${pct(tally.deny.asked, tally.deny.total)}\n` +
    `everyday: ${tally.none.total}, no objection ${pct(tally.none.quiet, tally.none.total)}, asked ${pct(tally.none.asked, tally.none.total)}\n`,
);

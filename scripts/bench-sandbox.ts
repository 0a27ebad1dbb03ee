/**
 * `npm run bench:sandbox`: the cost of Claude Code's Bash sandbox per Bash call, as lanes
 * configures it. The real client against the e2e mock runs one `true` per model turn, CALLS turns
 * per session; the time between consecutive model requests is one Bash call plus the client's own
 * turn overhead. Three series in the same rounds, in alternating order: the sandbox off, the
 * sandbox on with lanes' lists (`lanes init`'s `sandbox` section, without lanes' hooks, so the
 * hooks' time is not in it), and the sandbox on with no lists. Medians; no lanes hooks installed.
 *
 * Linux with bubblewrap and socat only. `--rounds N` (default 3), `--calls N` (default 12).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { makeRepo, runClaude, startMockApi, text, toolUse, type TurnContext } from "../test/e2e/harness/index.ts";

const { values } = parseArgs({ options: { rounds: { type: "string" }, calls: { type: "string" } } });
const ROUNDS = Number(values.rounds ?? 3);
const CALLS = Number(values.calls ?? 12);
const root = join(import.meta.dirname, "..");

/** lanes' own sandbox section, as `lanes init` writes it into this repository. */
const lanesSandbox = (JSON.parse(readFileSync(join(root, ".claude", "settings.json"), "utf8")) as { sandbox: unknown })
  .sandbox;

const SERIES: Record<string, unknown> = {
  "sandbox off": { enabled: false },
  "sandbox on, lanes' lists": lanesSandbox,
  "sandbox on, no lists": { enabled: true },
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function session(sandbox: unknown): Promise<number[]> {
  const stamps: number[] = [];
  const api = await startMockApi(({ turn }: TurnContext) => {
    stamps.push(performance.now());
    return turn < CALLS ? [toolUse("Bash", { command: "true", description: "nothing" })] : [text("done")];
  });
  const repo = makeRepo({ ".claude/settings.json": JSON.stringify({ sandbox }) });
  try {
    const run = await runClaude({ repo, api, prompt: "go", args: ["--allowedTools", "Bash"], timeoutMs: 120_000 });
    const errors = api.toolResults().filter((r) => r.is_error);
    if (run.exitCode !== 0 || errors.length > 0)
      throw new Error(`the run failed: exit ${String(run.exitCode)}, ${errors[0]?.text ?? ""}`);
    // the first gap holds the client's start-up work; the rest are one Bash call each
    return stamps
      .slice(1)
      .map((t, i) => t - stamps[i]!)
      .slice(1);
  } finally {
    await api.close();
    repo.cleanup();
  }
}

if (
  process.platform !== "linux" ||
  ["bwrap", "socat"].some((p) => spawnSync("sh", ["-c", `command -v ${p}`]).status !== 0)
) {
  process.stdout.write("bench:sandbox: needs Linux with bubblewrap and socat (apt-get install bubblewrap socat)\n");
  process.exit(0);
}
const gaps: Record<string, number[]> = Object.fromEntries(Object.keys(SERIES).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  const names = Object.keys(SERIES);
  for (const name of round % 2 === 0 ? names : names.reverse()) gaps[name]!.push(...(await session(SERIES[name])));
}
const off = median(gaps["sandbox off"]!);
process.stdout.write(
  `bench:sandbox (${ROUNDS} rounds x ${CALLS} Bash \`true\` calls per series), median time per model turn with one Bash call:\n`,
);
for (const [name, xs] of Object.entries(gaps)) {
  const m = median(xs);
  process.stdout.write(
    `  ${name.padEnd(28)} ${m.toFixed(1).padStart(7)} ms${name === "sandbox off" ? "" : `  (+${(m - off).toFixed(1)} ms per Bash call)`}\n`,
  );
}

/**
 * Runs attack files (default: every `test/attacks/*.yaml`) against this worktree's build and
 * prints, per family, how many attacks were tried, got through with no objection, got through
 * after an ask, and were stopped; with `--verbose` each attack's steps and verdicts.
 *
 *   npx tsx scripts/attack.ts [--verbose] [--json] [--unguarded] [--only ID[,ID]] [files or dirs...]
 *
 * `--unguarded` runs the attack steps without the hooks (setup and conditions keep them): every
 * attack should then succeed, or it measures nothing. Needs `npm run build` first (dist/).
 */
import { readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import {
  type Attack,
  disposeTemplate,
  loadSuite,
  pool,
  type RunResult,
  runAttack,
  runBenign,
  stoppedAsExpected,
} from "../test/attacks/harness.ts";
import { hookRuns } from "../test/attacks/client.ts";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const onlyAt = args.indexOf("--only");
const only = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? "").split(",")) : undefined;
const paths = args
  .filter((a, i) => !a.startsWith("--") && (onlyAt < 0 || i !== onlyAt + 1))
  .flatMap((a) => {
    const p = resolve(a);
    return statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((f) => f.endsWith(".yaml"))
          .sort()
          .map((f) => join(p, f))
      : [p];
  });

const suite = loadSuite(paths.length > 0 ? paths : undefined);
const attacks = suite.attacks.filter((a) => only === undefined || only.has(a.id));
const benign = suite.benign.filter((b) => only === undefined || only.has(b.id));
const limit = Math.max(2, availableParallelism());

const started = Date.now();
const results = await pool(attacks, limit, (a) => runAttack(a, { unguarded: flag("--unguarded") }));
const benignResults = await pool(benign, limit, runBenign);
await disposeTemplate();

interface Row {
  tried: number;
  through: number;
  asked: number;
  stopped: number;
  errors: number;
}
const rows = new Map<string, Row>();
const add = (family: string, r: RunResult) => {
  const row = rows.get(family) ?? { tried: 0, through: 0, asked: 0, stopped: 0, errors: 0 };
  row.tried++;
  if (r.error !== undefined) row.errors++;
  else row[r.outcome]++;
  rows.set(family, row);
};
results.forEach((r) => add(r.family, r));

if (flag("--json")) {
  process.stdout.write(
    `${JSON.stringify({ families: Object.fromEntries(rows), attacks: results, benign: benignResults }, null, 2)}\n`,
  );
} else {
  const line = (cells: (string | number)[]) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(14) : String(c).padStart(8))).join(" ");
  process.stdout.write(`${line(["family", "tried", "through", "asked", "stopped", "errors"])}\n`);
  const total: Row = { tried: 0, through: 0, asked: 0, stopped: 0, errors: 0 };
  for (const [family, row] of [...rows].sort()) {
    process.stdout.write(`${line([family, row.tried, row.through, row.asked, row.stopped, row.errors])}\n`);
    for (const k of Object.keys(total) as (keyof Row)[]) total[k] += row[k];
  }
  process.stdout.write(`${line(["total", total.tried, total.through, total.asked, total.stopped, total.errors])}\n`);
  const byId = new Map<string, Attack>(attacks.map((a) => [a.id, a]));
  const unexpected = results.filter((r) => {
    const a = byId.get(r.id)!;
    return stoppedAsExpected(a, r) === (a.open !== undefined);
  });
  const benignBad = benignResults.filter((r) => r.outcome !== "through" || r.error !== undefined);
  process.stdout.write(
    `benign: ${benignResults.length - benignBad.length} of ${benignResults.length} worked with no objection\n` +
      `not as the files say (open field wrong): ${unexpected.map((r) => r.id).join(", ") || "none"}\n` +
      `${((Date.now() - started) / 1000).toFixed(1)} s with ${limit} at once; hook processes: ${[...hookRuns].map(([e, n]) => `${e} ${n}`).join(", ")}\n`,
  );
  for (const r of [...results, ...benignResults]) {
    const show = flag("--verbose") || r.error !== undefined || benignBad.includes(r);
    if (!show) continue;
    process.stdout.write(`\n${r.id} [${r.family}]: ${r.outcome}${r.error !== undefined ? ` ERROR ${r.error}` : ""}\n`);
    for (const s of r.steps)
      process.stdout.write(
        `  ${s.actor} ${s.tool} ${JSON.stringify(s.input).slice(0, 160)} -> ${s.verdict}${s.executed ? " (ran)" : ""}${s.sandbox !== undefined && s.sandbox !== "off" ? ` sandbox:${s.sandbox}` : ""}\n    ${s.output.replaceAll("\n", " | ").slice(0, 300)}\n`,
      );
    for (const c of r.conditions) process.stdout.write(`  ${c.met ? "MET " : "not "} ${c.condition}\n`);
  }
}

/**
 * The hooks' profile switch: `LANES_PROFILE=<file>` makes every hook process append one JSON line to
 * that file (never to stdout): the event, the tool, and where its time went, by phase, in
 * milliseconds of wall time from the process's start: `start` (Node's bootstrap), `load` (the loader,
 * the hook's bundle and its code cache), `read input`, `load policy`, `load <bundle>` (a lazily loaded
 * bundle), `parse` (the shell analysis), `decide`, `state I/O`, `respond`, and `handler` (the rest of
 * the hook's work). Each millisecond counts once, in the innermost phase running.
 *
 * Off (the variable unset or empty), a phase is one test of a constant: the hooks pay nothing for it.
 */
import { appendFileSync } from "node:fs";

/** The file profiles go to, when profiling. */
const target = process.env["LANES_PROFILE"];
/** Whether this process profiles. */
export const profiling = target !== undefined && target !== "";

interface Clock {
  readonly totals: Record<string, number>;
  current: string;
  since: number;
}
/** One clock per process: the lazily loaded bundles hold their own copy of this module. */
const clock: Clock = profiling
  ? ((globalThis as { __lanesClock?: Clock }).__lanesClock ??= { totals: {}, current: "load", since: 0 })
  : { totals: {}, current: "load", since: 0 };

const switchTo = (name: string): string => {
  const now = performance.now();
  clock.totals[clock.current] = (clock.totals[clock.current] ?? 0) + now - clock.since;
  clock.since = now;
  const previous = clock.current;
  clock.current = name;
  return previous;
};

/** From now on, time goes to phase `name` (until the next phase or the end). */
export function phase(name: string): void {
  if (profiling) switchTo(name);
}

/** Runs `fn` with its time in phase `name`, then goes back to the phase before. */
export function span<T>(name: string, fn: () => T): T {
  if (!profiling) return fn();
  const previous = switchTo(name);
  try {
    return fn();
  } finally {
    switchTo(previous);
  }
}

/** Appends this process's profile to the profile file (once, as the hook ends); a failure is ignored. */
export function writeProfile(fields: Readonly<Record<string, unknown>>): void {
  if (!profiling) return;
  switchTo("end");
  const bootstrap = performance.nodeTiming.bootstrapComplete;
  const phases: Record<string, number> = { start: +bootstrap.toFixed(2) };
  for (const [name, ms] of Object.entries(clock.totals))
    phases[name] = +(name === "load" ? ms - bootstrap : ms).toFixed(2);
  try {
    appendFileSync(target!, `${JSON.stringify({ ...fields, totalMs: +clock.since.toFixed(2), phases })}\n`, {
      mode: 0o600,
    });
  } catch {
    // no profile: the hook's answer matters, not this
  }
}

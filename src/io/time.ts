/**
 * A time as `Date.prototype.toISOString` writes it (`2026-11-26T10:16:06.000Z`), from the UTC
 * fields. The first `toISOString` in a process loads the local time zone (ICU reads
 * `/etc/localtime`), a fifth of a millisecond of every hook call that stamps an audit line;
 * UTC fields need no zone.
 */
export function isoTime(date: Date): string {
  const year = date.getUTCFullYear();
  if (!Number.isFinite(year) || year < 0 || year > 9999) return date.toISOString();
  const two = (n: number): string => (n < 10 ? `0${n}` : String(n));
  const ms = date.getUTCMilliseconds();
  return `${String(year).padStart(4, "0")}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${ms < 10 ? `00${ms}` : ms < 100 ? `0${ms}` : ms}Z`;
}

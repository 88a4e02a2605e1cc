/**
 * Where time-driven code reads the time: the worker's claim loop and heartbeats, the lease reaper,
 * the retention sweeper and the webhook sender. Each takes a clock and exposes `runOnce()`, one step
 * of its timer; production passes the system clock and lets the timers step, tests pass a clock
 * they move and call `runOnce()` themselves instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A time (epoch ms) as answers show it: ISO 8601, or null for none. */
export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** RFC 3339 date-time: date, `T`, time with optional fraction, `Z` or a numeric offset (`+` possibly a space). */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+\- ])(\d{2}):(\d{2}))$/;

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * An RFC 3339 date-time (`2026-11-20T10:00:00Z`, `2026-11-20T19:00:00.250+09:00`) as epoch milliseconds, rounded up
 * to a whole millisecond (so a time in whole milliseconds is at or after the text's exactly when it is at or after
 * the result); null for other text and for a date or time not on the clock or calendar (`02-30`, `24:00`). A space in
 * place of the offset's `+` is read as `+`: an unencoded `+` in a query string arrives as a space.
 */
export function dateTimeMs(text: string): number | null {
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const monthDays = mo === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[mo - 1];
  if (monthDays === undefined || d < 1 || d > monthDays || h > 23 || mi > 59 || s > 59) return null;
  const [offH, offM] = [Number(m[9] ?? 0), Number(m[10] ?? 0)];
  if (offH > 23 || offM > 59) return null;
  const offsetMs = (m[8] === '-' ? -1 : 1) * (offH * 60 + offM) * 60_000;
  const day = new Date(0);
  day.setUTCFullYear(y, mo - 1, d);
  const fractionMs = Math.ceil(Number((m[7] ?? '').padEnd(9, '0')) / 1e6);
  return day.getTime() + ((h * 60 + mi) * 60 + s) * 1000 + fractionMs - offsetMs;
}

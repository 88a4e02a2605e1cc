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

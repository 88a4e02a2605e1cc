import type { CpuUse } from './cpu-meter.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** What one library run observed; the rate is `n / seconds`. */
export interface LibraryRun {
  seconds: number;
  /** CPU time spent over those seconds (bench/compare/cpu-meter.ts). */
  cpu: CpuUse;
  /** Jobs the library itself reports as completed once the run is over. */
  completed: number;
  /** Handler invocations beyond one per job id (a no-op never fails, so any extra one is a double run). */
  duplicates: number;
  /** Jobs that failed or errors the library emitted. */
  failures: number;
}

/** Same size as the HTTP batches of the aeq dispatch scenario (bench/scenarios/dispatch.ts submitAll). */
const CHUNK = 500;

/** `n` items in chunks of CHUNK, built before timing starts. */
export function chunks<T>(n: number, make: (i: number) => T): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < n; start += CHUNK)
    out.push(Array.from({ length: Math.min(CHUNK, n - start) }, (_, i) => make(start + i)));
  return out;
}

/** Sends the chunks two at a time, as submitAll keeps two HTTP batches in flight. */
export async function inTwoLanes<T>(all: readonly T[], send: (chunk: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (let c = all[next++]; c !== undefined; c = all[next++]) await send(c);
  };
  await Promise.all([lane(), lane()]);
}

/** Polls every 5 ms (as waitCompleted does for aeq, so the three share the same resolution). */
export async function waitUntil(
  done: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what()}`);
    await sleep(5);
  }
}

/** Counts handler invocations per job id. */
export class HandledJobs {
  readonly ids = new Set<string>();
  calls = 0;

  record(id: string | undefined): void {
    this.calls++;
    this.ids.add(id ?? `missing-id-${this.calls}`);
  }

  get duplicates(): number {
    return this.calls - this.ids.size;
  }
}

/**
 * The two ways a queue is fed in the comparison. `queued-first`: every job is enqueued before the
 * workers start, timed from the workers' start to the last completion (a backlog drained).
 * `while-running`: the workers run already, timed from the first enqueue to the last completion.
 */
export type Pattern = 'queued-first' | 'while-running';

export const PATTERNS: readonly Pattern[] = ['queued-first', 'while-running'];

import { randomUUID } from 'node:crypto';

let lastMs = -1;
let lastPrefix = '';

/**
 * A task id: a UUID of version 7 (RFC 9562), whose first 48 bits are the creation time in
 * milliseconds and the remaining 74 bits random. Time-ordered ids make every new task's index entry
 * land at the end of the id B-tree instead of on a random page, which halved the store's cost of an
 * insert (docs/benchmarks.md). Within one millisecond the order is random; nothing relies on it.
 *
 * Built on Node's `randomUUID` (version 4, from a cached entropy pool): its version nibble and
 * everything before it give way to the time. The `uuid` package's v7 took about 4 µs an id here
 * against well under 1 µs for this.
 */
export function newTaskId(nowMs: number): string {
  if (nowMs !== lastMs) {
    const hex = Math.max(0, Math.floor(nowMs)).toString(16).padStart(12, '0').slice(-12);
    lastPrefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7`;
    lastMs = nowMs;
  }
  return lastPrefix + randomUUID().slice(15);
}

import { randomUUID } from 'node:crypto';

/** The 12 bits after the version nibble count the ids of one millisecond (RFC 9562, method 1). */
const SEQUENCE_SPAN = 4096;
/** A millisecond's first id starts the count at random below this, leaving the rest for its later ids. */
const SEQUENCE_START_SPAN = 2048;

let lastMs = -1;
let lastPrefix = '';
let sequence = 0;

/**
 * A task id: a UUID of version 7 (RFC 9562). The first 48 bits are the creation time in
 * milliseconds, the 12 bits after the version nibble a counter of the ids made in that millisecond
 * (starting at random), the remaining 62 bits random.
 *
 * Time-ordered ids make every new task's index entry land at the end of the id B-tree instead of
 * on a random page, which halved the store's cost of an insert; the counter makes the first 64 bits
 * unique among the ids of one process, so that the embedded store can use them as the row's key
 * (`taskIdKey`) and find a polled task in one B-tree instead of two (docs/benchmarks.md). More than
 * 2,048 ids in one millisecond, or a clock that steps back, can repeat a key: the store then gives
 * the row a key of its own and still finds it by id.
 *
 * Built on Node's `randomUUID` (version 4, from a cached entropy pool): its version nibble and
 * everything before it give way to the time and the counter. The `uuid` package's v7 took about
 * 4 µs an id here against well under 1 µs for this.
 */
export function newTaskId(nowMs: number): string {
  if (nowMs !== lastMs) {
    const hex = Math.max(0, Math.floor(nowMs)).toString(16).padStart(12, '0').slice(-12);
    lastPrefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7`;
    lastMs = nowMs;
    sequence = Math.floor(Math.random() * SEQUENCE_START_SPAN);
  } else {
    sequence = (sequence + 1) % SEQUENCE_SPAN;
  }
  return lastPrefix + sequence.toString(16).padStart(3, '0') + randomUUID().slice(18);
}

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/;

/**
 * The first 64 bits of a version-7 id without its version nibble (time, then counter) as an integer
 * (a bigint past 2^53, i.e. after the year 2039); null for any other id. Increases with the id.
 */
export function taskIdKey(id: string): number | bigint | null {
  if (!V7.test(id)) return null;
  const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  const seq = Number.parseInt(id.slice(15, 18), 16);
  const key = ms * SEQUENCE_SPAN + seq;
  return Number.isSafeInteger(key) ? key : (BigInt(ms) << 12n) | BigInt(seq);
}
